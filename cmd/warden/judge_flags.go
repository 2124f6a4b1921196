package main

import (
	"fmt"
	"os"
	"time"

	"github.com/agentwarden/warden/detect/judge"
	"github.com/spf13/pflag"
)

// judgeFlags are the flags of the model-backed detectors, shared by scan and calibrate.
type judgeFlags struct {
	endpoint, model, keyEnv, cache string
	timeout                        time.Duration
}

func (f *judgeFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.endpoint, "judge", "", "judge each trace with a model instead of the rules: the `URL` of an OpenAI-compatible API (https://api.openai.com/v1)")
	fs.StringVar(&f.model, "judge-model", "", "the judge model (required with --judge)")
	fs.StringVar(&f.keyEnv, "judge-key-env", "OPENAI_API_KEY", "environment `variable` holding the judge's API key (unset: no key is sent)")
	fs.StringVar(&f.cache, "judge-cache", "", "`file` keeping the judge's verdicts across runs (JSON lines), so no trace is asked about twice")
	fs.DurationVar(&f.timeout, "judge-timeout", 60*time.Second, "bound of one judge request")
}

// build returns the judge, or nil when --judge is not set.
func (f *judgeFlags) build() (*judge.Judge, error) {
	if f.endpoint == "" {
		if f.model != "" || f.cache != "" {
			return nil, usageError{fmt.Errorf("--judge-model and --judge-cache need --judge URL")}
		}
		return nil, nil
	}
	if f.model == "" {
		return nil, usageError{fmt.Errorf("--judge needs --judge-model")}
	}
	return judge.New(judge.Config{Endpoint: f.endpoint, Model: f.model, APIKey: os.Getenv(f.keyEnv), Timeout: f.timeout, CacheFile: f.cache})
}
