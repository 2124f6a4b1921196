package config

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// checkMCP checks the MCP servers: names a tool name can carry, and a command or a URL each.
func checkMCP(m *MCP, node *yaml.Node, errs *errorList) {
	servers := valueOf(node, "servers")
	if len(m.Servers) == 0 && len(m.Methods) == 0 {
		line, col := keyPos(node, "servers")
		errs.add(line, col, "mcp.servers", "", "name one server at least")
	}
	if len(m.Servers) > 0 && len(m.Methods) > 0 {
		line, col := keyPos(node, "methods")
		errs.add(line, col, "mcp.methods", "", "servers behind one client refuse methods MCP does not define; methods is for one server (warden mcp -- COMMAND, --url or --upstream)")
	}
	for _, method := range slices.Sorted(maps.Keys(m.Methods)) {
		if rule := m.Methods[method]; rule != "allow" && rule != "check" {
			line, col := keyPos(valueOf(node, "methods"), method)
			errs.add(line, col, "mcp.methods."+method, "", "%q is not allow or check", rule)
		}
	}
	switch m.SecretsAcrossServers {
	case "", "deny", "allow":
	default:
		line, col := keyPos(node, "secrets_across_servers")
		errs.add(line, col, "mcp.secrets_across_servers", "", "%q is not deny or allow", m.SecretsAcrossServers)
	}
	for i, name := range m.Private {
		if _, ok := m.Servers[name]; !ok {
			line, col := keyPos(node, "private")
			errs.add(line, col, fmt.Sprintf("mcp.private[%d]", i), "", "%q is not one of mcp.servers", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.Servers)) {
		srv := m.Servers[name]
		line, col := keyPos(servers, name)
		where := "mcp.servers." + name
		valid := name != "" && !strings.Contains(name, "__")
		for _, r := range name {
			valid = valid && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
		}
		if !valid {
			errs.add(line, col, where, "", "a server's name has letters, digits, '-' and '_' only, and no \"__\" (it separates the server from its tools)")
		}
		switch {
		case len(srv.Command) > 0 && srv.URL != "":
			errs.add(line, col, where, "", "give command or url, not both")
		case len(srv.Command) == 0 && srv.URL == "":
			errs.add(line, col, where, "", "give command (a stdio server) or url (a streamable HTTP server)")
		case srv.URL != "":
			if u, err := url.Parse(srv.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				errs.add(line, col, where+".url", "", "%q is not an http:// or https:// URL with a host", srv.URL)
			}
			if len(srv.Env) > 0 {
				errs.add(line, col, where+".env", "", "env is for a command's environment; a URL's server takes headers")
			}
		default:
			if len(srv.Headers) > 0 {
				errs.add(line, col, where+".headers", "", "headers are for a URL's server; a command takes env")
			}
		}
	}
}
