// Package config loads and normalises DeskBridge's JSON configuration
// (docs/configuration.md).
//
// The configuration is chosen by --config PATH, else the DESKBRIDGE_CONFIG
// environment variable, else deskbridge/config.json in the OS
// user-configuration folder. It is strict: an unknown member is an error, because a typo in a
// security configuration must be loud. Workspace roots are made canonical
// (absolute, symlinks resolved) when loaded. The normalised configuration is
// handed to the policy as data.config, and its hash is stamped on every
// decision.
package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/deskbridge/deskbridge/internal/pathform"
	"github.com/go-json-experiment/json"
)

// maxCheckpointSeconds bounds decision_log.checkpoint_seconds: a day.
const maxCheckpointSeconds = 86400

// maxKeep bounds decision_log.keep (the log keeps at most this many
// rotated files; see decisionlog.MaxRotated).
const maxKeep = 1000

// EnvVar names the environment variable that points at the configuration.
const EnvVar = "DESKBRIDGE_CONFIG"

// Config is DeskBridge's configuration.
type Config struct {
	// Workspaces are the folders DeskBridge may act in.
	Workspaces []Workspace `json:"workspaces"`
	// AllowedOrigins are the extension origins the host serves, exactly as
	// Chrome passes them (chrome-extension://<id>/).
	AllowedOrigins []string `json:"allowed_origins"`
	// DecisionLog says where decisions are written.
	DecisionLog DecisionLog `json:"decision_log"`
	// Commands extends the command whitelist.
	Commands Commands `json:"commands"`
	// ImportSources are folders import_asset may copy from; made canonical
	// (absolute, symlinks resolved) when loaded, like workspace roots.
	ImportSources []string `json:"import_sources"`
	// Network holds the private-network exceptions.
	Network Network `json:"network"`
	// Skills switches skills on or off by name; a skill not named is on.
	Skills map[string]bool `json:"skills"`
	// Apps lists the applications open_app may start.
	Apps Apps `json:"apps"`
	// Editors are the editors open_project may open a folder in, by name.
	Editors map[string]Editor `json:"editors"`
	// Limits overrides per-action limits (timeout_ms, max_bytes) by action name.
	Limits map[string]map[string]int64 `json:"limits"`
	// Agent sets the limits of web_agent runs.
	Agent AgentLimits `json:"agent"`
	// Policy selects the policy set; empty means the embedded default.
	Policy Policy `json:"policy"`
	// Sensitivity adds patterns to the built-in sensitivity classes.
	Sensitivity Sensitivity `json:"sensitivity"`
	// StateDir holds run state; empty means the OS user state folder.
	StateDir string `json:"state_dir"`
	// Projects configures create_project.
	Projects Projects `json:"projects,omitzero"`
	// Fleet configures `deskbridge fleet`, which fetches the policy bundle
	// and ships the decision log with OPA's management protocols
	// (docs/fleet.md). Empty: no fleet mode.
	Fleet Fleet `json:"fleet,omitzero"`
	// Documents configures convert_document_to_markdown (documents.go).
	Documents Documents `json:"documents,omitzero"`

	// Source is the file the configuration was read from ("" for the
	// embedded default). It is not part of the JSON.
	Source string `json:"-"`
}

// Projects configures create_project.
type Projects struct {
	// Templates is a folder whose subfolders are project templates by
	// name, taken before the built-in ones of the same name.
	Templates string `json:"templates,omitempty"`
}

// Workspace is one named folder DeskBridge may act in.
type Workspace struct {
	Name string `json:"name"`
	Path string `json:"path"`
	// PreviewOrigins are origins ("https://cdn.example.org") whose
	// stylesheets, scripts, fonts and images a preview_web page of the
	// workspace may load, added to its Content-Security-Policy; none by
	// default ('self' only). http is allowed only for loopback hosts.
	PreviewOrigins []string `json:"preview_origins,omitempty"`
}

// DecisionLog configures the decision log.
type DecisionLog struct {
	// Path of the JSON-lines log; empty means the OS user state folder.
	Path string `json:"path"`
	// MaxBytes rotates the log when it grows past this size (0: 64 MiB).
	MaxBytes int64 `json:"max_bytes,omitempty"`
	// Keep is how many rotated files are kept (0: 5).
	Keep int `json:"keep,omitempty"`
	// CheckpointSeconds is how often a process that stays open (the warm
	// host) writes a checkpoint and a signed head of the log (0: 300).
	CheckpointSeconds int `json:"checkpoint_seconds,omitempty"`
	// Disabled turns decision logging off (not recommended).
	Disabled bool `json:"disabled,omitempty"`
	// Unmasked logs requests whole. By default the secrets requests
	// commonly carry are masked in the log (the policy sees them): a URL's
	// user information, query values and fragment, in URL arguments and in
	// commands, and the values of run_command's environment
	// (docs/decision-log.md, "Masking").
	Unmasked bool `json:"unmasked,omitempty"`
}

