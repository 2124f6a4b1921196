package openai_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentwarden/warden/wire/openai"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

func TestEndUser(t *testing.T) {
	t.Parallel()
	sdkBody := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	msgs := []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("hi")}
	tests := []struct {
		desc, body string
		wantID     string
		wantField  string
		wantErr    string
	}{
		{desc: "safety_identifier from openai-go is read", body: sdkBody(sdk.ChatCompletionNewParams{Model: "gpt-5.1", Messages: msgs, SafetyIdentifier: sdk.String("u-hash-1")}),
			wantID: "u-hash-1", wantField: "safety_identifier"},
		{desc: "the older user field is read", body: sdkBody(sdk.ChatCompletionNewParams{Model: "gpt-5.1", Messages: msgs, User: sdk.String("u-2")}),
			wantID: "u-2", wantField: "user"},
		{desc: "safety_identifier wins over user", body: `{"user":"old","safety_identifier":"new"}`, wantID: "new", wantField: "safety_identifier"},
		{desc: "a Responses request is read too", body: sdkBody(responses.ResponseNewParams{Model: "gpt-5.1", SafetyIdentifier: sdk.String("u-3")}),
			wantID: "u-3", wantField: "safety_identifier"},
		{desc: "no end user is empty", body: sdkBody(sdk.ChatCompletionNewParams{Model: "gpt-5.1", Messages: msgs})},
		{desc: "a body that is not JSON is an error", body: `{`, wantErr: "not a request body"},
		{desc: "the last of repeated fields wins", body: `{"user":"a","user":"b"}`, wantID: "b", wantField: "user"},
		{desc: "a null after a value empties the field", body: `{"safety_identifier":"a","safety_identifier":null,"user":"u"}`, wantID: "u", wantField: "user"},
		{desc: "a case variant of the key is read as encoding/json reads it", body: `{"User":"c"}`, wantID: "c", wantField: "user"},
		{desc: "an escaped id is unescaped", body: `{"model":"m","messages":[{"role":"user","content":"a\nb"}],"user":"u\u00e9"}`, wantID: "ué", wantField: "user"},
		{desc: "a number for the id is an error", body: `{"user":7}`, wantErr: "not a request body"},
		{desc: "trailing data is an error", body: `{"user":"u"} x`, wantErr: "not a request body"},
		{desc: "a deeply nested body is read", body: `{"a":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `,"user":"deep"}`, wantID: "deep", wantField: "user"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			id, field, err := openai.EndUser([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || id != tt.wantID || field != tt.wantField {
				t.Errorf("EndUser = %q, %q, %v; want %q, %q", id, field, err, tt.wantID, tt.wantField)
			}
		})
	}
}

func TestWithEndUser(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, body, id, want string
	}{
		{desc: "an anonymous request gets safety_identifier at the end", body: `{"model":"m", "messages":[{"role":"user","content":"hi"}]}`, id: "u1",
			want: `{"model":"m","messages":[{"role":"user","content":"hi"}],"safety_identifier":"u1"}`},
		{desc: "a request that names a user is left as it came", body: `{"model":"m", "user":"client-set"}`, id: "u1", want: `{"model":"m", "user":"client-set"}`},
		{desc: "an empty id changes nothing", body: `{"model":"m"}`, want: `{"model":"m"}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got, err := openai.WithEndUser([]byte(tt.body), tt.id)
			if err != nil || string(got) != tt.want {
				t.Errorf("WithEndUser = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}
