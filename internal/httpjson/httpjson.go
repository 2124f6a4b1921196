// Package httpjson posts a JSON body and reads a bounded answer: the one HTTP exchange that the guardrails
// which call out (judge, webhook) share. It never logs and never retries; callers decide what failures mean.
package httpjson

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
)

// MaxAnswer bounds what is read of an answer.
const MaxAnswer = 1 << 20

// StatusError is a non-2xx answer; Body holds what was read of it.
type StatusError struct {
	Status string
	Body   []byte
}

func (e *StatusError) Error() string { return "answered " + e.Status }

// Post sends body to url with Content-Type application/json and the given headers; prepare, when set, may
// add more (a signature over the body, say). It returns the answer's body for a 2xx status, and a
// *StatusError otherwise.
func Post(ctx context.Context, client *http.Client, url string, body []byte, headers map[string]string, prepare func(*http.Request)) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	if prepare != nil {
		prepare(req)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxAnswer))
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, &StatusError{Status: resp.Status, Body: raw}
	}
	return raw, nil
}
