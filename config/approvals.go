package config

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/audit"
	"github.com/redis/go-redis/v9"
	"go.yaml.in/yaml/v3"
)

// Defaults of the approvals section.
const (
	DefaultAdminListen = "127.0.0.1:8788"
	DefaultWaitTimeout = 60 * time.Second
	minKeyBytes        = 32
	minTokenLen        = 16
)

// checkApprovals applies the approvals section's rules.
func checkApprovals(a *Approvals, node *yaml.Node, errs *errorList) {
	at := func(key string) (int, int) {
		if line, col := keyPos(node, key); line > 0 {
			return line, col
		}
		return node.Line, node.Column
	}
	switch a.Store {
	case "", "sqlite", "redis", "memory":
	default:
		line, col := at("store")
		errs.add(line, col, "approvals.store", "", "unknown store %q (want sqlite, redis or memory)", a.Store)
	}
	switch a.OnAsk {
	case "", "wait", "deny":
	default:
		line, col := at("on_ask")
		errs.add(line, col, "approvals.on_ask", "", "%q is not wait or deny", a.OnAsk)
	}
	if a.TTL < 0 {
		line, col := at("ttl")
		errs.add(line, col, "approvals.ttl", "", "must be positive")
	}
	if a.WaitTimeout < 0 {
		line, col := at("wait_timeout")
		errs.add(line, col, "approvals.wait_timeout", "", "must be positive")
	}
	if a.Store == "redis" && a.Key == "" {
		line, col := at("store")
		errs.add(line, col, "approvals.key", "", "the redis store needs a key every replica shares (write key: ${WARDEN_APPROVALS_KEY})")
	}
	if a.Key != "" {
		if _, err := decodeKey(a.Key); err != nil {
			line, col := at("key")
			errs.add(line, col, "approvals.key", "", "%v", err)
		}
	}
	if w := a.Webhook; w != nil {
		wn := valueOf(node, "webhook")
		line, col := keyPos(wn, "url")
		if line == 0 {
			line, col = wn.Line, wn.Column
		}
		if u, err := url.Parse(w.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs.add(line, col, "approvals.webhook.url", "", "%q is not an http:// or https:// URL with a host", w.URL)
		}
		switch w.Format {
		case "", "json", "slack":
		default:
			line, col := keyPos(wn, "format")
			errs.add(line, col, "approvals.webhook.format", "", "%q is not json or slack", w.Format)
		}
	}
	if ad := a.Admin; ad != nil {
		an := valueOf(node, "admin")
		if len(ad.Tokens) == 0 && len(ad.Users) == 0 {
			errs.add(an.Line, an.Column, "approvals.admin", "", "name tokens or users: the page decides what runs, so it is never served without authentication")
		}
		if ad.Listen != "" {
			if _, _, err := net.SplitHostPort(ad.Listen); err != nil {
				line, col := keyPos(an, "listen")
				errs.add(line, col, "approvals.admin.listen", "", "%q is not host:port", ad.Listen)
			}
		}
		if ad.URL != "" {
			if u, err := url.Parse(ad.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				line, col := keyPos(an, "url")
				errs.add(line, col, "approvals.admin.url", "", "%q is not an http:// or https:// URL with a host", ad.URL)
			}
		}
		for _, kind := range []string{"tokens", "users"} {
			m := ad.Tokens
			if kind == "users" {
				m = ad.Users
			}
			kn := valueOf(an, kind)
			for _, name := range slices.Sorted(maps.Keys(m)) {
				line, col := keyPos(kn, name)
				if strings.TrimSpace(name) == "" || strings.ContainsAny(name, ":\r\n") {
					errs.add(line, col, "approvals.admin."+kind+"."+name, "", "an approver's name may not be empty or hold ':' or a line break")
				}
				if len(m[name]) < minTokenLen {
					errs.add(line, col, "approvals.admin."+kind+"."+name, "", "shorter than %d characters: write a long random secret, from the environment (${...})", minTokenLen)
				}
			}
		}
	}
}

// decodeKey reads a key written as hex or base64 (standard or URL alphabet, padded or not).
func decodeKey(s string) ([]byte, error) {
	for _, dec := range []func(string) ([]byte, error){hex.DecodeString, base64.StdEncoding.DecodeString, base64.RawStdEncoding.DecodeString,
		base64.URLEncoding.DecodeString, base64.RawURLEncoding.DecodeString} {
		if b, err := dec(s); err == nil {
			if len(b) < minKeyBytes {
				return nil, fmt.Errorf("the key has %d bytes; want at least %d", len(b), minKeyBytes)
			}
			return b, nil
		}
	}
	return nil, errors.New("the key is neither hex nor base64")
}

