package streamend_test

import (
	"errors"
	"testing"

	"github.com/agentwarden/warden/wire/internal/streamend"
	"github.com/agentwarden/warden/wire/sse"
)

func TestEvent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc     string
		ev       sse.Event
		finished bool
		wantErr  bool
	}{
		{"a whole data event passes", sse.Event{HasData: true, Data: "{}"}, false, false},
		{"a comment passes", sse.Event{Comments: []string{" ping"}}, false, false},
		{"an unknown line is refused", sse.Event{Unknown: true}, false, true},
		{"an unknown line is refused after the finish too", sse.Event{Unknown: true}, true, true},
		{"an event broken off before the finish is refused", sse.Event{HasData: true, Incomplete: true}, false, true},
		{"a last event without its blank line after the finish passes", sse.Event{HasData: true, Incomplete: true}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if err := streamend.Event(tt.ev, tt.finished); (err != nil) != tt.wantErr {
				t.Errorf("err = %v, want error %v", err, tt.wantErr)
			}
		})
	}
}

func TestEnd(t *testing.T) {
	t.Parallel()
	if err := streamend.End(true); err != nil {
		t.Errorf("after the finish: %v, want nil", err)
	}
	if err := streamend.End(false); !errors.Is(err, streamend.ErrUnfinished) {
		t.Errorf("before the finish: %v, want ErrUnfinished", err)
	}
}
