package pathform

import (
	"runtime"
	"testing"
)

func TestNativeMatchesGOOS(t *testing.T) {
	want := POSIX
	if runtime.GOOS == "windows" {
		want = Windows
	}
	if Native != want {
		t.Errorf("Native = %v on %s, want %v", Native, runtime.GOOS, want)
	}
}

func TestFlavorString(t *testing.T) {
	for f, want := range map[Flavor]string{POSIX: "posix", Windows: "windows"} {
		if f.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(f), f.String(), want)
		}
	}
}
