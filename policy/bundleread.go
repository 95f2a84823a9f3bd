package policy

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/loader/filter"
)

// Limits on a bundle file, checked while it is read: OPA reads every file
// of a bundle into memory before it checks the signature, so these bound
// what an unsigned bundle can cost.
const (
	// MaxBundleBytes caps the bundle file itself (compressed), as
	// fleet caps a download.
	MaxBundleBytes = 64 << 20
	// MaxBundleFileBytes caps one file in the bundle, decompressed.
	MaxBundleFileBytes = 8 << 20
	// MaxBundleTotalBytes caps all the files of a bundle, decompressed.
	MaxBundleTotalBytes = 64 << 20
	// MaxBundleEntries caps how many entries (files, directories, …) a
	// bundle holds.
	MaxBundleEntries = 10000
)

// errBundleLimit marks a bundle refused for its size.
var errBundleLimit = errors.New("the bundle is over a size limit")

// tarLoader is a bundle.DirectoryLoader for a .tar.gz that enforces the
// limits above before it holds a file's content: OPA's own tarball loader
// allocates each file's declared size and has no total limit. Like OPA's,
// it reads the regular files eagerly (the signature may come last) and
// passes their names through unchanged.
type tarLoader struct {
	r     io.Reader
	max   bundleLimits
	files []*bundle.Descriptor
	read  bool
	next  int
}

// bundleLimits are the caps a tarLoader enforces on the decompressed
// archive.
type bundleLimits struct {
	file, total int64
	entries     int
}

var defaultBundleLimits = bundleLimits{file: MaxBundleFileBytes, total: MaxBundleTotalBytes, entries: MaxBundleEntries}

func newTarLoader(r io.Reader, max bundleLimits) *tarLoader { return &tarLoader{r: r, max: max} }

// NextFile returns the next regular file of the archive, or io.EOF.
func (t *tarLoader) NextFile() (*bundle.Descriptor, error) {
	if !t.read {
		t.read = true
		if err := t.readAll(); err != nil {
			return nil, err
		}
	}
	if t.next >= len(t.files) {
		return nil, io.EOF
	}
	t.next++
	return t.files[t.next-1], nil
}

func (t *tarLoader) readAll() error {
	gz, err := gzip.NewReader(t.r)
	if err != nil {
		return fmt.Errorf("archive read failed: %w", err)
	}
	tr := tar.NewReader(gz)
	var total int64
	for n := 0; ; n++ {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if n >= t.max.entries {
			return fmt.Errorf("%w: over %d entries", errBundleLimit, t.max.entries)
		}
		if total += h.Size; total > t.max.total {
			return fmt.Errorf("%w: its files hold over %d bytes", errBundleLimit, t.max.total)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if err := t.add(tr, h); err != nil {
			return err
		}
	}
}

// add reads the content of the regular file h, within the limits.
func (t *tarLoader) add(tr *tar.Reader, h *tar.Header) error {
	if h.Size > t.max.file {
		return fmt.Errorf("%w: %s is %d bytes, over %d", errBundleLimit, h.Name, h.Size, t.max.file)
	}
	buf := bytes.NewBuffer(make([]byte, 0, h.Size))
	if _, err := io.Copy(buf, tr); err != nil {
		return fmt.Errorf("failed to copy file %s: %w", h.Name, err)
	}
	t.files = append(t.files, bundle.NewDescriptor(filepath.Join("", h.Name), h.Name, buf))
	return nil
}

// WithFilter is not supported: Bundle never sets one.
func (t *tarLoader) WithFilter(filter.LoaderFilter) bundle.DirectoryLoader { return t }

// WithPathFormat is not supported: names pass through, as in OPA's
// default.
func (t *tarLoader) WithPathFormat(bundle.PathFormat) bundle.DirectoryLoader { return t }

// WithSizeLimitBytes is not supported: the limits are the constants above.
func (t *tarLoader) WithSizeLimitBytes(int64) bundle.DirectoryLoader { return t }

// WithFollowSymlinks does nothing: an archive has no links to follow.
func (t *tarLoader) WithFollowSymlinks(bool) bundle.DirectoryLoader { return t }
