package gateway

import (
	"net/http"
	"strings"

	"github.com/agentwarden/warden/pipeline"
)

// route is where a request goes and whether Warden guards it.
type route struct {
	up *Upstream
	// path is the upstream path: the request's, without the upstream's prefix.
	path string
	// format is the wire format of a guarded endpoint; nil passes the request through unguarded.
	format *pipeline.Format
	// streamPath is true for an endpoint whose path asks for a stream (Gemini's streamGenerateContent).
	streamPath bool
}

// guardedFormat names the format of the endpoint at an upstream path, or "" for any other path. Matching
// is on the path's end so that a prefixed OpenAI-compatible upstream (/deepseek/chat/completions,
// /kimi/v1/chat/completions) is guarded like OpenAI itself.
func guardedFormat(method, path string) (name string, streamPath bool) {
	if method != http.MethodPost {
		return "", false
	}
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return "openai-chat", false
	case strings.HasSuffix(path, "/responses"):
		return "openai-responses", false
	case strings.HasSuffix(path, "/messages") && !strings.Contains(path, "/threads/"):
		return "anthropic", false
	case strings.Contains(path, "/models/") && strings.HasSuffix(path, ":generateContent"):
		return "gemini", false
	case strings.Contains(path, "/models/") && strings.HasSuffix(path, ":streamGenerateContent"):
		return "gemini", true
	}
	return "", false
}

// route finds the upstream and the format of a request. A path under a prefix goes to that upstream;
// otherwise the built-in upstreams are chosen by path: Gemini's /v1beta/ and any :generateContent path,
// /v1/messages to Anthropic, /v1/chat/completions and /v1/responses to OpenAI; of the paths Warden does
// not guard, Anthropic-flagged /v1/ paths (an anthropic-version header) go to Anthropic, other /v1/ paths
// to OpenAI.
func (g *Gateway) route(r *http.Request) (route, bool) {
	path := r.URL.Path
	for _, up := range g.prefixed {
		if path == up.Prefix || strings.HasPrefix(path, up.Prefix+"/") {
			rt := route{up: up, path: strings.TrimPrefix(path, up.Prefix)}
			return g.withFormat(rt, r.Method), true
		}
	}
	name, _ := guardedFormat(r.Method, path)
	var provider string
	switch {
	case name == "gemini" || strings.HasPrefix(path, "/v1beta/"):
		provider = ProviderGemini
	case name == "anthropic":
		provider = ProviderAnthropic
	case name != "" && strings.HasPrefix(path, "/v1/"):
		// A guarded OpenAI path goes to OpenAI whatever the headers say: a header must not move a request
		// Warden guards in one format to an upstream that reads it in another.
		provider = ProviderOpenAI
	case strings.HasPrefix(path, "/v1/") && r.Header.Get("anthropic-version") != "":
		provider = ProviderAnthropic
	case strings.HasPrefix(path, "/v1/"):
		provider = ProviderOpenAI
	default:
		return route{}, false
	}
	return g.withFormat(route{up: g.builtin[provider], path: path}, r.Method), true
}

func (g *Gateway) withFormat(rt route, method string) route {
	name, streamPath := guardedFormat(method, rt.path)
	if name == "" {
		return rt
	}
	f, err := pipeline.Lookup(name)
	if err != nil {
		panic(err) // the built-in formats are always registered
	}
	rt.format, rt.streamPath = f, streamPath
	return rt
}
