package engine

import (
	"sync"

	"github.com/deskbridge/deskbridge/config"
)

// freshness tells a host, on every request, whether the configuration and
// policy it started from are still those a host starting now would load,
// so that a change (a workspace removed, a rule added) takes effect on the
// next message of a port already open, not on the next port. It is cheap
// enough to ask per request: it stats the configuration file and the
// policy folder or bundle (size and modification time), and only when one
// of them changed hashes them again as Start would (Fingerprint). A policy
// file edited in place, in its folder, changes neither: that edit is seen
// by the next port (its hello, for a warm process), as before.
//
// Once changed, a host stays changed: every later request is refused
// (ruleChanged), and the browser's next port gets a host started from the
// new files. A host made by Caller shares its parent's.
type freshness struct {
	configPath string
	started    string // Fingerprint at start
	paths      []string

	mu      sync.Mutex
	sig     []fileSig // of paths, when last checked
	changed bool
}

// fileSig is what a stat says of a file: enough to notice a write or a
// replacement (statSig: the inode too where there is one).
type fileSig struct {
	size, mtime, ino int64
	exists           bool
}

// newFreshness watches the files cfg was loaded from, for a host that
// started with the hashes configHash and policyHash; nil (nothing to
// watch) for a configuration that no file holds.
func newFreshness(cfg *config.Config, configHash, policyHash string) *freshness {
	if cfg.Source == "" {
		return nil
	}
	f := &freshness{configPath: cfg.Source, started: configHash + " " + policyHash}
	for _, p := range []string{cfg.Source, cfg.Policy.Dir, cfg.Policy.Bundle} {
		if p != "" {
			f.paths = append(f.paths, p)
		}
	}
	f.sig = signature(f.paths)
	return f
}

// Changed reports whether the configuration or policy changed since the
// host started (a file that no longer loads is a change).
func (f *freshness) Changed() bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.changed {
		return true
	}
	same := true
	for i, p := range f.paths {
		if sig := statSig(p); sig != f.sig[i] {
			f.sig[i], same = sig, false
		}
	}
	if !same {
		f.changed = Fingerprint(f.configPath) != f.started
	}
	return f.changed
}

func signature(paths []string) []fileSig {
	sig := make([]fileSig, len(paths))
	for i, p := range paths {
		sig[i] = statSig(p)
	}
	return sig
}

// Fingerprint names the configuration (loaded from configPath, "" for the
// default) and the policy a host would start from now, as Host.Hashes
// names those it started from: "<config hash> <policy hash>". A
// configuration or policy that does not load has none ("").
func Fingerprint(configPath string) string {
	cfg, _, err := config.Load(configPath)
	if err != nil {
		return ""
	}
	src, err := policySource(cfg)
	if err != nil {
		return ""
	}
	data, err := ConfigData(cfg)
	if err != nil {
		return ""
	}
	return cfg.Hash() + " " + src.Hash(data)
}
