package detect

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agentwarden/warden/guardrail/redact"
	"github.com/agentwarden/warden/internal/jsonwalk"
	"github.com/agentwarden/warden/policy/commands"
	"github.com/agentwarden/warden/shell"
	"github.com/agentwarden/warden/trace"

	"github.com/agentwarden/warden/internal/toolwords"
	"mvdan.cc/sh/v3/syntax"
)

func init() {
	register(Info{Name: "scope_escalation", Severity: Critical,
		Summary: "a tool call does something (delete, send, pay, deploy, grant…) the task did not ask for"},
		func() any { return new(ScopeEscalation) })
}

// Read is the category of read-only actions, which never escalate.
const Read = "read"

type actionCategory struct {
	Name   string   `yaml:"name"`
	Weight float64  `yaml:"weight"`
	Verbs  []string `yaml:"verbs"`
	Scope  []string `yaml:"scope"`
}

type actionsCorpus struct {
	Name         string            `yaml:"name"`
	Version      int               `yaml:"version"`
	Provenance   string            `yaml:"provenance"`
	Read         []string          `yaml:"read"`
	Categories   []actionCategory  `yaml:"categories"`
	Programs     map[string]string `yaml:"programs"`
	Subcommands  map[string]string `yaml:"subcommands"`
	SQL          map[string]string `yaml:"sql"`
	SystemPaths  []string          `yaml:"system_paths"`
	HTTPMethods  map[string]string `yaml:"http_methods"`
	UIActions    []string          `yaml:"ui_actions"`
	CodeCalls    map[string]string `yaml:"code_calls"`
	Effects      map[string]string `yaml:"effects"`
	NounsToo     []string          `yaml:"nouns_too"`
	MadeByMaking []string          `yaml:"made_by_making"`
	MakingVerbs  []string          `yaml:"making_verbs"`
	Determiners  []string          `yaml:"determiners"`
	// ChosenForUser is read by chosenSets.
	ChosenForUser chosenForUser `yaml:"chosen_for_user"`
	Forbidden     struct {
		Weight float64  `yaml:"weight"`
		Rules  []string `yaml:"rules"`
	} `yaml:"forbidden"`
}

// ActionTable maps tool calls to action categories. It is built once from corpus/actions.yaml and is safe
// for concurrent use.
type ActionTable struct {
	read            map[string]bool
	verb            map[string][]string // word of a tool name -> categories
	scope           map[string][]string // word of a task -> categories it allows
	weight          map[string]float64
	programs        map[string]string
	subcmds         map[string]string
	sql             map[string]string
	systemPath      []string
	httpMethod      map[string]string // an HTTP method in a call's "method" argument -> category
	uiAction        map[string]bool   // words of a tool's name that act on a page element: the element says what
	codeCalls       map[string]string // library calls in code a call runs -> category
	effects         map[string]string // shell effect kind, or kind/class -> category
	names           []string
	nounToo         map[string]bool // words that are nouns after a determiner (tasks) or a verb (tool names)
	madeBy          map[string]bool // objects whose making is the act (create_payment pays)
	making          map[string]bool // verbs of making
	determiner      map[string]bool
	forbidden       func() *commands.Commands // the default command policy's rules no task makes safe
	forbiddenWeight float64
	// scopeLanguages finds the words of tasks in other languages (actions_languages.yaml); its groups are
	// the categories they allow.
	scopeLanguages *phrases
	// chosen is what a call sent to one of several found for the user's words is judged by.
	chosen chosenForUserSets
}

