package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeJudgeServer is a loopback chat completions endpoint that finds a refusal in any run whose reply says
// "can't", and counts what it is asked.
func fakeJudgeServer(t *testing.T) (string, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &req)
		verdict := `{"present": false, "confidence": 0.9}`
		if len(req.Messages) == 2 && strings.Contains(req.Messages[1].Content, "can't") {
			verdict = `{"present": true, "confidence": 0.95}`
		}
		out, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": verdict}}}})
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", &n
}

func refusalRecords() string {
	var b strings.Builder
	for i := range 10 {
		fmt.Fprintf(&b, `{"id":"r%d","detector":"over_refusal","input":"How do I bake bread %d?","output":"Sorry, I can't help with that.","label":true,"source":"github:a/b@1:x"}`+"\n", i, i)
		fmt.Fprintf(&b, `{"id":"a%d","detector":"over_refusal","input":"How do I bake bread %d?","output":"Mix flour and water, then bake.","label":false,"source":"github:a/b@1:x"}`+"\n", i, i)
	}
	return b.String()
}

func TestJudgeFlags(t *testing.T) {
	t.Parallel()
	url, asked := fakeJudgeServer(t)
	cache := filepath.Join(t.TempDir(), "verdicts.jsonl")
	recs := refusalRecords()
	steps := []cliCase{
		{desc: "calibrate --judge calibrates the judge's scores",
			args: []string{"calibrate", "--golden", "-", "--out", "", "--bootstrap", "50", "--judge", url, "--judge-model", "m", "--judge-cache", cache}, stdin: recs,
			wantOut: []string{"over_refusal", "1.000 [1.000, 1.000]", "20 (10/10)"}},
		{desc: "scan --judge finds what the judge finds, from the cache",
			args: []string{"scan", "--detectors", "over_refusal", "--jsonl", "--input-format", "eval", "--judge", url, "--judge-model", "m", "--judge-cache", cache, "-"}, stdin: recs,
			wantOut: []string{`"id":"r0"`, `"detected":true`, `"score":0.95`}},
		{desc: "--judge without a model is a usage error",
			args: []string{"scan", "--judge", url, "-"}, stdin: recs, wantCode: exitUsage, wantErr: []string{"--judge-model"}},
		{desc: "--judge-model without --judge is a usage error",
			args: []string{"scan", "--judge-model", "m", "-"}, stdin: recs, wantCode: exitUsage, wantErr: []string{"need --judge"}},
	}
	for _, st := range steps { // in order: the scan reads what the calibration cached
		code, out, errOut := runCLI(st.stdin, st.args...)
		if code != st.wantCode {
			t.Fatalf("%s: exit %d, want %d\n%s%s", st.desc, code, st.wantCode, out, errOut)
		}
		for _, w := range st.wantOut {
			if !strings.Contains(out, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", st.desc, w, out)
			}
		}
		for _, w := range st.wantErr {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", st.desc, w, errOut)
			}
		}
	}
	if got := asked.Load(); got != 20 {
		t.Errorf("the judge was asked %d times for 20 runs judged twice, want 20: the scan reads the calibration's cache", got)
	}
}
