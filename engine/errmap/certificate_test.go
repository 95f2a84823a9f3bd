package errmap

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/sandbox/netguard"
)

// selfSigned is a self-signed certificate naming only host (a DNS name or
// an IP address).
func selfSigned(t *testing.T, host string) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: host},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The Windows verifier's refusal of a self-signed certificate for another
// name (an unknown authority, as it checks the chain before the name)
// says the name, as Go's own verifier does on Linux; one that names the
// host stays the authority's.
func TestCertificateOfAnotherNameUnderAnUnknownAuthority(t *testing.T) {
	refusal := func(leaf *x509.Certificate) error {
		verify := &tls.CertificateVerificationError{UnverifiedCertificates: []*x509.Certificate{leaf}, Err: x509.UnknownAuthorityError{Cert: leaf}}
		return &netguard.DownloadError{Op: netguard.OpConnect, Err: &url.Error{Op: "Get", URL: "https://127.0.0.1:8443/a.png", Err: verify}}
	}
	for _, c := range []struct {
		name, certFor, want string
	}{
		{"another name", "example.com", "The server's TLS certificate is not valid for 127.0.0.1"},
		{"this address", "127.0.0.1", "not signed by an authority this computer trusts"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pe := certificate(refusal(selfSigned(t, c.certFor)))
			if pe == nil || !strings.Contains(pe.Message, c.want) {
				t.Fatalf("certificate(...) = %+v; want a message saying %q", pe, c.want)
			}
		})
	}
}
