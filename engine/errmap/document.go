package errmap

import (
	"errors"

	conv "github.com/deskbridge/deskbridge/media/docconv"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/docconv"
)

// Document maps an error of sandbox/docconv.Convert: what the converter
// refused (*conv.Error, by its kind), a child that failed
// (*docconv.Failure), a document over the size limit, and the file errors
// of opening it.
func Document(err error, maxInput int64) *protocol.Error {
	var ce *conv.Error
	var fe *docconv.Failure
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce):
		return converterError(ce)
	case errors.As(err, &fe):
		return protocol.Wrap(protocol.DocumentConversionFailed, err, upper(fe.Msg)+".")
	case errors.Is(err, docconv.ErrTooLarge):
		return protocol.Errorf(protocol.DocumentConversionFailed,
			"The document is larger than this action's limit of %d bytes (limits.convert_document_to_markdown.max_bytes).", maxInput)
	}
	return File(err)
}

func converterError(ce *conv.Error) *protocol.Error {
	msg := upper(ce.Msg) + "."
	switch ce.Kind {
	case conv.ErrUnsupported:
		return protocol.Wrap(protocol.UnsupportedDocumentFormat, ce, msg)
	case conv.ErrOCRRequired:
		return protocol.Wrap(protocol.DocumentOCRRequired, ce, msg)
	case conv.ErrOCRUnavailable:
		return protocol.Wrap(protocol.SkillRuntimeUnavailable, ce, msg+" No OCR runtime is installed: "+docconv.InstallHint()+".")
	case conv.ErrEncrypted:
		return protocol.Wrap(protocol.DocumentConversionFailed, ce, msg)
	}
	return protocol.Wrap(protocol.DocumentConversionFailed, ce, msg)
}

// upper capitalises the first letter of a sentence.
func upper(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
