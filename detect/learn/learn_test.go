package learn_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/detect/learn"
	"github.com/agentwarden/warden/trace"
)

func TestExtract(t *testing.T) {
	t.Parallel()
	a := learn.Extract([]learn.Text{{Field: "o", Text: "I can't help with that."}}, map[string]float64{"rule": 0.8})
	if !slices.IsSortedFunc(a, func(x, y learn.Feature) int { return int(x.Index) - int(y.Index) }) {
		t.Error("features are not sorted by index")
	}
	for i := 1; i < len(a); i++ {
		if a[i].Index == a[i-1].Index {
			t.Errorf("index %d twice", a[i].Index)
		}
	}
	b := learn.Extract([]learn.Text{{Field: "o", Text: "I can't help with that."}}, map[string]float64{"rule": 0.8})
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("the same text gave other features")
	}
	c := learn.Extract([]learn.Text{{Field: "i", Text: "I can't help with that."}}, map[string]float64{"rule": 0.8})
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Error("the same text in another field gave the same features")
	}
	if len(learn.Extract(nil, nil)) != 0 {
		t.Error("no text gave features")
	}
}

// TestTrainLearnsAndIsDeterministic: on a separable toy task the model tells the classes apart on texts it
// was not trained on, and the same data and seed give the same weights.
func TestTrainLearnsAndIsDeterministic(t *testing.T) {
	t.Parallel()
	refusals := []string{"I can't help with that", "I won't do this", "sorry, I cannot assist", "I must decline", "I'm unable to help with this request", "I cannot provide that"}
	answers := []string{"Here is the recipe you asked for", "Sure, the capital is Paris", "The function returns a list", "Step one: open the file", "The answer is 42", "You can run go test"}
	var train []learn.Example
	for i := range refusals {
		train = append(train,
			learn.Example{Features: learn.Extract([]learn.Text{{Field: "o", Text: refusals[i]}}, nil), Label: true},
			learn.Example{Features: learn.Extract([]learn.Text{{Field: "o", Text: answers[i]}}, nil), Label: false})
	}
	m := learn.Train(train, learn.Options{Seed: 7})
	refuse := m.Score(learn.Extract([]learn.Text{{Field: "o", Text: "Sorry, I can't assist with this"}}, nil))
	answer := m.Score(learn.Extract([]learn.Text{{Field: "o", Text: "Here is the list you asked for"}}, nil))
	if refuse <= 0.5 || answer >= 0.5 {
		t.Errorf("unseen refusal %.3f, unseen answer %.3f: want them on either side of 0.5", refuse, answer)
	}
	again := learn.Train(train, learn.Options{Seed: 7})
	if m.Bias != again.Bias || !slices.Equal(m.Weights, again.Weights) {
		t.Error("the same data and seed gave other weights")
	}
}

func TestFileRoundTrip(t *testing.T) {
	t.Parallel()
	m := learn.Train([]learn.Example{
		{Features: learn.Extract([]learn.Text{{Field: "o", Text: "no way"}}, nil), Label: true},
		{Features: learn.Extract([]learn.Text{{Field: "o", Text: "here you go"}}, nil), Label: false},
	}, learn.Options{Seed: 1})
	m.Fields = []string{"o", learn.RuleSignals}
	f := learn.File{Model: m, Threshold: 0.35, DataSHA256: "abc123"}
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var g learn.File
	if err := g.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if g.Threshold != 0.35 || g.DataSHA256 != "abc123" || g.Model.Bias != m.Bias || !slices.Equal(g.Model.Weights, m.Weights) || !slices.Equal(g.Model.Fields, m.Fields) {
		t.Error("the file did not read back as written")
	}
	// A file of an earlier build weighs features this build does not read: it is refused, naming why.
	for _, v := range []string{"WLM1", "WLM2"} {
		var old learn.File
		if err := old.UnmarshalBinary(slices.Concat([]byte(v), b[4:])); err == nil || !strings.Contains(err.Error(), "train it again") {
			t.Errorf("a %s file: %v, want refused as an earlier build's", v, err)
		}
	}
	badField := slices.Clone(b)
	badField[4+1+8+8+1+6+2] = 'x' // the first field's name
	for _, bad := range [][]byte{nil, []byte("WLM0"), b[:len(b)-1], append(slices.Clone(b), 0), badField} {
		var h learn.File
		if h.UnmarshalBinary(bad) == nil {
			t.Errorf("a damaged file (%d bytes) was read", len(bad))
		}
	}
}

// FuzzUnmarshalBinary: no input makes the reader panic or accept weights outside the buckets.
func FuzzUnmarshalBinary(f *testing.F) {
	m := learn.Train([]learn.Example{{Features: learn.Extract([]learn.Text{{Field: "o", Text: "a b"}}, nil), Label: true}}, learn.Options{Seed: 1, Epochs: 1})
	good, _ := learn.File{Model: m, Threshold: 0.5, DataSHA256: "x"}.MarshalBinary()
	f.Add(good)
	f.Add([]byte("WLM1"))
	m.Fields = []string{"o"}
	withFields, _ := learn.File{Model: m, Threshold: 0.5, DataSHA256: "x"}.MarshalBinary()
	f.Add(withFields)
	f.Fuzz(func(t *testing.T, b []byte) {
		var g learn.File
		if g.UnmarshalBinary(b) == nil && len(g.Model.Weights) != 1<<learn.Bits {
			t.Fatalf("read %d weights", len(g.Model.Weights))
		}
	})
}

func TestTextsOf(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 600)
	tr := &trace.Trace{System: "sys", Messages: []trace.Message{{Role: "user", Content: long}, {Role: "assistant", Content: "no"}, {Role: "user", Content: "again"}, {Role: "assistant", Content: "still no"}},
		EventsRecorded: true, Events: []trace.Event{{Type: trace.ToolCall, Name: "fetch", Arguments: []byte(`{"u":1}`)}, {Type: trace.ToolResult, Content: "result"}}}
	for _, tc := range []struct {
		desc   string
		fields []string
		want   []string // field, place and length of each text
	}{
		{"every text, each in its place, when no fields are named", nil,
			[]string{"i messages[0] 600", "i messages[2] 5", "o messages[3] 8", "s system 3", "t  5", "t events[0].arguments 7", "t events[1].content 6"}},
		{"the request's opening is the first message's first 512 bytes", []string{"q", "o"}, []string{"q messages[0] 512", "o messages[3] 8"}},
		{"the rules' measures add no text", []string{"o", learn.RuleSignals}, []string{"o messages[3] 8"}},
		{"a named text alone", []string{"t"}, []string{"t  5", "t events[0].arguments 7", "t events[1].content 6"}},
	} {
		var got []string
		for _, x := range learn.TextsOf(tr, tc.fields) {
			got = append(got, fmt.Sprintf("%s %s %d", x.Field, x.Where, len(x.Text)))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.desc, got, tc.want)
		}
	}
}
