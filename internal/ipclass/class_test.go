package ipclass

import (
	"net/netip"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		addr string
		want Class
	}{
		{"8.8.8.8", Public},
		{"93.184.215.14", Public},
		{"2606:4700::1111", Public},
		{"127.0.0.1", Loopback},
		{"127.255.255.254", Loopback},
		{"::1", Loopback},
		{"10.1.2.3", Private},
		{"172.16.0.1", Private},
		{"172.31.255.255", Private},
		{"172.32.0.1", Public},
		{"192.168.1.1", Private},
		{"169.254.1.1", LinkLocal},
		{"fe80::1", LinkLocal},
		{"fe80::1%eth0", LinkLocal},
		{"169.254.169.254", Metadata},
		{"100.100.100.200", Metadata},
		{"fd00:ec2::254", Metadata},
		{"100.64.0.1", CGNAT},
		{"100.127.255.255", CGNAT},
		{"0.1.2.3", ThisNetwork},
		{"224.0.0.1", Multicast},
		{"239.255.255.250", Multicast},
		{"ff02::1", Multicast},
		{"255.255.255.255", Broadcast},
		{"198.18.0.1", Benchmarking},
		{"198.19.255.255", Benchmarking},
		{"2001:2::1", Benchmarking},
		{"192.0.0.8", IETF},
		{"192.0.2.1", Documentation},
		{"198.51.100.1", Documentation},
		{"203.0.113.1", Documentation},
		{"2001:db8::1", Documentation},
		{"3fff::1", Documentation},
		{"240.0.0.1", Reserved},
		{"192.88.99.1", Reserved},
		{"100::1", Reserved},
		{"fec0::1", Reserved},
		{"fc00::1", ULA},
		{"fd12:3456::1", ULA},
		{"0.0.0.0", Unspecified},
		{"::", Unspecified},
		// IPv6 forms that carry an IPv4 address take its class.
		{"::ffff:127.0.0.1", Loopback},
		{"::ffff:169.254.169.254", Metadata},
		{"::ffff:8.8.8.8", Public},
		{"::127.0.0.1", Loopback},
		{"::10.0.0.1", Private},
		{"64:ff9b::7f00:1", Loopback},
		{"64:ff9b::a9fe:a9fe", Metadata},
		{"64:ff9b::808:808", Public},
		{"64:ff9b:1::7f00:1", Loopback},
		{"64:ff9b:1:7f00:0:100::", Loopback},        // RFC 6052 /48 layout
		{"64:ff9b:1:a14:0:100:a9fe:a9fe", Metadata}, // the guarded layout decides
		{"2002:7f00:1::", Loopback},
		{"2002:a9fe:a9fe::1", Metadata},
		{"2002:808:808::", Public},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			if got := Classify(netip.MustParseAddr(tt.addr)); got != tt.want {
				t.Errorf("Classify(%s) = %s, want %s", tt.addr, got, tt.want)
			}
		})
	}
	if got := Classify(netip.Addr{}); got != Invalid {
		t.Errorf("Classify(zero) = %s, want invalid", got)
	}
}

func TestClassNamesUnique(t *testing.T) {
	seen := map[string]Class{}
	for _, c := range Classes() {
		name := c.String()
		if prev, dup := seen[name]; dup || name == "" {
			t.Errorf("class %d has name %q, also used by %d", c, name, prev)
		}
		seen[name] = c
	}
	if got := Class(200).String(); got != "invalid" {
		t.Errorf("out-of-range class String() = %q", got)
	}
}

func TestIsLocalhostName(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "localhost.": true, "LOCALHOST": true, "app.localhost": true,
		"a.b.localhost.": true, "notlocalhost": false, "localhost.example.com": false, "": false,
	} {
		if got := IsLocalhostName(host); got != want {
			t.Errorf("IsLocalhostName(%q) = %v, want %v", host, got, want)
		}
	}
}
