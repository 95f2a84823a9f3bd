package install

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// install registers deskbridge-host when it sits beside deskbridge
// (unless --direct), and doctor takes a manifest that starts it as
// starting this binary.
func TestWarmHostRegistered(t *testing.T) {
	dir := t.TempDir()
	exe := map[bool]string{false: "", true: ".exe"}[runtime.GOOS == "windows"]
	self := filepath.Join(dir, "deskbridge"+exe)
	want := filepath.Join(dir, WarmHostName+exe)
	for _, p := range []string{self, want} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := registered(self, true); got != want {
		t.Errorf("registered = %s; want %s", got, want)
	}
	if got := registered(self, false); got != self {
		t.Errorf("registered with --direct = %s; want %s", got, self)
	}
	if err := os.Chmod(want, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := registered(self, true); runtime.GOOS != "windows" && got != self {
		t.Errorf("registered with a deskbridge-host that cannot run = %s; want %s", got, self)
	}
	in := NewInstaller(&bytes.Buffer{})
	in.OS = "linux"
	if !in.startsSelf("/opt/db/deskbridge-host", "/opt/db/deskbridge") || !in.startsSelf("/opt/db/deskbridge", "/opt/db/deskbridge") {
		t.Error("doctor does not take deskbridge-host beside this binary as this binary")
	}
	if in.startsSelf("/elsewhere/deskbridge-host", "/opt/db/deskbridge") {
		t.Error("doctor takes a deskbridge-host elsewhere as this binary")
	}
	in.OS = "windows"
	if !in.startsSelf(`C:\DB\Deskbridge-Host.exe`, `C:\db\deskbridge.exe`) || in.startsSelf(`C:\other\deskbridge-host.exe`, `C:\db\deskbridge.exe`) {
		t.Error("doctor on Windows does not take deskbridge-host.exe beside this binary, and only it, as this binary")
	}
}
