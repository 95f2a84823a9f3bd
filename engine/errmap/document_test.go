package errmap

import (
	"strings"
	"testing"

	conv "github.com/deskbridge/deskbridge/media/docconv"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/docconv"
)

// TestDocument maps each kind of a converter's refusal to its code; OCR
// with no runtime says what to install.
func TestDocument(t *testing.T) {
	cases := []struct {
		err  error
		code protocol.Code
		says string
	}{
		{&conv.Error{Kind: conv.ErrUnsupported, Msg: "x"}, protocol.UnsupportedDocumentFormat, ""},
		{&conv.Error{Kind: conv.ErrEncrypted, Msg: "the PDF is encrypted"}, protocol.DocumentConversionFailed, "The PDF is encrypted."},
		{&conv.Error{Kind: conv.ErrLimit, Msg: "x"}, protocol.DocumentConversionFailed, ""},
		{&conv.Error{Kind: conv.ErrOCRRequired, Msg: "x"}, protocol.DocumentOCRRequired, ""},
		{&conv.Error{Kind: conv.ErrOCRUnavailable, Msg: "x"}, protocol.SkillRuntimeUnavailable, "tesseract"},
		{&docconv.Failure{TimedOut: true, Msg: "the conversion did not finish"}, protocol.DocumentConversionFailed, "did not finish"},
		{docconv.ErrTooLarge, protocol.DocumentConversionFailed, "max_bytes"},
	}
	for _, c := range cases {
		pe := Document(c.err, 10)
		// Case-blind: the install hint names "Tesseract OCR" on Windows,
		// the package tesseract-ocr on Linux.
		if pe.Code != c.code || !strings.Contains(strings.ToLower(pe.Message), strings.ToLower(c.says)) {
			t.Errorf("%v: %s %q, want %s saying %q", c.err, pe.Code, pe.Message, c.code, c.says)
		}
	}
}
