package docconv

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/internal/testkit/proctest"
	conv "github.com/deskbridge/deskbridge/media/docconv"
	"github.com/deskbridge/deskbridge/sandbox/proc"
)

// TestMain makes the test binary serve as the converter child (and the
// sandbox trampoline), as the host's main does, and as two helpers: one
// that lowers its limits and then allocates (DOCCONV_TEST_HOG), one that
// dials an address (DOCCONV_TEST_DIAL).
func TestMain(m *testing.M) {
	proc.MaybeRunTrampoline()
	MaybeRunConverter()
	if os.Getenv("DOCCONV_TEST_HOG") != "" {
		hog()
	}
	if path := os.Getenv("DOCCONV_TEST_READ"); path != "" {
		if _, err := os.ReadFile(path); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	if addr := os.Getenv("DOCCONV_TEST_DIAL"); addr != "" {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			os.Exit(3)
		}
		c.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// hog lowers its memory limit to 256 MiB as the converter child does and
// then writes 1 GiB.
func hog() {
	if err := proc.LimitSelf(256<<20, 10); err != nil {
		os.Exit(4)
	}
	proctest.Hog()
	os.Exit(0)
}

func workspace(t *testing.T, name string, data []byte) *os.Root {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func request() Request {
	return Request{OCR: "auto", MaxInput: 100 << 20, MaxOutput: 1 << 20, Timeout: 60 * time.Second, Memory: 1 << 30}
}

// TestConvertInChild converts through the child: the file opened by the
// host, read by the child from its inherited descriptor.
func TestConvertInChild(t *testing.T) {
	root := workspace(t, "a.docx", docgen.DOCX(docgen.Para("Heading1", "From the child"), ""))
	res, err := Convert(context.Background(), root, "a.docx", request())
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != "docx" || !strings.Contains(res.Markdown, "# From the child") {
		t.Fatalf("%+v", res)
	}
}

// TestRefusalsCrossTheBoundary: the converter's refusals come back typed.
func TestRefusalsCrossTheBoundary(t *testing.T) {
	root := workspace(t, "bomb.zip", docgen.Zip(docgen.File{Name: "z", Data: make([]byte, 8<<20)}))
	_, err := Convert(context.Background(), root, "bomb.zip", request())
	var ce *conv.Error
	if !errors.As(err, &ce) || ce.Kind != conv.ErrLimit || !strings.Contains(ce.Msg, "ZIP bomb") {
		t.Fatalf("err = %v", err)
	}
	req := request()
	req.MaxInput = 10
	if _, err := Convert(context.Background(), root, "bomb.zip", req); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over max_bytes: %v", err)
	}
}

// TestPDFOpenHexStringIsDamaged: a PDF page whose content stream ends
// inside a hex string (which the PDF library would read forever) comes
// back from the child as a damaged document, not a timeout.
func TestPDFOpenHexStringIsDamaged(t *testing.T) {
	pdf := docgen.PDF([][]docgen.Line{{{Size: 11, Text: "text"}}}, docgen.PDFOptions{Append: "<4"})
	root := workspace(t, "a.pdf", pdf)
	_, err := Convert(context.Background(), root, "a.pdf", request())
	var ce *conv.Error
	if !errors.As(err, &ce) || ce.Kind != conv.ErrCorrupt || !strings.Contains(ce.Msg, "hex string") {
		t.Fatalf("err = %v", err)
	}
}

// TestTimeoutKillsChild: a conversion past its timeout is stopped.
func TestTimeoutKillsChild(t *testing.T) {
	root := workspace(t, "a.txt", []byte("text"))
	req := request()
	req.Timeout = time.Millisecond
	_, err := Convert(context.Background(), root, "a.txt", req)
	var f *Failure
	if !errors.As(err, &f) || !f.TimedOut {
		t.Fatalf("err = %v", err)
	}
}

// TestMemoryLimitHolds: the child's own memory limit stops it from
// writing 1 GiB (the helper succeeds without the limit).
func TestMemoryLimitHolds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("RLIMIT_DATA is enforced by Linux")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DOCCONV_TEST_HOG=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("the helper wrote 1 GiB under a 256 MiB limit")
	}
	// The runtime reports the refused mapping as out of memory or, when
	// the refusal meets its collector mid-flight, dies of SIGSEGV, or,
	// when the refused mapping is a new thread's stack, of a failed
	// pthread_create: each way the limit stopped it (the helper does
	// nothing else).
	if !strings.Contains(string(out), "memory") && !strings.Contains(string(out), "SIGSEGV") && !strings.Contains(string(out), "pthread_create failed") {
		t.Fatalf("the helper failed otherwise: %v\n%s", err, out[:min(len(out), 500)])
	}
}

