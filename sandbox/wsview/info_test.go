package wsview

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

func TestInfoGitFacts(t *testing.T) {
	wine.Skip(t, wine.NoGit)
	dir := t.TempDir()
	runGit(t, dir, "init", "-q", "-b", "trunk")
	writeTree(t, dir, map[string]string{"main.go": "package main\n", "lib/a.go": "package lib\n", "README.md": "hi\n", ".env": "X=1\n"})
	runGit(t, dir, "add", "main.go", "lib/a.go")
	runGit(t, dir, "commit", "-q", "-m", "init")
	runGit(t, dir, "remote", "add", "origin", "https://user:hunter2token@example.com/r.git?x=hunter2token")
	runGit(t, dir, "remote", "add", "ssh", "ssh://git:hunter2token@example.com/r.git")
	writeTree(t, dir, map[string]string{"main.go": "package main // changed\n"})
	v := openView(t, dir)
	d, perr := v.Info(context.Background(), Limits{})
	if perr != nil {
		t.Fatal(perr)
	}
	b, _ := json.Marshal(d)
	if strings.Contains(string(b), "hunter2token") {
		t.Fatalf("credentials leaked: %s", b)
	}
	g := d.Git
	if !g.Repository || g.Branch != "trunk" || len(g.Head) != 40 || g.DirtyFiles != 1 || len(g.Remotes) != 2 {
		t.Fatalf("git facts = %+v", g)
	}
	if d.Files != 3 || d.Folders != 1 || d.Languages[0] != (Language{Name: "Go", Files: 2}) {
		t.Fatalf("counts = %+v", d)
	}
}

func TestInfoNotARepository(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": "print(1)\n"})
	d, perr := openView(t, dir).Info(context.Background(), Limits{})
	if perr != nil || d.Git.Repository || d.Files != 1 {
		t.Fatalf("info = %+v, %v", d, perr)
	}
}

func TestRedactURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://user:pw@host/r.git", "https://host/r.git"},
		{"https://ghp_token@host/r.git", "https://host/r.git"},
		{"ssh://git:pw@host/r.git", "ssh://git@host/r.git"},
		{"ssh://git@host/r.git", "ssh://git@host/r.git"},
		{"git@github.com:o/r.git", "git@github.com:o/r.git"},
		{"user:pw@host:o/r.git", "user@host:o/r.git"},
		{"https://host/r.git?token=abc#frag", "https://host/r.git"},
		{"/srv/git/r.git", "/srv/git/r.git"},
		{"https://%zz@host/", "<redacted>"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := RedactURL(c.in); got != c.want {
				t.Fatalf("RedactURL(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
