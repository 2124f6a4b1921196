package bedrock

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

func frame(t testing.TB, headers eventstream.Headers, payload string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := eventstream.NewEncoder().Encode(&buf, eventstream.Message{Headers: headers, Payload: []byte(payload)}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func eventHeaders(typ string) eventstream.Headers {
	var h eventstream.Headers
	h.Set(":event-type", eventstream.StringValue(typ))
	h.Set(":content-type", eventstream.StringValue("application/json"))
	h.Set(":message-type", eventstream.StringValue("event"))
	return h
}

func TestScanFrame(t *testing.T) {
	t.Parallel()
	good := frame(t, eventHeaders("contentBlockDelta"), `{"contentBlockIndex":0,"delta":{"text":"hi"}}`)
	corrupt := bytes.Clone(good)
	corrupt[len(corrupt)-6] ^= 1
	withInt := eventHeaders("contentBlockDelta")
	withInt.Set("x-count", eventstream.Int32Value(7))
	tests := []struct {
		desc      string
		raw       []byte
		wantOK    bool
		wantEvent string
	}{
		{desc: "a frame is read", raw: good, wantOK: true, wantEvent: "contentBlockDelta"},
		{desc: "other header types are skipped", raw: frame(t, withInt, `{}`), wantOK: true, wantEvent: "contentBlockDelta"},
		{desc: "a bad checksum is declined", raw: corrupt},
		{desc: "a truncated frame is declined", raw: good[:len(good)-1]},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			mt, et, _, ok := scanFrame(tt.raw)
			if ok != tt.wantOK || et != tt.wantEvent || (ok && mt != "event") {
				t.Errorf("scanFrame = %q, %q, %v", mt, et, ok)
			}
		})
	}
}

// FuzzScanFrame: whatever the frame scanner reads, the AWS decoder reads the same way.
func FuzzScanFrame(f *testing.F) {
	f.Add(frame(f, eventHeaders("contentBlockDelta"), `{"contentBlockIndex":0,"delta":{"text":"hi"}}`))
	f.Add(frame(f, eventHeaders("messageStop"), `{"stopReason":"end_turn"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		mt, et, payload, ok := scanFrame(raw)
		if !ok {
			return
		}
		m, err := eventstream.NewDecoder().Decode(bytes.NewReader(raw), nil)
		if err != nil {
			t.Fatalf("the scanner read a frame the AWS decoder rejects: %v", err)
		}
		if header(m, ":message-type") != mt || header(m, ":event-type") != et || !bytes.Equal(m.Payload, payload) {
			t.Fatalf("the scanner read %q %q %q; the AWS decoder %q %q %q", mt, et, payload, header(m, ":message-type"), header(m, ":event-type"), m.Payload)
		}
	})
}

// FuzzScanTextDelta: whatever the payload scanner reads, encoding/json reads the same way.
func FuzzScanTextDelta(f *testing.F) {
	f.Add(`{"contentBlockIndex":3,"delta":{"text":"hi"},"p":"abcdef"}`)
	f.Add(`{"contentBlockIndex":0,"delta":{"text":"a"}}`)
	f.Fuzz(func(t *testing.T, payload string) {
		index, text, ok := scanTextDelta([]byte(payload))
		if !ok {
			return
		}
		var p streamPayload
		if err := json.Unmarshal([]byte(payload), &p); err != nil {
			t.Fatalf("the scanner read %q, encoding/json rejects it: %v", payload, err)
		}
		if p.ContentBlockIndex == nil || *p.ContentBlockIndex != index || p.Delta == nil || p.Delta.Text == nil || *p.Delta.Text != text || p.Delta.ToolUse != nil || p.Start != nil || p.StopReason != nil {
			t.Fatalf("the scanner read %d %q from %q; encoding/json %+v", index, text, payload, p)
		}
	})
}
