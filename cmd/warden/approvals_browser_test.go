package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/gateway"
	"github.com/agentwarden/warden/pipeline"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

const browserPassword = "bob-browser-password-0123"

// deployAnswer is the model's answer: one call that deploys to production.
const deployAnswer = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"finish_reason":"tool_calls",
"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"deploy --env prod\"}"}}]}}],
"usage":{"prompt_tokens":5,"completion_tokens":5,"total_tokens":10}}`

// chromium finds Debian's Chromium; .ci/run installs it. Under CI=true a missing browser fails the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed; .ci/run installs it with apt")
	}
	t.Skip("chromium is not installed (apt-get install chromium); .ci/run installs it")
	return ""
}

// TestApprovalInABrowser is the whole flow as people meet it: an agent's call waits in the gateway while a
// person logs in to the approvals page in a real browser, opens the request, reads its arguments and
// approves it; the waiting answer then reaches the agent with the call.
func TestApprovalInABrowser(t *testing.T) {
	t.Parallel()
	bin := chromium(t)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, deployAnswer)
	}))
	defer upstream.Close()

	cfg := filepath.Join(t.TempDir(), "warden.yaml")
	doc := `version: 1
guardrails:
  tool_call:
    - use: commands
      config:
        rules: [{id: deploys, programs: [deploy], action: ask, code: acme.deploy, message: deploys to production}]
approvals:
  store: sqlite
  data_dir: ` + filepath.Join(t.TempDir(), "state") + `
  on_ask: wait
  wait_timeout: 2m
  admin:
    listen: 127.0.0.1:0
    users: {bob: ` + browserPassword + `}
audit: {sink: none}
`
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := config.Load(context.Background(), cfg, config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	adminAddr, err := startAdmin(ctx, l, "", logger)
	if err != nil {
		t.Fatal(err)
	}
	up, _ := url.Parse(upstream.URL)
	g, err := gateway.New(gateway.Config{Pipeline: pipeline.New(l, logger), Upstreams: []gateway.Upstream{{Name: "openai", URL: up}}, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g)
	defer srv.Close()

	// The agent asks; its answer waits for a person.
	type result struct {
		c   *sdk.ChatCompletion
		err error
	}
	answered := make(chan result, 1)
	go func() {
		client := sdk.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("sk-agent"), option.WithMaxRetries(0))
		c, err := client.Chat.Completions.New(ctx, sdk.ChatCompletionNewParams{Model: "gpt-4o", Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("ship it")}})
		answered <- result{c, err}
	}()

	// The person, in a browser.
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-quic", true))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	logIn(t, bctx, "bob", browserPassword)

	base := "http://" + adminAddr.String()
	var args, status string
	err = chromedp.Do(bctx,
		chromedp.Navigate(base+"/approvals"),
		chromedp.WaitVisible(`#pending tr[data-id] a`), // the request shows up once the gateway filed it
		chromedp.Click(`#pending tr[data-id] a`),
		chromedp.WaitVisible(`#approve`),
	)
	if err != nil {
		t.Fatalf("the page: %v", err)
	}
	if args, err = chromedp.Run(bctx, chromedp.Text(`#arguments`)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(args, "deploy --env prod") {
		t.Errorf("the page shows arguments %q, want the call's", args)
	}
	err = chromedp.Do(bctx,
		chromedp.SendKeys(`#approve-note`, "release day"),
		chromedp.Click(`#approve`),
		chromedp.WaitNotPresent(`#approve`), // the page after the decision offers none
		chromedp.WaitVisible(`#status`),
	)
	if err != nil {
		t.Fatalf("approving: %v", err)
	}
	// By the time the page is back, the released call may already have consumed the approval.
	if status, err = chromedp.Run(bctx, chromedp.Text(`#status`)); err != nil || status != "approved" && status != "used" {
		t.Errorf("after approving the page says %q (%v), want approved or used", status, err)
	}

	select {
	case r := <-answered:
		if r.err != nil {
			t.Fatalf("the agent's request: %v", r.err)
		}
		calls := r.c.Choices[0].Message.ToolCalls
		if len(calls) != 1 || !strings.Contains(calls[0].Function.Arguments, "deploy --env prod") {
			t.Errorf("the agent got %+v, want the approved call", r.c.Choices[0].Message)
		}
	case <-ctx.Done():
		t.Fatal("the waiting request never completed")
	}
	recs, err := l.Approvals.List(context.Background(), approvalsAll())
	if err != nil || len(recs) != 1 || recs[0].Approver != "bob" || recs[0].Note != "release day" {
		t.Errorf("the store holds %+v (%v), want bob's approval with his note", recs, err)
	}
}

// logIn answers the page's basic-auth challenge as a person at the browser's login prompt would.
func logIn(t *testing.T, ctx context.Context, user, pass string) {
	t.Helper()
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	challenged := chromedp.Events(ctx, fetch.AuthRequired)
	yes := true
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{HandleAuthRequests: &yes}); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			if _, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID}); err != nil && !errors.Is(err, context.Canceled) {
				return
			}
		}
	}()
	go func() {
		for ev, err := range challenged {
			if err != nil {
				return
			}
			resp := &fetch.AuthChallengeResponse{Response: fetch.AuthChallengeResponseResponseProvideCredentials, Username: user, Password: pass}
			if _, err := chromedp.Call(ctx, fetch.ContinueWithAuth, fetch.ContinueWithAuthParams{RequestID: ev.RequestID, AuthChallengeResponse: resp}); err != nil {
				return
			}
		}
	}()
}

func approvalsAll() approvals.Query { return approvals.Query{} }