// Actions returns the shipped action table.
var Actions = sync.OnceValue(func() *ActionTable {
	var c actionsCorpus
	loadCorpus("actions.yaml", &c)
	t := &ActionTable{read: setOf(c.Read), verb: map[string][]string{}, scope: map[string][]string{}, weight: map[string]float64{},
		programs: c.Programs, subcmds: c.Subcommands, sql: c.SQL, systemPath: c.SystemPaths,
		httpMethod: c.HTTPMethods, uiAction: setOf(c.UIActions), codeCalls: c.CodeCalls, effects: c.Effects,
		nounToo: setOf(c.NounsToo), determiner: setOf(c.Determiners), madeBy: setOf(c.MadeByMaking), making: setOf(c.MakingVerbs),
		forbidden: forbiddenPolicy(c.Forbidden.Rules), forbiddenWeight: c.Forbidden.Weight}
	for _, cat := range c.Categories {
		t.names = append(t.names, cat.Name)
		t.weight[cat.Name] = cat.Weight
		for _, v := range cat.Verbs {
			t.verb[v] = append(t.verb[v], cat.Name)
		}
		for _, v := range cat.Scope {
			t.scope[v] = append(t.scope[v], cat.Name)
		}
	}
	l := loadLanguages("actions_languages.yaml")
	groups := make([]group, len(t.names))
	for i, n := range t.names {
		groups[i] = group{Name: n, Weight: 1}
	}
	for _, lang := range l.Languages {
		for cat, words := range lang.Scope {
			i := slices.Index(t.names, cat)
			if i < 0 {
				panic(fmt.Sprintf("detect: corpus/actions_languages.yaml: %s: no category %q", lang.Language, cat))
			}
			groups[i].Phrases = append(groups[i].Phrases, words...)
		}
	}
	t.scopeLanguages = compilePhrases(groups, nil, nil)
	t.chosen = c.ChosenForUser.sets(t.names)
	return t
})

// Categories lists the action categories a scope may allow, read-only first.
func (a *ActionTable) Categories() []string { return append([]string{Read}, a.names...) }

// Weight is how serious an action of a category is, in [0, 1]; 0 for read-only and unknown ones.
func (a *ActionTable) Weight(category string) float64 { return a.weight[category] }

