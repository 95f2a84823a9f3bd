package errmap

import (
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"net/url"
	"testing"

	"github.com/deskbridge/deskbridge/internal/ipclass"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/netguard"
)

func TestDownload(t *testing.T) {
	blocked := (netguard.Policy{}).Check(netip.MustParseAddr("10.1.2.3"))
	timeout := fmt.Errorf("%w: %w", netguard.ErrTimeout, errors.New("deadline"))
	for _, c := range []struct {
		name string
		err  error
		code protocol.Code
		msg  string
	}{
		{"blocked", &url.Error{Op: "Get", URL: "http://x/", Err: blocked}, protocol.PrivateNetworkBlocked,
			"The address is in the " + ipclass.Private.String() + " range, which DeskBridge does not reach; use a public address or list the range in network.allow_private."},
		{"scheme", netguard.ErrScheme, protocol.UnsupportedProtocol, ""},
		{"url", netguard.ErrURL, protocol.InvalidURL, ""},
		{"url form", netguard.ErrURLForm, protocol.InvalidURL, ""},
		{"ipv4", netguard.ErrIPv4, protocol.InvalidURL, ""},
		{"ip form", netguard.ErrIPForm, protocol.InvalidURL, ""},
		{"redirects", &url.Error{Op: "Get", URL: "http://x/", Err: netguard.ErrRedirects}, protocol.ExecutionFailed, ""},
		{"status", &netguard.StatusError{Code: 404}, protocol.ExecutionFailed, "The server answered with status 404; check the URL."},
		{"content type", &netguard.ContentTypeError{Sent: "text/html", Want: "image"}, protocol.InvalidContentType,
			"The server sent text/html content, which does not suit a image file; choose a matching file extension."},
		{"too large", &netguard.TooLargeError{Limit: 500}, protocol.DownloadTooLarge,
			"The file is larger than the 500-byte limit; raise max_bytes or choose a smaller file."},
		{"exists", &fs.PathError{Op: "download", Path: "a", Err: fs.ErrExist}, protocol.FileAlreadyExists, ""},
		{"connect", &netguard.DownloadError{Op: netguard.OpConnect, Err: errors.New("refused")}, protocol.ExecutionFailed, ""},
		{"connect timeout", &netguard.DownloadError{Op: netguard.OpConnect, Err: timeout}, protocol.DownloadTimeout, ""},
		{"receive timeout", &netguard.DownloadError{Op: netguard.OpReceive, Err: timeout}, protocol.DownloadTimeout, ""},
		{"receive", &netguard.DownloadError{Op: netguard.OpReceive, Err: errors.New("reset")}, protocol.ExecutionFailed, ""},
		{"check", &netguard.DownloadError{Op: netguard.OpCheck, Err: errors.New("x")}, protocol.ExecutionFailed, ""},
		{"create", &netguard.DownloadError{Op: netguard.OpCreate, Err: errors.New("x")}, protocol.ExecutionFailed, ""},
		{"save", &netguard.DownloadError{Op: netguard.OpSave, Err: errors.New("x")}, protocol.ExecutionFailed, ""},
		{"rename", &netguard.DownloadError{Op: netguard.OpRename, Err: errors.New("x")}, protocol.ExecutionFailed, ""},
	} {
		pe := Download(c.err)
		if pe.Code != c.code || pe.Message == "" || (c.msg != "" && pe.Message != c.msg) {
			t.Errorf("%s: Download = %s %q, want %s %q", c.name, pe.Code, pe.Message, c.code, c.msg)
		}
	}
}
