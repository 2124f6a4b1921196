package detect

// Tagged and Selected are the hidden-text spellers of the internal tests, for the external ones.
var (
	Tagged   = tagged
	Selected = selected
)
