package fleet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/deskbridge/deskbridge/policy"
)

// MaxBundleBytes caps a downloaded bundle.
const MaxBundleBytes = 64 << 20

// longPollType is the Content-Type of a bundle server that supports long
// polling (OPA's bundle protocol).
const longPollType = "application/vnd.openpolicyagent.bundles"

// BundleResult is what one bundle poll did.
type BundleResult struct {
	// Changed is true when a new bundle was verified and installed.
	Changed bool
	// Revision is the installed bundle's manifest revision (when Changed).
	Revision string
	// ETag is the server's entity tag of the bundle in force.
	ETag string
	// LongPoll is true when the server held the request (long polling),
	// so the next poll may start at once.
	LongPoll bool
}

// PollBundle downloads the bundle once with OPA's bundle protocol: a GET
// of the resource with If-None-Match carrying the last ETag, so an
// unchanged bundle costs a 304. A new bundle is verified with the
// configured key and compiled before it atomically replaces policy.bundle;
// on any failure the installed bundle stays as it was.
func (f *Fleet) PollBundle(ctx context.Context) (BundleResult, error) {
	b := f.cfg.Fleet.Bundle
	req, err := f.request(ctx, http.MethodGet, b.Service, b.Resource, nil)
	if err != nil {
		return BundleResult{}, err
	}
	etag := f.etag()
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if s := b.Polling.LongPollingTimeoutSeconds; s > 0 {
		req.Header.Set("Prefer", "wait="+strconv.FormatInt(s, 10))
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return BundleResult{}, err
	}
	defer resp.Body.Close()
	long := strings.HasPrefix(resp.Header.Get("Content-Type"), longPollType)
	switch resp.StatusCode {
	case http.StatusNotModified:
		return BundleResult{ETag: etag, LongPoll: long}, nil
	case http.StatusOK:
	default:
		return BundleResult{}, fmt.Errorf("bundle server answered %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBundleBytes+1))
	if err != nil {
		return BundleResult{}, fmt.Errorf("reading the bundle: %w", err)
	}
	if len(body) > MaxBundleBytes {
		return BundleResult{}, fmt.Errorf("bundle is over %d bytes", MaxBundleBytes)
	}
	rev, err := f.install(ctx, body)
	if err != nil {
		return BundleResult{}, err
	}
	newTag := resp.Header.Get("ETag")
	if err := writeFileAtomic(f.etagPath(), []byte(newTag)); err != nil {
		return BundleResult{}, fmt.Errorf("saving the etag: %w", err)
	}
	return BundleResult{Changed: true, Revision: rev, ETag: newTag, LongPoll: long}, nil
}

// etag is the ETag of the installed bundle, or "" when there is none: a
// saved ETag without the bundle file it names would keep the file absent.
func (f *Fleet) etag() string {
	if _, err := os.Stat(f.cfg.Policy.Bundle); err != nil {
		return ""
	}
	b, err := os.ReadFile(f.etagPath())
	if err != nil {
		return ""
	}
	return string(b)
}

func (f *Fleet) etagPath() string { return filepath.Join(f.state, "bundle.etag") }

// install verifies body as a bundle signed by the configured key, checks
// that it is newer than the installed one (checkForward) and that it
// compiles, and renames it over policy.bundle.
func (f *Fleet) install(ctx context.Context, body []byte) (revision string, err error) {
	installed, wasInstalled, err := f.installedMark()
	if err != nil {
		return "", err
	}
	target := f.cfg.Policy.Bundle
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+"-*.tmp")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	_, werr := tmp.Write(body)
	serr := tmp.Sync()
	if err := errors.Join(werr, serr, tmp.Close()); err != nil {
		return "", err
	}
	src, err := f.verify(tmp.Name())
	if err != nil {
		return "", err
	}
	if wasInstalled {
		if err := checkForward(installed, src); err != nil {
			return "", err
		}
	}
	if _, err := policy.New(ctx, src, policy.Options{Print: io.Discard}); err != nil {
		return "", fmt.Errorf("downloaded bundle does not compile: %w", err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return "", err
	}
	if err := f.saveMark(src); err != nil {
		return "", fmt.Errorf("saving the installed revision: %w", err)
	}
	return src.Revision, nil
}

// verify reads the bundle at path, refusing it unless the configured key
// signed it.
func (f *Fleet) verify(path string) (*policy.Source, error) {
	p := f.cfg.Policy
	key, err := os.ReadFile(p.BundlePublicKey)
	if err != nil {
		return nil, fmt.Errorf("policy.bundle_public_key: %w", err)
	}
	src, err := policy.Bundle(path, &policy.Verification{KeyID: p.BundleKeyID, PublicKeyPEM: string(key)})
	if err != nil {
		return nil, fmt.Errorf("downloaded bundle refused: %w", err)
	}
	return src, nil
}
