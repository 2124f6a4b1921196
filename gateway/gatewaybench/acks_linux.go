package gatewaybench

import "golang.org/x/sys/unix"

// acksDelayable says this system lets a connection ask for delayed-ACK mode.
const acksDelayable = true

// askDelayedAcks puts the socket fd in delayed-ACK mode: Linux reads TCP_QUICKACK set to 0 as "enter
// interactive mode" (tcp(7): the flag is not permanent, the protocol's own processing may switch back).
func askDelayedAcks(fd uintptr) {
	_ = unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_QUICKACK, 0)
}
