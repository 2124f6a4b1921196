package mcpproxy

// handling is what the proxy does with a client request of a method, and with its answer.
type handling uint8

const (
	// forward passes the request and its answer as they are: the method carries no tool's effect and no
	// content a model reads (initialize, ping, listings, subscriptions).
	forward handling = iota + 1
	// checkToolCall runs the tool-call stage on the request and the tool-result stage on its answer.
	checkToolCall
	// checkRead runs the tool-call stage on the request, as tool mcp__<server>__<method> with the params
	// as arguments (a file: URI also as a path), and the tool-result stage on its answer's content: a
	// resource's text or a prompt's messages reach the model as a tool's output does.
	checkRead
	// checkRequest runs the tool-call stage on the request as checkRead does, and lets the answer through.
	checkRequest
	// checkListing leaves out of a tools/list answer the tools a policy denies by name and those whose
	// description the tool-result stage withholds.
	checkListing
	// checkCustom runs the tool-call stage on a request of a method Config.Methods names "check", and the
	// tool-result stage on its answer's JSON: a method the proxy does not know the shape of.
	checkCustom
)

// The methods of MCP revisions 2024-11-05 to 2026-07-28 the proxy lets through, by direction. Anything
// else is refused: a request with method-not-found, a notification dropped. A method that can carry a
// tool's result by another route (tasks/result of a task-augmented call) stays out until its stage exists.
var (
	clientRequests = map[string]handling{
		"initialize":               forward,
		"ping":                     forward,
		"server/discover":          forward,
		"subscriptions/listen":     forward,
		"tools/list":               checkListing,
		"tools/call":               checkToolCall,
		"resources/list":           forward,
		"resources/templates/list": forward,
		"resources/read":           checkRead,
		"resources/subscribe":      forward,
		"resources/unsubscribe":    forward,
		"prompts/list":             forward,
		"prompts/get":              checkRead,
		"completion/complete":      checkRequest,
		"logging/setLevel":         forward,
	}
	clientNotifications = set(
		"notifications/initialized",
		"notifications/cancelled",
		"notifications/progress",
		"notifications/roots/list_changed",
	)
	serverRequests = set(
		"ping",
		"roots/list",
		"sampling/createMessage",
		"elicitation/create",
	)
	serverNotifications = set(
		"notifications/cancelled",
		"notifications/progress",
		"notifications/message",
		"notifications/resources/updated",
		"notifications/resources/list_changed",
		"notifications/tools/list_changed",
		"notifications/prompts/list_changed",
		"notifications/elicitation/complete",
		"notifications/subscriptions/acknowledged", // 2026-07-28: a subscriptions/listen stream's first message
	)
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
