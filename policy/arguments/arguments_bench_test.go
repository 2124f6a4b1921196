package arguments_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/arguments"
)

// The check on a shell tool's usual arguments: validate, then look for colliding names.
func BenchmarkCheckToolCall(b *testing.B) {
	g := &arguments.Arguments{}
	call := warden.ToolCallCheck{Call: warden.ToolCall{Name: "bash", Complete: true,
		Arguments: []byte(`{"command":"go test ./... 2>&1 | tail -n 40","description":"run the tests","timeout":120000}`)}}
	b.ReportAllocs()
	for b.Loop() {
		if d, _ := g.CheckToolCall(context.Background(), call); d.Action != warden.ActionAllow {
			b.Fatal(d)
		}
	}
}

// An edit tool's arguments with nested objects in an array.
func BenchmarkCheckToolCallNested(b *testing.B) {
	g := &arguments.Arguments{}
	call := warden.ToolCallCheck{Call: warden.ToolCall{Name: "MultiEdit", Complete: true,
		Arguments: []byte(`{"file_path":"src/main.go","edits":[{"old_string":"a := 1","new_string":"a := 2"},{"old_string":"b()","new_string":"c()","replace_all":true}]}`)}}
	b.ReportAllocs()
	for b.Loop() {
		if d, _ := g.CheckToolCall(context.Background(), call); d.Action != warden.ActionAllow {
			b.Fatal(d)
		}
	}
}
