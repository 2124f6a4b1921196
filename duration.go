package warden

import (
	"fmt"
	"time"
)

// Duration is a time.Duration that reads and writes itself as text ("250ms", "5s"), so config files in
// YAML or JSON can say durations the way people write them.
type Duration time.Duration

// UnmarshalText parses a Go duration string. Negative durations are an error.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("invalid duration %q (want e.g. 500ms, 5s, 1m)", b)
	}
	if v < 0 {
		return fmt.Errorf("invalid duration %q: must not be negative", b)
	}
	*d = Duration(v)
	return nil
}

// MarshalText formats the duration as Go does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// Std returns the duration as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }
