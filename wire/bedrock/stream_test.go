package bedrock_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/bedrock"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
)

// event frames one ConverseStream event as Bedrock does.
func event(t testing.TB, typ, payload string) []byte {
	t.Helper()
	var h eventstream.Headers
	h.Set(":event-type", eventstream.StringValue(typ))
	h.Set(":content-type", eventstream.StringValue("application/json"))
	h.Set(":message-type", eventstream.StringValue("event"))
	var buf bytes.Buffer
	if err := eventstream.NewEncoder().Encode(&buf, eventstream.Message{Headers: h, Payload: []byte(payload)}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// conversation builds a stream: text "Cleaning up." at 0, then a toolUse block per command, then stop.
func conversation(t testing.TB, stop string, commands ...string) []byte {
	t.Helper()
	var s [][]byte
	s = append(s, event(t, "messageStart", `{"role":"assistant","p":"abc"}`),
		event(t, "contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Cleaning up."},"p":"ab"}`),
		event(t, "contentBlockStop", `{"contentBlockIndex":0}`))
	for i, c := range commands {
		idx := string(rune('1' + i))
		input, _ := json.Marshal(`{"command":"` + c + `"}`)
		s = append(s, event(t, "contentBlockStart", `{"contentBlockIndex":`+idx+`,"start":{"toolUse":{"toolUseId":"tooluse_`+idx+`","name":"bash"}}}`),
			event(t, "contentBlockDelta", `{"contentBlockIndex":`+idx+`,"delta":{"toolUse":{"input":`+string(input)+`}}}`),
			event(t, "contentBlockStop", `{"contentBlockIndex":`+idx+`}`))
	}
	s = append(s, event(t, "messageStop", `{"stopReason":"`+stop+`"}`),
		event(t, "metadata", `{"usage":{"inputTokens":10,"outputTokens":5,"totalTokens":15},"metrics":{"latencyMs":100}}`))
	return bytes.Join(s, nil)
}

// streamRead is what the AWS SDK's ConverseStream client makes of a stream: the text, the tool calls with
// their input, and the stop reason.
type streamRead struct {
	text  string
	calls []string
	stop  types.StopReason
}

func converseStream(t *testing.T, body []byte) streamRead {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	client := bedrockruntime.New(bedrockruntime.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", ""), HTTPClient: srv.Client()})
	out, err := client.ConverseStream(context.Background(), &bedrockruntime.ConverseStreamInput{ModelId: aws.String("m"),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "hi"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	stream := out.GetStream()
	defer stream.Close()
	var got streamRead
	inputs := map[int32]*strings.Builder{}
	var order []int32
	names := map[int32]string{}
	for ev := range stream.Events() {
		switch e := ev.(type) {
		case *types.ConverseStreamOutputMemberContentBlockStart:
			if tu, ok := e.Value.Start.(*types.ContentBlockStartMemberToolUse); ok {
				i := aws.ToInt32(e.Value.ContentBlockIndex)
				names[i], inputs[i] = aws.ToString(tu.Value.Name), &strings.Builder{}
				order = append(order, i)
			}
		case *types.ConverseStreamOutputMemberContentBlockDelta:
			i := aws.ToInt32(e.Value.ContentBlockIndex)
			switch d := e.Value.Delta.(type) {
			case *types.ContentBlockDeltaMemberText:
				got.text += d.Value
			case *types.ContentBlockDeltaMemberToolUse:
				inputs[i].WriteString(aws.ToString(d.Value.Input))
			}
		case *types.ConverseStreamOutputMemberMessageStop:
			got.stop = e.Value.StopReason
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("the AWS SDK cannot read the stream: %v", err)
	}
	for _, i := range order {
		got.calls = append(got.calls, names[i]+inputs[i].String())
	}
	return got
}

func TestGuardStream(t *testing.T) {
	t.Parallel()
	rewrite := func(r warden.Response) (warden.Response, error) {
		calls := append([]warden.ToolCall(nil), r.Message.ToolCalls...)
		calls[0] = warden.NewToolCall(calls[0].ID, calls[0].Name, []byte(`{"command":"ls -la"}`))
		r.Message.ToolCalls = calls
		return r, nil
	}
	tests := []struct {
		desc       string
		in         []byte
		decide     bedrock.Decide
		unchanged  bool
		wantCalls  string
		wantStop   types.StopReason
		wantInText string
	}{
		{desc: "a healthy stream passes byte for byte", in: conversation(t, "tool_use", "go test ./..."), decide: pipelinetest.Decide(t), unchanged: true,
			wantCalls: `bash{"command":"go test ./..."}`, wantStop: types.StopReasonToolUse, wantInText: "Cleaning up."},
		{desc: "a guardrail intervention releases no call", in: conversation(t, "guardrail_intervened", "go test ./..."), decide: pipelinetest.Decide(t),
			wantStop: types.StopReasonGuardrailIntervened, wantInText: "Cleaning up.\n\nThe model provider stopped this response with a safety-related signal (stopReason='guardrail_intervened', detector='bedrock_guardrail'). Any tool calls produced in this turn were suppressed"},
		{desc: "a denied first call is removed and the kept one renumbered", in: conversation(t, "tool_use", "rm -rf ~/", "ls"), decide: pipelinetest.Decide(t),
			wantCalls: `bash{"command":"ls"}`, wantStop: types.StopReasonToolUse, wantInText: "Guardrail denied: tool 'bash' was blocked (warden.destructive_delete)"},
		{desc: "with every call denied tool_use becomes end_turn", in: conversation(t, "tool_use", "rm -rf ~/"), decide: pipelinetest.Decide(t),
			wantStop: types.StopReasonEndTurn, wantInText: "Guardrail denied"},
		{desc: "changed arguments go out in one delta", in: conversation(t, "tool_use", "ls"), decide: rewrite,
			wantCalls: `bash{"command":"ls -la"}`, wantStop: types.StopReasonToolUse},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			if err := bedrock.GuardStream(bytes.NewReader(tt.in), &out, nil, tt.decide, nil); err != nil {
				t.Fatal(err)
			}
			if tt.unchanged && !bytes.Equal(out.Bytes(), tt.in) {
				t.Error("an unchanged stream was not passed through byte for byte")
			}
			got := converseStream(t, out.Bytes())
			if strings.Join(got.calls, " ") != tt.wantCalls || got.stop != tt.wantStop || !strings.Contains(got.text, tt.wantInText) {
				t.Errorf("the AWS SDK sees calls %q, stop %q, text %q", got.calls, got.stop, got.text)
			}
		})
	}
}

func TestGuardStreamErrors(t *testing.T) {
	t.Parallel()
	full := conversation(t, "tool_use", "ls")
	cut := full[:bytes.Index(full, event(t, "messageStop", `{"stopReason":"tool_use"}`))]
	text := conversation(t, "end_turn")
	textCut := text[:bytes.Index(text, event(t, "messageStop", `{"stopReason":"end_turn"}`))]
	tests := []struct {
		desc    string
		in      []byte
		decide  bedrock.Decide
		wantErr string
	}{
		{desc: "a tripwire releases nothing held", in: full, wantErr: "tripped",
			decide: func(warden.Response) (warden.Response, error) { return warden.Response{}, errors.New("tripped") }},
		{desc: "a stream cut before messageStop releases nothing held", in: cut, decide: pipelinetest.Decide(t), wantErr: "ended before its finish"},
		{desc: "a tool's input in a text block is an error", decide: pipelinetest.Decide(t), wantErr: "does not fit content block",
			in: bytes.Join([][]byte{event(t, "messageStart", `{"role":"assistant"}`),
				event(t, "contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"ok"}}`),
				event(t, "contentBlockDelta", `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{\"command\":\"rm -rf ~\"}"}}}`),
				event(t, "messageStop", `{"stopReason":"end_turn"}`)}, nil)},
		{desc: "text in a toolUse block is an error", decide: pipelinetest.Decide(t), wantErr: "does not fit content block",
			in: bytes.Join([][]byte{event(t, "messageStart", `{"role":"assistant"}`),
				event(t, "contentBlockStart", `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"tooluse_1","name":"bash"}}}`),
				event(t, "contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"rm -rf ~"}}`),
				event(t, "messageStop", `{"stopReason":"tool_use"}`)}, nil)},
		{desc: "a text-only stream cut before messageStop is an error", in: textCut, decide: pipelinetest.Decide(t), wantErr: "ended before its finish"},
		{desc: "an empty stream is an error", in: nil, decide: pipelinetest.Decide(t), wantErr: "ended before its finish"},
		{desc: "a stream cut inside a message is an error", in: cut[:len(cut)-3], decide: pipelinetest.Decide(t), wantErr: "inside a message"},
		{desc: "a corrupted message is an error", in: append([]byte{0, 0, 0, 20}, make([]byte, 16)...), decide: pipelinetest.Decide(t), wantErr: "event-stream message"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := bedrock.GuardStream(bytes.NewReader(tt.in), &out, nil, tt.decide, nil)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			if bytes.Contains(out.Bytes(), []byte("tooluse_")) {
				t.Error("a held tool call reached the client")
			}
		})
	}
}

