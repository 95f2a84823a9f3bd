package decisionlog

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// rehash rewrites line with old replaced by new and a fresh, valid hash,
// as someone who knows the format would.
func rehash(t *testing.T, line []byte, old, new string) []byte {
	t.Helper()
	rec, err := parseLine(bytes.Replace(line, []byte(old), []byte(new), 1))
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := encodeLine(&rec.ev)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(out, []byte("\n"))
}

func TestVerifyFindsTampering(t *testing.T) {
	// Ten events: lines 1..10 with seq 1..10.
	tests := []struct {
		name   string
		tamper func(t *testing.T, ls [][]byte) [][]byte
		want   []string
	}{
		{"intact", func(t *testing.T, ls [][]byte) [][]byte { return ls }, nil},
		{"changed", func(t *testing.T, ls [][]byte) [][]byte {
			ls[2] = bytes.Replace(ls[2], []byte("read_file"), []byte("run_command"), 1)
			return ls
		}, []string{"changed@3"}},
		{"changed with hash recomputed", func(t *testing.T, ls [][]byte) [][]byte {
			ls[2] = rehash(t, ls[2], `"outcome":"OK"`, `"outcome":"PERMISSION_DENIED"`)
			return ls
		}, []string{"changed@3"}},
		{"removed", func(t *testing.T, ls [][]byte) [][]byte { return slices.Delete(ls, 4, 5) }, []string{"removed@5"}},
		{"removed two", func(t *testing.T, ls [][]byte) [][]byte { return slices.Delete(ls, 4, 6) }, []string{"removed@5"}},
		{"removed first", func(t *testing.T, ls [][]byte) [][]byte { return ls[1:] }, []string{"removed@1"}},
		{"inserted copy", func(t *testing.T, ls [][]byte) [][]byte { return slices.Insert(ls, 6, ls[1]) }, []string{"inserted@7"}},
		{"inserted forged", func(t *testing.T, ls [][]byte) [][]byte {
			return slices.Insert(ls, 3, rehash(t, ls[9], `"seq":10`, `"seq":99`))
		}, []string{"inserted@4"}},
		{"inserted junk", func(t *testing.T, ls [][]byte) [][]byte {
			return slices.Insert(ls, 3, []byte(`{"decision_id":"x"}`))
		}, []string{"malformed@4"}},
		{"swapped", func(t *testing.T, ls [][]byte) [][]byte { ls[3], ls[4] = ls[4], ls[3]; return ls }, []string{"reordered@4"}},
		{"moved back", func(t *testing.T, ls [][]byte) [][]byte {
			l := ls[2]
			return slices.Insert(slices.Delete(ls, 2, 3), 7, l)
		}, []string{"reordered@8"}},
		{"last moved to front", func(t *testing.T, ls [][]byte) [][]byte {
			return append([][]byte{ls[9]}, ls[:9]...)
		}, []string{"reordered@1"}},
		{"truncated tail", func(t *testing.T, ls [][]byte) [][]byte {
			ls[9] = ls[9][:len(ls[9])/2]
			return ls
		}, []string{"truncated@10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := newLog(t, 5, Options{fullLines: true})
			lines := tt.tamper(t, readLines(t, path))
			data := joinLines(lines)
			if tt.name == "truncated tail" {
				data = bytes.TrimSuffix(data, []byte("\n"))
			}
			rep := Verify(bytes.NewReader(data))
			if got := kinds(rep); !slices.Equal(got, tt.want) {
				t.Errorf("issues %v, want %v\n%v", got, tt.want, rep.Issues)
			}
		})
	}
}

func TestVerifyEmptyStreamIsIntact(t *testing.T) {
	rep := Verify(strings.NewReader(""))
	if !rep.OK() || rep.Head != Genesis {
		t.Errorf("empty log: %+v", rep)
	}
}

