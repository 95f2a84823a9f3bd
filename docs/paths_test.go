// Package docs holds the project's documentation; its test checks that
// every repository path a document names exists.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// documents are the pages whose repository paths are checked, relative
// to the repository root.
func documents(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md", "extension/README.md"}
	for _, p := range pages {
		out = append(out, "docs/"+p)
	}
	return out
}

var (
	// code is one `…` span of Markdown.
	code = regexp.MustCompile("`([^`\n]+)`")
	// link is the target of a Markdown link [text](target).
	link = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// repoPath is a slash-separated relative path: two or more names.
	repoPath = regexp.MustCompile(`^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)+/?$`)
	// goIdent is a Go identifier after a package path (pkg/path.Name).
	goIdent = regexp.MustCompile(`\.[A-Z][A-Za-z0-9_]*$`)
)

// history are pages that record past work and name files as they were
// then: only their links are checked.
var history = map[string]bool{"docs/benchmarks-history.md": true}

// TestDocumentsNameExistingPaths: every repository path a document names,
// in code spans and as link targets, exists. A path names the repository
// when its first name is a top-level entry of it (engine/…, docs/…);
// link targets are relative to the document.
func TestDocumentsNameExistingPaths(t *testing.T) {
	root := ".."
	top := topLevel(t, root)
	for _, doc := range documents(t) {
		body, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range code.FindAllStringSubmatch(string(body), -1) {
			p := goIdent.ReplaceAllString(m[1], "") // engine/cmdfacts.Build names engine/cmdfacts
			if history[doc] || !repoPath.MatchString(p) || strings.Contains(p, "...") || !top[strings.Split(p, "/")[0]] {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
				t.Errorf("%s names %s, which is not in the repository", doc, p)
			}
		}
		for _, m := range link.FindAllStringSubmatch(string(body), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, ":") {
				continue // an anchor of the same page, or a URL
			}
			p := filepath.Join(root, filepath.Dir(doc), filepath.FromSlash(target))
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s links to %s, which is not in the repository", doc, m[1])
			}
		}
	}
}

// topLevel is the set of names at the repository root.
func topLevel(t *testing.T, root string) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]bool{}
	for _, e := range entries {
		// .git/config in a page is a project's, not ours; bin/ and dist/
		// are build outputs (.gitignore), there or not.
		if n := e.Name(); n != ".git" && n != "bin" && n != "dist" {
			top[n] = true
		}
	}
	return top
}

var (
	// mdName is a Markdown file's name as prose names it.
	mdName = regexp.MustCompile(`[A-Za-z0-9_-]+\.md\b`)
	// fence is a fenced code block.
	fence = regexp.MustCompile("(?s)```.*?```")
)

// TestDocumentsNameExistingPages: every Markdown page a document names
// in its prose and links (code is examples), is a page of the repository (docs/, the root or
// extension/): a page that lives elsewhere (a shared specification, say)
// is no reference a reader of the repository can follow.
func TestDocumentsNameExistingPages(t *testing.T) {
	for _, doc := range documents(t) {
		body, err := os.ReadFile(filepath.Join("..", doc))
		if err != nil {
			t.Fatal(err)
		}
		prose := code.ReplaceAllString(fence.ReplaceAllString(string(body), ""), "") // examples name pages of their own
		for _, name := range mdName.FindAllString(prose, -1) {
			if !pageExists(name) {
				t.Errorf("%s names %s, which is no page of the repository", doc, name)
			}
		}
	}
}

func pageExists(name string) bool {
	for _, dir := range []string{".", "..", "../extension"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

// TestBenchmarksIsAReferenceTable: docs/benchmarks.md is one table of the
// figures (figure, command, floor, peer, target, now) and how to measure
// them, without issue numbers a reader cannot resolve; the story of each
// figure is in benchmarks-history.md.
func TestBenchmarksIsAReferenceTable(t *testing.T) {
	body, err := os.ReadFile("benchmarks.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(body)
	if n := strings.Count(page, "| figure | command | floor | peer | target | now"); n != 1 {
		t.Errorf("benchmarks.md has %d figure tables, want 1", n)
	}
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "## ") && line != "## How to measure" {
			t.Errorf("benchmarks.md has the section %q; the reference is one table and how to measure it", line)
		}
	}
	if m := regexp.MustCompile(`\(#\d+\)|\bissues? \d+`).FindString(page); m != "" {
		t.Errorf("benchmarks.md cites %q: name the target, not the issue", m)
	}
}

// TestReadmeForNewcomers: the README says what a newcomer on a fresh
// machine needs: that the CI script needs root, how to put Go on the
// PATH, how long the checks take on a small machine, that call stores the
// policy beside the decision log, and the log query and policy data
// commands.
func TestReadmeForNewcomers(t *testing.T) {
	body, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sudo bash .ci/run", "It needs root", "export PATH=/usr/local/go/bin",
		"`make test` ends each step with a line `== make STEP: N s`", "| `make test-unit` |", "policy that decided is stored beside it", "deskbridge log query", "`policy data`"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}
