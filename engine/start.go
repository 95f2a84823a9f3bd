package engine

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/redact"
	"github.com/deskbridge/deskbridge/engine/urlfacts"
	"github.com/deskbridge/deskbridge/internal/warm"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/sandbox"
	"github.com/deskbridge/deskbridge/sandbox/browser"
	"github.com/deskbridge/deskbridge/sandbox/runstore"
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
	// Opener opens URLs for open_in_browser; nil means browser.System with
	// the system folders run_command resolves programs from.
	Opener browser.Opener
	// Resolver looks up the host names of URL actions once their first
	// decision allowed them; nil means net.DefaultResolver.
	Resolver urlfacts.Resolver
	// Self is the deskbridge program preview_web and open_deskbridge start
	// their servers with; "" means this process's executable. A test
	// binary that cannot serve them sets one that fails.
	Self string
	// ProtectedPaths are more files and folders the host never writes on a
	// request's behalf, beside its own configuration, policy, log, state
	// and binary: the command line passes the browsers' manifest folders
	// (install.ManifestDirs).
	ProtectedPaths []string
	// Warm says the host is a warm process's (get_status's warm).
	Warm bool
}

// Start assembles a Host: it compiles the policy, opens the decision log
// and prepares the path resolver. A failure here means the host cannot
// decide safely; callers answer every request with it instead of serving.
func Start(ctx context.Context, o Options) (*Host, error) {
	cfg := o.Config
	if err := action.CheckConfigured(cfg.Limits); err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	hostLog := o.HostLog
	if hostLog == nil {
		hostLog = os.Stderr
	}
	// Errors and a policy's print output may quote a URL (net/http quotes
	// the failed hop's, a redirect target among them): the host's log gets
	// them with the URL's secrets cut out (redact.URLsIn).
	hostLog = redact.Writer(hostLog)
	compiled := make(chan compileResult, 1)
	go func() { compiled <- compilePolicy(ctx, cfg, hostLog, checkedDir(cfg)) }()
	// The policy compiles on one core while the path resolver is built on
	// the other; the log opens only once the policy has compiled.
	paths := facts.NewResolver(cfg.Workspaces, protectedPaths(cfg, o.ProtectedPaths), facts.NewClassifier(cfg.Sensitivity.Secret, cfg.Sensitivity.Executes))
	c := <-compiled
	if c.err != nil {
		return nil, c.err
	}
	pe := c.engine
	if err := storePolicy(cfg, c.src, c.data); err != nil {
		return nil, err
	}
	log, err := openLog(cfg, logMasker(cfg, pe))
	if err != nil {
		return nil, err
	}
	if o.Opener == nil {
		o.Opener = browser.System(cmdfacts.Native().Dirs)
	}
	env := &action.Env{
		Config:   cfg,
		Paths:    paths,
		Roots:    &sandbox.Roots{},
		Opener:   o.Opener,
		Resolver: o.Resolver,
		Self:     o.Self,
		Runs:     sync.OnceValues(func() (*runstore.Store, error) { return runstore.Open(cfg.StateFolder()) }),
		Info: action.Info{Version: Version, PolicyRevision: pe.Revision(), PolicyHash: pe.Hash(),
			ConfigHash: cfg.Hash(), ConfigSource: cfg.Source, Warm: o.Warm},
	}
	h := &Host{env: env, decider: pe, policy: pe, bundles: logBundles(pe), log: log, origin: o.Origin, channel: o.Channel, hostLog: hostLog,
		originOK: originAllowed(o.Channel, o.Origin, cfg.AllowedOrigins), now: time.Now,
		fresh: newFreshness(cfg, env.Info.ConfigHash, env.Info.PolicyHash)}
	env.CheckContent = h.checkContent
	return h, nil
}

type compileResult struct {
	engine *policy.Engine
	src    *policy.Source
	data   map[string]any
	err    error
}

