// Package warden is the core of the Warden guardrails engine: the turn model every surface reduces its traffic
// to, the one Decision type every guardrail returns, the per-stage guardrail interfaces, the module registry,
// and the Engine that runs guardrails with fail-closed semantics and records every evaluation.
//
// The package never sees a wire format and imports the standard library only; codecs, policy providers,
// config loading and audit sinks live in packages above it and depend on it, never the reverse.
//
// # Stages
//
// A turn passes these stages; each has a one-method interface and a Func adapter:
//
//	stage        interface              accepted actions                  default order and concurrency
//	input        InputGuardrail         allow, modify, halt               blocking: in order, chained; parallel: concurrent, gate side effects
//	response     ResponseGuardrail      allow, modify, retry, halt        in order, chained
//	tool_call    ToolCallGuardrail      allow, modify, reject, halt       in order, chained; first reject or halt ends the stage
//	tool_result  ToolResultGuardrail    allow, modify, reject, halt       in order, chained; first reject or halt ends the stage
//	output       OutputGuardrail        allow, modify, halt               in order, chained
//	stream       StreamGuardrail        allow, modify, retry, halt        in order, chained; run by the stream runner
//
// An action outside a stage's set, an unset action, an error, a panic and a timeout all count as errored, and
// an errored guardrail denies unless it is configured fail-open. Deny means reject at tool_call and tool_result
// (the model sees a message and adapts) and halt elsewhere (a *TripwireError ends the run).
//
// # Nothing silent
//
// Every stage returns one Evaluation per configured guardrail, in definition order: evaluated, skipped (with
// why) or errored, with the decision and the duration. A guardrail that was configured but did not run is
// visible in the results and in audit.
//
// # Stability
//
// The API is pre-1.0 and may change between minor versions; the audit event format is versioned separately.
package warden