func TestExpectHeadFindsCutTail(t *testing.T) {
	path := newLog(t, 5, Options{})
	lines := readLines(t, path)
	full := Verify(bytes.NewReader(joinLines(lines)))
	cut := Verify(bytes.NewReader(joinLines(lines[:8])))
	if !cut.OK() {
		t.Fatalf("whole lines cut from the end leave a valid chain, got %v", cut.Issues)
	}
	cut.ExpectHead(full.Head)
	if got := kinds(cut); !slices.Equal(got, []string{"removed@0"}) {
		t.Errorf("issues %v, want the missing tail reported", got)
	}
	full.ExpectHead(full.Head)
	if !full.OK() {
		t.Errorf("the intact log fails its own head: %v", full.Issues)
	}
}

func TestVerifyReportsPendingDecisions(t *testing.T) {
	path := newLog(t, 3, Options{fullLines: true})
	lines := readLines(t, path)
	rep := Verify(bytes.NewReader(joinLines(lines[:5])))
	if !rep.OK() || len(rep.Pending) != 1 {
		t.Errorf("Pending = %v (issues %v), want the last decision", rep.Pending, rep.Issues)
	}
}

func TestVerifyFileFindsTamperedRotation(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, path string)
		want   Kind
	}{
		{"rotated file removed", func(t *testing.T, path string) {
			must(t, os.Remove(path+".2"))
		}, Removed},
		{"active file removed", func(t *testing.T, path string) {
			must(t, os.Remove(path))
		}, Removed},
		{"rotated files swapped", func(t *testing.T, path string) {
			must(t, os.Rename(path+".2", path+".tmp"))
			must(t, os.Rename(path+".3", path+".2"))
			must(t, os.Rename(path+".tmp", path+".3"))
		}, Reordered},
		{"line changed in a rotated file", func(t *testing.T, path string) {
			ls := readLines(t, path+".2")
			ls[1] = bytes.Replace(ls[1], []byte("req-"), []byte("REQ-"), 1) // line 1 is its context line
			if !bytes.Contains(ls[1], []byte("REQ-")) {
				t.Fatal("no request id in the rotated file's second line")
			}
			must(t, os.WriteFile(path+".2", joinLines(ls), 0o600))
		}, Changed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := newLog(t, 40, Options{MaxBytes: 4 << 10, Keep: 100, NoCompress: true})
			if rep, _ := VerifyFile(path); !rep.OK() {
				t.Fatalf("untouched rotation fails: %v", rep.Issues)
			}
			tt.tamper(t, path)
			rep, err := VerifyFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !hasKind(rep, tt.want) {
				t.Errorf("issues %v, want a %s one", rep.Issues, tt.want)
			}
		})
	}
}

func TestVerifyFileWithoutLog(t *testing.T) {
	if _, err := VerifyFile(filepath.Join(t.TempDir(), "none.jsonl")); err == nil {
		t.Error("VerifyFile of a missing log returned no error")
	}
}

func TestLongestIncreasing(t *testing.T) {
	tests := []struct {
		in   []uint64
		want int
	}{
		{nil, 0}, {[]uint64{1}, 1}, {[]uint64{1, 2, 3}, 3}, {[]uint64{3, 2, 1}, 1},
		{[]uint64{5, 7, 6, 8}, 3}, {[]uint64{1, 2, 4, 5, 6, 3, 7}, 6},
	}
	for _, tt := range tests {
		got := longestIncreasing(tt.in)
		if len(got) != tt.want {
			t.Errorf("longestIncreasing(%v) = %v, want length %d", tt.in, got, tt.want)
		}
		for k := 1; k < len(got); k++ {
			if got[k] <= got[k-1] || tt.in[got[k]] <= tt.in[got[k-1]] {
				t.Errorf("longestIncreasing(%v) = %v is not increasing", tt.in, got)
			}
		}
	}
}

func hasKind(rep Report, k Kind) bool {
	for _, is := range rep.Issues {
		if is.Kind == k {
			return true
		}
	}
	return false
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