// compilePolicy reads and compiles the configured policy set, keeping its
// compile mark in checked (policy.Options.CheckedDir; "": none).
func compilePolicy(ctx context.Context, cfg *config.Config, hostLog io.Writer, checked string) compileResult {
	src, err := policySource(cfg)
	if err != nil {
		return compileResult{err: err}
	}
	data, err := ConfigData(cfg)
	if err != nil {
		return compileResult{err: err}
	}
	pe, err := policy.New(ctx, src, policy.Options{Data: data, Print: hostLog, CheckedDir: checked, Serve: true})
	return compileResult{engine: pe, src: src, data: data, err: err}
}

// checkedDir is where the marks of policy sets that passed every compiler
// check are kept (policy.Options.CheckedDir): "policies-checked" beside
// the decision log, which the host already writes and never lets a
// request write. With the log off there is none, and every start checks.
func checkedDir(cfg *config.Config) string {
	if cfg.DecisionLog.Disabled {
		return ""
	}
	return policy.StoreDir(cfg.LogPath()) + "-checked"
}

func policySource(cfg *config.Config) (*policy.Source, error) {
	switch {
	case cfg.Policy.Bundle != "":
		return signedBundle(cfg.Policy)
	case cfg.Policy.Dir != "":
		return policy.Dir(cfg.Policy.Dir)
	}
	return policy.Embedded(), nil
}

// signedBundle reads the configured bundle, refusing it unless it is
// signed by the configured key.
func signedBundle(p config.Policy) (*policy.Source, error) {
	if p.BundlePublicKey == "" || p.BundleKeyID == "" {
		return nil, fmt.Errorf("policy.bundle needs policy.bundle_key_id and policy.bundle_public_key: unsigned bundles are refused")
	}
	key, err := os.ReadFile(p.BundlePublicKey)
	if err != nil {
		return nil, fmt.Errorf("policy.bundle_public_key: %w", err)
	}
	return policy.Bundle(p.Bundle, &policy.Verification{KeyID: p.BundleKeyID, PublicKeyPEM: string(key)})
}

// ConfigData is the configuration as the policy sees it (data.config),
// with exact numbers: a limit of 1048576 must not become 1.048576e+06.
func ConfigData(cfg *config.Config) (map[string]any, error) {
	b, err := json.Marshal(cfg, json.Deterministic(true))
	if err != nil {
		return nil, err
	}
	return decodeExact(b)
}

// decodeExact decodes a JSON object keeping numbers as json.Number.
func decodeExact(b []byte) (map[string]any, error) {
	d := stdjson.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	return m, d.Decode(&m)
}

// logMasker is what the decision log masks: the secrets requests
// commonly carry (secretMasker) unless the configuration says unmasked,
// then what the policy's own system.log.mask names.
func logMasker(cfg *config.Config, pe *policy.Engine) decisionlog.Masker {
	var own decisionlog.Masker
	if pe.HasMask() {
		own = policyMasker{pe}
	}
	if cfg.DecisionLog.Unmasked {
		return own
	}
	return decisionlog.Maskers(secretMasker{}, own)
}

// policyMasker masks what the policy's own system.log.mask rule names.
type policyMasker struct{ pe *policy.Engine }

// Mask implements decisionlog.Masker.
func (m policyMasker) Mask(ctx context.Context, ev *decisionlog.Event) ([]decisionlog.MaskOp, error) {
	doc, err := m.pe.Mask(ctx, ev)
	if err != nil || doc == nil {
		return nil, err
	}
	return decisionlog.ParseMaskOps(doc)
}

// logBundles names the bundle that decides, for the decision log's
// bundles field, or nil when the policy is not a bundle.
func logBundles(pe *policy.Engine) map[string]decisionlog.Bundle {
	name, rev := pe.Bundle()
	if name == "" {
		return nil
	}
	return map[string]decisionlog.Bundle{name: {Revision: rev}}
}

