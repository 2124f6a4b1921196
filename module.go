package warden

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// ModuleInfo registers a module: a guardrail (or, later, a policy, detector or provider) that config
// refers to by name. Config loading follows the same steps for every module:
//
//	New → decode config strictly into the instance → Provision(ctx) → Validate() → use → Close()
//
// and a failure at any step closes what was provisioned and names the module ID.
type ModuleInfo struct {
	// ID is namespaced by kind and, for guardrails, by stage: "guardrail.<stage>.<name>",
	// e.g. "guardrail.tool_call.allowlist". Config says `use: allowlist` under `tool_call`.
	ID string
	// New returns a new, empty instance: a pointer to the module's config struct. It must not have side
	// effects; config is decoded into what it returns. For a guardrail the instance must implement the
	// interface of its stage (ToolCallGuardrail for "guardrail.tool_call.*").
	New func() any
	// Summary is one line for `warden config modules`.
	Summary string
}

// Optional interfaces a module instance may implement. The engine's behaviour without them is given.
type (
	// Provisioner does the expensive work once, after config is decoded: compile patterns, open files,
	// build clients. Without it, the decoded struct is used as it is.
	Provisioner interface {
		Provision(ctx context.Context) error
	}
	// Validator checks the decoded, provisioned config. Without it, any config that decodes is accepted.
	Validator interface {
		Validate() error
	}
	// Closer releases what Provision acquired, when the engine is closed or loading fails.
	// Without it, nothing is released.
	Closer interface {
		Close() error
	}
)

var registry struct {
	sync.RWMutex
	modules map[string]ModuleInfo
}

// Register makes a module available to config by its ID. Like database/sql.Register it is meant to be
// called from init, and it panics on a mistake in wiring: an empty or malformed ID, a nil New, or an ID
// registered twice.
func Register(info ModuleInfo) {
	if info.ID == "" {
		panic("warden: Register with an empty module ID")
	}
	if strings.Count(info.ID, ".") < 1 || strings.HasPrefix(info.ID, ".") || strings.HasSuffix(info.ID, ".") {
		panic(fmt.Sprintf("warden: Register: module ID %q is not namespaced (want e.g. guardrail.tool_call.NAME)", info.ID))
	}
	if info.New == nil {
		panic(fmt.Sprintf("warden: Register %q with a nil New", info.ID))
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.modules[info.ID]; dup {
		panic(fmt.Sprintf("warden: Register called twice for module %q", info.ID))
	}
	if registry.modules == nil {
		registry.modules = make(map[string]ModuleInfo)
	}
	registry.modules[info.ID] = info
}

// Modules returns every registered module, sorted by ID.
func Modules() []ModuleInfo {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]ModuleInfo, 0, len(registry.modules))
	for _, m := range registry.modules {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b ModuleInfo) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// LookupModule returns the module registered under id.
func LookupModule(id string) (ModuleInfo, bool) {
	registry.RLock()
	defer registry.RUnlock()
	info, ok := registry.modules[id]
	return info, ok
}

// ModuleNames returns the names of the modules whose IDs start with prefix, the prefix cut off, sorted:
// ModuleNames("detector.") lists the trace detectors.
func ModuleNames(prefix string) []string {
	var names []string
	for _, m := range Modules() {
		if n, ok := strings.CutPrefix(m.ID, prefix); ok {
			names = append(names, n)
		}
	}
	return names
}

// GuardrailModuleID returns the ID of the guardrail module called name at a stage.
func GuardrailModuleID(stage Stage, name string) string {
	return "guardrail." + stage.String() + "." + name
}

// LookupGuardrail finds the guardrail module called name for a stage. A miss names what is registered for
// that stage, so a typo or a forgotten import is easy to see.
func LookupGuardrail(stage Stage, name string) (ModuleInfo, error) {
	id := GuardrailModuleID(stage, name)
	if info, ok := LookupModule(id); ok {
		return info, nil
	}
	names := ModuleNames("guardrail." + stage.String() + ".")
	if len(names) == 0 {
		return ModuleInfo{}, fmt.Errorf("unknown guardrail %q (forgotten import?); no %s guardrails are registered", name, stage)
	}
	return ModuleInfo{}, fmt.Errorf("unknown guardrail %q (forgotten import?); registered for %s: %s", name, stage, strings.Join(names, ", "))
}
