package ahocorasick

// CompileDense builds a matcher whose states up to depth have full rows, so that tests reach the deep
// states' path with short terms (depth 0: only the root has a row).
func CompileDense(terms []string, o Options, depth int32) *Matcher { return compile(terms, o, depth) }
