package config

import "fmt"

// Documents configures convert_document_to_markdown.
type Documents struct {
	// OCR is "auto" (the default: images and PDF pages without a text
	// layer are recognised when an OCR runtime is installed) or "off"
	// (they are refused with DOCUMENT_OCR_REQUIRED).
	OCR string `json:"ocr,omitempty"`
}

// OCROff reports whether the configuration switches OCR off.
func (d Documents) OCROff() bool { return d.OCR == "off" }

func (d Documents) check() error {
	switch d.OCR {
	case "", "auto", "off":
		return nil
	}
	return fmt.Errorf("documents.ocr must be \"auto\" or \"off\", not %q", d.OCR)
}
