package docconv

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	conv "github.com/deskbridge/deskbridge/media/docconv"
)

// Tools are the OCR programs found in the system folders ("" when
// missing).
type Tools struct {
	// Tesseract recognises text (Debian: tesseract-ocr).
	Tesseract string
	// Pdftoppm renders a PDF page to an image for it (Debian:
	// poppler-utils).
	Pdftoppm string
}

// systemDirs are where the OCR programs are looked for; never PATH or the
// workspace.
func systemDirs() []string {
	switch runtime.GOOS {
	case "windows":
		pf := os.Getenv("ProgramFiles")
		if pf == "" {
			pf = `C:\Program Files`
		}
		return []string{filepath.Join(pf, "Tesseract-OCR"), filepath.Join(pf, "poppler", "Library", "bin")}
	case "darwin":
		return []string{"/opt/homebrew/bin", "/usr/local/bin", "/usr/bin"}
	}
	return []string{"/usr/bin", "/usr/local/bin", "/bin"}
}

// FindTools looks for the OCR programs in the system folders.
func FindTools() Tools {
	return Tools{Tesseract: findProgram("tesseract"), Pdftoppm: findProgram("pdftoppm")}
}

func findProgram(name string) string {
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	for _, d := range systemDirs() {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode()&0o111 != 0) {
			return p
		}
	}
	return ""
}

// Languages lists the languages tesseract has data for (its
// --list-langs), for get_skill_profile.
func Languages(ctx context.Context, tesseract string) []string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := runTool(ctx, tesseract, []string{"tesseract", "--list-langs"}, nil, nil, 64<<10)
	if err != nil {
		return nil
	}
	var langs []string
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.Contains(l, " ") && l != "osd" {
			langs = append(langs, l)
		}
	}
	return langs
}

// InstallHint says what to install for OCR on this system.
func InstallHint() string {
	switch runtime.GOOS {
	case "windows":
		return "install Tesseract OCR (UB Mannheim build) into Program Files\\Tesseract-OCR, and poppler's pdftoppm for scanned PDFs"
	case "darwin":
		return "install tesseract and poppler (brew install tesseract poppler)"
	}
	return "install tesseract-ocr, tesseract-ocr-eng and poppler-utils (apt install tesseract-ocr tesseract-ocr-eng poppler-utils)"
}

// engine is the child's OCR runtime: tesseract for images, pdftoppm to
// render a PDF page first. Each runs without a shell, in the child's
// confinement (its limits, no network, its process group), with the
// image on its standard input.
type engine struct {
	tesseract, pdftoppm, lang string
	doc                       []byte // the document, for pdftoppm; nil: not in memory
}

// Image implements conv.OCR.
func (e *engine) Image(ctx context.Context, img []byte) (string, error) {
	out, err := runTool(ctx, e.tesseract, []string{"tesseract", "stdin", "stdout", "-l", e.lang}, img, nil, 8<<20)
	if err != nil {
		return "", &conv.Error{Kind: conv.ErrCorrupt, Msg: "OCR failed: " + err.Error()}
	}
	return string(out), nil
}

// PDFPage implements conv.OCR.
func (e *engine) PDFPage(ctx context.Context, n int) (string, bool, error) {
	if e.pdftoppm == "" || e.doc == nil {
		return "", false, nil
	}
	page := itoa(n)
	png, err := runTool(ctx, e.pdftoppm, []string{"pdftoppm", "-r", "200", "-gray", "-png", "-f", page, "-l", page, "-singlefile", "-"},
		e.doc, nil, 128<<20)
	if err != nil {
		return "", true, &conv.Error{Kind: conv.ErrCorrupt, Msg: "page " + page + " could not be rendered for OCR: " + err.Error()}
	}
	text, err := e.Image(ctx, png)
	return text, true, err
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// runTool runs one program without a shell and returns at most max bytes
// of its standard output.
func runTool(ctx context.Context, path string, argv []string, stdin []byte, extra []*os.File, max int) ([]byte, error) {
	var out, errOut bytes.Buffer
	cmd := &exec.Cmd{Path: path, Args: argv, Stdout: &capped{b: &out, max: max}, Stderr: &capped{b: &errOut, max: 4 << 10},
		Env: []string{"OMP_THREAD_LIMIT=1", "LC_ALL=C"}, ExtraFiles: extra}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	toolAttr(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return nil, errors.New(strings.TrimSpace(err.Error() + ": " + errOut.String()))
		}
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		return nil, ctx.Err()
	}
	if out.Len() >= max {
		return nil, errors.New("the program's output passed its limit")
	}
	return out.Bytes(), nil
}

// capped keeps the first max bytes written to it.
type capped struct {
	b   *bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.b.Len(); room > 0 {
		c.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
