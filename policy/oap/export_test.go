package oap

import "time"

// SetClock replaces the evaluator's clock, for tests of reloads and rates.
func (o *OAP) SetClock(now func() time.Time) { o.now = now }
