//go:build !linux

package gatewaybench

import (
	"errors"
	"os/exec"
	"time"
)

var errPinLinux = errors.New("pinning the proxies to CPUs of their own needs Linux (sched_setaffinity)")

func allowedCPUs() ([]int, error)                  { return nil, errPinLinux }
func startPinned(*exec.Cmd, []int) error           { return errPinLinux }
func pinProcess([]int) (restore func(), err error) { return nil, errPinLinux }

func measureWakes(a, b, n int) (time.Duration, error) { return 0, errPinLinux }
