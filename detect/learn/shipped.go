package learn

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
)

// The shipped learned layers: trained by `warden calibrate --train` on the team's golden set and the public
// evaluation split (docs/detectors.md names the sources, the command and the seed), for the detectors whose
// layer leave one source out says generalizes better than their rules (shipped/README.md says when; none
// does at present). Weights are hashed word features, never text.
//
//go:embed shipped
var shippedFS embed.FS

var shipped = sync.OnceValue(func() map[string]File {
	paths, err := fs.Glob(shippedFS, "shipped/*.wlm")
	if err != nil {
		panic(err)
	}
	out := map[string]File{}
	for _, p := range paths {
		data, err := shippedFS.ReadFile(p)
		if err != nil {
			panic(err)
		}
		var f File
		if err := f.UnmarshalBinary(data); err != nil {
			// A malformed shipped file is a bug in the build, not a user's mistake.
			panic(fmt.Sprintf("learn: %s: %v", p, err))
		}
		out[strings.TrimSuffix(path.Base(p), ".wlm")] = f
	}
	return out
})

// Shipped returns the learned layers that ship with Warden, by detector name. The map is shared: do not
// modify it or its models.
func Shipped() map[string]File { return shipped() }
