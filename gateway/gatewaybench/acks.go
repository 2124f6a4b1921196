package gatewaybench

import (
	"context"
	"net"
	"net/http"
	"syscall"
)

// Delayed ACKs. A TCP receiver either acknowledges each small segment as it reads it (quick-ACK mode) or
// every other one (delayed-ACK, "interactive" mode), and Linux moves a connection between the two by its
// history: it enters delayed-ACK mode when the host sends soon after receiving (a keep-alive client's
// next request) and leaves it when its delayed-ACK timer has to send an ACK on its own, which the last
// segments of a stream can leave it to do. The ACK is sent inside the reader's read call, and on loopback
// it is the peer's receive work too: 2–4µs on the machines of docs/benchmarks.md. That made "per chunk on
// the wire" measure which mode each of the client's connections happened to be in: on one CPU the client
// acknowledged every chunk of some targets' streams and every other chunk of others', which ones
// changing from run to run, and the p50 gap between the bare proxy and Warden was 4µs of which the
// proxies' own spans held 1.5.
//
// So by default each connection the bench dials (the client's, and each proxy's to the upstream) asks
// for delayed-ACK mode before each write (TCP_QUICKACK set to 0, which Linux reads as "enter interactive
// mode"): every exchange starts in the same mode on every target, the one a keep-alive client settles
// in. Options.KernelAcks leaves the mode to the kernel. Elsewhere than Linux the option does not exist
// and the connections are left as dialed.

// delayingAcks makes every connection t dials ask for delayed-ACK mode before each write, where the
// system has such a mode; it returns t.
func delayingAcks(t *http.Transport) *http.Transport {
	if !acksDelayable {
		return t
	}
	dial := t.DialContext
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		tc, ok := c.(*net.TCPConn)
		if !ok {
			return c, nil
		}
		raw, err := tc.SyscallConn()
		if err != nil {
			c.Close()
			return nil, err
		}
		return &delayedAckConn{Conn: c, raw: raw}, nil
	}
	return t
}

// delayedAckConn asks for delayed-ACK mode before each write. It embeds net.Conn, not *net.TCPConn, so
// that no write goes around Write (a *net.TCPConn's ReadFrom would).
type delayedAckConn struct {
	net.Conn
	raw syscall.RawConn
}

func (c *delayedAckConn) Write(p []byte) (int, error) {
	// A failure leaves the connection in the kernel's mode, which is what the run would measure without
	// the option; the exchange itself is unharmed, so the write goes on.
	_ = c.raw.Control(askDelayedAcks)
	return c.Conn.Write(p)
}
