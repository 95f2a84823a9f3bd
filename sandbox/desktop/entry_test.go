package desktop

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSplitExec(t *testing.T) {
	tests := []struct {
		exec string
		want []string
		err  bool
	}{
		{"code --new-window %F", []string{"code", "--new-window", "%F"}, false},
		{`"/opt/My App/app" %U`, []string{"/opt/My App/app", "%U"}, false},
		{`app "a \"quoted\" \$HOME \\ \` + "`" + `"`, []string{"app", `a "quoted" $HOME \ ` + "`"}, false},
		{"app  two\tspaces", []string{"app", "two", "spaces"}, false},
		{`app ""`, []string{"app", ""}, false},
		{"sh -c 'rm -rf ~'", nil, true},    // a quote outside double quotes
		{"app; rm -rf /", nil, true},       // ; is reserved
		{"app | tee x", nil, true},         // | is reserved
		{"app $(id)", nil, true},           // $ ( ) reserved
		{"app `id`", nil, true},            // backquote reserved
		{`app "unterminated`, nil, true},   // open quote
		{`app "bad \n escape"`, nil, true}, // only \" \` \$ \\ inside quotes
		{"", nil, true},
		{`""`, nil, true}, // names no program
	}
	for _, tt := range tests {
		got, err := SplitExec(tt.exec)
		if (err != nil) != tt.err || !slices.Equal(got, tt.want) {
			t.Errorf("SplitExec(%q) = %q, %v; want %q, error %v", tt.exec, got, err, tt.want, tt.err)
		}
		if err != nil && !errors.Is(err, ErrEntry) {
			t.Errorf("SplitExec(%q): error %v is not ErrEntry", tt.exec, err)
		}
	}
}

func TestEntryCommand(t *testing.T) {
	e := Entry{Name: "Marker", Icon: "marker", Path: "/x/marker.desktop"}
	tests := []struct {
		exec  string
		files []string
		want  []string
		err   bool
	}{
		{"m %F", []string{"--foo", ";rm -rf", "a b"}, []string{"m", "--foo", ";rm -rf", "a b"}, false},
		{"m %U --after", []string{"x"}, []string{"m", "x", "--after"}, false},
		{"m %f", []string{"one"}, []string{"m", "one"}, false},
		{"m %f", []string{"one", "two"}, nil, true},         // %f takes one file
		{"m", []string{"--x"}, []string{"m", "--x"}, false}, // no field code: appended
		{"m %i %c %k 100%%", nil, []string{"m", "--icon", "marker", "Marker", "/x/marker.desktop", "100%"}, false},
		{"m %d%D%n%N%v%m", nil, []string{"m", ""}, false}, // deprecated codes vanish
		{"m --file=%f", []string{"x"}, nil, true},         // a file is never spliced into another argument
		{"m %z", nil, nil, true},
		{"%F", []string{"/bin/sh"}, nil, true}, // a file never becomes the program
		{"m %U %U", []string{"x"}, nil, true},  // one file field code per line
		{"m %f %F", []string{"x"}, nil, true},
		{"m %", nil, nil, true},
	}
	for _, tt := range tests {
		e.Exec = tt.exec
		got, err := e.Command(tt.files)
		if (err != nil) != tt.err || !slices.Equal(got, tt.want) {
			t.Errorf("Exec %q with %q = %q, %v; want %q, error %v", tt.exec, tt.files, got, err, tt.want, tt.err)
		}
	}
}

func TestParseEntry(t *testing.T) {
	text := "# comment\n[Desktop Entry]\nType=Application\nName=Marker\nName[de]=Markierer\nExec=/opt/m\\s1 %F\nTryExec=m\nHidden=false\n\n[Desktop Action new]\nExec=evil\n"
	e, err := ParseEntry(text)
	if err != nil {
		t.Fatal(err)
	}
	want := Entry{Type: "Application", Name: "Marker", Exec: "/opt/m 1 %F", TryExec: "m"}
	if e != want {
		t.Errorf("ParseEntry = %+v, want %+v", e, want)
	}
	for _, bad := range []string{
		"[Desktop Entry]\nExec=a\nExec=b\n", // a key twice: which one runs?
		"[Desktop Entry\nExec=a\n",
		"[Desktop Entry]\njunk line\n",
		"[Desktop Entry]\nExec=a\\\n",
		"[Desktop Entry]\nName=" + strings.Repeat("x", maxEntry) + "\n",
	} {
		if _, err := ParseEntry(bad); !errors.Is(err, ErrEntry) {
			t.Errorf("ParseEntry(%.40q) = %v, want ErrEntry", bad, err)
		}
	}
}

// FuzzEntryCommand holds the launcher's promise: whatever the Exec line
// and the files, each file is exactly one argument, unchanged, and
// nothing a file holds changes the other arguments.
func FuzzEntryCommand(f *testing.F) {
	f.Add("m %F", "--foo", ";rm -rf")
	f.Add(`"a b" %U x`, "$(id)", "`id`")
	f.Add("m", "a\nb", "%F")
	f.Add("m %f", "x", "")
	f.Fuzz(func(t *testing.T, exec, a, b string) {
		files := []string{a, b}
		e := Entry{Exec: exec}
		got, err := e.Command(files)
		if err != nil {
			return
		}
		base, err := e.Command(nil)
		if err != nil {
			t.Fatalf("Exec %q takes files but not none: %v", exec, err)
		}
		if len(got) != len(base)+len(files) {
			t.Fatalf("Exec %q with %q = %q: files not one argument each (base %q)", exec, files, got, base)
		}
		for k := 0; k <= len(base); k++ {
			if slices.Equal(got, slices.Concat(base[:k], files, base[k:])) {
				return
			}
		}
		t.Fatalf("Exec %q with %q = %q: a file changed or split (base %q)", exec, files, got, base)
	})
}

// FuzzParseEntry: any text is parsed or refused with ErrEntry, never
// anything else.
func FuzzParseEntry(f *testing.F) {
	f.Add("[Desktop Entry]\nType=Application\nExec=m %F\n")
	f.Add("[Desktop Entry]\nExec=\\s\\n\\t\\r\\\\\n")
	f.Fuzz(func(t *testing.T, text string) {
		e, err := ParseEntry(text)
		if err != nil && !errors.Is(err, ErrEntry) {
			t.Fatalf("ParseEntry: %v is not ErrEntry", err)
		}
		if err == nil && e.Exec != "" {
			SplitExec(e.Exec)
		}
	})
}
