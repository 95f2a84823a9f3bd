package netguard

import "testing"

func TestKindFits(t *testing.T) {
	tests := []struct {
		name, header, sniffed string
		want                  bool
	}{
		{"a.png", "image/png", "image/png", true},
		{"a.PNG", "", "image/png", true},
		{"a.jpg", "image/png", "image/png", true}, // any image suits an image extension
		{"a.png", "image/png", "text/html; charset=utf-8", false},
		{"a.png", "text/html", "image/png", false},
		{"a.png", "application/octet-stream", "image/png", true},
		{"a.png", "image/png; charset", "image/png", false},
		{"a.svg", "image/svg+xml", "text/xml; charset=utf-8", true},
		{"a.svg", "text/html", "text/xml; charset=utf-8", false},
		{"a.svg", "image/svg+xml", "image/png", false},
		{"a.txt", "text/plain", "text/plain; charset=utf-8", true},
		{"a.json", "application/json", "text/plain; charset=utf-8", true},
		{"a.txt", "text/plain", "image/png", false},
		{"a.pdf", "application/pdf", "application/pdf", true},
		{"a.pdf", "application/pdf", "text/plain; charset=utf-8", false},
		{"a.zip", "application/zip", "application/zip", true},
		{"a.tar", "application/x-tar", "application/octet-stream", true},
		{"a.zip", "application/zip", "text/html; charset=utf-8", false},
		{"a.woff2", "font/woff2", "font/woff2", true},
		{"a.mp3", "audio/mpeg", "audio/mpeg", true},
		{"a.mp4", "video/mp4", "video/mp4", true},
		{"a.mp4", "video/mp4", "image/png", false},
		{"a.bin", "text/html", "text/html; charset=utf-8", true},
		{"noext", "", "application/octet-stream", true},
	}
	for _, tt := range tests {
		t.Run(tt.name+"|"+tt.header+"|"+tt.sniffed, func(t *testing.T) {
			if got := kindOf(tt.name).fits(tt.header, tt.sniffed); got != tt.want {
				t.Fatalf("fits = %v, want %v", got, tt.want)
			}
		})
	}
}
