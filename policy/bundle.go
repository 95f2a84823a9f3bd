package policy

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/keys"
)

// Verification names the key that must have signed a bundle.
type Verification struct {
	// KeyID is the key's id, as the bundle's signature names it (kid).
	KeyID string
	// PublicKeyPEM is the public key (PKIX PEM); its type chooses the
	// algorithm: RSA → RS256, ECDSA P-256 → ES256, Ed25519 → EdDSA.
	PublicKeyPEM string
}

// Bundle reads the OPA bundle (.tar.gz) at path. With v, the bundle must
// carry a .signatures.json signed by v's key over every file, or it is
// refused; a nil v reads it without any check (for tools that never act).
// The manifest's revision becomes the Source's Revision. Data files in
// the bundle become the Source's Data (team/data.json is data.team); one
// under a reserved name (data.config …) or over MaxDataBytes together is
// refused.
// A bundle over MaxBundleBytes, or whose files are over
// MaxBundleFileBytes each, MaxBundleTotalBytes together or
// MaxBundleEntries in number, is refused as it is read, before the
// signature can be checked.
func Bundle(path string, v *Verification) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("policy bundle: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, fmt.Errorf("policy bundle: %w", err)
	} else if fi.Size() > MaxBundleBytes {
		return nil, fmt.Errorf("policy bundle %s: %w: %d bytes, over %d", path, errBundleLimit, fi.Size(), MaxBundleBytes)
	}
	in := newTarLoader(io.LimitReader(f, MaxBundleBytes), defaultBundleLimits)
	r := bundle.NewCustomReader(in).WithSizeLimitBytes(MaxBundleFileBytes).WithSkipBundleVerification(v == nil)
	if v != nil {
		vc, err := verificationConfig(v)
		if err != nil {
			return nil, err
		}
		r = r.WithBundleVerificationConfig(vc)
	}
	b, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("policy bundle %s: %w%s", path, err, rootsHint(err))
	}
	return bundleSource(path, b)
}

func verificationConfig(v *Verification) (*bundle.VerificationConfig, error) {
	if v.KeyID == "" || v.PublicKeyPEM == "" {
		return nil, fmt.Errorf("policy bundle: a key id and a public key are required to verify it")
	}
	alg, err := algorithm(v.PublicKeyPEM)
	if err != nil {
		return nil, err
	}
	kc := map[string]*keys.Config{v.KeyID: {Key: v.PublicKeyPEM, Algorithm: alg}}
	return bundle.NewVerificationConfig(kc, v.KeyID, "", nil), nil
}

// algorithm chooses the JWS algorithm from the public key's type.
func algorithm(pemText string) (string, error) {
	block, _ := pem.Decode([]byte(pemText))
	if block == nil {
		return "", fmt.Errorf("policy bundle: the public key is not PEM")
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return "", fmt.Errorf("policy bundle: public key: %w", err)
	}
	switch k := pub.(type) {
	case *rsa.PublicKey:
		return "RS256", nil
	case *ecdsa.PublicKey:
		if k.Curve.Params().BitSize == 256 {
			return "ES256", nil
		}
		return "", fmt.Errorf("policy bundle: only P-256 ECDSA keys are supported")
	case ed25519.PublicKey:
		return "EdDSA", nil
	}
	return "", fmt.Errorf("policy bundle: unsupported public key type %T", pub)
}

func bundleSource(path string, b bundle.Bundle) (*Source, error) {
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".tar")
	s := &Source{Name: path, Revision: b.Manifest.Revision, Bundle: name,
		Modules: map[string]string{}, Tests: map[string]string{}}
	if len(b.Data) > 0 {
		s.Data = b.Data // merged by OPA from the data files, by their folders
	}
	if err := s.checkData(); err != nil {
		return nil, err
	}
	for _, m := range b.Modules {
		p := strings.TrimPrefix(m.Path, "/")
		if strings.HasSuffix(p, "_test.rego") {
			s.Tests[p] = string(m.Raw)
		} else {
			s.Modules[p] = string(m.Raw)
		}
	}
	if len(s.Modules) == 0 {
		return nil, fmt.Errorf("policy bundle %s has no .rego modules", path)
	}
	return s, nil
}

// Bundle names the bundle that decides and its revision, for the decision
// log's bundles field; the name is empty when the policy is not a bundle.
func (e *Engine) Bundle() (name, revision string) {
	return e.src.Bundle, e.src.Revision
}

// outsideRoots is OPA's error for a module whose package lies outside the
// roots its bundle's manifest claims, compiled only when a bundle fails.
var outsideRoots = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`do not permit 'package ([\w.]+)'`) })

// rootsHint says what to change when err is OPA's refusal of a package
// outside the manifest's roots, or "".
func rootsHint(err error) string {
	m := outsideRoots().FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	return fmt.Sprintf(": a rule outside the roots would not be enforced; add %s to roots in .manifest", strings.ReplaceAll(m[1], ".", "/"))
}