// TestChildReachesNoNetwork: a child run as the converter is (Private,
// NoNetwork) cannot connect to a listener on this machine; the same
// child without NoNetwork can, so the filter is what stops it.
func TestChildReachesNoNetwork(t *testing.T) {
	if up, why := proc.LandlockStatus(); !up {
		t.Skip("no sandbox here: " + why)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	run := func(noNet bool) int {
		res, err := proc.Run(context.Background(), proc.Spec{
			Path: os.Args[0], Argv: []string{"docconv.test", "-test.run=^$"},
			Env: []string{"DOCCONV_TEST_DIAL=" + ln.Addr().String()}, Timeout: 20 * time.Second,
			Private: true, NoNetwork: noNet,
		})
		if err != nil {
			t.Fatal(err)
		}
		return res.ExitCode
	}
	if code := run(false); code != 0 {
		t.Fatalf("without NoNetwork the helper could not connect (exit %d)", code)
	}
	if code := run(true); code != 3 {
		t.Fatalf("with NoNetwork the helper connected (exit %d)", code)
	}
}

// TestChildReadsOnlySystemFolders: a child confined as the converter is
// (proc.SystemReadRoots) cannot read a file outside the system folders, such as one
// in a home folder or a workspace; without ReadRoots it can, so the
// Landlock rule is what stops it.
func TestChildReadsOnlySystemFolders(t *testing.T) {
	if up, why := proc.LandlockStatus(); !up {
		t.Skip("no sandbox here: " + why)
	}
	secret := filepath.Join(t.TempDir(), "id_rsa")
	if err := os.WriteFile(secret, []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(reads []string) int {
		res, err := proc.Run(context.Background(), proc.Spec{
			Path: os.Args[0], Argv: []string{"docconv.test", "-test.run=^$"},
			Env: []string{"DOCCONV_TEST_READ=" + secret}, Timeout: 20 * time.Second,
			Private: true, NoNetwork: true, ReadRoots: reads,
		})
		if err != nil {
			t.Fatal(err)
		}
		return res.ExitCode
	}
	if code := run(nil); code != 0 {
		t.Fatalf("without ReadRoots the helper could not read the file (exit %d)", code)
	}
	if code := run(proc.SystemReadRoots(os.Args[0])); code != 3 {
		t.Fatalf("with the converter's ReadRoots the helper read the file (exit %d)", code)
	}
}

// TestOffice97InChild: a Word and a PowerPoint 97–2003 file convert in
// the child, and a Word file whose piece table points outside its stream
// comes back as a damaged document.
func TestOffice97InChild(t *testing.T) {
	good := docgen.DOC("From the child\r", docgen.DOCOptions{})
	bad := docgen.DOC("From the child\r", docgen.DOCOptions{PieceFC: func(int, uint32) uint32 { return 0x3FFFFFF0 }})
	ppt := docgen.PPT(docgen.PPTDocument([]docgen.PPTSlide{{Title: "Slide title", Body: []string{"Slide body"}}}))
	root := workspace(t, "a.doc", good)
	for name, b := range map[string][]byte{"bad.doc": bad, "a.ppt": ppt} {
		if err := root.WriteFile(name, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Convert(context.Background(), root, "a.doc", request())
	if err != nil || r.Format != "doc" || r.Markdown != "From the child\n" {
		t.Fatalf("doc: %+v, %v", r, err)
	}
	r, err = Convert(context.Background(), root, "a.ppt", request())
	if err != nil || r.Format != "ppt" || !strings.Contains(r.Markdown, "## Slide 1: Slide title\n\nSlide body") {
		t.Fatalf("ppt: %+v, %v", r, err)
	}
	_, err = Convert(context.Background(), root, "bad.doc", request())
	var ce *conv.Error
	if !errors.As(err, &ce) || ce.Kind != conv.ErrCorrupt || !strings.Contains(ce.Msg, "outside the WordDocument stream") {
		t.Fatalf("bad doc: %v", err)
	}
}
