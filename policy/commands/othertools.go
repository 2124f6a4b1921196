package commands

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonwalk"
	"github.com/agentwarden/warden/internal/toolwords"
	"github.com/agentwarden/warden/shell"
)

// otherTools is what the policy knows of tools of no known kind (an upload, an e-mail with attachments, a
// copy, an archive): the argument names that hold paths, and the words of a tool's name that send what it
// is given.
type otherTools struct {
	pathKeys                           map[string]bool
	sendWords, deleteWords, writeWords map[string]bool
}

// maxPathArgs bounds how many paths one call's arguments may name. A call naming more is denied as too
// complex to judge, not judged by some of them: otherwise a credential could hide behind enough harmless
// paths.
const maxPathArgs = 1024

// checkOther judges a tool of no known kind by the paths its arguments name, doing to them what the words
// of its name say: deleted (purge_directory, wipe_folder: as a tree when the name or the path says
// directory), written (save_note, overwrite), else read (a tool given a path reads it); and sent out as
// well when a word says it sends (upload_file, send_email, share_document). So an upload of ~/.ssh/id_rsa
// is credential access and exfiltration, and a wipe of ~ a destructive delete, whatever the tool is called.
// A value is a path when it stands under a path key, or when it opens like one (/, ~/, ./, ../) and holds
// no space and no scheme.
func (c *Commands) checkOther(call warden.ToolCallCheck) (warden.Decision, error) {
	return c.checkPaths(call, false)
}

// checkPaths is checkOther; with sent, whatever the tool's name says, the paths its arguments name are sent
// too: what a fetching tool's request carries (a body file of an http_request) leaves the machine.
func (c *Commands) checkPaths(call warden.ToolCallCheck, sent bool) (warden.Decision, error) {
	var v any
	if json.Unmarshal(call.Call.Arguments, &v) != nil {
		return warden.Decision{}, warden.NotApplicable("not a shell or file tool")
	}
	var paths []shell.Word
	jsonwalk.Strings(v, func(key, s string) bool {
		if isPathValue(s, c.other.pathKeys[key]) {
			paths = append(paths, shell.Word{Value: s, Literal: true})
		}
		return len(paths) <= maxPathArgs
	})
	if len(paths) > maxPathArgs {
		return c.deny(CodeTooComplex, fmt.Sprintf("the tool's arguments name more than %d paths; send fewer at a time", maxPathArgs), "limits"), nil
	}
	if len(paths) == 0 {
		return warden.Decision{}, warden.NotApplicable("not a shell or file tool, and no path in its arguments")
	}
	sends, deletes, writes := sent, false, false
	for _, w := range toolwords.Split(call.Call.Name) {
		sends = sends || c.other.sendWords[w]
		deletes = deletes || c.other.deleteWords[w]
		writes = writes || c.other.writeWords[w]
	}
	name := call.Call.Name
	s := &subject{}
	switch {
	case deletes:
		for _, p := range paths {
			s.effects = append(s.effects, shell.Effect{Kind: shell.Deletes, Program: name, Class: FileToolClass,
				Targets: []shell.Word{p}, Recursive: deletesTrees(name) || looksLikeDirectory(p.Value)})
		}
	case writes:
		s.writes = paths
		s.effects = append(s.effects, shell.Effect{Kind: shell.Writes, Program: name, Class: FileToolClass, Targets: paths})
	default:
		s.reads = paths
		s.effects = append(s.effects, shell.Effect{Kind: shell.Reads, Program: name, Class: FileToolClass, Targets: paths})
	}
	if sends {
		s.effects = append(s.effects, shell.Effect{Kind: shell.Sends, Program: name, Class: FileToolClass,
			Targets: []shell.Word{{Value: name, Literal: true}}, Data: paths})
	}
	return c.decide(s), nil
}

// isPathValue reports whether an argument's value names a file: any value under a path key, else one that
// opens as a path does and holds neither blanks nor a URL's scheme.
func isPathValue(s string, underPathKey bool) bool {
	if s == "" || len(s) > 4096 || strings.ContainsAny(s, "\n\r\t") || strings.Contains(s, "://") {
		return false
	}
	if underPathKey {
		return true
	}
	if strings.ContainsRune(s, ' ') {
		return false
	}
	return s == "~" || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../")
}