// Commands configures run_command.
type Commands struct {
	// Allow adds program names to the default whitelist.
	Allow []string `json:"allow"`
	// ScriptRunners opens programs that run scripts the workspace defines,
	// by their kind in input.command.script_runner ("npm", "make",
	// "go generate", "cargo build" …); the default policy refuses them.
	ScriptRunners []string `json:"script_runners"`
}

// Network configures URL actions.
type Network struct {
	// AllowPrivate lists the only private-range prefixes fetches may reach.
	// A prefix that does not parse is a configuration error (the policy
	// never sees it).
	AllowPrivate []string `json:"allow_private"`
	// OpenLocalhost lets open_in_browser (only) open loopback dev servers.
	OpenLocalhost bool `json:"open_localhost,omitempty"`
}

// AgentLimits are the limits of web_agent runs (docs/protocol.md, "Agent messages").
type AgentLimits struct {
	MaxFileBytes  int64 `json:"max_file_bytes,omitempty"`
	MaxLines      int   `json:"max_lines,omitempty"`
	MaxResults    int   `json:"max_results,omitempty"`
	MaxTotalChars int   `json:"max_total_chars,omitempty"`
	MaxRounds     int   `json:"max_rounds,omitempty"`
}

// Policy selects the policy set.
type Policy struct {
	// Dir is a directory of .rego and data files that replaces the
	// embedded default policies.
	Dir string `json:"dir,omitempty"`
	// Bundle is an OPA bundle (.tar.gz) that replaces them. It must be
	// signed by BundleKeyID's key; an unsigned or tampered bundle is refused.
	Bundle string `json:"bundle,omitempty"`
	// BundleKeyID is the id (kid) of the key that signs Bundle.
	BundleKeyID string `json:"bundle_key_id,omitempty"`
	// BundlePublicKey is the path of that key's public half (PEM).
	BundlePublicKey string `json:"bundle_public_key,omitempty"`
}

// Sensitivity adds glob patterns to the sensitivity classes.
type Sensitivity struct {
	Secret   []string `json:"secret,omitempty"`
	Executes []string `json:"executes,omitempty"`
}

// Load reads the configuration named by path, else by DESKBRIDGE_CONFIG,
// else the default location. found is false when no file exists at the
// default location; the returned configuration is then empty (it allows
// nothing).
func Load(path string) (cfg *Config, found bool, err error) {
	explicit := path != ""
	if !explicit {
		path = os.Getenv(EnvVar)
		explicit = path != ""
	}
	if !explicit {
		path = DefaultPath()
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		c := &Config{}
		return c, false, c.normalise()
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading configuration: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, true, err
	}
	c, err := parseIn(b, filepath.Dir(abs))
	if err != nil {
		return nil, true, fileError(path, b, err)
	}
	c.Source = abs
	return c, true, nil
}

// Parse decodes and normalises a configuration document. Relative file
// paths in it are taken relative to the current folder.
func Parse(b []byte) (*Config, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return parseIn(b, wd)
}

// parseIn decodes and normalises a configuration document whose relative
// file paths are relative to base (the configuration file's folder).
func parseIn(b []byte, base string) (*Config, error) {
	var c Config
	if err := json.Unmarshal(b, &c, json.RejectUnknownMembers(true)); err != nil {
		return nil, decodeError("", b, err)
	}
	c.absolutize(base)
	if err := c.normalise(); err != nil {
		return nil, err
	}
	return &c, nil
}

// absolutize makes every file path of the configuration absolute against
// base, so that what the host opens is exactly what it protects.
func (c *Config) absolutize(base string) {
	abs := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(base, *p)
		}
	}
	abs(&c.DecisionLog.Path)
	abs(&c.Policy.Dir)
	abs(&c.Policy.Bundle)
	abs(&c.Policy.BundlePublicKey)
	abs(&c.StateDir)
	abs(&c.Projects.Templates)
	for i := range c.Fleet.Services {
		if b := c.Fleet.Services[i].Credentials.Bearer; b != nil {
			abs(&b.TokenPath)
		}
	}
	for i := range c.ImportSources {
		abs(&c.ImportSources[i])
	}
}

// ForFolder returns the embedded default configuration: one workspace, the
// given folder, and decisions logged to logPath ("": the default decision
// log, LogPath). It serves `deskbridge call`.
func ForFolder(dir, logPath string) (*Config, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	c := &Config{
		Workspaces:  []Workspace{{Name: filepath.Base(abs), Path: abs}},
		DecisionLog: DecisionLog{Path: logPath},
	}
	return c, c.normalise()
}

