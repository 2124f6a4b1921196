package oap

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/internal/toolwords"
)

// Mapping maps tool names to the capability (and policy pack) they need.
type Mapping struct {
	// Capability is the passport capability the tools need, e.g. system.command.execute.
	Capability string `yaml:"capability" json:"capability"`
	// Tools are tool-name phrases matched as whole tokens: "command" matches execute_command and
	// run-command but not commander; "ls" matches ls but not lsblk. A phrase with * or ? is a
	// pattern on the whole name instead (mcp__*).
	Tools []string `yaml:"tools" json:"tools"`
}

// defaultMapping covers the tool names of the agent frameworks in the report (DeerFlow, APort's table,
// OpenAI and Anthropic examples), in order: the first match wins.
var defaultMapping = []Mapping{
	{Capability: "mcp.tool.execute", Tools: []string{"mcp__*", "mcp.*"}},
	{Capability: "system.command.execute", Tools: []string{"bash", "shell", "sh", "zsh", "exec", "command", "terminal",
		"process", "local shell", "system command execute"}},
	{Capability: "data.file.write", Tools: []string{"write file", "str replace", "write", "edit", "create file", "apply patch",
		"multi edit", "file write", "data file write", "notebook edit"}},
	{Capability: "data.file.read", Tools: []string{"read file", "ls", "present file", "present files", "view image", "read",
		"view", "view file", "open file", "file read", "data file read", "glob", "grep", "list dir", "list directory"}},
	{Capability: "web.browser", Tools: []string{"browser", "web browser", "computer"}},
	{Capability: "web.fetch", Tools: []string{"web search", "web fetch", "image search", "webfetch", "websearch", "fetch",
		"http request", "url"}},
	{Capability: "messaging.send", Tools: []string{"message", "messaging", "sms", "whatsapp", "slack", "email", "send mail"}},
	{Capability: "repo.merge", Tools: []string{"merge pull request", "merge pr", "git merge"}},
	{Capability: "repo.pr.create", Tools: []string{"create pull request", "create pr", "open pull request"}},
	{Capability: "data.export", Tools: []string{"database", "data export", "sql"}},
	{Capability: "agent.session.create", Tools: []string{"task", "ask clarification", "sessions spawn", "sessions send", "session"}},
}

// packs names the policy pack of each capability (policy_id in decisions).
var packs = map[string]string{
	"system.command.execute": "system.command.execute.v1", "data.file.read": "data.file.read.v1",
	"data.file.write": "data.file.write.v1", "web.fetch": "web.fetch.v1", "web.browser": "web.browser.v1",
	"mcp.tool.execute": "mcp.tool.execute.v1", "messaging.send": "messaging.message.send.v1",
	"agent.session.create": "agent.session.create.v1", "agent.tool.register": "agent.tool.register.v1",
	"repo.pr.create": "code.repository.merge.v1", "repo.merge": "code.repository.merge.v1", "data.export": "data.export.create.v1",
}

// unmappedPolicy is the policy_id of a decision on a tool no mapping covers: no capability's pack decided
// it, the unknown_tools setting did.
const unmappedPolicy = "oap.unknown_tools"

func packOf(capability string) string {
	if p, ok := packs[capability]; ok {
		return p
	}
	if capability == "" {
		return unmappedPolicy
	}
	return capability + ".v1"
}

// compiledMapping is a mapping prepared for lookups.
type compiledMapping struct {
	capability string
	phrases    [][]string
	patterns   []string
}

func compileMappings(ms []Mapping) []compiledMapping {
	out := make([]compiledMapping, 0, len(ms))
	for _, m := range ms {
		cm := compiledMapping{capability: m.Capability}
		for _, t := range m.Tools {
			if strings.ContainsAny(t, "*?[") {
				cm.patterns = append(cm.patterns, t)
			} else {
				cm.phrases = append(cm.phrases, toolwords.Split(t))
			}
		}
		out = append(out, cm)
	}
	return out
}

// capabilityOf returns the capability a tool needs, or "" when no mapping matches.
func capabilityOf(maps []compiledMapping, tool string) string {
	toks := toolwords.Split(tool)
	for _, m := range maps {
		for _, p := range m.patterns {
			if ok, _ := path.Match(p, tool); ok {
				return m.capability
			}
		}
		for _, ph := range m.phrases {
			if containsRun(toks, ph) {
				return m.capability
			}
		}
	}
	return ""
}

// containsRun reports whether want appears in toks as consecutive whole tokens.
func containsRun(toks, want []string) bool {
	if len(want) == 0 {
		return false
	}
	for i := 0; i+len(want) <= len(toks); i++ {
		match := true
		for j := range want {
			if toks[i+j] != want[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
