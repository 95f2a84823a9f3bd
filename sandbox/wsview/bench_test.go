package wsview

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkSearchTree searches a large tree for a rare literal: the tree
// in $DESKBRIDGE_BENCH_TREE, else the Go toolchain's own source. The
// query comes from $DESKBRIDGE_BENCH_QUERY (default "xyzzy").
// scripts/bench-search.sh runs it beside ripgrep.
func BenchmarkSearchTree(b *testing.B) {
	tree := os.Getenv("DESKBRIDGE_BENCH_TREE")
	if tree == "" {
		tree = filepath.Join(runtime.GOROOT(), "src")
	}
	query := os.Getenv("DESKBRIDGE_BENCH_QUERY")
	if query == "" {
		query = "xyzzy"
	}
	v, err := Open("bench", tree, noSecrets)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	lim := Limits{MaxFileBytes: 1 << 20, MaxResults: 1000, MaxTotalChars: 1 << 20}
	var d *SearchData
	for b.Loop() {
		var perr error
		d, perr = searchOnce(v, query, lim)
		if perr != nil {
			b.Fatal(perr)
		}
	}
	b.ReportMetric(float64(len(d.Matches)), "matches")
	b.ReportMetric(float64(d.FilesSearched), "files")
}

// searchOnce runs one search, returning a plain error.
func searchOnce(v *View, q string, lim Limits) (*SearchData, error) {
	d, perr := v.Search(context.Background(), Query{Text: q}, lim)
	if perr != nil {
		return nil, perr
	}
	return d, nil
}