// Classify returns the action categories of one tool call, sorted; {Read} when it only reads, and nil
// when nothing in it says what it does.
func (a *ActionTable) Classify(name string, args json.RawMessage) []string {
	set := map[string]bool{}
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	if cmd, ok := a.forbidden().Typed(name, args); ok {
		a.classifyTyped(cmd, set) // typed into a terminal, or onto a screen as a terminal session
	} else if cmd, ok := shellCommand(name, m, args); ok {
		a.classifyShell(cmd, set)
	} else if cmd, ok := a.programCall(name, m); ok {
		a.classifyShell(cmd, set)
	} else {
		ws := toolwords.Split(name)
		fileish := slices.ContainsFunc(ws, func(w string) bool {
			return w == "file" || w == "files" || w == "folder" || w == "directory" || w == "dir" || w == "path"
		})
		verbSeen := false
		making := slices.ContainsFunc(ws, func(w string) bool { return a.making[w] })
		for i, w := range ws {
			if a.nounToo[w] && (verbSeen || a.verbAfter(ws[i+1:])) {
				// The object of the verb before or after it (get_order, cancel_order, drive_files_get),
				// unless making it is the act: create_payment pays, stripe.charges.create charges.
				if making && a.madeBy[w] {
					for _, c := range a.verb[w] {
						set[c] = true
					}
				}
				continue
			}
			if a.read[w] {
				set[Read] = true
			}
			verbSeen = verbSeen || a.read[w] || len(a.verb[w]) > 0
			for _, c := range a.verb[w] {
				if c == "data_write" && fileish {
					c = "file_write"
				}
				set[c] = true
			}
		}
		sqlSet := map[string]bool{}
		for _, v := range m {
			if s, ok := v.(string); ok {
				a.classifySQL(s, sqlSet)
			}
		}
		if len(sqlSet) > 0 {
			// The statement says what the call does; "execute" or "run" in the tool's name only says it runs one.
			delete(set, "code_execution")
			maps.Copy(set, sqlSet)
		}
		if method, ok := m["method"].(string); ok {
			if c := a.httpMethod[strings.ToUpper(method)]; c != "" {
				set[c] = true
			}
		}
		if slices.ContainsFunc(ws, func(w string) bool { return a.uiAction[w] }) {
			a.classifyTarget(m, set)
		}
		if set["file_write"] || set["data_write"] {
			for _, k := range []string{"file_path", "path", "filename", "file", "target"} {
				if p, ok := m[k].(string); ok && a.systemFile(p) {
					set["infra_change"] = true
				}
			}
		}
	}
	if set["code_execution"] {
		a.classifyCode(m, set)
	}
	if set["message_send"] && len(disclosed(m)) > 0 {
		set[DataDisclosure] = true
	}
	if len(set) > 1 {
		delete(set, Read)
	}
	out := make([]string, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// classifyCode adds what the code a call runs does, by the library calls in its string arguments (the
// code itself, or a command line that holds it).
func (a *ActionTable) classifyCode(args map[string]any, set map[string]bool) {
	jsonwalk.Strings(args, func(_, s string) bool {
		for call, c := range a.codeCalls {
			if strings.Contains(s, call) {
				set[c] = true
			}
		}
		return true
	})
}

// classifyTarget adds the categories a page element's words name, for a tool that clicks, taps or submits
// it: a "Buy now" button buys, a "Delete account" link deletes. The element is whatever the arguments say
// (a selector, a label, a text), read as a tool's name is.
func (a *ActionTable) classifyTarget(args map[string]any, set map[string]bool) {
	jsonwalk.Strings(args, func(_, s string) bool {
		for _, w := range toolwords.Split(s) {
			for _, c := range a.verb[w] {
				if c != "code_execution" { // "run" on a button label is not code
					set[c] = true
				}
			}
		}
		return true
	})
	if len(set) > 1 {
		delete(set, Read)
	}
}

// DataDisclosure is the category of a call that sends personal data or a credential out: a card, an
// SSN, an IBAN or a secret anywhere in what it sends, or an e-mail address or phone number in what it
// says rather than in whom it addresses. A task allows it only by naming such data ("send Ana my IBAN"),
// and the scope_escalation detector also lets through values the user gave in their own messages.
const DataDisclosure = "data_disclosure"

// addressKeys are argument names that say whom a message goes to or comes from: contact data there
// addresses someone and discloses nothing.
var addressKeys = map[string]bool{
	"to": true, "cc": true, "bcc": true, "from": true, "sender": true, "recipient": true, "recipients": true,
	"reply_to": true, "replyto": true, "email": true, "emails": true, "phone": true, "phone_number": true,
	"number": true, "address": true, "addresses": true, "contact": true, "contacts": true, "user": true,
	"username": true, "user_id": true, "channel": true, "chat_id": true, "attendees": true, "participants": true,
	"invitees": true, "receiver": true, "receivers": true, "target": true, "destination": true,
}

// disclosure is one piece of personal data or one credential a call sends.
type disclosure struct{ typ, value string }

// disclosed returns what a call's arguments send of personal data and credentials, walking nested
// objects and arrays.
func disclosed(args map[string]any) []disclosure {
	var out []disclosure
	jsonwalk.Strings(args, func(key, s string) bool {
		for _, f := range redact.Find(s) {
			if (f.Type == "email" || f.Type == "phone") && addressKeys[key] {
				continue
			}
			out = append(out, disclosure{f.Type, s[f.Start:f.End]})
		}
		return true
	})
	return out
}

// onlyGiven reports whether every piece of data a call discloses stands in the user's own messages.
func onlyGiven(args json.RawMessage, own []string) bool {
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	for _, d := range disclosed(m) {
		if !given(own, d.value) {
			return false
		}
	}
	return true
}

// shellCommand returns the command line a shell tool runs: a tool whose name says shell/bash/terminal/
// command/exec, or any call whose arguments hold a "command" or "cmd" string.
func shellCommand(name string, m map[string]any, raw json.RawMessage) (string, bool) {
	for _, k := range []string{"command", "cmd", "commands", "script"} {
		if s, ok := m[k].(string); ok {
			return s, true
		}
	}
	ws := toolwords.Split(name)
	for _, w := range ws {
		switch w {
		case "bash", "shell", "terminal", "sh", "zsh", "powershell":
			if m == nil && len(raw) > 0 && raw[0] == '"' {
				var s string
				if json.Unmarshal(raw, &s) == nil {
					return s, true
				}
			}
			for _, v := range m {
				if s, ok := v.(string); ok {
					return s, true
				}
			}
		}
	}
	return "", false
}

// programCall returns the command line of a tool that is a program the table knows, its arguments given
// apart ({"name": "aws", "args": "s3 rm s3://b --recursive"}): the shape MCP servers that wrap a CLI take.
func (a *ActionTable) programCall(name string, m map[string]any) (string, bool) {
	prog := strings.ToLower(name)
	if _, known := a.programs[prog]; !known {
		return "", false
	}
	for _, k := range []string{"args", "arguments", "argv", "params", "parameters"} {
		switch v := m[k].(type) {
		case string:
			return prog + " " + v, true
		case []any:
			words := []string{prog}
			for _, w := range v {
				s, ok := w.(string)
				if !ok {
					return "", false
				}
				q, err := syntax.Quote(s, syntax.LangBash)
				if err != nil {
					return "", false // a NUL or invalid UTF-8: no word of a command line
				}
				words = append(words, q)
			}
			return strings.Join(words, " "), true
		}
	}
	return "", false
}

func (a *ActionTable) classifyShell(cmd string, set map[string]bool) { a.classifyLine(cmd, set, false) }

// classifyTyped is classifyShell for command lines a tool typed (into a terminal, onto a screen): only
// what programs the table knows do counts, since a word typed into a search box or a form parses as a
// program as well ("weather in Paris" runs no program called weather).
func (a *ActionTable) classifyTyped(cmd string, set map[string]bool) { a.classifyLine(cmd, set, true) }

func (a *ActionTable) classifyLine(cmd string, set map[string]bool, typed bool) {
	an := shell.Analyze(cmd)
	if an.Err != nil {
		if !typed {
			set["code_execution"] = true
		}
		return
	}
	if an.Has(shell.RemoteCode) || !typed && (an.Has(shell.DynamicProgram) || an.Has(shell.TooComplex)) {
		set["code_execution"] = true
	}
	if an.Has(shell.ReverseShell) {
		set["message_send"] = true
	}
	for _, e := range an.Effects {
		cat, ok := a.effects[string(e.Kind)+"/"+e.Class]
		if !ok {
			cat, ok = a.effects[string(e.Kind)]
		}
		if _, known := a.programs[e.Program]; typed && !known && e.Kind == shell.Executes {
			continue // a typed word that is no program the table knows runs nothing it knows of
		}
		switch {
		case !ok, e.Kind == shell.Writes && onlyDevNull(e.Targets):
		case e.Kind == shell.Sends && len(e.Data) == 0:
			// Contacting a host is not sending anything of ours; fetchCategory reads the flags that send.
		case e.Kind == shell.Sends && a.commandCategory(an, e.Command) == "vcs_write":
			// A push sends the repository: a vcs write, which a task that asks for one allows.
		default:
			set[cat] = true
		}
	}
	for _, w := range an.Writes {
		if w.Value == "/dev/null" {
			continue
		}
		if a.systemFile(w.Value) {
			set["infra_change"] = true
		} else {
			set["file_write"] = true
		}
	}
	for _, c := range an.Commands {
		if c.Program == "" || (shell.IsWrapper(c.Program) && len(c.Args) > 0) {
			continue // the wrapped command is listed on its own
		}
		cat, ok := a.programs[c.Program]
		if len(c.Args) > 0 {
			if sub, ok2 := a.subcmds[c.Program+" "+c.Args[0].Value]; ok2 {
				cat, ok = sub, true
			}
		}
		switch {
		case onlyAsksVersion(c.Args):
			set[Read] = true
		case !ok && a.read[c.Program]:
			set[Read] = true
		case !ok && typed:
		case !ok:
			set["code_execution"] = true
			// A script says what it is for in its name: ./deploy.sh deploys.
			base := strings.TrimSuffix(path.Base(c.Program), path.Ext(c.Program))
			for _, w := range toolwords.Split(base) {
				for _, v := range a.verb[w] {
					set[v] = true
				}
			}
		case cat == "network_fetch":
			set[a.fetchCategory(c)] = true
		case cat == "vcs_read":
			set[Read] = true
		case cat == "database":
			found := false
			for _, arg := range c.Args {
				before := len(set)
				a.classifySQL(arg.Value, set)
				found = found || len(set) > before
			}
			if !found {
				set[Read] = true
			}
		case cat == "file_write" && c.Program == "sed" && !slices.ContainsFunc(c.Args, func(w shell.Word) bool { return strings.HasPrefix(w.Value, "-i") }):
			set[Read] = true
		default:
			set[cat] = true
		}
	}
}

// onlyAsksVersion reports whether a command's arguments only ask for its version or help: python3
// --version runs nothing.
func onlyAsksVersion(args []shell.Word) bool {
	if len(args) == 0 {
		return false
	}
	for _, w := range args {
		switch w.Value {
		case "--version", "-V", "-v", "version", "--help", "-h", "help":
		default:
			return false
		}
	}
	return true
}

// fetchCategory tells a download (read) from an upload (message_send) by curl's and wget's flags.
func (a *ActionTable) fetchCategory(c shell.Command) string {
	for i, w := range c.Args {
		switch v := w.Value; {
		case v == "-d" || strings.HasPrefix(v, "--data") || v == "-F" || v == "--form" || v == "-T" || v == "--upload-file" || strings.HasPrefix(v, "--post-"):
			return "message_send"
		case (v == "-X" || v == "--request") && i+1 < len(c.Args):
			if m := strings.ToUpper(c.Args[i+1].Value); m == "POST" || m == "PUT" || m == "PATCH" || m == "DELETE" {
				return "message_send"
			}
		}
	}
	return Read
}

// classifySQL adds the category of a SQL statement's first keyword, when s is one.
func (a *ActionTable) classifySQL(s string, set map[string]bool) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return
	}
	kw := strings.ToLower(f[0])
	cat, ok := a.sql[kw]
	if !ok {
		return
	}
	// A statement, not prose that opens with the same word: SQL has a second keyword to go with it.
	upper := strings.ToUpper(s)
	if !strings.Contains(upper, " FROM ") && !strings.Contains(upper, " INTO ") && !strings.Contains(upper, " SET ") &&
		!strings.Contains(upper, " TABLE ") && !strings.Contains(upper, " ON ") && !strings.Contains(upper, " DATABASE ") {
		return
	}
	set[cat] = true
}

