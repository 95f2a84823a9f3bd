package pathform

import "testing"

// withinCase is one row of the Within tables; ok false means not within.
type withinCase struct {
	root, p string
	rel     string
	ok      bool
}

func TestWithinPOSIX(t *testing.T) {
	runWithinTable(t, POSIX, Within, []withinCase{
		{"/home/ann/ws", "/home/ann/ws", ".", true},
		{"/home/ann/ws", "/home/ann/ws/a/b", "a/b", true},
		{"/home/ann/ws", "/home/ann/ws/", ".", true},
		{"/home/ann/ws", "/home/ann/ws-evil", "", false},
		{"/home/ann/ws", "/home/ann/ws-evil/a", "", false},
		{"/home/ann/ws", "/home/ann/wsx", "", false},
		{"/home/ann/ws", "/home/ann", "", false},
		{"/home/ann/ws", "/home/ann/ws/../x", "", false},
		{"/home/ann/ws", "/home/ann/WS/a", "", false},
		{"/home/ann/ws", `/home/ann/ws/a\b`, `a\b`, true},
		{"/home/ann/ws", "/home/ann/ws/．．/x", "．．/x", true},
		{"/", "/home/ann", "home/ann", true},
		{"/", "/", ".", true},
	})
}

func TestWithinFoldPOSIX(t *testing.T) {
	runWithinTable(t, POSIX, WithinFold, []withinCase{
		{"/Users/ann/ws", "/users/ANN/WS/a", "a", true},
		{"/Users/ann/ws", "/Users/ann/WS-evil", "", false},
		{"/Users/ann/k", "/Users/ann/\u212a/x", "", false}, // Kelvin sign
	})
}

func TestWithinWindows(t *testing.T) {
	runWithinTable(t, Windows, Within, []withinCase{
		{`D:\ws`, `D:\ws`, ".", true},
		{`D:\ws`, `D:\ws\a\b`, "a/b", true},
		{`D:\ws`, `d:/WS/A/b`, "A/b", true},
		{`D:\ws`, `D:\ws-evil`, "", false},
		{`D:\ws`, `D:\ws-evil\a`, "", false},
		{`D:\ws`, `D:\wsevil`, "", false},
		{`D:\ws`, `E:\ws\a`, "", false},
		{`D:\ws`, `D:\`, "", false},
		{`D:\ws`, `D:\ws\..\x`, "", false},
		{`D:\`, `D:\x\y`, "x/y", true},
		{`\\srv\share\ws`, `\\SRV\Share\ws\x`, "x", true},
		{`\\srv\share\ws`, `\\srv\share2\ws\x`, "", false},
		{`\\srv\share`, `\\srv\share\x`, "x", true},
		{`D:\ws`, `\\localhost\D$\ws\x`, "", false},
		{`D:\k`, `D:\` + "\u212a" + `\x`, "", false},            // Kelvin sign is not k on NTFS
		{`D:\é`, `D:\É\x`, "x", true},                           // BMP letters fold
		{`D:\` + "\U00010428", `D:\` + "\U00010400", "", false}, // outside the BMP: no fold
	})
}

// runWithinTable parses both paths of every case with f and checks within.
func runWithinTable(t *testing.T, f Flavor, within func(root, p Path) (string, bool), cases []withinCase) {
	for _, tc := range cases {
		t.Run(tc.root+"|"+tc.p, func(t *testing.T) {
			root, p := mustParse(t, f, tc.root), mustParse(t, f, tc.p)
			rel, ok := within(root, p)
			if rel != tc.rel || ok != tc.ok {
				t.Errorf("within(%q, %q) = %q, %v; want %q, %v", tc.root, tc.p, rel, ok, tc.rel, tc.ok)
			}
		})
	}
}

func TestWithinRejectsMixedAndZero(t *testing.T) {
	posix, win := mustParse(t, POSIX, "/x"), mustParse(t, Windows, `D:\x`)
	cases := []struct {
		name    string
		root, p Path
	}{
		{"posix root, windows path", posix, win},
		{"windows root, posix path", win, posix},
		{"zero root", Path{}, posix},
		{"zero path", posix, Path{}},
		{"zero both", Path{}, Path{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if rel, ok := WithinFold(tc.root, tc.p); ok {
				t.Errorf("WithinFold = %q, true; want false", rel)
			}
		})
	}
}

// mustParse parses s or fails the test.
func mustParse(t *testing.T, f Flavor, s string) Path {
	t.Helper()
	p, err := Parse(f, s)
	if err != nil {
		t.Fatalf("Parse(%v, %q): %v", f, s, err)
	}
	return p
}
