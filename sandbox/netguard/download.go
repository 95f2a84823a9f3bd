package netguard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/deskbridge/deskbridge/sandbox"
)

// sniffLen is how many leading bytes decide the sniffed content type.
const sniffLen = 512

// Result describes a completed download.
type Result struct {
	Path        string // the name inside the destination root, as given
	Size        int64  // bytes written
	ContentType string // the sniffed media type, such as "image/png"
	SHA256      string // lower-case hex digest of the bytes written
	Created     bool   // no file had the name before (false: one was replaced)
}

// Options modify Download.
type Options struct {
	// MaxBytes caps the body: a declared or counted size over it fails
	// with a *TooLargeError.
	MaxBytes int64
	// Timeout, if positive, bounds the whole download.
	Timeout time.Duration
	// Overwrite replaces an existing regular file at the name (keeping its
	// permissions); without it an existing name fails with a
	// *fs.PathError of fs.ErrExist.
	Overwrite bool
	// SHA256, if not empty, is the lower-case hex digest the body must
	// have; another body fails with a *HashError and nothing is stored.
	SHA256 string
}

// Download fetches rawURL with client and stores the body as name inside
// dst. The body streams into a temporary file beside name (opened through
// dst, so it cannot leave the destination) which is given its name only
// when the download is complete and checked; on any failure nothing is
// left behind. An existing name is never overwritten unless o.Overwrite
// is set, and then only when it is a regular file.
//
// Other failures: a *TooLargeError when the Content-Length or the bytes
// counted exceed o.MaxBytes, a *ContentTypeError when the declared or
// sniffed type does not suit name's extension (an image extension must
// get an image), a *HashError when the body's digest is not o.SHA256, a
// *StatusError for an answer outside 2xx, the client's own refusals
// (ErrBlocked, ErrScheme, ErrURL, ErrURLForm, ErrIPv4, ErrIPForm,
// ErrRedirects, ErrUnjudged, and a *HopError for a hop the client's
// JudgeHop refused), a *fs.PathError of package sandbox's kinds when the name
// to overwrite is a folder, link or other file that is not regular, and
// otherwise a *DownloadError naming the step, wrapping ErrTimeout when
// o.Timeout (if positive) or ctx's deadline passed. Use a client from
// NewClient.
func Download(ctx context.Context, client *http.Client, rawURL string, dst *os.Root, name string, o Options) (Result, error) {
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	if !o.Overwrite {
		if _, err := dst.Lstat(name); !errors.Is(err, fs.ErrNotExist) {
			return Result{}, existsError(name, err)
		}
	}
	resp, err := get(ctx, client, rawURL)
	if err != nil {
		return Result{}, fetchError(ctx, err)
	}
	defer resp.Body.Close()
	if err := checkResponse(resp, o.MaxBytes); err != nil {
		return Result{}, err
	}
	return store(ctx, resp, dst, name, o)
}

// get validates rawURL and sends the request.
func get(ctx context.Context, client *http.Client, rawURL string) (*http.Response, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrURL, err)
	}
	if err := checkSyntax(u); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrURL, err)
	}
	return client.Do(req)
}

// checkResponse refuses a failed status or a declared size over maxBytes.
func checkResponse(resp *http.Response, maxBytes int64) error {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &StatusError{Code: resp.StatusCode}
	}
	if resp.ContentLength > maxBytes {
		return tooLarge(maxBytes)
	}
	return nil
}

// store streams the body into a temporary file in dst and gives it the
// name name when it is complete, of the right type and, if o.SHA256 is
// set, of that digest. The bytes are hashed on another goroutine as they
// are written (hasher), so the digest costs little more than the copy.
func store(ctx context.Context, resp *http.Response, dst *os.Root, name string, o Options) (res Result, err error) {
	folder, err := dst.OpenRoot(filepath.Dir(name))
	if err != nil {
		return Result{}, &DownloadError{Op: OpCreate, Err: err}
	}
	defer folder.Close()
	perm, existed := fs.FileMode(0o600), false
	if o.Overwrite {
		var mode fs.FileMode
		if mode, existed, err = sandbox.TargetMode(folder, filepath.Base(name)); err != nil {
			return Result{}, err
		}
		if existed {
			perm = mode
		}
	}
	f, err := sandbox.CreateTemp(folder, ".part", perm)
	if err != nil {
		return Result{}, &DownloadError{Op: OpCreate, Err: err}
	}
	h := newHasher()
	defer h.stop()
	size, ctype, err := copyChecked(f, resp, kindOf(name), o.MaxBytes, h)
	if err != nil {
		f.Discard()
		return Result{}, bodyError(ctx, err)
	}
	sum := h.sum()
	if o.SHA256 != "" && sum != o.SHA256 {
		f.Discard()
		return Result{}, &HashError{Want: o.SHA256, Got: sum}
	}
	if err = finish(f, name, !o.Overwrite); err != nil {
		return Result{}, err
	}
	return Result{Path: name, Size: size, ContentType: ctype, SHA256: sum, Created: !existed}, nil
}

// copyChecked sniffs the first bytes, checks the type, then copies at most
// maxBytes to w, hashing with h, and fails when the body holds more.
func copyChecked(w io.Writer, resp *http.Response, k kind, maxBytes int64, h *hasher) (int64, string, error) {
	body := io.LimitReader(resp.Body, maxBytes+1)
	b := h.buffer()
	n, err := io.ReadFull(body, b[:sniffLen])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		h.giveBack(b)
		return 0, "", err
	}
	sniffed := http.DetectContentType(b[:n])
	if !k.fits(resp.Header.Get("Content-Type"), sniffed) {
		h.giveBack(b)
		return 0, "", &ContentTypeError{Sent: mediaType(sniffed), Want: k.name}
	}
	if _, err := w.Write(b[:n]); err != nil {
		h.giveBack(b)
		return 0, "", err
	}
	h.add(b, n)
	rest, err := copyHashed(w, body, h)
	total := int64(n) + rest
	if err == nil && total > maxBytes {
		err = tooLarge(maxBytes)
	}
	return total, mediaType(sniffed), err
}

// finish flushes the temporary file and gives it its name (name's last
// element) in its folder; exclusive, it never replaces a file of that
// name (one created during the download included).
func finish(f *sandbox.TempFile, name string, exclusive bool) error {
	err := f.Commit(filepath.Base(name), exclusive)
	switch {
	case errors.Is(err, fs.ErrExist):
		return existsError(name, nil)
	case err != nil:
		return &DownloadError{Op: OpSave, Err: err}
	}
	return nil
}

// fetchError returns a refusal as it is and names any other client error
// a failed connect.
func fetchError(ctx context.Context, err error) error {
	return stepError(ctx, OpConnect, err)
}

// bodyError returns a refusal as it is and names any other error while
// reading the body a failed receive.
func bodyError(ctx context.Context, err error) error {
	return stepError(ctx, OpReceive, err)
}

// stepError is err when it is one of the sentinel kinds, and otherwise a
// *DownloadError for op, wrapping ErrTimeout when ctx's deadline passed.
func stepError(ctx context.Context, op string, err error) error {
	if refused(err) {
		return err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("%w: %w", ErrTimeout, err)
	}
	return &DownloadError{Op: op, Err: err}
}

// existsError is the failure for a destination name that is taken (err
// nil) or that cannot be checked.
func existsError(name string, err error) error {
	if err == nil {
		return &fs.PathError{Op: "download", Path: name, Err: fs.ErrExist}
	}
	return &DownloadError{Op: OpCheck, Err: err}
}

func tooLarge(maxBytes int64) error { return &TooLargeError{Limit: maxBytes} }
