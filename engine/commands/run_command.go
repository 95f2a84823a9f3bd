package commands

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/skills"
	"github.com/deskbridge/deskbridge/engine/textenc"
	"github.com/deskbridge/deskbridge/internal/jsonenc"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// Bounds on run_command's env argument.
const (
	maxEnvVars  = 64
	maxEnvBytes = 32 << 10
	maxEnvName  = 128
)

// runCommandArgs are run_command's arguments.
type runCommandArgs struct {
	Command   string            `json:"command"`
	Argv      []string          `json:"argv"`
	Cwd       string            `json:"cwd" jsonschema:"required,minLength=1"`
	TimeoutMS *int64            `json:"timeout_ms" jsonschema:"minimum=1"`
	Env       map[string]string `json:"env"`
	Stdin     *string           `json:"stdin"`
	// OutputEncoding is how stdout and stderr are sent: "utf-8" (the
	// default; invalid bytes replaced) or "base64" (every byte).
	OutputEncoding string `json:"output_encoding" jsonschema:"enum=utf-8,enum=base64"`
}

func (a *runCommandArgs) Validate() error {
	if a.Command != "" && a.Argv != nil {
		return envelope.ArgumentError("Give either command or argv, not both.")
	}
	if a.Command == "" && a.Argv == nil {
		return envelope.ArgumentError("The argument command (or argv) is required: the program and its arguments.")
	}
	return validEnv(a.Env)
}

// validEnv checks the names and sizes of requested variables; which names
// may be set at all is the policy's (and SafeEnv's) concern.
func validEnv(env map[string]string) error {
	if len(env) > maxEnvVars {
		return envelope.ArgumentError("The argument env has more than %d variables.", maxEnvVars)
	}
	size := 0
	for k, v := range env {
		if !envName(k) {
			return envelope.ArgumentError("The environment variable name %q is not valid: use letters, digits and _, not starting with a digit.", k)
		}
		if strings.IndexByte(v, 0) >= 0 {
			return envelope.ArgumentError("The value of the environment variable %s holds a NUL byte.", k)
		}
		size += len(k) + len(v)
	}
	if size > maxEnvBytes {
		return envelope.ArgumentError("The argument env is larger than %d bytes.", maxEnvBytes)
	}
	return nil
}

// envNamePattern is envName for the published schema.
const envNamePattern = `^[A-Za-z_][A-Za-z0-9_]{0,127}$`

