package engine

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// templateChecks run a built-in template's own check in the folder of a
// project made from it, and return what failed ("" for nothing).
var templateChecks = map[string]func(t *testing.T, dir string) string{
	"empty": func(t *testing.T, dir string) string {
		return wantIn(read(t, filepath.Join(dir, "README.md")), "# tmpl-empty")
	},
	"static-web": staticWebRenders,
	"node": func(t *testing.T, dir string) string {
		if msg := nodeScriptsOff(t, dir); msg != "" {
			return msg
		}
		return wantIn(runTool(t, dir, "node", "--test"), "# pass 1")
	},
	"python": func(t *testing.T, dir string) string {
		return wantIn(runTool(t, dir, "python3", "-m", "unittest", "-v"), "Ran 1 test")
	},
	"go": func(t *testing.T, dir string) string {
		return wantIn(runTool(t, dir, "go", "test", "-count=1", "-v", "./..."), "--- PASS: TestGreeting")
	},
}

// TestTemplatesRunTheirChecks makes a project from every built-in
// template and runs the check its starting point carries: the page's
// assets are there, node's, python's and go's own tests pass.
func TestTemplatesRunTheirChecks(t *testing.T) {
	th := newTestHost(t, nil)
	for _, tmpl := range []string{"empty", "static-web", "node", "python", "go"} {
		t.Run(tmpl, func(t *testing.T) {
			_, dir := newProject(t, th, "tmpl-"+tmpl, tmpl)
			if msg := templateChecks[tmpl](t, dir); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// runTool runs a toolchain's check in dir and returns its output; a
// toolchain that is not installed skips the test (CI installs node), a
// failing check fails it.
func runTool(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s is not installed", name)
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off", "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// wantIn says what is missing when out lacks want.
func wantIn(out, want string) string {
	if strings.Contains(out, want) {
		return ""
	}
	return "the check's output lacks " + want + ":\n" + out
}

// nodeScriptsOff: package.json names no scripts and .npmrc turns install
// scripts off, as the executes class asks of a file npm runs.
func nodeScriptsOff(t *testing.T, dir string) string {
	var pkg map[string]any
	if err := json.Unmarshal([]byte(read(t, filepath.Join(dir, "package.json"))), &pkg); err != nil {
		return "package.json: " + err.Error()
	}
	if _, has := pkg["scripts"]; has {
		return "package.json has scripts"
	}
	return wantIn(read(t, filepath.Join(dir, ".npmrc")), "\nignore-scripts=true\n")
}

// staticWebRenders parses index.html as a browser does: it has the
// project's title and heading, and every stylesheet and script it names
// is a file of the project (the e2e suite renders it in Chromium).
func staticWebRenders(t *testing.T, dir string) string {
	doc, err := html.Parse(strings.NewReader(read(t, filepath.Join(dir, "index.html"))))
	if err != nil {
		return err.Error()
	}
	var text, missing []string
	for n := range doc.Descendants() {
		if n.Type == html.TextNode && n.Parent != nil && (n.Parent.Data == "title" || n.Parent.Data == "h1") {
			text = append(text, n.Data)
		}
		for _, a := range n.Attr {
			if (n.Data == "link" && a.Key == "href") || (n.Data == "script" && a.Key == "src") {
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(a.Val))); err != nil {
					missing = append(missing, a.Val)
				}
			}
		}
	}
	if len(missing) > 0 || strings.Join(text, "|") != "tmpl-static-web|tmpl-static-web" {
		return "index.html: title and heading " + strings.Join(text, "|") + ", missing assets " + strings.Join(missing, " ")
	}
	return ""
}
