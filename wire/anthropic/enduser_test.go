package anthropic_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentwarden/warden/wire/anthropic"
	sdk "github.com/anthropics/anthropic-sdk-go"
)

func TestEndUser(t *testing.T) {
	t.Parallel()
	params := func(user string) string {
		p := sdk.MessageNewParams{Model: "claude-sonnet-4-5", MaxTokens: 100, Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("hi"))}}
		if user != "" {
			p.Metadata = sdk.MetadataParam{UserID: sdk.String(user)}
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		desc, body string
		want       string
		wantErr    string
	}{
		{desc: "metadata.user_id from anthropic-sdk-go is read", body: params("u-hash-1"), want: "u-hash-1"},
		{desc: "no metadata is no end user", body: params("")},
		{desc: "a body that is not JSON is an error", body: `[`, wantErr: "not a request body"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got, err := anthropic.EndUser([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("EndUser = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestWithEndUser(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, body, id, want string
	}{
		{desc: "an anonymous request gets metadata", body: `{"model":"m","max_tokens":10}`, id: "u1", want: `{"model":"m","max_tokens":10,"metadata":{"user_id":"u1"}}`},
		{desc: "other metadata fields are kept", body: `{"metadata":{"trace":"t-1"},"model":"m"}`, id: "u1", want: `{"metadata":{"trace":"t-1","user_id":"u1"},"model":"m"}`},
		{desc: "a request that names a user is left as it came", body: `{"metadata": {"user_id": "client"}}`, id: "u1", want: `{"metadata": {"user_id": "client"}}`},
		{desc: "a null metadata is replaced", body: `{"metadata":null}`, id: "u1", want: `{"metadata":{"user_id":"u1"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got, err := anthropic.WithEndUser([]byte(tt.body), tt.id)
			if err != nil || string(got) != tt.want {
				t.Errorf("WithEndUser = %s, %v; want %s", got, err, tt.want)
			}
			if id, _ := anthropic.EndUser(got); tt.id != "" && id == "" {
				t.Errorf("the result names no end user: %s", got)
			}
		})
	}
}
