package browser

import (
	"context"
	"errors"
	"testing"
)

// recorder is an Opener that records the URLs it is given.
type recorder struct{ urls []string }

func (r *recorder) OpenURL(_ context.Context, u string) error {
	r.urls = append(r.urls, u)
	return nil
}

// TestOpen hands a normalised web address to the opener and refuses
// anything else before the opener sees it: the facts normalise the URL the
// policy judges, and this is the executor's own check of what it runs.
func TestOpen(t *testing.T) {
	tests := []struct {
		url    string
		opened bool
	}{
		{"https://example.com/docs", true},
		{"http://localhost:3000/", true},
		{"http://127.0.0.1:8080/a;b$(id)", true},
		{"file:///etc/passwd", false},
		{"javascript:alert(1)", false},
		{"chrome://settings", false},
		{`\\server\share`, false},
		{"-new-window", false},
		{"http://evil@example.com/", false},
		{"https://example.com/ --new-window", false},
		{"https://example.com/\x00", false},
		{"https:example.com", false},
		{"HTTPS://example.com/", false}, // not the normalised form
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			rec := &recorder{}
			err := Open(context.Background(), rec, tt.url)
			if !tt.opened {
				if !errors.Is(err, ErrRefusedURL) || len(rec.urls) != 0 {
					t.Fatalf("err = %v, opened %v; want ErrRefusedURL and nothing opened", err, rec.urls)
				}
				return
			}
			if err != nil || len(rec.urls) != 1 || rec.urls[0] != tt.url {
				t.Fatalf("opened %v (err %v), want [%s]", rec.urls, err, tt.url)
			}
		})
	}
}
