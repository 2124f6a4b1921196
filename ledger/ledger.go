// Package ledger counts provider safety terminations per end user and blocks repeat offenders before their
// requests reach the provider. Providers attribute policy violations to the API key and may suspend the
// whole account for one user's requests (seed 000); the ledger lets a gateway stop that user first.
//
// Two backends: Memory, for one process, and Redis, so that every gateway replica shares one ledger. Both
// take the time from the caller, so tests and replays are deterministic. End-user ids are never stored as
// they are: keys hold a hash.
package ledger

import (
	"context"
	"crypto/sha256"
	"errors"
	"time"
)

// Policy says when a user is blocked: MaxViolations within Window block the user for BlockFor.
type Policy struct {
	MaxViolations int
	Window        time.Duration
	BlockFor      time.Duration
}

// Validate checks the policy.
func (p Policy) Validate() error {
	switch {
	case p.MaxViolations < 1:
		return errors.New("max_violations: at least 1")
	case p.Window <= 0:
		return errors.New("window: must be positive")
	case p.BlockFor <= 0:
		return errors.New("block_for: must be positive")
	}
	return nil
}

// Status is what the ledger knows of a user.
type Status struct {
	// Violations counts the violations within the window.
	Violations int
	// BlockedUntil is when the block ends; zero when the user is not blocked.
	BlockedUntil time.Time
}

// Ledger is a violation ledger. Implementations are safe for concurrent use.
type Ledger interface {
	// Record counts one violation by user at now and returns when the user's block ends (zero when the
	// user is not blocked).
	Record(ctx context.Context, user string, now time.Time) (time.Time, error)
	// Blocked reports whether user is blocked at now, and until when. It is on every request's path.
	Blocked(ctx context.Context, user string, now time.Time) (time.Time, bool, error)
	// Status reports a user's violations and block, for operators.
	Status(ctx context.Context, user string, now time.Time) (Status, error)
	// Clear forgets a user's violations and lifts the block.
	Clear(ctx context.Context, user string) error
}

// key hashes an end-user id, so the ledger never stores the id itself.
func key(user string) [16]byte {
	sum := sha256.Sum256([]byte(user))
	return [16]byte(sum[:16])
}
