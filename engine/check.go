package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/skills"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// Levels of a Finding.
const (
	// LevelOK: checked and in order.
	LevelOK = "ok"
	// LevelFix: the host refuses to start (every request is refused) until
	// it is fixed, or a request the user expects is refused.
	LevelFix = "FIX"
	// LevelWarn: the host runs, but less safely or less capably than it
	// could.
	LevelWarn = "warn"
	// LevelNote: information, such as a skill that is switched off.
	LevelNote = "-"
)

// Finding is one result of Check.
type Finding struct {
	Level  string
	What   string
	Detail string
}

// Check runs, for the configuration cfg (as config.Load returned it), the
// steps of Start that can refuse, without writing anything: the policy is
// compiled by the same function Start uses (compilePolicy) and its tests
// are run; the decision log, its lock and the policy store must be
// writable where Start writes them. It also reports the command sandbox
// and each skill's runtime as get_skill_profile does. `deskbridge doctor`
// prints the findings.
func Check(ctx context.Context, cfg *config.Config) []Finding {
	var out []Finding
	add := func(level, what, format string, args ...any) {
		out = append(out, Finding{Level: level, What: what, Detail: fmt.Sprintf(format, args...)})
	}
	c := compilePolicy(ctx, cfg, io.Discard, "") // "": no compile mark is written
	if c.err != nil {
		add(LevelFix, "policy", "%v", c.err)
	} else {
		add(LevelOK, "policy", "%s compiles (revision %q)", c.src.Name, c.engine.Revision())
		for _, w := range c.engine.Warnings() {
			add(LevelWarn, "policy", "%s", w)
		}
		if cfg.Policy.Dir == "" && cfg.Policy.Bundle == "" { // policySource: the embedded policy
			add(LevelOK, "policy tests", "the embedded policy's tests passed when this version was built; deskbridge policy test runs them again")
		} else {
			out = append(out, checkPolicyTests(ctx, c.src))
		}
	}
	out = append(out, checkLog(cfg)...)
	up, reason := proc.LandlockStatus()
	if up {
		add(LevelOK, "command sandbox", "Landlock confines each command's writes to its workspace (%s)", reason)
	} else {
		add(LevelWarn, "command sandbox", "not available, so commands run without the write wall: %s (docs/platforms.md)", reason)
	}
	for _, p := range skills.Profiles(&action.Env{Config: cfg}) {
		switch {
		case p.Enabled && p.Available:
			add(LevelOK, "skill "+p.Name, "%d action(s)", len(p.Actions))
		default:
			add(LevelNote, "skill "+p.Name, "%s", p.Reason)
		}
	}
	return out
}

func checkPolicyTests(ctx context.Context, src *policy.Source) Finding {
	f := Finding{What: "policy tests"}
	if len(src.Tests) == 0 {
		f.Level, f.Detail = LevelWarn, src.Name+" has no tests (_test.rego): deskbridge policy test cannot check it"
		return f
	}
	rep, err := policy.RunTests(ctx, src, false, io.Discard)
	switch {
	case err != nil:
		f.Level, f.Detail = LevelFix, err.Error()
	case !rep.OK():
		f.Level, f.Detail = LevelFix, fmt.Sprintf("%d passed, %d failed, %d errored: run deskbridge policy test %s -v", rep.Passed, rep.Failed, rep.Errored, src.Name)
	default:
		f.Level, f.Detail = LevelOK, fmt.Sprintf("%d passed", rep.Passed)
	}
	return f
}

// checkLog checks that Start can open the decision log and store the
// policy beside it.
func checkLog(cfg *config.Config) []Finding {
	if cfg.DecisionLog.Disabled {
		return []Finding{{LevelWarn, "decision log", "switched off (decision_log.disabled): nothing is recorded, and nothing can be replayed"}}
	}
	log := cfg.LogPath()
	var out []Finding
	for _, p := range []struct {
		what, path string
		dir        bool
	}{
		{"decision log", log, false},
		{"decision log lock", log + ".lock", false},
		{"policy store", policy.StoreDir(log), true},
	} {
		if err := canWrite(p.path, p.dir); err != nil {
			out = append(out, Finding{LevelFix, p.what, fmt.Sprintf("%s: %v", p.path, err)})
		} else {
			out = append(out, Finding{LevelOK, p.what, p.path})
		}
	}
	return out
}

// canWrite reports why the host could not create or append to p: an
// existing p must be writable and a folder exactly when dir says so; a
// missing one must be creatable below its nearest existing ancestor,
// which must be a writable folder. Nothing is written.
func canWrite(p string, dir bool) error {
	fi, err := os.Stat(p)
	switch {
	case err == nil && fi.IsDir() != dir && dir:
		return errors.New("is a file, not a folder")
	case err == nil && fi.IsDir() != dir:
		return errors.New("is a folder, not a file")
	case err == nil:
		return writable(p)
	case errors.Is(err, fs.ErrPermission):
		return err
	}
	return canCreateIn(filepath.Dir(p))
}

// canCreateIn reports why p's nearest existing ancestor (or p) is not a
// folder this process may create in.
func canCreateIn(dir string) error {
	for {
		fi, err := os.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a folder", dir)
			}
			if err := writable(dir); err != nil {
				return fmt.Errorf("cannot create it in %s: %w", dir, err)
			}
			return nil
		}
		if errors.Is(err, fs.ErrPermission) {
			return err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return err
		}
		dir = parent
	}
}
