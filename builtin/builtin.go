// Package builtin registers every module that ships with Warden. Import it for its side effect:
//
//	import _ "github.com/agentwarden/warden/builtin"
//
// A program that wants fewer modules imports the module packages it needs instead.
package builtin

import (
	_ "github.com/agentwarden/warden/detect"              // detector.*: the trace safety detectors of warden scan
	_ "github.com/agentwarden/warden/guardrail/injection" // injection: tool_result
	_ "github.com/agentwarden/warden/guardrail/judge"     // judge: input, response, tool_call, tool_result, output
	_ "github.com/agentwarden/warden/guardrail/recovery"  // error_recovery: stream
	_ "github.com/agentwarden/warden/guardrail/redact"    // redact: stream
	_ "github.com/agentwarden/warden/guardrail/regex"     // regex: stream
	_ "github.com/agentwarden/warden/guardrail/session"   // call_budget, loop_breaker: tool_call; rate_limit: input
	_ "github.com/agentwarden/warden/guardrail/terms"     // blocked_terms: stream
	_ "github.com/agentwarden/warden/policy/allowlist"    // allowlist: tool_call
	_ "github.com/agentwarden/warden/policy/arguments"    // arguments: tool_call
	_ "github.com/agentwarden/warden/policy/cel"          // cel: tool_call
	_ "github.com/agentwarden/warden/policy/commands"     // commands: tool_call
	_ "github.com/agentwarden/warden/policy/oap"          // oap: tool_call
	_ "github.com/agentwarden/warden/policy/scope"        // scope: tool_call
	_ "github.com/agentwarden/warden/policy/webhook"      // http: tool_call
	_ "github.com/agentwarden/warden/safety"              // safety: response; safety detectors
)
