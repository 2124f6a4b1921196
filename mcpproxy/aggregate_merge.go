package mcpproxy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentwarden/warden/internal/jsonobj"
)

// The aggregate's answers made of every server's: the handshake and the listings.

// mergeInitialize answers initialize (or server/discover) for the servers together: the protocol
// version they agree on (the lowest answered), the union of their capabilities (member by member, see
// mergeCapability), their instructions each under its server's name, Warden as the server.
func mergeInitialize(_ json.RawMessage, answers []answer) (any, error) {
	out := map[string]any{}
	caps := map[string]json.RawMessage{}
	var instructions []string
	for _, an := range answers {
		var r map[string]json.RawMessage
		if err := json.Unmarshal(an.result, &r); err != nil {
			return nil, fmt.Errorf("server %s's initialize answer: %w", an.m.name, err)
		}
		for k, v := range r {
			if _, ok := out[k]; !ok && k != "capabilities" && k != "serverInfo" && k != "instructions" {
				out[k] = v // resultType, _meta …: the first server's
			}
		}
		// The versions the client may speak are those every server speaks: the lowest answered, and
		// the common ones a discovery lists.
		var version string
		if json.Unmarshal(r["protocolVersion"], &version) == nil && version != "" {
			if cur, ok := out["protocolVersion"].(string); !ok || version < cur {
				out["protocolVersion"] = version
			}
		}
		var supported []string
		if json.Unmarshal(r["supportedVersions"], &supported) == nil && r["supportedVersions"] != nil {
			if cur, ok := out["supportedVersions"].([]string); ok {
				supported = slices.DeleteFunc(supported, func(v string) bool { return !slices.Contains(cur, v) })
			}
			out["supportedVersions"] = supported
		}
		var c map[string]json.RawMessage
		json.Unmarshal(r["capabilities"], &c)
		for k, v := range c {
			caps[k] = mergeCapability(caps[k], v)
		}
		var s string
		if json.Unmarshal(r["instructions"], &s) == nil && s != "" {
			instructions = append(instructions, an.m.name+": "+s)
		}
	}
	out["capabilities"] = caps
	warden := map[string]string{"name": "warden", "version": "aggregated"}
	out["serverInfo"] = warden
	if raw, ok := out["_meta"].(json.RawMessage); ok {
		// A discovery names its server in _meta: the server the client sees is Warden there too.
		var meta map[string]json.RawMessage
		if json.Unmarshal(raw, &meta) == nil {
			b, _ := json.Marshal(warden)
			meta["io.modelcontextprotocol/serverInfo"] = b
			out["_meta"] = meta
		}
	}
	if len(instructions) > 0 {
		out["instructions"] = strings.Join(instructions, "\n\n")
	}
	return out, nil
}

// mergeCapability joins two servers' declarations of one capability: the members of both objects, a flag
// set when either server sets it (tools.listChanged from one, resources.subscribe from another), the first
// server's value otherwise.
func mergeCapability(have, add json.RawMessage) json.RawMessage {
	if have == nil {
		return add
	}
	var a, b map[string]json.RawMessage
	if json.Unmarshal(have, &a) != nil || json.Unmarshal(add, &b) != nil || a == nil || b == nil {
		return have
	}
	for k, v := range b {
		cur, ok := a[k]
		switch {
		case !ok:
			a[k] = v
		case string(v) == "true" && string(cur) == "false":
			a[k] = v
		case len(cur) > 0 && cur[0] == '{' && len(v) > 0 && v[0] == '{':
			a[k] = mergeCapability(cur, v)
		}
	}
	out, err := json.Marshal(a)
	if err != nil {
		return have
	}
	return out
}

// mergeList merges the servers' listings of key (tools, prompts: named NAME__X; resources: as they are,
// each remembered as its server's), every page of each.
func (a *aggregate) mergeList(key string) func(json.RawMessage, []answer) (any, error) {
	return func(_ json.RawMessage, answers []answer) (any, error) {
		var items []json.RawMessage
		for _, an := range answers {
			obj, err := jsonobj.Parse(an.result)
			if err != nil {
				continue
			}
			raw, _ := obj.Get(key)
			entries, _ := jsonobj.SplitArray(orArray(raw))
			for _, e := range entries {
				item, err := jsonobj.Parse(e)
				if err != nil {
					continue
				}
				switch key {
				case "tools", "prompts":
					name, _ := jsonobj.DecodeString(mustGet(item, "name"))
					full := an.m.name + "__" + name
					if key == "tools" && len(full) > maxToolName {
						an.m.px.log.Warn("mcp: left out a tool whose aggregated name is longer than 64 characters", "tool", name)
						continue
					}
					b, _ := json.Marshal(full)
					item.Set("name", b)
					e, _ = item.MarshalJSON()
				case "resources":
					uri, _ := jsonobj.DecodeString(mustGet(item, "uri"))
					a.mu.Lock()
					if prev, ok := a.uris[uri]; ok && prev != an.m {
						// Two servers list one URI: a read of it could reach either. Warden does not guess:
						// the URI stays ambiguous for the session, and reads of it are refused.
						a.ambiguous[uri] = append(a.ambiguous[uri], prev.name, an.m.name)
					}
					a.uris[uri] = an.m
					a.mu.Unlock()
				}
				items = append(items, e)
			}
		}
		if items == nil {
			items = []json.RawMessage{}
		}
		return map[string]any{key: items}, nil
	}
}
