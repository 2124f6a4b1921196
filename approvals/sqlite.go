package approvals

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // pure Go SQLite: no cgo, so the binary stays static
)

// SQLite is a Store in an SQLite database file, so that requests and approvals survive a restart. Several
// processes may share the file (WAL mode, immediate transactions); those on other machines share Redis.
type SQLite struct {
	db *sql.DB
	// Retention is how long a finished record stays listed; zero means 30 days.
	Retention time.Duration
}

var _ Store = (*SQLite)(nil)

const schema = `
CREATE TABLE IF NOT EXISTS approvals (
	id        TEXT PRIMARY KEY,
	digest    TEXT NOT NULL,
	principal TEXT NOT NULL,
	tool      TEXT NOT NULL,
	arguments BLOB NOT NULL,
	guardrail TEXT NOT NULL,
	code      TEXT NOT NULL,
	reason    TEXT NOT NULL,
	status    TEXT NOT NULL,
	created   INTEGER NOT NULL,
	expires   INTEGER NOT NULL,
	approver  TEXT NOT NULL DEFAULT '',
	note      TEXT NOT NULL DEFAULT '',
	decided   INTEGER NOT NULL DEFAULT 0,
	used      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS approvals_live ON approvals (digest, status, expires);
CREATE INDEX IF NOT EXISTS approvals_created ON approvals (created);
`

// OpenSQLite opens (creating if needed) the database at path; its directory is created with mode 0700,
// since the records hold tool arguments.
func OpenSQLite(path string) (*SQLite, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("approvals: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("approvals: open %s: %w", path, err)
	}
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("approvals: open %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		db.Close()
		return nil, fmt.Errorf("approvals: %w", err)
	}
	return &SQLite{db: db}, nil
}

// Close closes the database.
func (s *SQLite) Close() error { return s.db.Close() }

const columns = `id, digest, principal, tool, arguments, guardrail, code, reason, status, created, expires, approver, note, decided, used`

type scanner interface{ Scan(dest ...any) error }

func scanRecord(row scanner) (Record, error) {
	var r Record
	var args []byte
	var status string
	var created, expires, decided, used int64
	err := row.Scan(&r.ID, &r.Digest, &r.Principal, &r.Tool, &args, &r.Guardrail, &r.Code, &r.Reason, &status, &created, &expires, &r.Approver, &r.Note, &decided, &used)
	if err != nil {
		return r, err
	}
	r.Arguments, r.Status = args, Status(status)
	r.Created, r.Expires, r.Decided, r.Used = fromMillis(created), fromMillis(expires), fromMillis(decided), fromMillis(used)
	return r, nil
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func toMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// Resolve implements Store. It runs in one immediate transaction, so two processes resolving one binding
// at once are serialized by SQLite's write lock.
func (s *SQLite) Resolve(ctx context.Context, req Record, now time.Time) (Record, Resolution, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Record{}, 0, fmt.Errorf("approvals: %w", err)
	}
	defer tx.Rollback()
	live, err := scanRecord(tx.QueryRowContext(ctx, `SELECT `+columns+` FROM approvals
		WHERE digest = ? AND status IN ('pending', 'approved', 'denied') AND expires > ?
		ORDER BY created DESC LIMIT 1`, req.Digest, toMillis(now)))
	var res Resolution
	switch {
	case err == nil && live.Status == StatusApproved:
		if _, err := tx.ExecContext(ctx, `UPDATE approvals SET status = 'used', used = ? WHERE id = ? AND status = 'approved'`, toMillis(now), live.ID); err != nil {
			return Record{}, 0, fmt.Errorf("approvals: %w", err)
		}
		live.Status, live.Used, res = StatusUsed, now, Granted
	case err == nil && live.Status == StatusPending:
		return live, Waiting, nil
	case err == nil && live.Status == StatusDenied:
		return live, Refused, nil
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO approvals (`+columns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			req.ID, req.Digest, req.Principal, req.Tool, []byte(req.Arguments), req.Guardrail, req.Code, req.Reason, string(StatusPending),
			toMillis(req.Created), toMillis(req.Expires), "", "", 0, 0); err != nil {
			return Record{}, 0, fmt.Errorf("approvals: %w", err)
		}
		if err := s.prune(ctx, tx, now); err != nil {
			return Record{}, 0, err
		}
		live, res = req, Filed
	default:
		return Record{}, 0, fmt.Errorf("approvals: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Record{}, 0, fmt.Errorf("approvals: %w", err)
	}
	return live, res, nil
}

func (s *SQLite) prune(ctx context.Context, tx *sql.Tx, now time.Time) error {
	keep := s.Retention
	if keep <= 0 {
		keep = 30 * 24 * time.Hour
	}
	cut := toMillis(now.Add(-keep))
	_, err := tx.ExecContext(ctx, `DELETE FROM approvals WHERE (status = 'used' AND used < ?) OR (status != 'used' AND expires < ?)`, cut, cut)
	if err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	return nil
}

// Decide implements Store.
func (s *SQLite) Decide(ctx context.Context, id string, v Verdict, now, expires time.Time) (Record, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Record{}, fmt.Errorf("approvals: %w", err)
	}
	defer tx.Rollback()
	r, err := scanRecord(tx.QueryRowContext(ctx, `SELECT `+columns+` FROM approvals WHERE id = ?`, id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Record{}, ErrNotFound
	case err != nil:
		return Record{}, fmt.Errorf("approvals: %w", err)
	}
	switch r.StatusAt(now) {
	case StatusPending:
	case StatusExpired:
		return r, ErrExpired
	default:
		return r, ErrDecided
	}
	r.Status = StatusDenied
	if v.Approve {
		r.Status = StatusApproved
	}
	r.Approver, r.Note, r.Decided, r.Expires = v.Approver, v.Note, now, expires
	if _, err := tx.ExecContext(ctx, `UPDATE approvals SET status = ?, approver = ?, note = ?, decided = ?, expires = ? WHERE id = ?`,
		string(r.Status), r.Approver, r.Note, toMillis(now), toMillis(expires), id); err != nil {
		return Record{}, fmt.Errorf("approvals: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Record{}, fmt.Errorf("approvals: %w", err)
	}
	return r, nil
}

// Get implements Store.
func (s *SQLite) Get(ctx context.Context, id string) (Record, error) {
	r, err := scanRecord(s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM approvals WHERE id = ?`, id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Record{}, ErrNotFound
	case err != nil:
		return Record{}, fmt.Errorf("approvals: %w", err)
	}
	return r, nil
}

// List implements Store.
func (s *SQLite) List(ctx context.Context, q Query) ([]Record, error) {
	query, args := `SELECT `+columns+` FROM approvals`, []any{}
	if q.Pending {
		query += ` WHERE status = 'pending' AND expires > ?`
		args = append(args, toMillis(q.Now))
	}
	query += ` ORDER BY created DESC, id DESC LIMIT ?`
	args = append(args, limit(q))
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("approvals: %w", err)
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, fmt.Errorf("approvals: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
