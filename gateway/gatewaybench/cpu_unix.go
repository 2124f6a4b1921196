//go:build unix

package gatewaybench

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has spent, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
