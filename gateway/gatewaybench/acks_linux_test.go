package gatewaybench

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// quickAcks reads a connection's ACK mode: Linux answers TCP_QUICKACK with 1 in quick-ACK mode and 0 in
// delayed-ACK (interactive) mode.
func quickAcks(t *testing.T, c net.Conn) int {
	t.Helper()
	var raw syscall.RawConn
	var err error
	switch c := c.(type) {
	case *delayedAckConn:
		raw = c.raw
	case *net.TCPConn:
		raw, err = c.SyscallConn()
	default:
		t.Fatalf("dialed a %T", c)
	}
	if err != nil {
		t.Fatal(err)
	}
	v := -1
	if cerr := raw.Control(func(fd uintptr) { v, err = unix.GetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_QUICKACK) }); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestDialedConnectionsAskForDelayedAcks(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	for _, tc := range []struct {
		desc        string
		o           Options
		afterWrites int // the mode after each write, as TCP_QUICKACK reads
	}{
		{"by default a connection is in delayed-ACK mode after each write", Options{}, 0},
		{"with KernelAcks a connection keeps the kernel's mode (quick ACKs while it is new)", Options{KernelAcks: true}, 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			tr := tc.o.dialing(tunedTransport())
			c, err := tr.DialContext(context.Background(), "tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if got := quickAcks(t, c); got != 1 {
				t.Fatalf("a new connection reads TCP_QUICKACK %d, want 1 (the kernel starts in quick-ACK mode)", got)
			}
			for i := range 3 {
				if _, err := c.Write([]byte("GET / HTTP/1.1\r\n")); err != nil {
					t.Fatal(err)
				}
				if got := quickAcks(t, c); got != tc.afterWrites {
					t.Errorf("after write %d TCP_QUICKACK reads %d, want %d", i+1, got, tc.afterWrites)
				}
			}
		})
	}
}

// A transport that asks for delayed ACKs still carries whole HTTP exchanges, request bodies included:
// nothing it writes goes around the connection's Write.
func TestDelayingAcksCarriesExchanges(t *testing.T) {
	bodies := make(chan string, 2)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies <- string(b)
		io.WriteString(w, "ok")
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	client := &http.Client{Transport: delayingAcks(tunedTransport())}
	for _, body := range []string{"{}", string(make([]byte, 1<<20))} {
		resp, err := client.Post("http://"+ln.Addr().String(), "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != "ok" {
			t.Errorf("answer %q", b)
		}
	}
	if small, large := <-bodies, <-bodies; small != "{}" || len(large) != 1<<20 {
		t.Errorf("the server read bodies of %d and %d bytes, want 2 and %d", len(small), len(large), 1<<20)
	}
}
