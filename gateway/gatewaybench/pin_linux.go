//go:build linux

package gatewaybench

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"

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
