package config

import (
	"fmt"
	"net/url"
	"strings"

	"go.yaml.in/yaml/v3"
)

// builtinUpstreams are the gateway's upstreams chosen by path, not prefix.
var builtinUpstreams = map[string]bool{"openai": true, "anthropic": true, "gemini": true}

// checkGateway checks the gateway section: every upstream named once, with a usable URL, prefix and
// provider. Whether an api_key_env variable is set is checked when the gateway starts, not here.
func checkGateway(gw *Gateway, node *yaml.Node, errs *errorList) {
	line, col := keyPos(node, "listen")
	if gw.Listen != "" && !strings.Contains(gw.Listen, ":") {
		errs.add(line, col, "gateway.listen", "", "%q is not host:port (e.g. 127.0.0.1:8787 or :8787)", gw.Listen)
	}
	for _, k := range []struct {
		key string
		v   int64
	}{{"max_body_bytes", gw.MaxBodyBytes}, {"max_response_bytes", gw.MaxResponseBytes}} {
		if k.v < 0 {
			line, col := keyPos(node, k.key)
			errs.add(line, col, "gateway."+k.key, "", "must be positive")
		}
	}
	switch gw.OnDeny {
	case "", "retry", "explain", "error":
	default:
		line, col := keyPos(node, "on_deny")
		errs.add(line, col, "gateway.on_deny", "", "unknown value %q (want retry, explain or error)", gw.OnDeny)
	}
	if gw.DenyRetries < 0 {
		line, col := keyPos(node, "deny_retries")
		errs.add(line, col, "gateway.deny_retries", "", "must be positive")
	}
	if gw.StreamRetries != nil && *gw.StreamRetries < 0 {
		line, col := keyPos(node, "stream_retries")
		errs.add(line, col, "gateway.stream_retries", "", "must be 0 or more")
	}
	items := valueOf(node, "upstreams")
	names := map[string]int{}
	prefixes := map[string]int{}
	for i := range gw.Upstreams {
		u := &gw.Upstreams[i]
		line, col := 0, 0
		if items != nil && i < len(items.Content) {
			line, col = items.Content[i].Line, items.Content[i].Column
		}
		where := fmt.Sprintf("gateway.upstreams[%d]", i)
		if u.Name == "" {
			errs.add(line, col, where+".name", "", "missing: name the upstream")
			continue
		}
		if prev, dup := names[u.Name]; dup {
			errs.add(line, col, where+".name", "", "%q is already the name of gateway.upstreams[%d]", u.Name, prev)
		}
		names[u.Name] = i
		if builtinUpstreams[u.Name] {
			if u.Prefix != "" {
				errs.add(line, col, where+".prefix", "", "the built-in upstream %q is chosen by path and takes no prefix; give a prefixed upstream another name", u.Name)
			}
			if u.Provider != "" && u.Provider != u.Name {
				errs.add(line, col, where+".provider", "", "the built-in upstream %q is a %s upstream", u.Name, u.Name)
			}
		} else {
			if u.URL == "" {
				errs.add(line, col, where+".url", "", "missing: the upstream's base URL, e.g. https://api.deepseek.com")
			}
			p := u.Prefix
			if p == "" {
				p = "/" + u.Name
			}
			if !strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
				errs.add(line, col, where+".prefix", "", "%q must start with / and not end with one", p)
			}
			switch p {
			case "/v1", "/v1beta", "/healthz", "/readyz", "/metrics":
				errs.add(line, col, where+".prefix", "", "%q is taken by the built-in routes", p)
			}
			if prev, dup := prefixes[p]; dup {
				errs.add(line, col, where+".prefix", "", "%q is already the prefix of gateway.upstreams[%d]", p, prev)
			}
			prefixes[p] = i
		}
		if u.URL != "" {
			if pu, err := url.Parse(u.URL); err != nil || pu.Host == "" || (pu.Scheme != "http" && pu.Scheme != "https") {
				errs.add(line, col, where+".url", "", "%q is not an http:// or https:// URL with a host", u.URL)
			}
		}
		switch u.Provider {
		case "", "openai", "anthropic", "gemini":
		default:
			errs.add(line, col, where+".provider", "", "unknown provider %q (want openai, anthropic or gemini)", u.Provider)
		}
		if strings.ContainsAny(u.APIKeyEnv, " =$") {
			errs.add(line, col, where+".api_key_env", "", "%q is not an environment variable name (write the name, not ${…})", u.APIKeyEnv)
		}
		if u.Timeout < 0 {
			errs.add(line, col, where+".timeout", "", "must be positive")
		}
	}
}
