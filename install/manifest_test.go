package install

import (
	"strings"
	"testing"
)

const (
	idA = "abcdefghijklmnopabcdefghijklmnop"
	idB = "ponmlkjihgfedcbaponmlkjihgfedcba"
)

func TestManifest(t *testing.T) {
	cases := []struct {
		name    string
		b       Browser
		path    string
		ids     []string
		want    string
		wantErr string
	}{
		{name: "chrome", b: Chrome, path: "/usr/bin/deskbridge", ids: []string{idA, "chrome-extension://" + idB + "/", idA},
			want: `{
  "name": "com.deskbridge.host",
  "description": "DeskBridge native messaging host",
  "path": "/usr/bin/deskbridge",
  "type": "stdio",
  "allowed_origins": [
    "chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
    "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/"
  ]
}
`},
		{name: "firefox", b: Firefox, path: `C:\Program Files\DeskBridge\deskbridge.exe`, ids: []string{"deskbridge@example.org"},
			want: `{
  "name": "com.deskbridge.host",
  "description": "DeskBridge native messaging host",
  "path": "C:\\Program Files\\DeskBridge\\deskbridge.exe",
  "type": "stdio",
  "allowed_extensions": [
    "deskbridge@example.org"
  ]
}
`},
		{name: "relative path", b: Chrome, path: "deskbridge", ids: []string{idA}, wantErr: "not absolute"},
		{name: "no ids", b: Edge, path: "/usr/bin/deskbridge", wantErr: "no extension id"},
		{name: "wildcard origin", b: Chrome, path: "/x", ids: []string{"chrome-extension://*/"}, wantErr: "not a Chromium extension id"},
		{name: "short id", b: Chrome, path: "/x", ids: []string{idA[1:]}, wantErr: "not a Chromium extension id"},
		{name: "letter past p", b: Brave, path: "/x", ids: []string{"q" + idA[1:]}, wantErr: "not a Chromium extension id"},
		{name: "upper case", b: Vivaldi, path: "/x", ids: []string{strings.ToUpper(idA)}, wantErr: "not a Chromium extension id"},
		{name: "other scheme", b: Chrome, path: "/x", ids: []string{"https://" + idA + "/"}, wantErr: "not a Chromium extension id"},
		{name: "chrome id in firefox", b: Firefox, path: "/x", ids: []string{idA}, wantErr: "not a Firefox add-on id"},
		{name: "firefox wildcard", b: Firefox, path: "/x", ids: []string{"*@example.org"}, wantErr: "not a Firefox add-on id"},
		{name: "firefox id in chrome", b: Chromium, path: "/x", ids: []string{"a@b.org"}, wantErr: "not a Chromium extension id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Manifest(c.b, c.path, c.ids)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Errorf("got %s, %v\nwant %s", got, err, c.want)
			}
		})
	}
}

func TestFirefoxID(t *testing.T) {
	cases := []struct {
		id string
		ok bool
	}{
		{"deskbridge@example.org", true},
		{"{12345678-9abc-def0-1234-56789abcdef0}", true},
		{"@example.org", false},
		{"deskbridge", false},
		{"{12345678-9abc-def0-1234-56789abcdef0", false},
		{strings.Repeat("a", 80) + "@x", false},
		{"a b@example.org", false},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			if _, err := FirefoxID(c.id); (err == nil) != c.ok {
				t.Errorf("FirefoxID(%q) error = %v, want ok=%v", c.id, err, c.ok)
			}
		})
	}
}

// FuzzChromeOrigin checks that an accepted id always yields one exact,
// canonical origin, whatever the input.
func FuzzChromeOrigin(f *testing.F) {
	f.Add(idA)
	f.Add("chrome-extension://" + idA + "/")
	f.Add("chrome-extension://*/")
	f.Fuzz(func(t *testing.T, id string) {
		o, err := ChromeOrigin(id)
		if err != nil {
			return
		}
		if !chromeID().MatchString(strings.TrimSuffix(strings.TrimPrefix(o, "chrome-extension://"), "/")) || !strings.HasSuffix(o, "/") {
			t.Fatalf("ChromeOrigin(%q) = %q, not an exact origin", id, o)
		}
		if again, err := ChromeOrigin(o); err != nil || again != o {
			t.Fatalf("ChromeOrigin not idempotent: %q -> %q, %v", o, again, err)
		}
	})
}

// FuzzFirefoxID checks that an accepted add-on id has no wildcard, space or
// path character and is within the length bound.
func FuzzFirefoxID(f *testing.F) {
	f.Add("deskbridge@example.org")
	f.Add("{12345678-9abc-def0-1234-56789abcdef0}")
	f.Add("*@example.org")
	f.Fuzz(func(t *testing.T, id string) {
		if _, err := FirefoxID(id); err != nil {
			return
		}
		if len(id) > maxFirefoxID || strings.ContainsAny(id, "*/\\ \"\n") {
			t.Fatalf("FirefoxID accepted %q", id)
		}
	})
}
