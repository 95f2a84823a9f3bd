package urlfacts

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
)

func TestParse(t *testing.T) {
	tests := []struct {
		raw, normalized, ascii string
		port                   int
		ip                     string
	}{
		{"https://Example.COM/a?b=1#frag", "https://example.com/a?b=1", "example.com", 443, ""},
		{"HTTP://example.com", "http://example.com/", "example.com", 80, ""},
		{"http://example.com:443/", "http://example.com:443/", "example.com", 443, ""},
		{"http://example.com:/", "http://example.com/", "example.com", 80, ""},
		{"http://bücher.example/", "http://xn--bcher-kva.example/", "xn--bcher-kva.example", 80, ""},
		{"http://example.com.:8080/x", "http://example.com:8080/x", "example.com", 8080, ""},
		{"http://localhost./", "http://localhost/", "localhost", 80, ""},
		{"http://127.0.0.1/", "http://127.0.0.1/", "127.0.0.1", 80, "127.0.0.1"},
		{"http://127.1/", "http://127.0.0.1/", "127.0.0.1", 80, "127.0.0.1"},
		{"http://2130706433/", "http://127.0.0.1/", "127.0.0.1", 80, "127.0.0.1"},
		{"http://0x7f000001/", "http://127.0.0.1/", "127.0.0.1", 80, "127.0.0.1"},
		{"http://0177.0.0.1/", "http://127.0.0.1/", "127.0.0.1", 80, "127.0.0.1"},
		{"http://0x7F.1:81/", "http://127.0.0.1:81/", "127.0.0.1", 81, "127.0.0.1"},
		{"http://%ef%bc%91%ef%bc%92%ef%bc%97.0.0.1/", "http://127.0.0.1/", "127.0.0.1", 80, "127.0.0.1"},
		{"http://１２７.０.０.１/", "http://127.0.0.1/", "127.0.0.1", 80, "127.0.0.1"},
		{"http://127。0。0。1/", "http://127.0.0.1/", "127.0.0.1", 80, "127.0.0.1"},
		{"http://169.254.43518/", "http://169.254.169.254/", "169.254.169.254", 80, "169.254.169.254"},
		{"http://[::1]:8080/", "http://[::1]:8080/", "::1", 8080, "::1"},
		{"http://[::FFFF:127.0.0.1]/", "http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1", 80, "::ffff:127.0.0.1"},
		{"http://[64:ff9b::7f00:1]/", "http://[64:ff9b::7f00:1]/", "64:ff9b::7f00:1", 80, "64:ff9b::7f00:1"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			u, err := Parse(tt.raw)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if u.String() != tt.normalized || u.ASCIIHost != tt.ascii || u.Port != tt.port {
				t.Fatalf("got %s (host %s, port %d), want %s (host %s, port %d)",
					u, u.ASCIIHost, u.Port, tt.normalized, tt.ascii, tt.port)
			}
			var want netip.Addr
			if tt.ip != "" {
				want = netip.MustParseAddr(tt.ip)
			}
			if u.IP != want {
				t.Fatalf("IP = %v, want %v", u.IP, want)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		raw  string
		want protocol.Code
	}{
		{"", protocol.InvalidURL},
		{"http://" + strings.Repeat("a", MaxLength), protocol.InvalidURL},
		{"http://evil@127.0.0.1/", protocol.InvalidURL},
		{"http://user:pass@example.com/", protocol.InvalidURL},
		{"http://example.com@evil.com/", protocol.InvalidURL},
		{"http://exa mple.com/", protocol.InvalidURL},
		{"http://example.com/ a", protocol.InvalidURL},
		{" http://example.com/", protocol.InvalidURL},
		{"http://example.com\t/", protocol.InvalidURL},
		{"http://example.com\n/", protocol.InvalidURL},
		{"http://example.com\x00/", protocol.InvalidURL},
		{"http://example.com\x7f/", protocol.InvalidURL},
		{"http://example.com\u00a0/", protocol.InvalidURL},
		{"http://exa\u200bmple.com/", protocol.InvalidURL},
		{"http://exa\u202emple.com/", protocol.InvalidURL},
		{"http://example.com\\@evil.com/", protocol.InvalidURL},
		{"http:\\\\example.com\\", protocol.InvalidURL},
		{"http://\xff/", protocol.InvalidURL},
		{"http://example.com:0/", protocol.InvalidURL},
		{"http://example.com:65536/", protocol.InvalidURL},
		{"http://example.com:x/", protocol.InvalidURL},
		{"http:example.com", protocol.InvalidURL},
		{"http:/example.com", protocol.InvalidURL},
		{"http:///path", protocol.InvalidURL},
		{"http://./", protocol.InvalidURL},
		{"http://256.0.0.1/", protocol.InvalidURL},
		{"http://1.2.3.4.5/", protocol.InvalidURL},
		{"http://08.0.0.1/", protocol.InvalidURL},
		{"http://example.4294967296/", protocol.InvalidURL},
		{"http://[fe80::1%25eth0]/", protocol.InvalidURL},
		{"http://[127.0.0.1]/", protocol.InvalidURL},
		{"http://[::1/", protocol.InvalidURL},
		{"http://exa_mple.com/", protocol.InvalidURL},
		{"http://%zz/", protocol.InvalidURL},
		{"http://%31%32%37.0.0.1/", protocol.InvalidURL}, // Go refuses escaped ASCII in hosts
		{"http://a%e2%80%8bb.com/", protocol.InvalidURL},
		{"relative/path", protocol.InvalidURL},
		{"/absolute/path", protocol.InvalidURL},
		{"1http://example.com/", protocol.InvalidURL},
		{"file:///etc/passwd", protocol.UnsupportedProtocol},
		{"FILE:///etc/passwd", protocol.UnsupportedProtocol},
		{"ftp://example.com/", protocol.UnsupportedProtocol},
		{"gopher://127.0.0.1:25/", protocol.UnsupportedProtocol},
		{"data:text/html,<script>alert(1)</script>", protocol.UnsupportedProtocol},
		{"javascript:alert(1)", protocol.UnsupportedProtocol},
		{"smb://server/share", protocol.UnsupportedProtocol},
		{`\\server\share\file`, protocol.UnsupportedProtocol},
		{"//example.com/", protocol.UnsupportedProtocol},
		{"chrome://settings", protocol.UnsupportedProtocol},
		{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/", protocol.UnsupportedProtocol},
		{"view-source:http://example.com/", protocol.UnsupportedProtocol},
		{"ws://example.com/", protocol.UnsupportedProtocol},
		{"C:\\Windows\\system32", protocol.UnsupportedProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			u, err := Parse(tt.raw)
			if got := codeOf(err); got != tt.want {
				t.Fatalf("Parse = %v, %v; want %s", u, err, tt.want)
			}
		})
	}
}

// codeOf returns the protocol code of err, or "" when it carries none.
func codeOf(err error) protocol.Code {
	if pe, ok := err.(*protocol.Error); ok {
		return pe.Code
	}
	return ""
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"https://example.com/a?b#c", "http://127.1/", "http://0x7f000001:8080/", "http://[::ffff:127.0.0.1]/",
		"http://bücher.example/", "http://evil@127.0.0.1/", "file:///etc/passwd", `\\srv\share`, "http://１２７.０.０.１/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := Parse(raw)
		if err != nil {
			if c := codeOf(err); c != protocol.InvalidURL && c != protocol.UnsupportedProtocol {
				t.Fatalf("%q: error %v has code %q", raw, err, c)
			}
			return
		}
		if strings.ContainsAny(raw, " \t\r\n\\") || (u.Scheme != "http" && u.Scheme != "https") {
			t.Fatalf("%q accepted", raw)
		}
		// The normalised form parses to the same facts.
		v, err := Parse(u.String())
		if err != nil {
			t.Fatalf("%q: normalised %q does not parse: %v", raw, u, err)
		}
		if v.String() != u.String() || v.ASCIIHost != u.ASCIIHost || v.IP != u.IP || v.Port != u.Port {
			t.Fatalf("%q: %q reparses as %q", raw, u, v)
		}
	})
}
