// Package documents holds the documents skill's action,
// convert_document_to_markdown: its arguments, facts and run function,
// registered with package action in init, and the skill's profile (the
// OCR runtime, the converter's wall). The parsing runs in the confined
// converter child of sandbox/docconv.
package documents
