package pathform

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// parseCase is one row of the parse tables: either want (the Clean form)
// or reason (the sentinel the error must wrap) is set.
type parseCase struct {
	in     string
	want   string
	volume string
	elems  []string
	reason error
}

var (
	long255  = strings.Repeat("a", 255)
	long256  = strings.Repeat("a", 256)
	accents  = strings.Repeat("é", 200)                          // 400 bytes, 200 UTF-16 units
	clefs128 = strings.Repeat("𝄞", 128)                          // 512 bytes, 256 UTF-16 units
	path4096 = "/" + strings.Repeat("abcdefg/", 511) + "abcdefg" // 4096 bytes
)

// commonAttacks are inputs that both flavours reject for the same reason.
var commonAttacks = []parseCase{
	{in: "", reason: ErrEmpty},
	{in: "a", reason: ErrRelative},
	{in: "a/b", reason: ErrRelative},
	{in: "./a", reason: ErrRelative},
	{in: "../a", reason: ErrRelative},
	{in: "..", reason: ErrRelative},
	{in: ".", reason: ErrRelative},
	{in: "~", reason: ErrRelative},
	{in: "~/Demo", reason: ErrRelative},
	{in: "~ann/Demo", reason: ErrRelative},
	{in: "$HOME/x", reason: ErrRelative},
	{in: "${HOME}/x", reason: ErrRelative},
	{in: `%USERPROFILE%\x`, reason: ErrRelative},
	{in: "%2fetc%2fpasswd", reason: ErrRelative},
	{in: "file:///etc/passwd", reason: ErrRelative},
	{in: " /a", reason: ErrRelative},
	{in: "/a\x00b", reason: ErrControl},
	{in: "/a\x00", reason: ErrControl},
	{in: "/a\nb", reason: ErrControl},
	{in: "/a\rb", reason: ErrControl},
	{in: "/a\tb", reason: ErrControl},
	{in: "/a\x1bb", reason: ErrControl},
	{in: "/a\x1fb", reason: ErrControl},
	{in: "/a\x7fb", reason: ErrControl},
	{in: "/a\xffb", reason: ErrEncoding},
	{in: "/\xc0\xaf", reason: ErrEncoding},      // overlong "/"
	{in: "/a\xed\xa0\x80", reason: ErrEncoding}, // surrogate half
	{in: path4096 + "h", reason: ErrTooLong},
}

var posixCases = []parseCase{
	{in: "/", want: "/", elems: []string{}},
	{in: "/home/ann/Demo", want: "/home/ann/Demo", elems: []string{"home", "ann", "Demo"}},
	{in: "/a/b/../c", want: "/a/c", elems: []string{"a", "c"}},
	{in: "/a/./b//c/", want: "/a/b/c"},
	{in: "//a", want: "/a"},
	{in: "///", want: "/"},
	{in: "/..", want: "/"},
	{in: "/../../etc/passwd", want: "/etc/passwd"},
	{in: "/ws/a/../../../etc", want: "/etc"},
	{in: `/a\..\b`, want: `/a\..\b`, elems: []string{`a\..\b`}},
	{in: `/ws\..`, want: `/ws\..`},
	{in: "/ws/%2e%2e/x", want: "/ws/%2e%2e/x"},
	{in: "/ws/%2e%2e%2fx", want: "/ws/%2e%2e%2fx"},
	{in: "/ws/．．/x", want: "/ws/．．/x", elems: []string{"ws", "．．", "x"}},
	{in: "/ws/.../x", want: "/ws/.../x"},
	{in: "/ws/~/x", want: "/ws/~/x"},
	{in: "/ws/$HOME", want: "/ws/$HOME"},
	{in: "/ws/CON", want: "/ws/CON"},
	{in: "/ws/a:b", want: "/ws/a:b"},
	{in: "/ws/a. ", want: "/ws/a. "},
	{in: "/ws/a?*", want: "/ws/a?*"},
	{in: `C:\x`, reason: ErrRelative},
	{in: "C:/x", reason: ErrRelative},
	{in: `\\server\share`, reason: ErrRelative},
	{in: "/ws/\u0085", want: "/ws/\u0085"}, // C1 controls are names
	{in: "/" + long255, want: "/" + long255},
	{in: "/" + long256, reason: ErrTooLong},
	{in: "/" + accents, reason: ErrTooLong},
	{in: "/" + clefs128, reason: ErrTooLong},
	{in: path4096, want: path4096},
}

