package decisionlog

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFilesNamesMissingRuns: the rotated files present decide the listing;
// a run of absent numbers is one entry and numbers above MaxRotated are
// passed over, so a planted name costs one entry at most.
func TestFilesNamesMissingRuns(t *testing.T) {
	tests := []struct {
		name               string
		rotated            []int
		active             bool
		wantFiles, wantGap []string
	}{
		{"complete rotation", []int{1, 2, 3}, true, []string{".3", ".2", ".1", ""}, nil},
		{"one file removed", []int{1, 3}, true, []string{".3", ".1", ""}, []string{".2"}},
		{"a run removed", []int{1, 4}, true, []string{".4", ".1", ""}, []string{".3-2"}},
		{"newest rotated files removed", []int{5}, true, []string{".5", ""}, []string{".4-1"}},
		{"active file removed", []int{1}, false, []string{".1"}, []string{""}},
		{"planted high number", []int{MaxRotated + 1, 3_000_000}, true, []string{""}, nil},
		{"planted at the bound", []int{MaxRotated}, true, []string{"." + strconv.Itoa(MaxRotated), ""}, []string{"." + strconv.Itoa(MaxRotated-1) + "-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "decisions.jsonl")
			if tt.active {
				must(t, os.WriteFile(path, nil, 0o600))
			}
			for _, n := range tt.rotated {
				must(t, os.WriteFile(rotatedName(path, n), nil, 0o600))
			}
			files, missing, err := Files(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := suffixes(path, files); !slices.Equal(got, tt.wantFiles) {
				t.Errorf("files %q, want %q", got, tt.wantFiles)
			}
			if got := suffixes(path, missing); !slices.Equal(got, tt.wantGap) {
				t.Errorf("missing %q, want %q", got, tt.wantGap)
			}
		})
	}
}

// TestVerifyFileReportsPlantedNumberOnce: files above MaxRotated are not
// read but are reported, once however many there are.
func TestVerifyFileReportsPlantedNumberOnce(t *testing.T) {
	path := newLog(t, 1, Options{})
	for _, n := range []int{MaxRotated + 1, 3_000_000, 999_999_999} {
		must(t, os.WriteFile(rotatedName(path, n), []byte("not an event\n"), 0o600))
	}
	rep, err := VerifyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(rep); !slices.Equal(got, []string{"inserted@0"}) || len(rep.Files) != 1 {
		t.Errorf("issues %v, files %v; want one inserted issue and only the log read", rep.Issues, rep.Files)
	}
}

func TestKeepIsCappedAtMaxRotated(t *testing.T) {
	if got := (Options{Keep: 1 << 30}).withDefaults().Keep; got != MaxRotated {
		t.Errorf("Keep = %d, want MaxRotated (%d)", got, MaxRotated)
	}
}

// suffixes strips path from each name ("" is the active file itself).
func suffixes(path string, names []string) []string {
	var out []string
	for _, n := range names {
		out = append(out, strings.TrimPrefix(n, path))
	}
	return out
}