func openLog(cfg *config.Config, m decisionlog.Masker) (*decisionlog.Log, error) {
	if cfg.DecisionLog.Disabled {
		return nil, nil
	}
	path := cfg.LogPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("decision log folder: %w", err)
	}
	host, _ := os.Hostname()
	return decisionlog.Open(path, decisionlog.Options{
		MaxBytes: cfg.DecisionLog.MaxBytes,
		Keep:     cfg.DecisionLog.Keep,
		Labels:   decisionlog.Labels{ID: host, Version: Version},
		Masker:   m,
		// A keyed checkpoint of the head at every close, its key beside
		// the configuration, outside the log's folder (docs/decision-log.md).
		CheckpointKey: checkpointKey(cfg),
		// and a signed head every interval while a warm host runs.
		CheckpointInterval: time.Duration(cfg.DecisionLog.CheckpointSeconds) * time.Second,
	})
}

// checkpointKey is the decision log's checkpoint key: decision-log.key
// beside the configuration file, or none for a configuration that was not
// read from a file.
func checkpointKey(cfg *config.Config) string {
	if cfg.Source == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(cfg.Source), "decision-log.key")
}

// storePolicy keeps the policy set and configuration that decide in the
// content-addressed store beside the decision log, so that `deskbridge
// replay` can evaluate every logged decision against what decided it.
func storePolicy(cfg *config.Config, src *policy.Source, data map[string]any) error {
	if cfg.DecisionLog.Disabled {
		return nil
	}
	if _, err := policy.Store(policy.StoreDir(cfg.LogPath()), src, data); err != nil {
		return fmt.Errorf("storing the policy for replay: %w", err)
	}
	return nil
}

// protectedPaths are the files and folders the host never writes: its
// configuration, policy, decision log, state and binary, and extra (the
// browser manifests' folders).
func protectedPaths(cfg *config.Config, extra []string) []string {
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
	for _, svc := range cfg.Fleet.Services {
		if b := svc.Credentials.Bearer; b != nil {
			add(b.TokenPath) // fleet credentials
		}
	}
	add(filepath.Dir(config.DefaultPath())) // the configuration Chrome's host loads
	if env := os.Getenv(config.EnvVar); env != "" {
		if abs, err := filepath.Abs(env); err == nil {
			add(abs)
		}
	}
	add(cfg.Policy.Dir)
	add(cfg.Policy.Bundle)
	add(cfg.Policy.BundlePublicKey)
	add(cfg.StateDir)
	add(config.DefaultStateDir())
	log := cfg.LogPath()
	add(log)
	add(log + ".lock")
	add(decisionlog.CheckpointPath(log))
	add(decisionlog.HeadsPath(log))     // signed heads
	add(decisionlog.PublicKeyPath(log)) // their public key, for export
	if key := checkpointKey(cfg); key != "" {
		add(key)
		add(decisionlog.SigningKeyPath(key))  // the signed heads' private key
		add(decisionlog.VerifierKeyPath(key)) // and public key
	}
	add(policy.StoreDir(log))
	add(checkedDir(cfg))
	for i := 1; i <= cfg.DecisionLog.Keep; i++ {
		add(fmt.Sprintf("%s.%d", log, i))
		add(fmt.Sprintf("%s.%d.gz", log, i)) // rotated and compressed
	}
	add(log + ".1.gz.tmp") // being compressed
	if exe, err := os.Executable(); err == nil {
		add(exe)
		add(filepath.Join(filepath.Dir(exe), warmHostFile))
	}
	add(warm.Folder()) // the warm processes' sockets (Windows: their locks and logs)
	for _, p := range extra {
		add(p)
	}
	return out
}

// PolicySource reads the configured policy set (a signed bundle, a folder,
// or the embedded default), as Start does.
func PolicySource(cfg *config.Config) (*policy.Source, error) { return policySource(cfg) }

// warmHostFile is the file name of deskbridge-host (docs/warm.md).
var warmHostFile = map[bool]string{false: "deskbridge-host", true: "deskbridge-host.exe"}[runtime.GOOS == "windows"]