func TestStreamExceptionReadsAsModelStreamError(t *testing.T) {
	t.Parallel()
	body := append(event(t, "messageStart", `{"role":"assistant"}`), bedrock.StreamException("Warden stopped this response: no tools today")...)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	client := bedrockruntime.New(bedrockruntime.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", ""), HTTPClient: srv.Client()})
	out, err := client.ConverseStream(context.Background(), &bedrockruntime.ConverseStreamInput{ModelId: aws.String("m"),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "hi"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	stream := out.GetStream()
	for range stream.Events() {
	}
	var streamErr *types.ModelStreamErrorException
	if err := stream.Err(); !errors.As(err, &streamErr) || streamErr.ErrorMessage() != "Warden stopped this response: no tools today" {
		t.Errorf("the SDK reads %v (%T)", err, err)
	}
}

func TestGuardStreamGate(t *testing.T) {
	t.Parallel()
	pipelinetest.GateBehaviours(t, pipelinetest.StreamFormat{
		Build: func(deltas ...string) []byte {
			s := [][]byte{event(t, "messageStart", `{"role":"assistant","p":"abc"}`)}
			for _, d := range deltas {
				b, _ := json.Marshal(d)
				s = append(s, event(t, "contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":`+string(b)+`},"p":"ab"}`))
			}
			s = append(s, event(t, "contentBlockStop", `{"contentBlockIndex":0}`), event(t, "messageStop", `{"stopReason":"end_turn"}`),
				event(t, "metadata", `{"usage":{"inputTokens":10,"outputTokens":5,"totalTokens":15},"metrics":{"latencyMs":100}}`))
			return bytes.Join(s, nil)
		},
		Guard: bedrock.GuardStream,
		Text:  func(t *testing.T, out []byte) string { return converseStream(t, out).text },
	})
}
