// Package jsontest holds the codecs' readers to encoding/json: a codec that reads a body member by member
// from validated bytes promises json.Unmarshal's answer and error, and its differential fuzz tests check
// that promise with this package. It is for tests only, imports nothing of Warden's (so that a codec's
// internal tests can use it), and its API changes with its users.
package jsontest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ReadsAsUnmarshal fails t when a codec's reader answered got, err for data where json.Unmarshal into a T
// answers otherwise: an error exactly when encoding/json has one, in its words (a codec puts it in the
// client's error), and else the same value.
func ReadsAsUnmarshal[T any](t testing.TB, what string, data []byte, got T, err error) {
	t.Helper()
	var want T
	wantErr := json.Unmarshal(data, &want)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: %s error %v, encoding/json's %v", data, what, err, wantErr)
	}
	if diff := cmp.Diff(want, got); err == nil && diff != "" {
		t.Errorf("%q: %s (-encoding/json +read):\n%s", data, what, diff)
	}
}