func envName(k string) bool {
	if k == "" || len(k) > maxEnvName || (k[0] >= '0' && k[0] <= '9') {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// runCommandData is run_command's data.
type runCommandData struct {
	ExitCode    int    `json:"exit_code"`
	Stdout      string `json:"stdout"`
	Stderr      string `json:"stderr"`
	Truncated   bool   `json:"truncated"`
	Lossy       bool   `json:"lossy"`
	StdoutBytes int64  `json:"stdout_bytes"`
	StderrBytes int64  `json:"stderr_bytes"`
	DurationMS  int64  `json:"duration_ms"`
	Confined    bool   `json:"confined"`
}

func init() {
	action.Register(action.Spec{
		Name: "run_command",
		Rules: []action.Rule{action.Absolute("cwd"), action.ExactlyOne(action.Given("command"), action.Present("argv")),
			action.Names("env", envNamePattern)},
		NewArgs: func() any { return &runCommandArgs{} },
		Digest:  []string{"stdin"},
		Facts:   runCommandFacts,
		Run:     runCommand,
	})
	skills.Detail(protocol.SkillCommands, func(p *skills.Profile) {
		up, reason := proc.LandlockStatus()
		p.Wall = &skills.Wall{Kind: "landlock", Up: up, Reason: reason}
	})
}

// runCommandFacts resolves the working folder and builds input.command.
func runCommandFacts(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[runCommandArgs](c)
	cwd, perr := c.Path(env, "cwd", a.Cwd)
	if perr != nil {
		return perr
	}
	f, err := cmdfacts.Build(cmdfacts.Request{
		Command: a.Command, Argv: a.Argv, Cwd: cwd.Canonical, Env: a.Env, HasStdin: a.Stdin != nil,
		GitTop: gitTop(cwd), Secret: secretPatterns(env.Config),
	}, cmdfacts.Native(), action.Locate(env.Paths))
	if err != nil {
		var pe *protocol.Error
		if errors.As(err, &pe) {
			return pe
		}
		return protocol.Wrap(protocol.InvalidRequest, err, "The command could not be read.")
	}
	c.Command = &f
	return nil
}

// gitTop is the top of the git working tree that holds the working
// folder: the nearest folder up to the workspace root with a .git entry,
// or "" (git looks no higher: GIT_CEILING_DIRECTORIES).
func gitTop(cwd facts.Path) string {
	if !cwd.Inside || cwd.WorkspaceRoot == "" {
		return ""
	}
	for dir := cwd.Canonical; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		if dir == cwd.WorkspaceRoot || filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// secretPatterns are the patterns of the secret class: the built-in ones
// and the configuration's.
func secretPatterns(cfg *config.Config) []string {
	out := append([]string{}, facts.DefaultSecret...)
	if cfg != nil {
		out = append(out, cfg.Sensitivity.Secret...)
	}
	return out
}

// inWorkspace names p, a path inside the workspace root, relative to the
// root as the extension names paths there (the whole path when it is not
// below root).
func inWorkspace(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return p
	}
	return filepath.ToSlash(rel)
}

// runCommand runs the approved argument vector: the program resolved in the
// system folders, in the canonical working folder, with a scrubbed
// environment and the decision's caps.
func runCommand(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[runCommandArgs](c)
	f := *c.Command
	cwd := c.Paths["cwd"]
	if perr := checkRunnable(f, cwd); perr != nil {
		return nil, perr
	}
	if p, ok := env.Paths.HoldsProtected(cwd.WorkspaceRoot); ok {
		return nil, protocol.Errorf(protocol.CommandNotAllowed,
			"The workspace holds DeskBridge's own file or folder %s (its configuration, policy, decision log, state or a browser manifest), which a command run in it could change; move it out of the workspace (state_dir, decision_log.path, --config) to run commands there.", inWorkspace(cwd.WorkspaceRoot, p))
	}
	held, perr := holdCwd(cwd)
	if perr != nil {
		return nil, perr
	}
	if held != nil {
		defer held.Close()
	}
	timeout, perr := commandTimeout(a, c)
	if perr != nil {
		return nil, perr
	}
	spec := proc.Spec{
		Path: f.Resolved, Argv: cmdfacts.RunArgv(f), Dir: cwd.Canonical, DirHandle: held,
		Env:           append(proc.SafeEnv(a.Env), proc.GitCeiling(cwd.WorkspaceRoot)),
		Timeout:       timeout,
		MaxOutput:     int(c.Limit("max_bytes")),
		WritableRoots: []string{cwd.WorkspaceRoot},
		CacheDir:      proc.WorkspaceCache(env.Config.StateFolder(), cwd.WorkspaceRoot),
	}
	if a.Stdin != nil {
		spec.Stdin = []byte(*a.Stdin)
	}
	if isGit(f) {
		if perr := checkGit(cwd); perr != nil {
			return nil, perr
		}
	}
	res, err := proc.Run(ctx, spec)
	if err != nil {
		return nil, protocol.Wrap(protocol.ExecutionFailed, err,
			"The program could not be started; check that it is an executable file you may run.")
	}
	c.Detail = map[string]any{"exit_code": res.ExitCode, "command_duration_ms": res.Duration.Milliseconds(), "timed_out": res.TimedOut && !errors.Is(ctx.Err(), context.Canceled)}
	if res.TimedOut {
		return nil, timedOut(ctx, timeout)
	}
	// The output goes through the content check whole, before it is cut
	// to fit the message.
	if perr := env.Content(ctx, c, action.Outgoing{Source: "stdout", Text: res.Stdout},
		action.Outgoing{Source: "stderr", Text: res.Stderr}); perr != nil {
		return nil, perr
	}
	return commandData(c, res, a.OutputEncoding), nil
}

// checkRunnable refuses, whatever the policy said, a working folder outside
// the workspaces or changed since its facts were taken, and a program not
// found in the system folders.
func checkRunnable(f cmdfacts.Facts, cwd facts.Path) *protocol.Error {
	if !cwd.Inside {
		return protocol.Errorf(protocol.WorkspaceViolation, "The working folder must be inside a workspace.")
	}
	if !cwd.Exists || cwd.Type != facts.TypeFolder {
		return protocol.Errorf(protocol.FileNotFound, "The working folder does not exist or is not a folder.")
	}
	if real, err := filepath.EvalSymlinks(cwd.Canonical); err != nil || real != cwd.Canonical {
		return protocol.Errorf(protocol.WorkspaceViolation, "The working folder changed while the request was checked; send it again.")
	}
	if f.Resolved == "" || len(f.Argv) == 0 {
		return protocol.Errorf(protocol.CommandNotAllowed, "The program is not installed in a system folder; programs from the workspace or PATH never run.")
	}
	return nil
}

// holdCwd holds the checked working folder open where the system allows
// (proc.HoldDir), so that the program starts in that folder even if a
// component is swapped for a symlink after the check; the open itself
// refuses a symlink anywhere on the canonical path.
func holdCwd(cwd facts.Path) (*os.File, *protocol.Error) {
	held, err := proc.HoldDir(cwd.Canonical)
	if err != nil {
		return nil, protocol.Wrap(protocol.WorkspaceViolation, err,
			"The working folder changed while the request was checked; send it again.")
	}
	return held, nil
}

// commandTimeout is the requested timeout, which may only lower the
// decision's.
func commandTimeout(a *runCommandArgs, c *action.Call) (time.Duration, *protocol.Error) {
	limit := c.Limit("timeout_ms")
	ms := limit
	if a.TimeoutMS != nil {
		if *a.TimeoutMS > limit {
			return 0, protocol.Errorf(protocol.InvalidRequest, "The argument timeout_ms is above this action's limit of %d ms; ask for %d or less.", limit, limit)
		}
		ms = *a.TimeoutMS
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// isGit reports whether the program is git or one of its helpers, however
// its name is spelled (case-insensitive file systems find "GIT" too).
func isGit(f cmdfacts.Facts) bool {
	for _, n := range []string{f.ProgramName, filepath.Base(f.Resolved)} {
		if strings.HasPrefix(strings.ToLower(n), "git") {
			return true
		}
	}
	return false
}

// checkGit refuses a repository whose own configuration could make git
// run a program (filter, merge or diff drivers, includes) or leave the
// workspace.
func checkGit(cwd facts.Path) *protocol.Error {
	err := proc.CheckGitRepo(cwd.Canonical, cwd.WorkspaceRoot)
	if err == nil {
		return nil
	}
	return errmap.Git(err)
}

func timedOut(ctx context.Context, timeout time.Duration) *protocol.Error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return protocol.Errorf(protocol.ExecutionFailed, "The command was stopped because its request was cancelled.")
	}
	return protocol.Errorf(protocol.CommandTimeout,
		"The command did not finish within %d ms and was stopped with every process it started; raise timeout_ms (up to the limit) or run less.", timeout.Milliseconds())
}

// commandData turns a result into the response data in encoding enc,
// cutting the output so that the whole response fits one message.
func commandData(c *action.Call, res proc.Result, enc string) runCommandData {
	d := runCommandData{
		ExitCode: res.ExitCode, Truncated: res.Truncated,
		StdoutBytes: res.StdoutBytes, StderrBytes: res.StderrBytes,
		DurationMS: res.Duration.Milliseconds(), Confined: res.Confined,
	}
	budget := c.ResponseBudget(runCommandData{ExitCode: -1 << 31, Truncated: true, Lossy: true,
		StdoutBytes: 1 << 62, StderrBytes: 1 << 62, DurationMS: 1 << 62, Confined: true})
	if enc == textenc.Base64 {
		out, errOut := base64.StdEncoding.EncodeToString(res.Stdout), base64.StdEncoding.EncodeToString(res.Stderr)
		outCut, errCut := fitPair(out, errOut, budget)
		// A cut ends on a whole group of four, which decodes alone.
		d.Stdout, d.Stderr = outCut[:len(outCut)/4*4], errCut[:len(errCut)/4*4]
		d.Truncated = d.Truncated || len(d.Stdout) < len(out) || len(d.Stderr) < len(errOut)
		return d
	}
	budget -= 2 * len(marker(1<<62)) // room for both markers
	out, outLossy := text(res.Stdout, res.StdoutBytes)
	errOut, errLossy := text(res.Stderr, res.StderrBytes)
	d.Lossy = outLossy || errLossy
	outCut, errCut := fitPair(out, errOut, budget)
	d.Stdout = withMarker(outCut, len(outCut) < len(out) || res.StdoutBytes > int64(len(res.Stdout)), res.StdoutBytes)
	d.Stderr = withMarker(errCut, len(errCut) < len(errOut) || res.StderrBytes > int64(len(res.Stderr)), res.StderrBytes)
	d.Truncated = d.Truncated || len(outCut) < len(out) || len(errCut) < len(errOut)
	return d
}

// text is output as a JSON string can carry it: invalid UTF-8 replaced,
// and whether any was. A character cut by the capture's cap (the program
// wrote more than b) is dropped, not replaced.
func text(b []byte, wrote int64) (string, bool) {
	if wrote > int64(len(b)) {
		b = b[:textenc.RuneStart(b)]
	}
	if utf8.Valid(b) {
		return string(b), false
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), true
}

func marker(total int64) string {
	return fmt.Sprintf("\n[deskbridge: output truncated; the program wrote %d bytes]", total)
}

func withMarker(s string, cut bool, total int64) string {
	if !cut {
		return s
	}
	return s + marker(total)
}

// fitPair cuts a and b so that, quoted, they fit budget bytes together;
// the shorter keeps all of itself when it fits in half the budget.
func fitPair(a, b string, budget int) (string, string) {
	qa, qb := int(jsonenc.QuotedLen([]byte(a))), int(jsonenc.QuotedLen([]byte(b)))
	switch {
	case qa+qb <= budget:
		return a, b
	case qb <= budget/2:
		return fitString(a, budget-qb), b
	case qa <= budget/2:
		return a, fitString(b, budget-qa)
	}
	return fitString(a, budget/2), fitString(b, budget/2)
}

// fitString cuts valid UTF-8 s at a rune boundary so that, quoted, it fits
// budget bytes.
func fitString(s string, budget int) string {
	b := []byte(s)
	for {
		q := int(jsonenc.QuotedLen(b))
		if q <= budget || len(b) == 0 {
			return string(b)
		}
		cut := min(len(b)*max(budget, 0)/q, len(b)-1)
		b = b[:textenc.RuneStart(b[:cut])]
	}
}
