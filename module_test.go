package warden_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/agentwarden/warden"
)

func newNothing() any { return &struct{}{} }

// The registry is process-wide: register the tests' modules once, so the tests also pass with -count N.
var registerTestModules = sync.OnceFunc(func() {
	for _, id := range []string{"guardrail.output.test_registered_once", "guardrail.tool_result.test_zeta",
		"guardrail.tool_result.test_alpha", "guardrail.input.test_b", "guardrail.input.test_a"} {
		warden.Register(warden.ModuleInfo{ID: id, New: newNothing})
	}
})

func TestRegisterPanicsOnWiringMistakes(t *testing.T) {
	registerTestModules()
	tests := []struct {
		desc string
		info warden.ModuleInfo
		want string
	}{
		{"an empty ID", warden.ModuleInfo{New: newNothing}, "empty module ID"},
		{"an ID without a namespace", warden.ModuleInfo{ID: "allowlist", New: newNothing}, "not namespaced"},
		{"a nil New", warden.ModuleInfo{ID: "guardrail.output.test_nil_new"}, "nil New"},
		{"an ID registered twice", warden.ModuleInfo{ID: "guardrail.output.test_registered_once", New: newNothing}, "called twice"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tt.want) {
					t.Errorf("panic = %v, want it to contain %q", r, tt.want)
				}
			}()
			warden.Register(tt.info)
		})
	}
}

func TestLookupGuardrail(t *testing.T) {
	registerTestModules()
	tests := []struct {
		desc    string
		stage   warden.Stage
		name    string
		wantID  string
		wantErr string
	}{
		{"finds a module registered for the stage", warden.StageToolResult, "test_alpha", "guardrail.tool_result.test_alpha", ""},
		{"a miss lists the stage's modules, sorted", warden.StageToolResult, "test_beta", "",
			`unknown guardrail "test_beta" (forgotten import?); registered for tool_result: test_alpha, test_zeta`},
		{"a module of another stage is not found", warden.StageStream, "test_alpha", "", "no stream guardrails are registered"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			info, err := warden.LookupGuardrail(tt.stage, tt.name)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || info.ID != tt.wantID {
				t.Errorf("got %q, %v; want %q", info.ID, err, tt.wantID)
			}
		})
	}
}

func TestModulesAreSorted(t *testing.T) {
	registerTestModules()
	mods := warden.Modules()
	for i := 1; i < len(mods); i++ {
		if mods[i-1].ID >= mods[i].ID {
			t.Fatalf("modules out of order: %q before %q", mods[i-1].ID, mods[i].ID)
		}
	}
}

func TestModuleLookupByIDAndPrefix(t *testing.T) {
	registerTestModules()
	if info, ok := warden.LookupModule("guardrail.input.test_a"); !ok || info.ID != "guardrail.input.test_a" {
		t.Errorf("LookupModule = %q, %v; want the registered module", info.ID, ok)
	}
	if _, ok := warden.LookupModule("guardrail.input.test_missing"); ok {
		t.Error("LookupModule found a module that was never registered")
	}
	got := strings.Join(warden.ModuleNames("guardrail.input.test_"), ",")
	if got != "a,b" {
		t.Errorf("ModuleNames = %q, want the names under the prefix, sorted: a,b", got)
	}
}
