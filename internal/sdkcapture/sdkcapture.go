// Package sdkcapture records the request body an official provider SDK sends, so that request codecs are
// tested on what real clients put on the wire rather than on hand-made JSON. For tests only.
package sdkcapture

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Body starts a loopback server that answers every request with reply (as JSON), calls send with the
// server's base URL, and returns the body of the last request the SDK sent.
func Body(t testing.TB, reply []byte, send func(baseURL string)) []byte {
	t.Helper()
	var mu sync.Mutex
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		body = b
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
	}))
	defer srv.Close()
	send(srv.URL)
	mu.Lock()
	defer mu.Unlock()
	if body == nil {
		t.Fatal("the SDK sent no request")
	}
	return body
}