// dataDir returns the approvals' data directory: the configured one, else $XDG_STATE_HOME/warden, else
// ~/.local/state/warden.
func (a *Approvals) dataDir() (string, error) {
	if a.DataDir != "" {
		return a.DataDir, nil
	}
	if x := os.Getenv("XDG_STATE_HOME"); x != "" {
		return filepath.Join(x, "warden"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("data_dir: not set, and no home directory to default to: %w", err)
	}
	return filepath.Join(home, ".local", "state", "warden"), nil
}

// AdminURL is how people reach the admin listener.
func (a *Approvals) AdminURL() string {
	if a.Admin == nil {
		return ""
	}
	if a.Admin.URL != "" {
		return strings.TrimSuffix(a.Admin.URL, "/")
	}
	listen := a.Admin.Listen
	if listen == "" {
		listen = DefaultAdminListen
	}
	return "http://" + listen
}

// WaitFor is how long a surface holds a call for a decision under on_ask: wait.
func (a *Approvals) WaitFor() time.Duration {
	if a.WaitTimeout > 0 {
		return a.WaitTimeout.Std()
	}
	return DefaultWaitTimeout
}

// buildApprovals opens the store, the key and the events of the approvals section.
func (p *Parsed) buildApprovals(l *Loaded, auditRec *audit.Recorder) error {
	a := p.File.Approvals
	var store approvals.Store
	var dir string
	if a.Store == "" || a.Store == "sqlite" {
		var err error
		if dir, err = a.dataDir(); err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("data_dir: %w", err)
		}
	}
	switch a.Store {
	case "", "sqlite":
		s, err := approvals.OpenSQLite(filepath.Join(dir, "approvals.db"))
		if err != nil {
			return err
		}
		l.closers = append(l.closers, s)
		store = s
	case "memory":
		store = approvals.NewMemory()
	case "redis":
		addr, prefix := a.Redis.Addr, a.Redis.Prefix
		if addr == "" {
			addr = "127.0.0.1:6379"
		}
		if prefix == "" {
			prefix = "warden:approvals:"
		}
		client := redis.NewClient(&redis.Options{Addr: addr, Username: a.Redis.Username, Password: a.Redis.Password, DB: a.Redis.DB})
		l.closers = append(l.closers, client)
		s, err := approvals.NewRedis(client, prefix)
		if err != nil {
			return err
		}
		store = s
	}
	key, err := approvalKey(a.Key, dir)
	if err != nil {
		return err
	}
	var events approvals.Multi
	if auditRec != nil {
		events = append(events, audit.ApprovalEvents{Recorder: auditRec})
	}
	if w := a.Webhook; w != nil {
		l.webhook = &approvals.Webhook{URL: w.URL, Slack: w.Format == "slack", Headers: w.Headers, Timeout: w.Timeout.Std(), PageURL: a.AdminURL()}
		events = append(events, l.webhook)
	}
	svc, err := approvals.New(approvals.Config{Store: store, TTL: a.TTL.Std(), Events: events})
	if err != nil {
		return err
	}
	l.closers = append(l.closers, svc)
	l.Approvals, l.ApprovalKey = svc, key
	return nil
}

// SetAdminURL tells what links to approval pages (the webhook) where the admin listener is, once it
// listens: the configured admin.url, when set, stays.
func (l *Loaded) SetAdminURL(base string) {
	if a := l.Parsed.File.Approvals; l.webhook != nil && (a == nil || a.Admin == nil || a.Admin.URL == "") {
		l.webhook.SetPageURL(base)
	}
}

// approvalKey decodes the configured key; else it reads the key file in dir, creating it once; with no
// dir (the memory store) the key lives as long as the process, as the store does.
func approvalKey(configured, dir string) ([]byte, error) {
	if configured != "" {
		return decodeKey(configured)
	}
	if dir == "" {
		b := make([]byte, minKeyBytes)
		_, _ = rand.Read(b)
		return b, nil
	}
	path := filepath.Join(dir, "approvals.key")
	if b, err := os.ReadFile(path); err == nil {
		return decodeKey(strings.TrimSpace(string(b)))
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("key: %w", err)
	}
	// Written whole to a file of its own, then linked into place: a process starting beside this one
	// either links first (and both use its key) or finds the whole key, never a half-written one.
	b := make([]byte, minKeyBytes)
	_, _ = rand.Read(b)
	tmp, err := os.CreateTemp(dir, "approvals.key.*")
	if err != nil {
		return nil, fmt.Errorf("key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(hex.EncodeToString(b) + "\n")
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("key: %w", werr)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
		return approvalKey("", dir)
	} else if err != nil {
		return nil, fmt.Errorf("key: %w", err)
	}
	return b, nil
}

// policyVersion digests the guardrails section as loaded, so that approvals lapse when it changes.
func policyVersion(root *yaml.Node) string {
	g := valueOf(root, "guardrails")
	if g == nil {
		return ""
	}
	b, err := yaml.Marshal(g)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
