package mcpproxy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/agentwarden/warden/policy/oap"
	"github.com/redis/go-redis/v9"
)

// PinStore remembers what a model read of each tool when the tool was first listed: a digest of its
// title, description and schemas, by server and tool. A tool whose digest later differs changed under
// the user (a "rug pull": a server that earned trust with a harmless description swaps in a malicious
// one). Implementations are safe for concurrent use.
type PinStore interface {
	// Pin records digest for key when key has none (or when replace is set) and gives the digest
	// recorded before the call, "" when there was none.
	Pin(ctx context.Context, key, digest string, replace bool) (before string, err error)
}

// toolDigest is the digest a tool is pinned by: SHA-256 of the canonical JSON (RFC 8785) of what a model
// reads of it, so that a server re-ordering its schema's members does not read as a change.
func toolDigest(t *listedTool) (string, error) {
	v := map[string]json.RawMessage{}
	for k, s := range map[string]string{"title": t.Title, "description": t.Description} {
		b, _ := json.Marshal(s)
		v[k] = b
	}
	for k, raw := range map[string]json.RawMessage{"inputSchema": t.InputSchema, "outputSchema": t.OutputSchema} {
		if len(raw) > 0 {
			v[k] = raw
		}
	}
	doc, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	canon, err := oap.Canonical(doc)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// FilePins keeps pins in a JSON file, written whole to a temporary file and renamed over the old one on
// each new pin, merged with what other processes wrote since it was read, so that several `warden mcp`
// processes can share one file. It is safe for concurrent use.
type FilePins struct {
	path string

	mu   sync.Mutex
	pins map[string]string
}

var _ PinStore = (*FilePins)(nil)

// pinFile is the file's shape.
type pinFile struct {
	Version int               `json:"version"`
	Pins    map[string]string `json:"pins"`
}

// OpenFilePins reads the pins at path; a missing file is an empty set, created at the first pin.
func OpenFilePins(path string) (*FilePins, error) {
	pins, err := readPins(path)
	if err != nil {
		return nil, err
	}
	return &FilePins{path: path, pins: pins}, nil
}

func readPins(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	var f pinFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: not a pin file: %w", path, err)
	}
	if f.Version != 1 {
		return nil, fmt.Errorf("%s: pin file version %d, want 1", path, f.Version)
	}
	if f.Pins == nil {
		f.Pins = map[string]string{}
	}
	return f.Pins, nil
}

// Pin implements PinStore.
func (p *FilePins) Pin(_ context.Context, key, digest string, replace bool) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	before := p.pins[key]
	if before == digest || before != "" && !replace {
		return before, nil
	}
	// Another process may have pinned since this one read the file: its pins are kept, and its pin of
	// this very key, if any, is the one to compare with.
	onDisk, err := readPins(p.path)
	if err != nil {
		return before, err
	}
	for k, v := range onDisk {
		if _, mine := p.pins[k]; !mine {
			p.pins[k] = v
		}
	}
	if d, ok := onDisk[key]; ok && before == "" {
		before = d
		if !replace {
			return before, nil
		}
	}
	p.pins[key] = digest
	return before, p.write()
}

func (p *FilePins) write() error {
	b, err := json.MarshalIndent(pinFile{Version: 1, Pins: p.pins}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p.path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p.path), ".pins-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), p.path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// MemoryPins keeps pins in memory, for tests and for a process that pins for its own life only.
type MemoryPins struct {
	mu   sync.Mutex
	pins map[string]string
}

var _ PinStore = (*MemoryPins)(nil)

// Pin implements PinStore.
func (m *MemoryPins) Pin(_ context.Context, key, digest string, replace bool) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pins == nil {
		m.pins = map[string]string{}
	}
	before := m.pins[key]
	if before == "" || replace {
		m.pins[key] = digest
	}
	return before, nil
}

// RedisPins keeps pins in one Redis hash, so that every replica of a gateway, and every machine, pins
// alike: a tool's first listing anywhere pins it everywhere. It is safe for concurrent use.
type RedisPins struct {
	client redis.UniversalClient
	key    string
}

var _ PinStore = (*RedisPins)(nil)

// NewRedisPins keeps pins in the hash key of client.
func NewRedisPins(client redis.UniversalClient, key string) *RedisPins {
	return &RedisPins{client: client, key: key}
}

// Pin implements PinStore: HSETNX pins a tool once, atomically, whichever replica lists it first.
func (p *RedisPins) Pin(ctx context.Context, key, digest string, replace bool) (string, error) {
	if replace {
		before, err := p.client.HGet(ctx, p.key, key).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return "", err
		}
		return before, p.client.HSet(ctx, p.key, key, digest).Err()
	}
	set, err := p.client.HSetNX(ctx, p.key, key, digest).Result()
	if err != nil || set {
		return "", err
	}
	return p.client.HGet(ctx, p.key, key).Result()
}
