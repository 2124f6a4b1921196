//go:build linux

package gatewaybench

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// allowedCPUs lists the CPUs this process may run on, in order.
func allowedCPUs() ([]int, error) {
	var s unix.CPUSet
	if err := unix.SchedGetaffinity(0, &s); err != nil {
		return nil, fmt.Errorf("reading this process's CPUs: %w", err)
	}
	var cpus []int
	for c := range len(s) * 64 {
		if s.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

func cpuSet(cpus []int) unix.CPUSet {
	var s unix.CPUSet
	for _, c := range cpus {
		s.Set(c)
	}
	return s
}

// startPinned starts cmd on cpus alone. It starts it from a thread of its own whose affinity it sets to
// cpus first: a new process inherits the affinity of the thread that made it, so the child runs on cpus
// from its first instruction and its runtime sizes GOMAXPROCS by them. The thread, its affinity changed,
// is never handed back to the scheduler: it ends with its goroutine.
func startPinned(cmd *exec.Cmd, cpus []int) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked, see above
		s := cpuSet(cpus)
		if err := unix.SchedSetaffinity(0, &s); err != nil {
			errc <- fmt.Errorf("pinning a thread to CPUs %v: %w", cpus, err)
			return
		}
		errc <- cmd.Start()
	}()
	return <-errc
}

// pinProcess moves every thread of this process to cpus and sets GOMAXPROCS to their number; restore
// moves them back to the CPUs they had and gives GOMAXPROCS its value back. A thread inherits its maker's
// affinity, so the threads the runtime starts later follow; the threads are listed again until a pass
// finds none it has not moved, for those started while it ran.
func pinProcess(cpus []int) (restore func(), err error) {
	before, err := allowedCPUs()
	if err != nil {
		return nil, err
	}
	if err := setEveryThread(cpuSet(cpus)); err != nil {
		setEveryThread(cpuSet(before))
		return nil, fmt.Errorf("pinning the bench to CPUs %v: %w", cpus, err)
	}
	procs := runtime.GOMAXPROCS(len(cpus))
	return func() {
		setEveryThread(cpuSet(before))
		runtime.GOMAXPROCS(procs)
	}, nil
}

func setEveryThread(s unix.CPUSet) error {
	done := map[int]bool{}
	for {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return err
		}
		moved := false
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil || done[tid] {
				continue
			}
			done[tid], moved = true, true
			if err := unix.SchedSetaffinity(tid, &s); err != nil && !errors.Is(err, unix.ESRCH) { // ESRCH: it ended
				return err
			}
		}
		if !moved {
			return nil
		}
	}
}

// measureWakes times n pipe round trips between two threads on cpu a and cpu b (one CPU when a == b) and
// gives the median: what waking a thread on that CPU costs here, twice.
func measureWakes(a, b, n int) (time.Duration, error) {
	var ping, pong [2]int
	if err := unix.Pipe2(ping[:], unix.O_CLOEXEC); err != nil {
		return 0, err
	}
	if err := unix.Pipe2(pong[:], unix.O_CLOEXEC); err != nil {
		unix.Close(ping[0])
		unix.Close(ping[1])
		return 0, err
	}
	defer func() {
		for _, fd := range []int{ping[0], ping[1], pong[0], pong[1]} {
			unix.Close(fd)
		}
	}()
	// Each side is a thread of its own pinned to its CPU, blocking in read as a proxy's thread waits for
	// its peer; neither thread goes back to the scheduler with its affinity changed (see startPinned).
	// Both are pinned before either starts, so that a failure leaves no side waiting for the other.
	pinned, start := make(chan error, 2), make(chan bool, 2)
	side := func(cpu int, loop func(buf []byte) error) error {
		runtime.LockOSThread()
		s := cpuSet([]int{cpu})
		pinned <- unix.SchedSetaffinity(0, &s)
		if !<-start {
			return nil
		}
		return loop(make([]byte, 1))
	}
	rtts := make([]time.Duration, n)
	ended := make(chan error, 2)
	go func() {
		ended <- side(b, func(buf []byte) error {
			for range n {
				if _, err := unix.Read(ping[0], buf); err != nil {
					return err
				}
				if _, err := unix.Write(pong[1], buf); err != nil {
					return err
				}
			}
			return nil
		})
	}()
	go func() {
		ended <- side(a, func(buf []byte) error {
			for i := range rtts {
				begin := time.Now()
				if _, err := unix.Write(ping[1], buf); err != nil {
					return err
				}
				if _, err := unix.Read(pong[0], buf); err != nil {
					return err
				}
				rtts[i] = time.Since(begin)
			}
			return nil
		})
	}()
	err := errors.Join(<-pinned, <-pinned)
	start <- err == nil
	start <- err == nil
	if err = errors.Join(err, <-ended, <-ended); err != nil {
		return 0, fmt.Errorf("timing wakes between CPUs %d and %d: %w", a, b, err)
	}
	slices.Sort(rtts)
	return rtts[n/2], nil
}
