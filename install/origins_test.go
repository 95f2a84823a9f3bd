package install

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestWithOriginsKeepsTheRestOfTheText: adding an origin changes only the
// allowed_origins list; every other byte of the configuration is kept, and
// an origin already listed is not added twice.
func TestWithOriginsKeepsTheRestOfTheText(t *testing.T) {
	a, b := "chrome-extension://"+idA+"/", "chrome-extension://"+strings.Repeat("b", 32)+"/"
	tests := []struct {
		name, doc, want string
		added           []string
	}{
		{"appended", "{\n  \"workspaces\": [],\n  \"allowed_origins\": [\n    \"" + a + "\"\n  ]\n}\n",
			"{\n  \"workspaces\": [],\n  \"allowed_origins\": [\n    \"" + a + "\", \"" + b + "\"\n  ]\n}\n", []string{b}},
		{"empty list", `{"allowed_origins":[],"workspaces":[]}`, `{"allowed_origins":["` + b + `"],"workspaces":[]}`, []string{b}},
		{"no member", "{\n  \"workspaces\": []\n}", "{\n  \"allowed_origins\": [\"" + b + "\"],\n  \"workspaces\": []\n}", []string{b}},
		{"empty object", "{}", "{\n  \"allowed_origins\": [\"" + b + "\"]}", []string{b}},
		{"already there", `{"allowed_origins":["` + b + `"]}`, `{"allowed_origins":["` + b + `"]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, added, err := withOrigins([]byte(tt.doc), []string{b})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want || !slices.Equal(added, tt.added) {
				t.Errorf("got %q, added %v\nwant %q, added %v", got, added, tt.want, tt.added)
			}
		})
	}
	for _, doc := range []string{`[]`, `{"allowed_origins":"x"}`, `{"allowed_origins":[1]}`, `{"a":1,"a":2}`, `{"allowed_origins":[]} x`, `{`} {
		if _, _, err := withOrigins([]byte(doc), []string{b}); !errors.Is(err, errNotEditable) {
			t.Errorf("%s: error %v, want errNotEditable", doc, err)
		}
	}
}

// TestInstallAddsTheExtensionToAnExistingConfiguration: a second install
// with another extension adds it to allowed_origins and says so; a
// configuration install cannot edit is left as it was, with the fix
// printed and an error.
func TestInstallAddsTheExtensionToAnExistingConfiguration(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix layout")
	}
	in, bin, out := linuxInstaller(t)
	o := linuxOptions(in, bin)
	o.Browsers = []Browser{Chrome}
	if err := in.Install(o); err != nil {
		t.Fatal(err)
	}
	idB := strings.Repeat("b", 32)
	o.ChromeIDs, o.Browsers = []string{idB}, []Browser{Chromium}
	out.Reset()
	if err := in.Install(o); err != nil {
		t.Fatal(err)
	}
	doc, _ := os.ReadFile(o.ConfigPath)
	if !strings.Contains(string(doc), `"chrome-extension://`+idA+`/", "chrome-extension://`+idB+`/"`) {
		t.Errorf("configuration after the second install:\n%s", doc)
	}
	if !strings.Contains(out.String(), "configuration: added \"chrome-extension://"+idB+"/\" to allowed_origins in "+o.ConfigPath) {
		t.Errorf("install does not say it added the extension:\n%s", out)
	}
	if fi, err := os.Stat(o.ConfigPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("configuration mode after the edit: %v %v", fi.Mode(), err)
	}

	broken := filepath.Join(filepath.Dir(o.ConfigPath), "broken.json")
	if err := os.WriteFile(broken, []byte(`{"allowed_origins": "x"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	o.ConfigPath, o.ChromeIDs = broken, []string{strings.Repeat("c", 32)}
	out.Reset()
	if err := in.Install(o); err == nil {
		t.Error("install succeeded with a configuration it could not edit")
	}
	if !strings.Contains(out.String(), "FIX  configuration "+broken+": add \"chrome-extension://"+strings.Repeat("c", 32)+"/\" to its allowed_origins") {
		t.Errorf("install does not print the fix:\n%s", out)
	}
	if b, _ := os.ReadFile(broken); string(b) != `{"allowed_origins": "x"}` {
		t.Errorf("install changed a configuration it could not edit: %s", b)
	}
}
