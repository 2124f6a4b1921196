//go:build !linux

package gatewaybench

// acksDelayable says this system lets a connection ask for delayed-ACK mode: TCP_QUICKACK is Linux's.
const acksDelayable = false

func askDelayedAcks(uintptr) {}
