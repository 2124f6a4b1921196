package arguments_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/configtest"
	"github.com/agentwarden/warden/policy/arguments"
)

func TestArgumentsThatReadTwoWaysAreDenied(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc   string
		config arguments.Arguments
		args   string
		want   string // a reason code, or "" for allow
	}{
		{"distinct members pass", arguments.Arguments{}, `{"command":"ls -la","cwd":"/tmp"}`, ""},
		{"no arguments pass", arguments.Arguments{}, ``, ""},
		{"null passes", arguments.Arguments{}, `null`, ""},
		{"an empty object passes", arguments.Arguments{}, `{}`, ""},
		{"the same name in sibling objects passes", arguments.Arguments{}, `{"edits":[{"path":"a"},{"path":"b"}]}`, ""},
		{"a name twice is ambiguous", arguments.Arguments{}, `{"command":"ls","command":"rm -rf ~"}`, arguments.CodeAmbiguous},
		{"a name twice, once escaped, is ambiguous", arguments.Arguments{}, `{"command":"ls","\u0063ommand":"rm -rf ~"}`, arguments.CodeAmbiguous},
		{"a name in two cases is ambiguous", arguments.Arguments{}, `{"command":"ls","Command":"rm -rf ~"}`, arguments.CodeAmbiguous},
		{"a name in upper case beside lower is ambiguous", arguments.Arguments{}, `{"path":"a.txt","PATH":"/etc/passwd"}`, arguments.CodeAmbiguous},
		{"a name folded through a long s is ambiguous", arguments.Arguments{}, `{"script":"ls","ſcript":"rm -rf ~"}`, arguments.CodeAmbiguous},
		{"a name folded through the Kelvin sign is ambiguous", arguments.Arguments{}, `{"kind":"a","\u212aind":"b"}`, arguments.CodeAmbiguous},
		{"a conflict nested in an array is ambiguous", arguments.Arguments{}, `{"edits":[{"path":"a","Path":"/etc/passwd"}]}`, arguments.CodeAmbiguous},
		{"arguments that are not JSON are malformed", arguments.Arguments{}, `{"command": ls}`, arguments.CodeMalformed},
		{"a trailing comma is malformed", arguments.Arguments{}, `{"command":"ls",}`, arguments.CodeMalformed},
		{"NaN, which Python reads, is malformed", arguments.Arguments{}, `{"n":NaN}`, arguments.CodeMalformed},
		{"allow_duplicate_keys lets a name twice through", arguments.Arguments{AllowDuplicateKeys: true}, `{"a":1,"a":2}`, ""},
		{"allow_duplicate_keys still denies case variants", arguments.Arguments{AllowDuplicateKeys: true}, `{"a":1,"a":2,"A":3}`, arguments.CodeAmbiguous},
		{"allow_case_variant_keys lets case variants through", arguments.Arguments{AllowCaseVariantKeys: true}, `{"a":1,"A":2}`, ""},
		{"allow_case_variant_keys still denies a name twice", arguments.Arguments{AllowCaseVariantKeys: true}, `{"a":1,"A":2,"A":3}`, arguments.CodeAmbiguous},
		{"allow_malformed lets malformed arguments through", arguments.Arguments{AllowMalformed: true}, `{"a":`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			g := tt.config
			d, err := g.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.ToolCall{Name: "any_tool", Arguments: []byte(tt.args), Complete: true}})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.want == "" && d.Action != warden.ActionAllow:
				t.Errorf("decision %s %s, want allow", d.Action, d.FirstReason().Code)
			case tt.want != "" && (d.Action != warden.ActionReject || d.FirstReason().Code != tt.want):
				t.Errorf("decision %s %s, want reject %s", d.Action, d.FirstReason().Code, tt.want)
			}
			if strings.Contains(d.FirstReason().Message, "rm -rf") || strings.Contains(d.FirstReason().Message, "passwd") {
				t.Errorf("the reason quotes the arguments: %q", d.FirstReason().Message)
			}
		})
	}
}

func TestConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, config, wantErr string
	}{
		{"the keys load", "{allow_duplicate_keys: true, allow_case_variant_keys: true, allow_malformed: true}", ""},
		{"an unknown key fails", "{allow_duplicates: true}", `unknown key "allow_duplicates"`},
		{"a wrong type fails", "{allow_malformed: sometimes}", "allow_malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, err := configtest.Load("tool_call", "arguments", tt.config)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}