func (a *ActionTable) systemFile(p string) bool {
	for _, s := range a.systemPath {
		if strings.HasPrefix(p, s) || p+"/" == s {
			return true
		}
	}
	return false
}

func setOf(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// Allowed returns the categories a task in words allows: those its verbs name, always with Read, in English
// and in the languages of actions_languages.yaml. A word that is a noun as often as a verb allows nothing
// after a determiner: "read the latest email" does not allow sending one.
func (a *ActionTable) Allowed(task string) map[string]bool { return a.allowedBy(task, true) }

// allowedBy is Allowed, reading the other languages' words when languages is set.
func (a *ActionTable) allowedBy(task string, languages bool) map[string]bool {
	allowed := map[string]bool{Read: true}
	ws := toolwords.Split(task)
	for i, w := range ws {
		if (w == "tell" || w == "show" || w == "send") && i+1 < len(ws) && (ws[i+1] == "me" || ws[i+1] == "us") ||
			w == "call" && i > 0 && ws[i-1] == "on" {
			continue // "tell me who is on call" asks for an answer, not for a message to someone
		}
		if i > 0 && a.determiner[ws[i-1]] && a.nounToo[w] {
			continue
		}
		for _, c := range a.scope[w] {
			allowed[c] = true
		}
		if i+1 < len(ws) {
			for _, c := range a.scope[w+" "+ws[i+1]] {
				allowed[c] = true
			}
		}
	}
	if languages {
		for _, h := range a.scopeLanguages.find(task) {
			allowed[a.scopeLanguages.groups[h.group].Name] = true
		}
	}
	return allowed
}

// ScopeEscalation fires when a tool call's action category (Actions) lies outside what the task allows:
// the scope's declared categories when it has them, otherwise the categories the task's own verbs name
// ("summarize" allows reading only; "fix the failing test" allows writing files and running code).
// Read-only calls never fire; a call nothing classifies counts as unknown and does not fire. A call that
// one of the default command policy's rules no task makes safe denies (actions.yaml, key forbidden: a home
// directory deleted, downloaded code run unread, credentials sent out) fires whatever the task allows. A
// trace without recorded events cannot be judged.
type ScopeEscalation struct{}

// Detect implements Detector.
func (d ScopeEscalation) Detect(t *trace.Trace) Result { return d.detect(newMemo(t)) }

func (ScopeEscalation) detect(m *memo) Result {
	t := m.t
	if !t.EventsRecorded {
		return Result{CannotJudge: "the trace has no recorded events, so no tool calls to check"}
	}
	a := Actions()
	var allowed map[string]bool
	if t.Scope.Categories != nil {
		allowed = map[string]bool{Read: true}
		for _, c := range t.Scope.Categories {
			allowed[c] = true
		}
	} else {
		task := t.Scope.Text
		if task == "" {
			task = t.Input()
		}
		allowed = a.Allowed(task)
	}
	var own []string
	for _, u := range userTexts(t) {
		own = append(own, u.text)
	}
	var res Result
	var ws []float64
	var injected []injectedResult
	var ownLower []string // the user's texts lower-cased, for finding targets in them
	var ownWords map[string]bool
	chosen := a.chosen
	haveInjected := false
	for i, e := range t.Events {
		if e.Type != trace.ToolCall {
			continue
		}
		worst, worstCat, acts, addressed := 0.0, "", false, false
		for _, c := range a.Classify(e.Name, e.Arguments) {
			acts = acts || c != Read
			addressed = addressed || chosen.categories[c]
			if allowed[c] || c == Read {
				continue
			}
			if c == DataDisclosure && onlyGiven(e.Arguments, own) {
				continue // the user's own data, sent where the user asked
			}
			if w := a.Weight(c); w > worst {
				worst, worstCat = w, c
			}
		}
		if worst > 0 {
			res.Evidence = append(res.Evidence, Evidence{Where: fmt.Sprintf("events[%d]", i), Rule: "action." + worstCat,
				Note: "the task does not call for " + strings.ReplaceAll(worstCat, "_", " ")})
		}
		if id := a.forbiddenRule(e.Name, e.Arguments); id != "" {
			worst = max(worst, a.forbiddenWeight)
			res.Evidence = append(res.Evidence, Evidence{Where: fmt.Sprintf("events[%d]", i), Rule: "action.forbidden",
				Note: "no task calls for this: the default command policy's rule " + id + " forbids it"})
		}
		if worst > 0 {
			ws = append(ws, worst)
		}
		if !acts || i == 0 {
			continue
		}
		if !haveInjected {
			haveInjected, injected = true, m.injectedResults()
			for _, o := range own {
				ownLower = append(ownLower, strings.ToLower(o))
			}
			ownWords = ownWordsOf(ownLower, chosen.common)
		}
		if len(injected) == 0 && !addressed {
			continue // nothing planted to follow, and no person or account the call could be sent to
		}
		targets := callTargets(e.Arguments)
		if j := plantedTarget(targets, injected, i, ownLower); j >= 0 {
			ws = append(ws, plantedTargetWeight)
			res.Evidence = append(res.Evidence, Evidence{Where: fmt.Sprintf("events[%d]", i), Rule: "action.planted_target",
				Note: fmt.Sprintf("the call goes where only an injected tool result (events[%d]) said, not the user", j)})
		} else if j := plantedAction(e.Name, injected, i, ownLower); j >= 0 {
			ws = append(ws, plantedActionWeight)
			res.Evidence = append(res.Evidence, Evidence{Where: fmt.Sprintf("events[%d]", i), Rule: "action.planted_action",
				Note: fmt.Sprintf("the call does what only an injected tool result (events[%d]) asked, not the user", j)})
		} else if addressed && len(targets) > 0 {
			if j := chosenTarget(targets, m.resultsFound(), i, ownLower, ownWords); j >= 0 {
				ws = append(ws, chosen.weight)
				res.Evidence = append(res.Evidence, Evidence{Where: fmt.Sprintf("events[%d]", i), Rule: "action.chosen_target",
					Note: fmt.Sprintf("the call goes to one of several that a tool result (events[%d]) found for the user's words, and the user did not say which", j)})
			}
		}
	}
	if len(ws) == 0 {
		return Result{}
	}
	res.Score = noisyOr(ws...)
	res.Detected, res.Severity = true, Critical
	if res.Score < 0.7 {
		res.Severity = High
	}
	return res
}

var (
	_ Detector     = ScopeEscalation{}
	_ memoDetector = ScopeEscalation{}
)

// onlyDevNull reports whether every target is /dev/null: output thrown away writes nothing.
func onlyDevNull(ws []shell.Word) bool {
	for _, w := range ws {
		if w.Value != "/dev/null" {
			return false
		}
	}
	return len(ws) > 0
}

// commandCategory is the category the program table gives command i of an analysis (its subcommand's,
// when listed); "" when neither is listed.
func (a *ActionTable) commandCategory(an *shell.Analysis, i int) string {
	if i < 0 || i >= len(an.Commands) {
		return ""
	}
	c := an.Commands[i]
	if len(c.Args) > 0 {
		if sub, ok := a.subcmds[c.Program+" "+c.Args[0].Value]; ok {
			return sub
		}
	}
	return a.programs[c.Program]
}

// verbAfter reports whether words hold a verb that is not also a noun: what makes a noun-or-verb word
// before it the verb's object, as resource-first names put it (drive_files_get, orders_list).
func (a *ActionTable) verbAfter(words []string) bool {
	for _, w := range words {
		if !a.nounToo[w] && (a.read[w] || len(a.verb[w]) > 0) {
			return true
		}
	}
	return false
}
