// Package approvals holds the tool calls that wait for a person, and the decisions people make on them.
//
// A guardrail that asks (warden.ActionAsk) makes the engine call Service.Resolve. The call is bound to what
// may not change between the ask and the run: the principal, the tool, the SHA-256 of its arguments in RFC
// 8785 canonical form, and the policy version. A person approves or denies the request (Service.Decide:
// the admin page, the CLI, the library); the identical call then passes exactly once, or is rejected. An
// approval lapses at its expiry; a used one never passes again.
//
// Records live in a Store: Memory for tests and single processes that may forget, SQLite in a data
// directory so that requests survive a restart, Redis so that gateway replicas share them. The store is the
// authority: an id or a token a client holds grants nothing by itself.
//
// Arguments are stored so that the approver can read them; they never enter a log or an audit event
// (Record's LogValue leaves them out).
package approvals

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/agentwarden/warden/internal/jcs"
)

// Status is where a request stands. Expired is never stored: a pending, approved or denied record past its
// expiry reads as expired (Record.StatusAt).
type Status string

// Statuses.
const (
	StatusPending  Status = "pending"
	StatusApproved Status = "approved"
	StatusDenied   Status = "denied"
	// StatusUsed is an approval a call consumed: it never passes again.
	StatusUsed    Status = "used"
	StatusExpired Status = "expired"
)

// Record is one approval request and what became of it. Times are kept to the millisecond.
type Record struct {
	ID string `json:"id"`
	// Digest is the hex SHA-256 of the binding: principal, tool, canonical arguments, policy version.
	Digest    string `json:"digest"`
	Principal string `json:"principal"`
	Tool      string `json:"tool"`
	// Arguments are the call's arguments as it carried them, for the approver to read; nowhere else.
	Arguments json.RawMessage `json:"arguments"`
	// Guardrail, Code and Reason say who asked and why.
	Guardrail string    `json:"guardrail"`
	Code      string    `json:"code"`
	Reason    string    `json:"reason"`
	Status    Status    `json:"status"`
	Created   time.Time `json:"created"`
	// Expires is when a pending request, an unused approval or a denial lapses.
	Expires time.Time `json:"expires"`
	// Approver is who decided, as the deciding surface authenticated them.
	Approver string    `json:"approver,omitempty"`
	Note     string    `json:"note,omitempty"`
	Decided  time.Time `json:"decided,omitzero"`
	Used     time.Time `json:"used,omitzero"`
}

// StatusAt is the record's status at now: a pending, approved or denied record past its expiry is expired.
func (r Record) StatusAt(now time.Time) Status {
	switch r.Status {
	case StatusPending, StatusApproved, StatusDenied:
		if !now.Before(r.Expires) {
			return StatusExpired
		}
	}
	return r.Status
}

// LogValue leaves the arguments and the note out of logs.
func (r Record) LogValue() slog.Value {
	return slog.GroupValue(slog.String("id", r.ID), slog.String("tool", r.Tool), slog.String("status", string(r.Status)),
		slog.String("guardrail", r.Guardrail), slog.String("code", r.Code), slog.Int("arguments_bytes", len(r.Arguments)))
}

// Resolution is what Store.Resolve did.
type Resolution uint8

// Resolutions.
const (
	// Filed: nothing was live for the binding, so the request was stored as pending.
	Filed Resolution = iota + 1
	// Waiting: a pending request for the binding already exists.
	Waiting
	// Granted: an approval for the binding existed and this call consumed it.
	Granted
	// Refused: a person denied the binding, and the denial has not lapsed.
	Refused
)

// Verdict is a person's decision on a request.
type Verdict struct {
	Approve bool
	// Approver names who decided, as the deciding surface authenticated them. Required.
	Approver string
	// Note is optional; a denial's note is what the model reads.
	Note string
}

// Query selects records for List.
type Query struct {
	// Pending keeps only requests still waiting at Now.
	Pending bool
	Now     time.Time
	// Limit bounds the answer; zero means 100.
	Limit int
}

// Store keeps records. Implementations are safe for concurrent use, and every method is atomic: of two
// identical calls resolved at once against one approval, exactly one is Granted.
//
// At most one record per digest is live (pending, approved or denied, and not expired) at a time: Resolve
// files a request only when none is.
type Store interface {
	// Resolve consumes the live approval for req.Digest (Granted), reports a live pending request (Waiting)
	// or denial (Refused), or stores req as pending (Filed). It returns the record it acted on.
	Resolve(ctx context.Context, req Record, now time.Time) (Record, Resolution, error)
	// Decide moves a pending, unexpired request to approved or denied, stamped with now, expiring at
	// expires. A request not pending fails with ErrDecided, an expired one with ErrExpired.
	Decide(ctx context.Context, id string, v Verdict, now, expires time.Time) (Record, error)
	// Get returns one record, or ErrNotFound.
	Get(ctx context.Context, id string) (Record, error)
	// List returns records, newest first.
	List(ctx context.Context, q Query) ([]Record, error)
}

// Watcher is optional for stores shared between processes: Watch delivers the id of every request decided
// by any of them, until ctx ends. Service.Await wakes on it; without it a process learns of another's
// decisions by polling.
type Watcher interface {
	Watch(ctx context.Context) (<-chan string, error)
}

// Errors of Decide and Get.
var (
	ErrNotFound = errors.New("no such approval request")
	ErrDecided  = errors.New("the approval request was already decided")
	ErrExpired  = errors.New("the approval request expired")
)

// Bind returns the digest an approval is bound to: the hex SHA-256 of the principal, the tool, the SHA-256
// of the arguments in RFC 8785 canonical form, and the policy version, each length-prefixed so that no two
// bindings share their bytes. Arguments that are not I-JSON (a member named twice) are an error: they could
// be approved under one reading and run under another.
func Bind(principal, tool string, arguments []byte, policy string) (string, error) {
	canon, err := jcs.Canonical(arguments)
	if err != nil {
		return "", fmt.Errorf("approval binding: arguments: %w", err)
	}
	args := sha256.Sum256(canon)
	h := sha256.New()
	for _, f := range [][]byte{[]byte("warden approval v1"), []byte(principal), []byte(tool), args[:], []byte(policy)} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write(f)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// newID returns an unguessable request id.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "apr_" + hex.EncodeToString(b[:])
}

// millis keeps a time to the millisecond, as every store does, so that a record reads back as written.
func millis(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return time.UnixMilli(t.UnixMilli()).UTC()
}
