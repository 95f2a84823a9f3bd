//go:build !linux

package decisionlog

// statName is the log's path, for the stat of every append.
type statName struct{ path string }

func newStatName(path string) (statName, error) { return statName{path}, nil }

// stat is statPath of the name's path.
func (n statName) stat() (fileID, int64, error) { return statPath(n.path) }
