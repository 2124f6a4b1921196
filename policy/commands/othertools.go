package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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
	// destroyWords and resources name the tools that destroy a resource of a state class
	// (delete_repository: platform); resourceKeys the arguments that may name the resource instead.
	destroyWords map[string]bool
	resourceKeys []string
	resources    map[string]string
}

// resourceClasses inverts the default policy's table of resources by class.
func resourceClasses(byClass map[string][]string) map[string]string {
	out := map[string]string{}
	for class, words := range byClass {
		for _, w := range words {
			out[w] = class
		}
	}
	return out
}

// destroyed is the class of state a tool's call destroys by its name: a destroying word with a resource's
// word (delete_repository, drop_table), the resource named in the name or under a resource key
// (kubectl_delete {"resourceType": "namespace"}); "" for none.
func (o *otherTools) destroyed(words []string, v any) string {
	destroys := false
	class := ""
	for _, w := range words {
		destroys = destroys || o.destroyWords[w]
		if c, ok := o.resources[w]; ok && class == "" {
			class = c
		}
	}
	if !destroys {
		return ""
	}
	if class == "" {
		jsonwalk.Strings(v, func(key, s string) bool {
			for _, k := range o.resourceKeys {
				if strings.EqualFold(key, k) {
					if c, ok := o.resources[strings.ToLower(strings.TrimSpace(s))]; ok {
						class = c
						return false
					}
				}
			}
			return true
		})
	}
	return class
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
	words := toolwords.Split(call.Call.Name)
	destroyed := c.other.destroyed(words, v)
	written, deleted := patchPaths(v)
	if len(paths) == 0 && destroyed == "" && len(written)+len(deleted) == 0 {
		return warden.Decision{}, warden.NotApplicable("not a shell or file tool, and no path in its arguments")
	}
	sends, deletes, writes := sent, false, false
	for _, w := range words {
		sends = sends || c.other.sendWords[w]
		deletes = deletes || c.other.deleteWords[w]
		writes = writes || c.other.writeWords[w]
	}
	name := call.Call.Name
	s := &subject{}
	if destroyed != "" {
		s.effects = append(s.effects, shell.Effect{Kind: shell.Destroys, Program: name, Class: destroyed})
	}
	s.addPatch(name, written, deleted)
	switch {
	case len(paths) == 0:
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

// patchMarks are the lines that open a patch's file sections; patchPaths reads none without one.
var patchMarks = []string{"*** ", "+++ ", "rename "}

// mayHoldPatch says whether raw arguments may hold a patch, so that a file write's arguments (a whole
// file's content, often) are decoded a second time only then.
func mayHoldPatch(raw []byte) bool {
	return slices.ContainsFunc(patchMarks, func(m string) bool { return bytes.Contains(raw, []byte(m)) })
}

// patchPaths returns the files a patch among the arguments writes and deletes: Codex's apply_patch
// (*** Add File: p, *** Update File: p, *** Move to: p, *** Delete File: p) and unified diffs (+++ b/p,
// a --- a/p whose +++ is /dev/null, rename from and rename to).
func patchPaths(v any) (written, deleted []shell.Word) {
	jsonwalk.Strings(v, func(_, s string) bool {
		if !slices.ContainsFunc(patchMarks, func(m string) bool { return strings.Contains(s, m) }) {
			return true
		}
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			l = strings.TrimRight(l, "\r")
			add := func(to *[]shell.Word, p string) {
				p = strings.TrimSpace(p)
				if p != "" && p != "/dev/null" && len(*to) < maxPathArgs {
					*to = append(*to, shell.Word{Value: p, Literal: true})
				}
			}
			switch {
			case strings.HasPrefix(l, "*** Add File: "), strings.HasPrefix(l, "*** Update File: "), strings.HasPrefix(l, "*** Move to: "):
				add(&written, l[strings.Index(l, ": ")+2:])
			case strings.HasPrefix(l, "*** Delete File: "):
				add(&deleted, l[len("*** Delete File: "):])
			case strings.HasPrefix(l, "+++ "):
				add(&written, diffPath(l[4:]))
			case strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "+++ /dev/null"):
				add(&deleted, diffPath(l[4:]))
			case strings.HasPrefix(l, "rename from "):
				add(&deleted, l[len("rename from "):])
			case strings.HasPrefix(l, "rename to "):
				add(&written, l[len("rename to "):])
			}
		}
		return true
	})
	return written, deleted
}

// diffPath is the path of a unified diff's ---/+++ line: its tab-separated date cut, git's a/ or b/ dropped.
func diffPath(p string) string {
	if i := strings.IndexByte(p, '\t'); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimSpace(p)
	if strings.HasPrefix(p, "a/") || strings.HasPrefix(p, "b/") {
		p = p[2:]
	}
	return p
}

// addPatch adds what a patch writes and deletes to a call's subject.
func (s *subject) addPatch(tool string, written, deleted []shell.Word) {
	if len(written) > 0 {
		s.writes = append(s.writes, written...)
		s.effects = append(s.effects, shell.Effect{Kind: shell.Writes, Program: tool, Class: FileToolClass, Targets: written})
	}
	for _, d := range deleted {
		s.effects = append(s.effects, shell.Effect{Kind: shell.Deletes, Program: tool, Class: FileToolClass, Targets: []shell.Word{d}})
	}
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
