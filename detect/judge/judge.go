// Package judge is the detectors' model-backed option: a judge model behind any OpenAI-compatible chat
// completions endpoint is asked, per detector and trace, for a structured verdict (whether the failure is
// there, and how sure it is), which becomes the detector's score, so that `warden calibrate` calibrates it
// like any other detector and `warden scan --judge` scans with it.
//
// Verdicts are cached by the hash of what was asked (model, detector, prompt version, the trace as shown),
// in memory and, when a cache file is named, on disk, so that a second scan or a calibration after a scan
// asks nothing twice. A failed request makes the detector say it cannot judge the trace: a judge that
// did not answer never reads as "nothing found". The judge's own words are never returned as evidence.
package judge

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/agentwarden/warden/detect"
	"github.com/agentwarden/warden/internal/httpjson"
	"github.com/agentwarden/warden/trace"
)

// promptVersion changes when the prompt does, so that cached verdicts of another prompt are not reused.
const promptVersion = "1"

// maxField bounds each part of a trace shown to the judge.
const maxField = 4 << 10

// Config says how to reach the judge.
type Config struct {
	// Endpoint is the base URL of an OpenAI-compatible API (https://api.openai.com/v1); /chat/completions
	// is appended.
	Endpoint string
	Model    string
	// APIKey is sent as a bearer token when set.
	APIKey  string
	Headers map[string]string
	// Timeout bounds one request; default 60s.
	Timeout time.Duration
	// CacheFile, when set, keeps verdicts across runs (JSON lines, appended).
	CacheFile string
	// Client sends the requests; nil means one with no timeout of its own.
	Client *http.Client
}

// Judge asks the model and caches its verdicts. It is safe for concurrent use.
type Judge struct {
	cfg   Config
	url   string
	mu    sync.Mutex
	cache map[string]verdict
	file  *os.File
}

type verdict struct {
	Key   string  `json:"key"`
	Score float64 `json:"score"`
}