// DefaultPath is the configuration file used when none is named.
func DefaultPath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "deskbridge-config.json"
	}
	return filepath.Join(dir, "deskbridge", "config.json")
}

// Hash returns the hex SHA-256 of the normalised configuration as the
// policy sees it.
func (c *Config) Hash() string {
	b, _ := json.Marshal(c, json.Deterministic(true))
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// normalise makes workspace roots canonical and fills defaults. It
// checks every member and returns every problem it finds (Errors), each
// at its member, not only the first.
func (c *Config) normalise() error {
	var p problems
	c.checkWorkspaces(&p)
	c.canonicalImportSources(&p)
	if c.DecisionLog.Keep < 0 || c.DecisionLog.Keep > maxKeep {
		p.add("/decision_log/keep", fmt.Errorf("decision_log.keep must be between 0 and %d", maxKeep))
	}
	if c.DecisionLog.CheckpointSeconds < 0 || c.DecisionLog.CheckpointSeconds > maxCheckpointSeconds {
		return memberError("/decision_log/checkpoint_seconds", fmt.Errorf("decision_log.checkpoint_seconds must be between 0 and %d", maxCheckpointSeconds))
	}
	for i, cidr := range c.Network.AllowPrivate {
		if _, err := netip.ParsePrefix(cidr); err != nil {
			p.add(fmt.Sprintf("/network/allow_private/%d", i), fmt.Errorf("network.allow_private: %q is not a CIDR prefix such as 10.20.0.0/16", cidr))
		}
	}
	for i, o := range c.AllowedOrigins {
		if !validOrigin(o) {
			p.add(fmt.Sprintf("/allowed_origins/%d", i), fmt.Errorf("allowed origin %q is not of the form chrome-extension://<32 letters a-p>/", o))
		}
	}
	if err := c.Fleet.check(c.Policy); err != nil {
		p.add("/fleet", err)
	}
	c.checkDesktop(&p)
	c.checkSkills(&p)
	c.checkLimits(&p)
	if err := c.Documents.check(); err != nil {
		p.add("/documents/ocr", err)
	}
	if err := p.err(); err != nil {
		return err
	}
	c.fillDefaults()
	return nil
}

// checkWorkspaces makes every workspace root canonical and records each
// root that cannot be, each name used twice and, when every root is
// canonical, workspaces that overlap.
func (c *Config) checkWorkspaces(p *problems) {
	seen := map[string]bool{}
	rootsOK := true
	for i := range c.Workspaces {
		w := &c.Workspaces[i]
		if err := canonicalRoot(w); err != nil {
			p.add(fmt.Sprintf("/workspaces/%d/path", i), err)
			rootsOK = false
			if w.Name == "" {
				continue // named by its folder, which is not there
			}
		}
		if seen[strings.ToLower(w.Name)] {
			p.add(fmt.Sprintf("/workspaces/%d/name", i), fmt.Errorf("workspace name %q is used twice", w.Name))
		}
		for j, o := range w.PreviewOrigins {
			if err := checkPreviewOrigin(o); err != nil {
				p.add(fmt.Sprintf("/workspaces/%d/preview_origins/%d", i, j), err)
			}
		}
		seen[strings.ToLower(w.Name)] = true
	}
	if rootsOK {
		c.checkApart(p)
	}
}

// checkApart refuses two workspaces of which one lies inside the other: a
// command run in the outer one could swap the inner one's folder for a
// link, and the inner workspace would then lead wherever the link points.
func (c *Config) checkApart(p *problems) {
	for i, a := range c.Workspaces {
		for j, b := range c.Workspaces[i+1:] {
			if inside(a.Path, b.Path) || inside(b.Path, a.Path) {
				p.add(fmt.Sprintf("/workspaces/%d/path", i+1+j), fmt.Errorf("workspaces %q (%s) and %q (%s) overlap; name only the outer one, or keep them apart", a.Name, a.Path, b.Name, b.Path))
			}
		}
	}
}

// inside reports whether p is root or lies below it, by whole names as the
// path resolver compares them (pathform.Within; without case on macOS as on
// Windows).
func inside(root, p string) bool {
	r, err1 := pathform.Parse(pathform.Native, root)
	q, err2 := pathform.Parse(pathform.Native, p)
	if err1 != nil || err2 != nil {
		return false
	}
	if runtime.GOOS == "darwin" {
		_, ok := pathform.WithinFold(r, q)
		return ok
	}
	_, ok := pathform.Within(r, q)
	return ok
}

func canonicalRoot(w *Workspace) error {
	if !filepath.IsAbs(w.Path) {
		return fmt.Errorf("workspace %q: path %q is not absolute", w.Name, w.Path)
	}
	real, err := filepath.EvalSymlinks(w.Path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("workspace %q: the folder %s does not exist: create it, or correct the path", w.Name, w.Path)
	}
	if err != nil {
		return fmt.Errorf("workspace %q: %w", w.Name, err)
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() {
		return fmt.Errorf("workspace %q: %s is not a folder", w.Name, w.Path)
	}
	w.Path = real
	if w.Name == "" {
		w.Name = filepath.Base(real)
	}
	return nil
}

// canonicalImportSources makes every import source absolute and free of
// symlinks, so that containment is judged against the real folder.
func (c *Config) canonicalImportSources(p *problems) {
	for i, src := range c.ImportSources {
		member := fmt.Sprintf("/import_sources/%d", i)
		if !filepath.IsAbs(src) {
			p.add(member, fmt.Errorf("import source %q is not absolute", src))
			continue
		}
		real, err := filepath.EvalSymlinks(src)
		if err != nil {
			p.add(member, fmt.Errorf("import source %q: %w", src, err))
			continue
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			p.add(member, fmt.Errorf("import source %s is not a folder", src))
			continue
		}
		c.ImportSources[i] = real
	}
}

// validOrigin accepts exactly chrome-extension://<32 of a-p>/.
func validOrigin(o string) bool {
	id, ok := strings.CutPrefix(o, "chrome-extension://")
	if !ok {
		return false
	}
	id, ok = strings.CutSuffix(id, "/")
	if !ok || len(id) != 32 {
		return false
	}
	for _, r := range id {
		if r < 'a' || r > 'p' {
			return false
		}
	}
	return true
}

func (c *Config) fillDefaults() {
	if c.Workspaces == nil {
		c.Workspaces = []Workspace{}
	}
	if c.AllowedOrigins == nil {
		c.AllowedOrigins = []string{}
	}
	if c.Commands.Allow == nil {
		c.Commands.Allow = []string{}
	}
	if c.Commands.ScriptRunners == nil {
		c.Commands.ScriptRunners = []string{}
	}
	if c.ImportSources == nil {
		c.ImportSources = []string{}
	}
	if c.Network.AllowPrivate == nil {
		c.Network.AllowPrivate = []string{}
	}
	if c.Skills == nil {
		c.Skills = map[string]bool{}
	}
	if c.Apps.Allow == nil {
		c.Apps.Allow = []string{}
	}
	if c.Editors == nil {
		c.Editors = map[string]Editor{}
	}
	if c.Limits == nil {
		c.Limits = map[string]map[string]int64{}
	}
	a := &c.Agent
	a.MaxFileBytes = or(a.MaxFileBytes, 256<<10)
	a.MaxLines = or(a.MaxLines, 2000)
	a.MaxResults = or(a.MaxResults, 200)
	a.MaxTotalChars = or(a.MaxTotalChars, 200_000)
	a.MaxRounds = or(a.MaxRounds, 20)
	if c.DecisionLog.MaxBytes == 0 {
		c.DecisionLog.MaxBytes = 64 << 20
	}
	if c.DecisionLog.Keep == 0 {
		c.DecisionLog.Keep = 5
	}
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// LogPath is the decision log's file: decision_log.path, else
// decisions.jsonl in the OS user state folder.
func (c *Config) LogPath() string {
	if c.DecisionLog.Path != "" {
		return c.DecisionLog.Path
	}
	return filepath.Join(DefaultStateDir(), "decisions.jsonl")
}

// StateFolder is state_dir, else the OS user state folder.
func (c *Config) StateFolder() string {
	if c.StateDir != "" {
		return c.StateDir
	}
	return DefaultStateDir()
}

// DefaultStateDir is the OS user state folder for DeskBridge: run state and,
// by default, the decision log. Linux and other Unix: $XDG_STATE_HOME or
// ~/.local/state; macOS: ~/Library/Application Support; Windows:
// %LOCALAPPDATA%.
func DefaultStateDir() string {
	switch runtime.GOOS {
	case "windows":
		if d, err := os.UserCacheDir(); err == nil { // %LOCALAPPDATA%
			return filepath.Join(d, "DeskBridge", "state")
		}
	case "darwin":
		if d, err := os.UserConfigDir(); err == nil {
			return filepath.Join(d, "DeskBridge", "state")
		}
	default:
		if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
			return filepath.Join(d, "deskbridge")
		}
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, ".local", "state", "deskbridge")
		}
	}
	return filepath.Join(os.TempDir(), "deskbridge-state")
}
