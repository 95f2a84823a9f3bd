package docconv

import (
	"errors"

	"github.com/deskbridge/deskbridge/internal/kinderr"
)

// Sentinel kinds of a failed conversion; a *Error carries one.
var (
	// ErrUnsupported: the content is of no format this package reads.
	ErrUnsupported = errors.New("unsupported document format")
	// ErrEncrypted: the document is encrypted or protected by a password.
	ErrEncrypted = errors.New("document is encrypted")
	// ErrCorrupt: the document is damaged or not what its header says.
	ErrCorrupt = errors.New("document is damaged")
	// ErrLimit: the document passes one of the caps (Limits).
	ErrLimit = errors.New("document passes a limit")
	// ErrOCRRequired: the document has no text layer and OCR is off.
	ErrOCRRequired = errors.New("document needs OCR")
	// ErrOCRUnavailable: OCR was asked for but no OCR runtime is present.
	ErrOCRUnavailable = errors.New("OCR runtime unavailable")
)

// Error is a failed conversion (the project's one typed error,
// kinderr.Error): its Kind (one of the sentinels) and a sentence for the
// person who asked.
type Error = kinderr.Error

func fail(kind error, format string, args ...any) error { return kinderr.New(kind, format, args...) }

// KindName is the stable name of a kind, used across the process
// boundary; "" for an error of no kind.
func KindName(err error) string {
	for name, k := range kinds {
		if errors.Is(err, k) {
			return name
		}
	}
	return ""
}

// KindByName is the inverse of KindName; ErrCorrupt for an unknown name.
func KindByName(name string) error {
	if k, ok := kinds[name]; ok {
		return k
	}
	return ErrCorrupt
}

var kinds = map[string]error{
	"unsupported": ErrUnsupported, "encrypted": ErrEncrypted, "corrupt": ErrCorrupt,
	"limit": ErrLimit, "ocr_required": ErrOCRRequired, "ocr_unavailable": ErrOCRUnavailable,
}
