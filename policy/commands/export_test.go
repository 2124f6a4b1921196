package commands

import "github.com/agentwarden/warden"

// CheckCommandAskingEveryRule is CheckCommand without the program index: every rule is asked, as before
// the index, so that tests can hold the two to one decision.
func (c *Commands) CheckCommandAskingEveryRule(cmd string) warden.Decision {
	every := *c
	every.programs = programIndex{named: make([]bool, len(c.rules))}
	return every.CheckCommand(cmd)
}
