package gatewaybench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// processMemory reads this process's resident set and its peak from /proc/self/status.
func processMemory() (Memory, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return Memory{}, err
	}
	var m Memory
	for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan(); {
		name, value, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if !ok {
			continue
		}
		var into *uint64
		switch string(name) {
		case "VmRSS":
			into = &m.Resident
		case "VmHWM":
			into = &m.Peak
		default:
			continue
		}
		// "  12345 kB"
		f := bytes.Fields(value)
		if len(f) != 2 || string(f[1]) != "kB" {
			return Memory{}, fmt.Errorf("/proc/self/status: %s: unexpected %q", name, value)
		}
		kb, err := strconv.ParseUint(string(f[0]), 10, 64)
		if err != nil {
			return Memory{}, fmt.Errorf("/proc/self/status: %s: %w", name, err)
		}
		*into = kb * 1024
	}
	if m.Resident == 0 {
		return Memory{}, fmt.Errorf("/proc/self/status has no VmRSS")
	}
	return m, nil
}
