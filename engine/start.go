package engine

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/config"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/install"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/policy/decisionlog"
	"github.com/deskbridge/deskbridge/sandbox"
	"github.com/deskbridge/deskbridge/sandbox/runstore"
	"github.com/go-json-experiment/json"
)

// Version is DeskBridge's version, set at build time with -ldflags.
var Version = "0.1.0-dev"

// Options configure Start.
type Options struct {
	Config  *config.Config
	Origin  string
	Channel string
	// HostLog receives the host's own log lines; nil means stderr.
	HostLog io.Writer
}

// Start assembles a Host: it compiles the policy, opens the decision log
// and prepares the path resolver. A failure here means the host cannot
// decide safely; callers answer every request with it instead of serving.
func Start(ctx context.Context, o Options) (*Host, error) {
	cfg := o.Config
	hostLog := o.HostLog
	if hostLog == nil {
		hostLog = os.Stderr
	}
	src, err := policySource(cfg)
	if err != nil {
		return nil, err
	}
	data, err := configData(cfg)
	if err != nil {
		return nil, err
	}
	pe, err := policy.New(ctx, src, policy.Options{Data: data, Print: hostLog})
	if err != nil {
		return nil, err
	}
	log, err := openLog(cfg)
	if err != nil {
		return nil, err
	}
	env := &action.Env{
		Config: cfg,
		Paths:  facts.NewResolver(cfg.Workspaces, protectedPaths(cfg), facts.NewClassifier(cfg.Sensitivity.Secret, cfg.Sensitivity.Executes)),
		Roots:  &sandbox.Roots{},
		Runs:   sync.OnceValues(func() (*runstore.Store, error) { return runstore.Open(stateDir(cfg)) }),
		Info: action.Info{Version: Version, PolicyRevision: pe.Revision(), PolicyHash: pe.Hash(),
			ConfigHash: cfg.Hash(), ConfigSource: cfg.Source},
	}
	return &Host{env: env, policy: pe, log: log, origin: o.Origin, channel: o.Channel, hostLog: hostLog, now: time.Now}, nil
}

func policySource(cfg *config.Config) (*policy.Source, error) {
	switch {
	case cfg.Policy.Bundle != "":
		return nil, fmt.Errorf("policy bundles are not supported by this build yet; use policy.dir or the embedded default")
	case cfg.Policy.Dir != "":
		return policy.Dir(cfg.Policy.Dir)
	}
	return policy.Embedded(), nil
}

// configData is the configuration as the policy sees it (data.config).
func configData(cfg *config.Config) (map[string]any, error) {
	b, err := json.Marshal(cfg, json.Deterministic(true))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}

func openLog(cfg *config.Config) (*decisionlog.Log, error) {
	if cfg.DecisionLog.Disabled {
		return nil, nil
	}
	path := logPath(cfg)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("decision log folder: %w", err)
	}
	host, _ := os.Hostname()
	return decisionlog.Open(path, decisionlog.Options{
		MaxBytes: cfg.DecisionLog.MaxBytes,
		Keep:     cfg.DecisionLog.Keep,
		Labels:   decisionlog.Labels{ID: host, Version: Version},
	})
}

func logPath(cfg *config.Config) string {
	if cfg.DecisionLog.Path != "" {
		return cfg.DecisionLog.Path
	}
	return filepath.Join(config.DefaultStateDir(), "decisions.jsonl")
}

// stateDir is the folder of the host's run state.
func stateDir(cfg *config.Config) string {
	if cfg.StateDir != "" {
		return cfg.StateDir
	}
	return config.DefaultStateDir()
}

// protectedPaths are the files and folders the host never writes: its
// configuration, policy, decision log, state, binary and browser manifests.
func protectedPaths(cfg *config.Config) []string {
	var out []string
	add := func(p string) {
		if p == "" {
			return
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		out = append(out, p)
	}
	add(cfg.Source)
	add(cfg.Policy.Dir)
	add(cfg.Policy.Bundle)
	add(cfg.StateDir)
	add(config.DefaultStateDir())
	log := logPath(cfg)
	add(log)
	add(log + ".lock")
	for i := 1; i <= cfg.DecisionLog.Keep; i++ {
		add(fmt.Sprintf("%s.%d", log, i))
	}
	if exe, err := os.Executable(); err == nil {
		add(exe)
	}
	env := install.EnvFromOS()
	for _, b := range install.Browsers {
		for _, s := range []install.Scope{install.User, install.System} {
			if loc, err := install.Locations(runtime.GOOS, b, s, env); err == nil {
				add(filepath.Dir(loc.Manifest))
			}
		}
	}
	return out
}
