// Package docconv turns a document into Markdown: it sniffs the format from
// the content (never the name), and maps HTML (its main content, by
// readability), OOXML (DOCX, PPTX, XLSX), ODF (ODT, ODS, ODP), EPUB, PDF,
// RTF, Office 97–2003 files (DOC, XLS, PPT) and Outlook messages, RSS and
// Atom feeds and other XML, CSV/TSV, Jupyter notebooks, ZIP archives and
// text formats (in any encoding x/text reads) onto Markdown
// blocks.
//
// It is pure: it reads the bytes it is given and runs no program itself
// (OCR comes in through the OCR interface). Every input is hostile, so each
// reader works within caps (Limits): the bytes read out of a ZIP archive in
// total and per member, the compression ratio, the XML nesting depth, the
// table cells and rows, the pages. encoding/xml expands no entity a
// document declares and fetches nothing, and no relationship or link of a
// document is ever opened: links are written out as text.
//
// It runs inside DeskBridge's confined converter child (sandbox/docconv),
// never in the host process.
package docconv