var windowsCases = []parseCase{
	{in: `D:\`, want: `D:\`, volume: "D:", elems: []string{}},
	{in: "D:/", want: `D:\`},
	{in: `D:\x`, want: `D:\x`, volume: "D:", elems: []string{"x"}},
	{in: "D:/x", want: `D:\x`, volume: "D:", elems: []string{"x"}},
	{in: `d:\x`, want: `D:\x`, volume: "D:"},
	{in: `D:\Projects/Demo\README.md`, want: `D:\Projects\Demo\README.md`},
	{in: `D:\a\b\..\c`, want: `D:\a\c`},
	{in: `D:\a\\b\.\c\`, want: `D:\a\b\c`},
	{in: `D:\..`, want: `D:\`},
	{in: `D:\..\..\Windows`, want: `D:\Windows`},
	{in: `D:/ws/../../x`, want: `D:\x`},
	{in: `\\server\share\x`, want: `\\server\share\x`, volume: `\\server\share`, elems: []string{"x"}},
	{in: "//server/share/x", want: `\\server\share\x`, volume: `\\server\share`},
	{in: `\\server\share`, want: `\\server\share\`, volume: `\\server\share`, elems: []string{}},
	{in: `\\server\share\`, want: `\\server\share\`},
	{in: `\\server\share\..\..\x`, want: `\\server\share\x`},
	{in: `\\127.0.0.1\c$\x`, want: `\\127.0.0.1\c$\x`},
	{in: `D:\ws\%2e%2e\x`, want: `D:\ws\%2e%2e\x`},
	{in: `D:\ws\．．\x`, want: `D:\ws\．．\x`, elems: []string{"ws", "．．", "x"}},
	{in: `D:\ws\$HOME`, want: `D:\ws\$HOME`},
	{in: `D:\ws\%USERPROFILE%`, want: `D:\ws\%USERPROFILE%`},
	{in: `D:\ws\~ann`, want: `D:\ws\~ann`},
	{in: `D:\PROGRA~1`, want: `D:\PROGRA~1`},
	{in: `D:\ws\.hidden`, want: `D:\ws\.hidden`},
	{in: `D:\ws\ lead`, want: `D:\ws\ lead`},
	{in: `D:\ws\a b.c`, want: `D:\ws\a b.c`},
	{in: `D:\CONSOLE`, want: `D:\CONSOLE`},
	{in: `D:\NULL`, want: `D:\NULL`},
	{in: `D:\COM10`, want: `D:\COM10`},
	{in: `D:\LPT`, want: `D:\LPT`},
	{in: `D:\xCON`, want: `D:\xCON`},
	{in: `D:\CON_1`, want: `D:\CON_1`},
	{in: `D:\` + long255, want: `D:\` + long255},
	{in: `D:\` + accents, want: `D:\` + accents},

	{in: `/home/ann`, reason: ErrNoDrive},
	{in: `\x`, reason: ErrNoDrive},
	{in: `\`, reason: ErrNoDrive},
	{in: `/`, reason: ErrNoDrive},
	{in: `\??`, reason: ErrNoDrive},
	{in: `D:x`, reason: ErrDriveRel},
	{in: `D:`, reason: ErrDriveRel},
	{in: `d:..\x`, reason: ErrDriveRel},
	{in: `1:\x`, reason: ErrRelative},
	{in: `é:\x`, reason: ErrRelative},

	{in: `\\?\C:\x`, reason: ErrDevice},
	{in: `\\?\UNC\server\share\x`, reason: ErrDevice},
	{in: `\\.\C:\x`, reason: ErrDevice},
	{in: `\\.\PhysicalDrive0`, reason: ErrDevice},
	{in: `\\.\pipe\x`, reason: ErrDevice},
	{in: `\??\C:\x`, reason: ErrDevice},
	{in: `//?/C:/x`, reason: ErrDevice},
	{in: `//./C:/x`, reason: ErrDevice},
	{in: `/??/C:/x`, reason: ErrDevice},
	{in: `\\?`, reason: ErrDevice},
	{in: `\\.`, reason: ErrDevice},

	{in: `\\`, reason: ErrUNC},
	{in: `\\server`, reason: ErrUNC},
	{in: `\\server\`, reason: ErrUNC},
	{in: `\\server\\x`, reason: ErrUNC},
	{in: `\\server\.`, reason: ErrUNC},
	{in: `\\server\.\x`, reason: ErrUNC},
	{in: `\\server\..\x`, reason: ErrUNC},
	{in: `\\\share\x`, reason: ErrUNC},
	{in: `\\..\share\x`, reason: ErrUNC},
	{in: `\\server\CON\x`, reason: ErrReserved},
	{in: `\\server\share:x`, reason: ErrStream},
	{in: `\\server.\share`, reason: ErrTrailing},

	{in: `D:\CON`, reason: ErrReserved},
	{in: `D:\con`, reason: ErrReserved},
	{in: `D:\Con.txt`, reason: ErrReserved},
	{in: `D:\CON .txt`, reason: ErrReserved},
	{in: `D:\NUL.tar.gz`, reason: ErrReserved},
	{in: `D:\ws\nul\x`, reason: ErrReserved},
	{in: `D:\PRN`, reason: ErrReserved},
	{in: `D:\AUX.h`, reason: ErrReserved},
	{in: `D:\COM0`, reason: ErrReserved},
	{in: `D:\COM1`, reason: ErrReserved},
	{in: `D:\com9.log`, reason: ErrReserved},
	{in: `D:\LPT0`, reason: ErrReserved},
	{in: `D:\lpt5.txt`, reason: ErrReserved},
	{in: `D:\COM¹`, reason: ErrReserved},
	{in: `D:\COM².txt`, reason: ErrReserved},
	{in: `D:\LPT³`, reason: ErrReserved},
	{in: `D:\CONIN$`, reason: ErrReserved},
	{in: `D:\conout$.x`, reason: ErrReserved},
	{in: `D:\CON\..\x`, reason: ErrReserved}, // checked before cleaning

	{in: `D:\a.`, reason: ErrTrailing},
	{in: `D:\a `, reason: ErrTrailing},
	{in: `D:\CON `, reason: ErrTrailing},
	{in: `D:\a.\b`, reason: ErrTrailing},
	{in: `D:\ws\.. \x`, reason: ErrTrailing},
	{in: `D:\ws\. \x`, reason: ErrTrailing},
	{in: `D:\ws\...\x`, reason: ErrTrailing},
	{in: `D:\ws\   `, reason: ErrTrailing},

	{in: `D:\file.txt:stream`, reason: ErrStream},
	{in: `D:\file::$DATA`, reason: ErrStream},
	{in: `D:\ws:x\y`, reason: ErrStream},
	{in: `D:\a\b:`, reason: ErrStream},
	{in: `D:\x\C:\y`, reason: ErrStream},

	{in: `D:\a<b`, reason: ErrForbidden},
	{in: `D:\a>b`, reason: ErrForbidden},
	{in: `D:\a"b`, reason: ErrForbidden},
	{in: `D:\a|b`, reason: ErrForbidden},
	{in: `D:\a?b`, reason: ErrForbidden},
	{in: `D:\*.txt`, reason: ErrForbidden},

	{in: `D:\` + clefs128, reason: ErrTooLong},
	{in: `D:\` + long256, reason: ErrTooLong},
}

func TestParsePOSIX(t *testing.T) {
	runParseTable(t, POSIX, append(slices.Clone(commonAttacks), posixCases...))
}

func TestParseWindows(t *testing.T) {
	runParseTable(t, Windows, append(slices.Clone(commonAttacks), windowsCases...))
}

// runParseTable runs every case through Parse with flavour f.
func runParseTable(t *testing.T, f Flavor, cases []parseCase) {
	for _, tc := range cases {
		t.Run(caseName(tc.in), func(t *testing.T) {
			got, err := Parse(f, tc.in)
			if tc.reason != nil {
				checkRejected(t, err, tc.reason)
				return
			}
			if err != nil {
				t.Fatalf("Parse(%v, %q) = %v, want %q", f, tc.in, err, tc.want)
			}
			checkParsed(t, got, f, tc)
		})
	}
}

// checkParsed compares a successful parse with the case.
func checkParsed(t *testing.T, got Path, f Flavor, tc parseCase) {
	t.Helper()
	if got.Clean != tc.want || got.Flavor != f {
		t.Errorf("Parse(%v, %q) = %q (%v), want %q", f, tc.in, got.Clean, got.Flavor, tc.want)
	}
	if got.Volume != tc.volume && (tc.volume != "" || f == POSIX) {
		t.Errorf("Volume = %q, want %q", got.Volume, tc.volume)
	}
	if tc.elems != nil && !slices.Equal(got.Elems, tc.elems) {
		t.Errorf("Elems = %q, want %q", got.Elems, tc.elems)
	}
}

// checkRejected checks that err is an *Error that wraps reason and has a
// short, printable, one-sentence message.
func checkRejected(t *testing.T, err error, reason error) {
	t.Helper()
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want *Error", err)
	}
	if !errors.Is(err, reason) {
		t.Errorf("err = %v (cause %v), want cause %v", err, pe.Kind, reason)
	}
	checkMessage(t, pe.Msg)
}

// checkMessage checks a message is a short sentence of printable text.
func checkMessage(t *testing.T, msg string) {
	t.Helper()
	if !utf8.ValidString(msg) || strings.IndexFunc(msg, isControl) >= 0 {
		t.Errorf("message %q is not printable text", msg)
	}
	if !strings.HasPrefix(msg, "The ") || !strings.HasSuffix(msg, ".") || len(msg) > 400 {
		t.Errorf("message %q is not one short sentence", msg)
	}
}

// caseName makes a readable subtest name of an input.
func caseName(in string) string {
	if in == "" {
		return "empty"
	}
	if len(in) > 40 {
		return in[:20] + "…" + in[len(in)-10:]
	}
	return in
}
