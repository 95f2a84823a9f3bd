package ipclass

import (
	"net/netip"
	"testing"
)

func TestParseIPv4Host(t *testing.T) {
	tests := []struct {
		host    string
		want    string // "" for a malformed literal
		numeric bool
	}{
		{"127.0.0.1", "127.0.0.1", true},
		{"127.1", "127.0.0.1", true},
		{"127.0.1", "127.0.0.1", true},
		{"2130706433", "127.0.0.1", true},
		{"0x7f000001", "127.0.0.1", true},
		{"0X7F000001", "127.0.0.1", true},
		{"0177.0.0.1", "127.0.0.1", true},
		{"0x7f.1", "127.0.0.1", true},
		{"0", "0.0.0.0", true},
		{"0x", "0.0.0.0", true},
		{"127.0.0.1.", "127.0.0.1", true},
		{"169.254.43518", "169.254.169.254", true},
		{"256.0.0.1", "", true},
		{"1.2.3.4.5", "", true},
		{"08.0.0.1", "", true},
		{"4294967296", "", true},
		{"127.0.0.256", "", true},
		{"1..1", "", true},
		{"99999999999999999999999", "", true},
		{"example.com", "", false},
		{"1.2.3.com", "", false},
		{"0xg", "", false},
		{"localhost", "", false},
		{"a.0x1", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			got, numeric := ParseIPv4Host(tt.host)
			if numeric != tt.numeric {
				t.Fatalf("numeric = %v, want %v", numeric, tt.numeric)
			}
			if tt.want == "" {
				if got.IsValid() {
					t.Fatalf("got %s, want no address", got)
				}
				return
			}
			if got != netip.MustParseAddr(tt.want) {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func FuzzParseIPv4Host(f *testing.F) {
	for _, s := range []string{"127.1", "2130706433", "0x7f000001", "0177.0.0.1", "1.2.3.4.", "0x", "a.b", "1..2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		a, numeric := ParseIPv4Host(host)
		if a.IsValid() && !numeric {
			t.Fatalf("%q: address %s from a non-numeric host", host, a)
		}
		if !a.IsValid() {
			return
		}
		if !a.Is4() {
			t.Fatalf("%q: %s is not IPv4", host, a)
		}
		// The canonical form reads back as the same address.
		if b, ok := ParseIPv4Host(a.String()); !ok || b != a {
			t.Fatalf("%q: %s reads back as %s", host, a, b)
		}
	})
}
