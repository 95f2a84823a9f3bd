package skills

import "github.com/deskbridge/deskbridge/sandbox/desktop"

// The members the features fill in a skill's profile.

// OCR is what get_skill_profile tells of the OCR runtime.
type OCR struct {
	// Enabled is false when the configuration switches OCR off.
	Enabled bool `json:"enabled"`
	// Runtime is "tesseract" when it is installed, else "".
	Runtime   string   `json:"runtime"`
	Path      string   `json:"path,omitempty"`
	Languages []string `json:"languages"`
	// Renderer is pdftoppm (poppler-utils), which renders a PDF page
	// without a text layer to an image for OCR: an external program run
	// without a shell inside the converter's sandbox.
	Renderer string `json:"renderer,omitempty"`
	Note     string `json:"note"`
}

// Desktop is what get_skill_profile says of the desktop session, in the
// clipboard, windows and applications skills.
type Desktop struct {
	desktop.Status
	// Editors are the configured editors, each with whether its program
	// is installed (applications only).
	Editors []Editor `json:"editors,omitempty"`
	// Opener is the program open_folder hands folders to, and whether it
	// is installed (applications only, Unix).
	Opener *Program `json:"opener,omitempty"`
	// Closed are the skill's actions the default policy keeps closed
	// until the configuration names the skill true (desktop.rego,
	// private_desktop): the reads of the screen and the clipboard.
	Closed []string `json:"closed,omitempty"`
}

// Editor is one configured editor.
type Editor struct {
	Name      string   `json:"name"`
	Command   []string `json:"command"`
	Installed bool     `json:"installed"`
}

// Program is a helper program and whether it is installed.
type Program struct {
	Program   string `json:"program"`
	Installed bool   `json:"installed"`
}

// ImageCodec is one format's entry in the images skill's profile: what
// the host does with it and the library that does it.
type ImageCodec struct {
	Format  string `json:"format"`
	Read    bool   `json:"read"`
	Write   bool   `json:"write"`
	Library string `json:"library"`
}

// ImageFormats is the images skill's formats in get_skill_profile.
type ImageFormats struct {
	Read        []string          `json:"read"`
	Write       []string          `json:"write"`
	Unsupported map[string]string `json:"unsupported"`
	// Codecs lists each format with read, write and its library.
	Codecs []ImageCodec `json:"codecs"`
}

// Template is one template in the projects skill's profile.
type Template struct {
	Name string `json:"name"`
	// Source is "builtin", or "configured" for a folder of the
	// configuration's projects.templates.
	Source string `json:"source"`
}
