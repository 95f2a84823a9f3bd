package netguard

import (
	"errors"
	"net/netip"
	"testing"

	"github.com/deskbridge/deskbridge/internal/ipclass"
)

func TestPolicyAllowed(t *testing.T) {
	tests := []struct {
		name  string
		allow []string
		addr  string
		want  bool
	}{
		{"public by default", nil, "8.8.8.8", true},
		{"loopback blocked by default", nil, "127.0.0.1", false},
		{"private blocked by default", nil, "10.20.1.1", false},
		{"named private range", []string{"10.20.0.0/16"}, "10.20.1.1", true},
		{"only the named range", []string{"10.20.0.0/16"}, "10.21.1.1", false},
		{"mapped form of named range", []string{"10.20.0.0/16"}, "::ffff:10.20.1.1", true},
		{"exact loopback", []string{"127.0.0.1/32"}, "127.0.0.1", true},
		{"other loopback", []string{"127.0.0.1/32"}, "127.0.0.2", false},
		{"broad prefix opens private", []string{"0.0.0.0/0"}, "192.168.1.1", true},
		{"broad prefix never opens metadata", []string{"0.0.0.0/0"}, "169.254.169.254", false},
		{"broad prefix never opens link-local", []string{"0.0.0.0/0"}, "169.254.1.1", false},
		{"broad prefix never opens unspecified", []string{"0.0.0.0/0"}, "0.0.0.0", false},
		{"link-local range opens link-local", []string{"169.254.0.0/16"}, "169.254.1.1", true},
		{"link-local range does not open metadata", []string{"169.254.0.0/16"}, "169.254.169.254", false},
		{"metadata named exactly", []string{"169.254.169.254/32"}, "169.254.169.254", true},
		{"cgnat range does not open alibaba metadata", []string{"100.64.0.0/10"}, "100.100.100.200", false},
		{"cgnat range opens cgnat", []string{"100.64.0.0/10"}, "100.64.1.1", true},
		{"ipv6 ula", []string{"fd00::/8"}, "fd12::1", true},
		{"ipv6 ula does not open aws metadata", []string{"fd00::/8"}, "fd00:ec2::254", false},
		{"ipv6 link-local broad", []string{"::/0"}, "fe80::1", false},
		{"ipv6 link-local named", []string{"fe80::/10"}, "fe80::1%eth0", true},
		{"nat64 of loopback blocked", nil, "64:ff9b::7f00:1", false},
		// A local-use NAT64 address read by both layouts: 10.20.0.1 by the
		// /48 one, the last 32 bits by the /96 one.
		{"nat64 local layouts, one metadata", []string{"10.20.0.0/16"}, "64:ff9b:1:a14:0:100:a9fe:a9fe", false},
		{"nat64 local layouts, one loopback", []string{"10.20.0.0/16"}, "64:ff9b:1:a14:0:100:7f00:1", false},
		{"nat64 local layouts, both opened", []string{"10.20.0.0/16"}, "64:ff9b:1:a14:0:100:a14:2", true},
		{"nat64 local layouts, one public", []string{"10.20.0.0/16"}, "64:ff9b:1:a14:0:100:808:808", true},
		{"invalid address", []string{"0.0.0.0/0", "::/0"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePolicy(tt.allow)
			if err != nil {
				t.Fatal(err)
			}
			var a netip.Addr
			if tt.addr != "" {
				a = netip.MustParseAddr(tt.addr)
			}
			if got := p.Allowed(a); got != tt.want {
				t.Fatalf("Allowed(%s) under %v = %v, want %v", tt.addr, tt.allow, got, tt.want)
			}
			err = p.Check(a)
			if tt.want != (err == nil) {
				t.Fatalf("Check(%s) = %v", tt.addr, err)
			}
			var be *BlockedError
			if err != nil && (!errors.As(err, &be) || be.Addr != a || be.Class != ipclass.Classify(a)) {
				t.Fatalf("Check = %#v, want a *BlockedError naming %s and its class", err, a)
			}
		})
	}
}

func TestParsePolicyRejectsBadCIDR(t *testing.T) {
	for _, s := range []string{"10.0.0.1", "10.0.0.0/33", "example.com/8", ""} {
		if _, err := ParsePolicy([]string{s}); err == nil {
			t.Errorf("ParsePolicy(%q) accepted", s)
		}
	}
}
