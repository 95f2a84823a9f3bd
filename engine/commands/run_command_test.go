package commands

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/textenc"
	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/deskbridge/deskbridge/internal/jsonenc"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/proc"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// TestRunCommandArgs decodes run_command's arguments as the envelope does:
// the tags (cwd required, timeout_ms ≥ 1) and Validate (command or argv,
// env) together.
func TestRunCommandArgs(t *testing.T) {
	cases := []struct {
		name, raw string
		ok        bool
	}{
		{"command", `{"command":"ls","cwd":"/w"}`, true},
		{"argv", `{"argv":["ls"],"cwd":"/w"}`, true},
		{"both", `{"command":"ls","argv":["ls"],"cwd":"/w"}`, false},
		{"neither", `{"cwd":"/w"}`, false},
		{"no cwd", `{"command":"ls"}`, false},
		{"empty cwd", `{"command":"ls","cwd":""}`, false},
		{"timeout zero", `{"command":"ls","cwd":"/w","timeout_ms":0}`, false},
		{"timeout", `{"command":"ls","cwd":"/w","timeout_ms":5}`, true},
		{"output base64", `{"command":"ls","cwd":"/w","output_encoding":"base64"}`, true},
		{"output hex", `{"command":"ls","cwd":"/w","output_encoding":"hex"}`, false},
		{"env ok", `{"command":"ls","cwd":"/w","env":{"CI":"1","_X9":""}}`, true},
		{"env equals", `{"command":"ls","cwd":"/w","env":{"A=B":"1"}}`, false},
		{"env digit", `{"command":"ls","cwd":"/w","env":{"1A":"1"}}`, false},
		{"env empty", `{"command":"ls","cwd":"/w","env":{"":"1"}}`, false},
		{"env NUL value", `{"command":"ls","cwd":"/w","env":{"A":"x\u0000"}}`, false},
		{"env too large", `{"command":"ls","cwd":"/w","env":{"A":"` + strings.Repeat("x", maxEnvBytes) + `"}}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var a runCommandArgs
			if err := envelope.DecodeArguments(jsontext.Value(tc.raw), &a); (err == nil) != tc.ok {
				t.Fatalf("DecodeArguments = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func TestCommandTimeout(t *testing.T) {
	low, high := int64(200), int64(9000)
	c := &action.Call{Limits: map[string]int64{"timeout_ms": 5000}}
	if d, err := commandTimeout(&runCommandArgs{}, c); err != nil || d != 5*time.Second {
		t.Fatalf("default: %v %v", d, err)
	}
	if d, err := commandTimeout(&runCommandArgs{TimeoutMS: &low}, c); err != nil || d != 200*time.Millisecond {
		t.Fatalf("lower: %v %v", d, err)
	}
	if _, err := commandTimeout(&runCommandArgs{TimeoutMS: &high}, c); err == nil || err.Code != protocol.InvalidRequest {
		t.Fatalf("above the limit: %v", err)
	}
}

func TestFitPair(t *testing.T) {
	cases := []struct {
		name   string
		a, b   string
		budget int
	}{
		{"fits", "abc", "def", 100},
		{"stdout long", strings.Repeat("é", 500), "err", 300},
		{"stderr long", "out", strings.Repeat("\x01", 500), 300},
		{"both long", strings.Repeat("x", 500), strings.Repeat("\"", 500), 300},
		{"tiny budget", "abc", "def", 0},
	}
	quotedLen := func(s string) int { return int(jsonenc.QuotedLen([]byte(s))) }
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b := fitPair(tc.a, tc.b, tc.budget)
			if quotedLen(tc.a)+quotedLen(tc.b) <= tc.budget && (a != tc.a || b != tc.b) {
				t.Fatal("cut output that fits")
			}
			if quotedLen(a)+quotedLen(b) > max(tc.budget, 0) {
				t.Fatalf("quoted %d+%d over budget %d", quotedLen(a), quotedLen(b), tc.budget)
			}
			if !strings.HasPrefix(tc.a, a) || !strings.HasPrefix(tc.b, b) || !utf8.ValidString(a) || !utf8.ValidString(b) {
				t.Fatal("not a UTF-8 prefix")
			}
		})
	}
}

// TestCommandDataFitsMessage: output as large as the capture allows, in
// the worst case for JSON quoting and with invalid UTF-8, still makes one
// response under the message cap, marked truncated with its byte counts.
func TestCommandDataFitsMessage(t *testing.T) {
	out := []byte(strings.Repeat("\x01\xff", 1<<19))
	res := proc.Result{ExitCode: 3, Stdout: out, Stderr: out, StdoutBytes: 5 << 20, StderrBytes: 1 << 20}
	c := &action.Call{Request: protocol.Request{ID: "r"}}
	d := commandData(c, res, "")
	b, err := json.Marshal(protocol.Success("r", d))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > wire.MaxPayload {
		t.Fatalf("response is %d bytes", len(b))
	}
	if !d.Truncated || d.StdoutBytes != 5<<20 || !strings.Contains(d.Stdout, "output truncated; the program wrote 5242880 bytes") {
		t.Fatalf("truncated=%v stdout_bytes=%d tail %q", d.Truncated, d.StdoutBytes, d.Stdout[max(0, len(d.Stdout)-80):])
	}
	if !utf8.ValidString(d.Stdout) || !utf8.ValidString(d.Stderr) {
		t.Fatal("output is not valid UTF-8")
	}
}

func TestCommandDataWhole(t *testing.T) {
	d := commandData(&action.Call{}, proc.Result{ExitCode: 1, Stdout: []byte("hi\n"), StdoutBytes: 3, Duration: 1500 * time.Millisecond}, "")
	if d.Truncated || d.Stdout != "hi\n" || d.ExitCode != 1 || d.DurationMS != 1500 {
		t.Fatalf("%+v", d)
	}
}

// TestCheckRunnable: whatever the policy said, the executor refuses a
// working folder outside the workspaces, one that is no longer where its
// facts said (a symlink swapped in), and a program not in a system folder.
func TestCheckRunnable(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(dir, "real")
	os.Mkdir(real, 0o755)
	link := filepath.Join(dir, "link")
	os.Symlink(real, link)
	ok := cmdfacts.Facts{Argv: []string{"ls"}, Resolved: "/usr/bin/ls"}
	folder := func(p string, inside bool) facts.Path {
		return facts.Path{Canonical: p, Inside: inside, Exists: true, Type: facts.TypeFolder}
	}
	cases := []struct {
		name string
		f    cmdfacts.Facts
		cwd  facts.Path
		want protocol.Code
	}{
		{"fine", ok, folder(real, true), ""},
		{"outside", ok, folder(real, false), protocol.WorkspaceViolation},
		{"swapped for a link", ok, folder(link, true), protocol.WorkspaceViolation},
		{"missing", ok, facts.Path{Canonical: filepath.Join(dir, "none"), Inside: true}, protocol.FileNotFound},
		{"unresolved program", cmdfacts.Facts{Argv: []string{"./git"}}, folder(real, true), protocol.CommandNotAllowed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := checkRunnable(tc.f, tc.cwd)
			if (err == nil && tc.want != "") || (err != nil && err.Code != tc.want) {
				t.Fatalf("checkRunnable = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestIsGit(t *testing.T) {
	cases := []struct {
		f    cmdfacts.Facts
		want bool
	}{
		{cmdfacts.Facts{ProgramName: "git", Resolved: "/usr/bin/git"}, true},
		{cmdfacts.Facts{ProgramName: "GIT", Resolved: "/usr/bin/GIT"}, true},
		{cmdfacts.Facts{ProgramName: "git-upload-pack", Resolved: "/usr/bin/git-upload-pack"}, true},
		{cmdfacts.Facts{ProgramName: "ls", Resolved: "/usr/bin/ls"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.f.ProgramName, func(t *testing.T) {
			if got := isGit(tc.f); got != tc.want {
				t.Fatalf("isGit = %v", got)
			}
		})
	}
}

// TestCommandDataEncodings: text output says lossy when bytes were
// replaced (not when the capture's cap cut a character), and base64
// output carries every byte, cut only on a whole group of four.
func TestCommandDataEncodings(t *testing.T) {
	raw := []byte("a\xff\x00b\xfe")
	cases := []struct {
		name, enc string
		res       proc.Result
		stdout    string
		lossy     bool
	}{
		{"valid text", "", proc.Result{Stdout: []byte("héllo"), StdoutBytes: 6}, "héllo", false},
		{"invalid text", "utf-8", proc.Result{Stdout: raw, StdoutBytes: 5}, "a\uFFFD\x00b\uFFFD", true},
		{"invalid stderr", "", proc.Result{Stderr: raw, StderrBytes: 5}, "", true},
		{"capture cut a character", "", proc.Result{Stdout: []byte("ab\xc3"), StdoutBytes: 9},
			"ab" + marker(9), false},
		{"base64", "base64", proc.Result{Stdout: raw, StdoutBytes: 5}, base64.StdEncoding.EncodeToString(raw), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := commandData(&action.Call{}, tc.res, tc.enc)
			if d.Stdout != tc.stdout || d.Lossy != tc.lossy {
				t.Fatalf("stdout %q lossy %v, want %q %v", d.Stdout, d.Lossy, tc.stdout, tc.lossy)
			}
		})
	}
	t.Run("base64 over the message cap", func(t *testing.T) {
		out := make([]byte, 1<<20)
		for i := range out {
			out[i] = byte(i * 7)
		}
		d := commandData(&action.Call{}, proc.Result{Stdout: out, StdoutBytes: 1 << 20}, textenc.Base64)
		got, err := base64.StdEncoding.DecodeString(d.Stdout)
		if err != nil || !d.Truncated || len(got) == 0 || !bytes.HasPrefix(out, got) {
			t.Fatalf("truncated %v, %d bytes decoded, err %v", d.Truncated, len(got), err)
		}
		b, _ := json.Marshal(protocol.Success("", d))
		if len(b) > wire.MaxPayload {
			t.Fatalf("response is %d bytes", len(b))
		}
	})
}
