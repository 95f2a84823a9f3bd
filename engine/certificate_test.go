package engine_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/protocol"
)

// TestDownloadSaysTheCertificateIsWrong: download_asset to an https
// server whose certificate does not name its address, or is signed by an
// authority the computer does not trust, says it is the certificate, not
// that the server could not be reached.
func TestDownloadSaysTheCertificateIsWrong(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(pngBytes) })
	other := httptest.NewUnstartedServer(handler)
	other.TLS = &tls.Config{Certificates: []tls.Certificate{certificateFor(t, "example.com")}}
	other.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	other.StartTLS()
	t.Cleanup(other.Close)
	untrusted := httptest.NewUnstartedServer(handler) // names 127.0.0.1, signed by httptest's own authority
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0)
	untrusted.StartTLS()
	t.Cleanup(untrusted.Close)

	f := newNetFixture(t, allow127, nil)
	for _, tt := range []struct {
		name, url, want string
	}{
		{"certificate for another name", other.URL, "The server's TLS certificate is not valid for 127.0.0.1"},
		{"unknown authority", untrusted.URL, "not signed by an authority this computer trusts"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := f.call(t, "download_asset", map[string]any{"url": tt.url + "/a.png", "destination": filepath.Join(f.ws, "a.png")})
			r.want(t, protocol.ExecutionFailed)
			if !strings.Contains(r.msg, tt.want) {
				t.Errorf("message %q does not say %q", r.msg, tt.want)
			}
			wantEmpty(t, f.ws)
		})
	}
}

// certificateFor is a self-signed server certificate that names only
// host.
func certificateFor(t *testing.T, host string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: host}, DNSNames: []string{host},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}