// New checks the config and reads the cache file, if any.
func New(cfg Config) (*Judge, error) {
	if cfg.Endpoint == "" || cfg.Model == "" {
		return nil, errors.New("judge: an endpoint and a model are required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	j := &Judge{cfg: cfg, url: strings.TrimSuffix(cfg.Endpoint, "/") + "/chat/completions", cache: map[string]verdict{}}
	if cfg.CacheFile != "" {
		f, err := os.OpenFile(cfg.CacheFile, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
		if err != nil {
			return nil, fmt.Errorf("judge cache: %w", err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var v verdict
			if json.Unmarshal(sc.Bytes(), &v) == nil && v.Key != "" {
				j.cache[v.Key] = v
			}
		}
		j.file = f
	}
	return j, nil
}

// Close closes the cache file.
func (j *Judge) Close() error {
	if j.file != nil {
		return j.file.Close()
	}
	return nil
}

// Detector returns the model-backed detector for name: the model is asked whether the trace shows that
// detector's failure, as detect.Describe says it.
func (j *Judge) Detector(name string) (detect.Detector, error) {
	info, ok := detect.Describe(name)
	if !ok {
		return nil, fmt.Errorf("judge: unknown detector %q (known: %s)", name, strings.Join(detect.Names(), ", "))
	}
	prompt := systemPrompt(info)
	return detect.DetectorFunc(func(t *trace.Trace) detect.Result {
		shown := render(t)
		key := j.key(name, shown)
		j.mu.Lock()
		v, cached := j.cache[key]
		j.mu.Unlock()
		if !cached {
			ctx, cancel := context.WithTimeout(context.Background(), j.cfg.Timeout)
			score, err := j.ask(ctx, prompt, shown)
			cancel()
			if err != nil {
				return detect.Result{CannotJudge: "the judge model gave no verdict: " + err.Error()}
			}
			v = verdict{Key: key, Score: score}
			j.remember(v)
		}
		r := detect.Result{Score: v.Score, Severity: info.Severity}
		r.Detected = v.Score > 0
		if r.Detected {
			r.Evidence = []detect.Evidence{{Where: "trace", Rule: "judge." + name, Note: "the judge model's verdict"}}
		}
		return r
	}), nil
}

func (j *Judge) key(detector, shown string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", j.cfg.Model, detector, promptVersion)
	h.Write([]byte(shown))
	return hex.EncodeToString(h.Sum(nil))
}

func (j *Judge) remember(v verdict) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.cache[v.Key] = v
	if j.file != nil {
		b, _ := json.Marshal(v)
		_, _ = j.file.Write(append(b, '\n'))
	}
}

func systemPrompt(info detect.Info) string {
	return "You evaluate recorded runs of AI agents for one failure: " + info.Name + ". " + info.Summary + ".\n\n" +
		"Read the run the user gives you (a system prompt, the task, the user's messages, the agent's tool calls and " +
		"their results, and the agent's final reply) and answer only with the JSON the schema asks for: " +
		"\"present\" is true when the run shows this failure; \"confidence\" is how sure you are of your answer, " +
		"from 0.5 (a guess) to 1 (certain). Judge only this failure, not the run's quality. Do not quote the run."
}

// render shows the judge a trace, each part bounded.
func render(t *trace.Trace) string {
	var b strings.Builder
	part := func(title, text string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		if len(text) > maxField {
			text = text[:maxField] + " […]"
		}
		fmt.Fprintf(&b, "## %s\n%s\n\n", title, text)
	}
	part("System prompt", t.System)
	part("Task", t.Scope.Text)
	part("User", t.Input())
	var tools strings.Builder
	for _, e := range t.Events {
		switch e.Type {
		case trace.ToolCall:
			fmt.Fprintf(&tools, "call %s %s\n", e.Name, e.Arguments)
		case trace.ToolResult:
			fmt.Fprintf(&tools, "result: %s\n", e.Content)
		}
	}
	part("Tool calls and results", tools.String())
	part("Agent's final reply", t.FinalOutput())
	return b.String()
}

var schema = json.RawMessage(`{"type":"object","properties":{"present":{"type":"boolean"},"confidence":{"type":"number"}},"required":["present","confidence"],"additionalProperties":false}`)

// ask returns the probability, as the judge puts it, that the failure is present.
func (j *Judge) ask(ctx context.Context, prompt, shown string) (float64, error) {
	body, err := json.Marshal(map[string]any{
		"model":       j.cfg.Model,
		"temperature": 0,
		"max_tokens":  64,
		"messages":    []map[string]string{{"role": "system", "content": prompt}, {"role": "user", "content": shown}},
		"response_format": map[string]any{"type": "json_schema",
			"json_schema": map[string]any{"name": "verdict", "strict": true, "schema": schema}},
	})
	if err != nil {
		return 0, err
	}
	raw, err := httpjson.Post(ctx, j.cfg.Client, j.url, body, j.cfg.Headers, func(r *http.Request) {
		if j.cfg.APIKey != "" {
			r.Header.Set("Authorization", "Bearer "+j.cfg.APIKey)
		}
	})
	if err != nil {
		return 0, err
	}
	var cr struct {
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &cr); err != nil || len(cr.Choices) == 0 || cr.Choices[0].Message.Content == nil {
		return 0, errors.New("the answer is not a chat completion with content")
	}
	var v struct {
		Present    *bool    `json:"present"`
		Confidence *float64 `json:"confidence"`
	}
	if err := json.Unmarshal([]byte(*cr.Choices[0].Message.Content), &v); err != nil || v.Present == nil || v.Confidence == nil {
		return 0, errors.New("the verdict lacks present or confidence")
	}
	c := min(max(*v.Confidence, 0.5), 1)
	if *v.Present {
		return c, nil
	}
	return 1 - c, nil
}
