// Package mcpproxy guards the Model Context Protocol between a client (an agent, an IDE) and an MCP
// server: every JSON-RPC message passes through one place that decides on it, and the same warden.Engine
// as the gateway's evaluates the stages.
//
//   - tools/call: the tool-call stage judges the call, as mcp__<server>__<tool> with its arguments; a
//     denied call never reaches the server, and the client gets a tool result with isError and the deny
//     text, so that the model adapts. Its answer goes through the tool-result stage before the client
//     sees it: a result a guardrail rejects is replaced by the guardrail's message.
//   - resources/read and prompts/get: their answers' text goes through the tool-result stage too.
//   - Every other method is let through only when it is one of MCP's own (methods.go); a request of any
//     other method is refused with method-not-found, a notification dropped, in both directions.
//   - A message two JSON readers could read differently (a name twice, names differing in case, members
//     JSON-RPC does not define) and batches are refused; an answer the server sends to no open request
//     is dropped; when the server sends something that is not JSON-RPC, or ends, every open request is
//     answered with an error. Nothing the server says reaches the client unchecked.
//
// It works on JSON-RPC messages, not on an SDK's typed API, so that methods it does not know are seen
// and decided on too; the official SDKs are its test peers. It never starts a process: which server runs
// is the caller's configuration (`warden mcp -- <command>`). It never logs content: methods, ids and
// reasons only. Its API may change while the MCP proxy is being built.
package mcpproxy
