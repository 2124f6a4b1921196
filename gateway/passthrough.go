package gateway

import (
	"net/http"
	"net/http/httputil"

	"github.com/agentwarden/warden/wire/openai"
)

// passthroughProxy forwards the paths Warden does not guard (model lists, files, batches, token counts)
// to an upstream as they are, streaming both ways; only the credential is injected when the upstream
// holds one. Each such request is logged, without its query, which may carry a key.
func (g *Gateway) passthroughProxy(up *Upstream) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			rt := route{up: up, path: pr.In.URL.Path}
			if up.Prefix != "" {
				rt.path = pr.In.URL.Path[len(up.Prefix):]
			}
			u, err := pr.In.URL.Parse(rt.upstreamURL(pr.In.URL))
			if err == nil {
				pr.Out.URL = u
			}
			pr.Out.Host = ""
			injectKey(pr.Out.Header, up)
		},
		Transport: g.transport,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if r.Context().Err() != nil {
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadGateway)
			// The path belongs to no guarded format: OpenAI's error shape, the commonest client's.
			w.Write(openai.ErrorBody("Warden could not reach the provider ("+up.Name+"): "+redactURLError(err), "server_error", CodeUpstream))
		},
	}
}

func (g *Gateway) passthrough(w http.ResponseWriter, r *http.Request, rt route) {
	g.log.Info("unguarded passthrough", "upstream", rt.up.Name, "method", r.Method, "path", r.URL.Path)
	g.proxies[rt.up].ServeHTTP(w, r)
}
