package errmap

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/kinderr"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

func TestDesktop(t *testing.T) {
	tests := []struct {
		name string
		err  error
		code protocol.Code
		msg  string
	}{
		{"unavailable", &kinderr.Error{Kind: desktop.ErrUnavailable, Msg: "no X11 display: DISPLAY is not set"}, protocol.SkillRuntimeUnavailable, "DISPLAY is not set"},
		{"not installed", &desktop.NotFoundError{Kind: desktop.ErrNotFound, Name: "gimp", Err: errors.New("no gimp.desktop")}, protocol.AppNotFound, `"gimp" is not installed`},
		{"failed with stderr", &desktop.FailedError{Kind: desktop.ErrFailed, Program: "xdg-open", Code: 4, Stderr: "no method available"}, protocol.ExecutionFailed, `xdg-open said "no method available"`},
		{"failed", &desktop.FailedError{Kind: desktop.ErrFailed, Program: "xdg-open", Code: 3}, protocol.ExecutionFailed, "status 3"},
		{"too large", fmt.Errorf("read: %w", desktop.ErrTooLarge), protocol.InvalidRequest, "too large"},
		{"outside", desktop.ErrOutside, protocol.InvalidRequest, "does not lie on the display"},
		{"no monitor", desktop.ErrNoMonitor, protocol.InvalidRequest, "No monitor has that name"},
		{"bad entry", fmt.Errorf("%w: Exec: reserved character", desktop.ErrEntry), protocol.ExecutionFailed, "desktop entry is not valid"},
		{"other", errors.New("boom"), protocol.ExecutionFailed, "Opening the folder failed."},
	}
	for _, tt := range tests {
		pe := Desktop(tt.err, "Opening the folder")
		if pe.Code != tt.code || !strings.Contains(pe.Message, tt.msg) {
			t.Errorf("%s: %s %q, want %s with %q", tt.name, pe.Code, pe.Message, tt.code, tt.msg)
		}
	}
	if Desktop(nil, "x") != nil {
		t.Error("nil error mapped")
	}
}
