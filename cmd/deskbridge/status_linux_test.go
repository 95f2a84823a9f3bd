package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/engine/panel"
	"github.com/deskbridge/deskbridge/internal/procreg"
	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
	"github.com/deskbridge/deskbridge/sandbox/localserve"
	"github.com/deskbridge/deskbridge/sandbox/preview"
)

// statusLine matches one process line of deskbridge status.
var statusLine = regexp.MustCompile(`(?m)^(running|stopped|gone|FAILED) +(\w+) +pid (\d+)(?: port (\d+))?`)

// backgroundOf runs deskbridge status with args and returns its process
// lines as state, kind and pid, and the port by pid.
func backgroundOf(t *testing.T, cfg string, args ...string) (lines map[int]string, ports map[int]int, out string) {
	t.Helper()
	out, errOut, code := runBin(t, "", nil, append([]string{"--config", cfg, "status"}, args...)...)
	if code != 0 {
		t.Fatalf("deskbridge status %v: exit %d\n%s%s", args, code, out, errOut)
	}
	lines, ports = map[int]string{}, map[int]int{}
	for _, m := range statusLine.FindAllStringSubmatch(out, -1) {
		pid, _ := strconv.Atoi(m[3])
		port, _ := strconv.Atoi(m[4])
		lines[pid], ports[pid] = m[1]+" "+m[2], port
	}
	return lines, ports, out
}

// staleRecord writes a record of kind for pid with identity id into the
// register of state, as a process that registered and then ended (or
// whose pid was reused) would leave it.
func staleRecord(t *testing.T, state, kind string, pid int, id procreg.ProcID) {
	t.Helper()
	r := procreg.Record{Kind: kind, PID: pid, Started: time.Now(), Expires: time.Now().Add(time.Hour), UID: os.Getuid(), Identity: id}
	b, _ := json.Marshal(r)
	dir := procreg.Dir(state)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, kind+"-"+strconv.Itoa(pid)+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestStatusListsAndStopsBinary: a preview server and a control panel
// register themselves; deskbridge status lists both with their ports,
// doctor names them, and status --stop ends them (each ends as at its
// expiry, removing its state file). A record of a process that has ended,
// and one whose pid now belongs to another process, are dropped, and that
// other process is not signalled.
func TestStatusListsAndStopsBinary(t *testing.T) {
	w := newWall(t)
	a := w.preview(t, w.write(t, "index.html", "<p>hi</p>"))
	runPanel(t, w.cfg, headless)
	pv, pn := localserve.List(w.state, preview.Kind), panelInstance(t, w.state)
	if len(pv) != 1 {
		t.Fatalf("%d preview servers recorded for %s", len(pv), a.URL)
	}
	lines, ports, out := backgroundOf(t, w.cfg)
	for _, in := range []localserve.Instance{pv[0], pn} {
		if lines[in.PID] != "running "+in.Kind || strconv.Itoa(ports[in.PID]) != in.Addr[strings.LastIndexByte(in.Addr, ':')+1:] {
			t.Errorf("status does not list the %s server (pid %d at %s):\n%s", in.Kind, in.PID, in.Addr, out)
		}
	}
	if out, _, _ := runBin(t, "", nil, "--config", w.cfg, "doctor", "--browser", "chrome"); !strings.Contains(out, "background process: "+panel.Kind) || !strings.Contains(out, "pid "+strconv.Itoa(pv[0].PID)) {
		t.Errorf("doctor does not list the background processes:\n%s", out)
	}

	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	staleRecord(t, w.state, procreg.KindClipboard, dead.Process.Pid, procreg.ProcID{StartTicks: 1, Exe: binaryPath})
	other := exec.Command("sleep", "3600")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	id, err := procreg.Identity(other.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	staleRecord(t, w.state, procreg.KindPreview, other.Process.Pid, procreg.ProcID{StartTicks: id.StartTicks - 1, Exe: id.Exe})

	lines, _, out = backgroundOf(t, w.cfg, "--stop")
	for _, in := range []localserve.Instance{pv[0], pn} {
		if lines[in.PID] != "stopped "+in.Kind {
			t.Errorf("status --stop did not stop the %s server (pid %d):\n%s", in.Kind, in.PID, out)
		}
		proctest.WaitGone(t, in.PID)
	}
	if lines[dead.Process.Pid] != "gone clipboard" || lines[other.Process.Pid] != "gone preview" {
		t.Errorf("status --stop did not drop the stale records:\n%s", out)
	}
	if proctest.Gone(other.Process.Pid) {
		t.Fatal("status --stop killed the process that now holds a recorded pid")
	}
	if n := len(localserve.List(w.state, preview.Kind)) + len(localserve.List(w.state, panel.Kind)); n != 0 {
		t.Errorf("%d server state files outlived their servers", n)
	}
	if lines, _, out := backgroundOf(t, w.cfg); len(lines) != 0 || !strings.Contains(out, "no DeskBridge process") {
		t.Errorf("status after --stop:\n%s", out)
	}
}

// TestClipboardOwnerIsListedAndStoppedBinary: the clipboard owner that
// set_clipboard leaves on X11 registers itself; status lists it after its
// host has ended and status --stop ends it.
func TestClipboardOwnerIsListedAndStoppedBinary(t *testing.T) {
	d := newDesk(t, clipboardOn)
	h := start(t, []string{"--config", d.config, testOrigin}, d.env()...)
	mustCode(t, h.request("1", "set_clipboard", `{"text":"listed"}`), "1", "ok")
	if code := h.closeAndWait(); code != 0 {
		t.Fatalf("host exit %d", code)
	}
	lines, _, out := backgroundOf(t, d.config)
	owner := 0
	for pid, l := range lines {
		if l == "running clipboard" {
			owner = pid
		}
	}
	if owner == 0 {
		t.Fatalf("status does not list the clipboard owner:\n%s", out)
	}
	if lines, _, out := backgroundOf(t, d.config, "--stop"); lines[owner] != "stopped clipboard" {
		t.Errorf("status --stop did not stop the clipboard owner:\n%s", out)
	}
	proctest.WaitGone(t, owner)
}

// TestWarmProcessIsListedAndStoppedBinary: the warm process deskbridge-host
// starts registers itself; status lists it (it ends once idle, with no
// fixed expiry) and status --stop ends it before its idle time.
func TestWarmProcessIsListedAndStoppedBinary(t *testing.T) {
	cfg, _ := writeConfig(t, "")
	w := newWarmEnv(t, "10m")
	waitWarmStatus(t, w, cfg)
	lines, _, out := backgroundOf(t, cfg)
	pid := 0
	for p, l := range lines {
		if l == "running warm" {
			pid = p
		}
	}
	if pid == 0 || !strings.Contains(out, "ends once idle") {
		t.Fatalf("status does not list the warm process:\n%s", out)
	}
	if lines, _, out := backgroundOf(t, cfg, "--stop"); lines[pid] != "stopped warm" {
		t.Errorf("status --stop did not stop the warm process:\n%s", out)
	}
	proctest.WaitGone(t, pid)
	if lines, _, out := backgroundOf(t, cfg); len(lines) != 0 {
		t.Errorf("status after --stop:\n%s", out)
	}
}
