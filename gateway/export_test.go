package gateway

import "net/http"

// RouteOf returns the upstream and the format (or "" unguarded) a request is routed to.
func RouteOf(g *Gateway, r *http.Request) (upstream, format string, ok bool) {
	rt, ok := g.route(r)
	if !ok {
		return "", "", false
	}
	if rt.format != nil {
		format = rt.format.Name
	}
	return rt.up.Name, format, true
}
