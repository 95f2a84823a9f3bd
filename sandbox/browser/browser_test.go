package browser

import (
	"context"
	"testing"

	"github.com/deskbridge/deskbridge/engine/protocol"
)

// recorder is an Opener that records the URLs it is given.
type recorder struct{ urls []string }

func (r *recorder) OpenURL(_ context.Context, u string) error {
	r.urls = append(r.urls, u)
	return nil
}

func TestOpen(t *testing.T) {
	tests := []struct {
		raw, opened string
		want        protocol.Code
	}{
		{"https://Example.com/docs#intro", "https://example.com/docs", ""},
		{"http://localhost:3000/", "http://localhost:3000/", ""},
		{"http://0x7f000001:8080/", "http://127.0.0.1:8080/", ""},
		{"file:///etc/passwd", "", protocol.UnsupportedProtocol},
		{"javascript:alert(1)", "", protocol.UnsupportedProtocol},
		{"chrome://settings", "", protocol.UnsupportedProtocol},
		{`\\server\share`, "", protocol.UnsupportedProtocol},
		{"http://evil@example.com/", "", protocol.InvalidURL},
		{"https://example.com/ --new-window", "", protocol.InvalidURL},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			rec := &recorder{}
			err := Open(context.Background(), rec, tt.raw)
			if tt.want != "" {
				pe, ok := err.(*protocol.Error)
				if !ok || pe.Code != tt.want {
					t.Fatalf("err = %v, want %s", err, tt.want)
				}
				if len(rec.urls) != 0 {
					t.Fatalf("opener called with %v", rec.urls)
				}
				return
			}
			if err != nil || len(rec.urls) != 1 || rec.urls[0] != tt.opened {
				t.Fatalf("opened %v (err %v), want [%s]", rec.urls, err, tt.opened)
			}
		})
	}
}
