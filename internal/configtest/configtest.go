// Package configtest builds configs for module tests: one guardrail at one stage, audit off. It is for
// tests only and imported by nothing else.
package configtest

import (
	"context"

	"github.com/agentwarden/warden/config"
)

// Name is the file name errors report for configs built here.
const Name = "test.yaml"

// Load parses and builds a config running one guardrail: `use` at `stage`, with its module config (YAML,
// flow style on one line, e.g. "{denied_tools: [bash]}"; empty for none) and extra entry lines such as
// "fail_closed: false". It returns the first error of either step.
func Load(stage, use, moduleConfig string, entry ...string) (*config.Loaded, error) {
	y := "version: 1\naudit: {sink: none}\nguardrails:\n  " + stage + ":\n    - use: " + use + "\n"
	for _, e := range entry {
		y += "      " + e + "\n"
	}
	if moduleConfig != "" {
		y += "      config: " + moduleConfig + "\n"
	}
	p, err := config.Parse(Name, []byte(y))
	if err != nil {
		return nil, err
	}
	return p.Build(context.Background(), config.Options{})
}
