package mcpproxy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Conn carries whole messages between the proxy and one peer. ReadMessage returns the bytes of the next
// message (io.EOF once the peer is gone); WriteMessage sends one. Reads come from one goroutine; writes
// may come from several and must not interleave.
type Conn interface {
	ReadMessage() ([]byte, error)
	WriteMessage([]byte) error
	Close() error
}

// DefaultMaxMessage bounds one message read from a peer, as the official SDKs bound theirs.
const DefaultMaxMessage = 16 << 20

// StreamConn is MCP's stdio framing: one JSON-RPC message a line, UTF-8, no embedded newline. It is safe
// for one reader and any number of writers.
type StreamConn struct {
	r   *bufio.Reader
	max int

	mu     sync.Mutex
	w      io.Writer
	closer func() error
}

var _ Conn = (*StreamConn)(nil)

// NewStreamConn reads messages from r and writes them to w. max bounds a message (DefaultMaxMessage when
// zero); close, when not nil, is what Close calls.
func NewStreamConn(r io.Reader, w io.Writer, max int, close func() error) *StreamConn {
	if max <= 0 {
		max = DefaultMaxMessage
	}
	return &StreamConn{r: bufio.NewReader(r), w: w, max: max, closer: close}
}

// ReadMessage returns the next non-empty line without its line ending. A line longer than the limit is
// skipped whole and reported as errTooLong, so that the next read starts at the next message; no more than
// the limit and its line ending is ever held.
func (c *StreamConn) ReadMessage() ([]byte, error) {
	for {
		var line []byte
		tooLong, end := false, false
		for !end {
			chunk, err := c.r.ReadSlice('\n')
			switch {
			case err == bufio.ErrBufferFull:
			case err == io.EOF && (len(line) > 0 || len(chunk) > 0):
				end = true // a last message without its newline
			case err != nil:
				return nil, err
			default:
				end = true
			}
			if !tooLong && len(line)+len(chunk) > c.max+2 { // the limit, with room for "\r\n"
				tooLong, line = true, nil
			}
			if !tooLong {
				line = append(line, chunk...)
			}
		}
		line = bytes.TrimRight(line, "\r\n")
		if tooLong || len(line) > c.max {
			return nil, fmt.Errorf("%w (%d bytes)", errTooLong, c.max)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		return line, nil
	}
}

// WriteMessage writes msg and a newline in one write.
func (c *StreamConn) WriteMessage(msg []byte) error {
	if bytes.IndexByte(msg, '\n') >= 0 {
		return errors.New("a stdio message cannot hold a newline")
	}
	buf := make([]byte, 0, len(msg)+1)
	buf = append(append(buf, msg...), '\n')
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.w.Write(buf)
	return err
}

// Close calls the close function given to NewStreamConn.
func (c *StreamConn) Close() error {
	if c.closer == nil {
		return nil
	}
	return c.closer()
}
