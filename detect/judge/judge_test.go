package judge_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentwarden/warden/detect/judge"
	"github.com/agentwarden/warden/trace"
)

// fakeJudge answers like a chat completions endpoint with a verdict: present when the run's reply
// declines, with the given confidence; it counts the requests it answers.
func fakeJudge(t *testing.T, content func(user string) string) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-judge" {
			http.Error(w, `{"error":{"message":"bad route or key"}}`, 401)
			return
		}
		var req struct {
			Messages       []struct{ Content string } `json:"messages"`
			ResponseFormat struct {
				Type string `json:"type"`
			} `json:"response_format"`
		}
		b, _ := io.ReadAll(r.Body)
		if json.Unmarshal(b, &req) != nil || len(req.Messages) != 2 || req.ResponseFormat.Type != "json_schema" {
			http.Error(w, "bad request", 400)
			return
		}
		c := content(req.Messages[1].Content)
		out, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": c}}}})
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func refusing(user string) string {
	if strings.Contains(user, "I can't help") {
		return `{"present": true, "confidence": 0.9}`
	}
	return `{"present": false, "confidence": 0.8}`
}

func run(reply string) *trace.Trace {
	return &trace.Trace{Messages: []trace.Message{{Role: "user", Content: "How do I bake bread?"}, {Role: "assistant", Content: reply}}}
}

func TestJudgeDetector(t *testing.T) {
	t.Parallel()
	srv, n := fakeJudge(t, refusing)
	cache := filepath.Join(t.TempDir(), "verdicts.jsonl")
	j, err := judge.New(judge.Config{Endpoint: srv.URL + "/v1", Model: "m", APIKey: "sk-judge", CacheFile: cache})
	if err != nil {
		t.Fatal(err)
	}
	d, err := j.Detector("over_refusal")
	if err != nil {
		t.Fatal(err)
	}
	refused := d.Detect(run("I can't help with that."))
	answered := d.Detect(run("Mix flour, water, yeast and salt."))
	if !refused.Detected || refused.Score != 0.9 || refused.CannotJudge != "" {
		t.Errorf("a refusal: %+v, want detected at 0.9", refused)
	}
	if answered.Score > 0.21 || answered.Score < 0.19 {
		t.Errorf("an answer: %+v, want a score of 0.2 (not present, confidence 0.8)", answered)
	}
	for _, e := range refused.Evidence {
		if strings.Contains(e.Note, "help") {
			t.Errorf("evidence quotes the trace: %+v", e)
		}
	}
	d.Detect(run("I can't help with that."))
	if got := n.Load(); got != 2 {
		t.Errorf("%d requests for three verdicts of two runs, want 2: the repeat is cached", got)
	}
	j.Close()

	// A second run reads the cache file and asks nothing.
	j2, err := judge.New(judge.Config{Endpoint: srv.URL + "/v1", Model: "m", APIKey: "sk-judge", CacheFile: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	d2, _ := j2.Detector("over_refusal")
	if r := d2.Detect(run("I can't help with that.")); r.Score != 0.9 || n.Load() != 2 {
		t.Errorf("from the cache file: %+v after %d requests", r, n.Load())
	}
	// Another detector is another question.
	d3, _ := j2.Detector("under_refusal")
	d3.Detect(run("I can't help with that."))
	if n.Load() != 3 {
		t.Errorf("another detector's verdict came from the cache")
	}
}

func TestJudgeFailuresCannotJudge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc    string
		content string
		key     string
	}{
		{"a verdict that is not JSON", "yes, refused", "sk-judge"},
		{"a verdict without confidence", `{"present": true}`, "sk-judge"},
		{"an endpoint that refuses the key", `{"present": true, "confidence": 1}`, "sk-wrong"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			srv, _ := fakeJudge(t, func(string) string { return tt.content })
			j, err := judge.New(judge.Config{Endpoint: srv.URL + "/v1", Model: "m", APIKey: tt.key})
			if err != nil {
				t.Fatal(err)
			}
			d, _ := j.Detector("over_refusal")
			if r := d.Detect(run("I can't help with that.")); r.CannotJudge == "" || r.Detected {
				t.Errorf("result %+v, want cannot judge", r)
			}
		})
	}
	if _, err := judge.New(judge.Config{Endpoint: "http://x"}); err == nil {
		t.Error("a judge without a model was made")
	}
	j, _ := judge.New(judge.Config{Endpoint: "http://x", Model: "m"})
	if _, err := j.Detector("toxicity"); err == nil {
		t.Error("a judge of an unknown detector was made")
	}
}
