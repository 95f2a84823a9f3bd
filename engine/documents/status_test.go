package documents

import (
	"testing"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/skills"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/docconv"
)

// get_status is the first request of most host starts: it answers from
// what decides whether a skill is usable, without running tesseract for
// its languages (about 20 ms, most of a start), which get_skill_profile
// still lists.
func TestStatusRunsNoProgram(t *testing.T) {
	if docconv.FindTools().Tesseract == "" {
		t.Skip("no tesseract: .ci/run installs tesseract-ocr")
	}
	runs := 0
	saved := ocrLanguages
	t.Cleanup(func() { ocrLanguages = saved })
	ocrLanguages = func(string) []string { runs++; return []string{"eng"} }
	env := &action.Env{Config: &config.Config{}}
	if p := skills.Of(env, protocol.SkillDocuments, true); !p.Usable() { // get_status's profile
		t.Fatalf("get_status's documents profile = %+v; want usable", p)
	}
	if runs != 0 {
		t.Fatalf("get_status ran tesseract %d times", runs)
	}
	for _, p := range skills.Profiles(env) { // get_skill_profile's
		if p.Name == "documents" && (p.OCR == nil || len(p.OCR.Languages) != 1) {
			t.Fatalf("get_skill_profile's documents OCR = %+v; want tesseract's languages", p.OCR)
		}
	}
	if runs != 1 {
		t.Fatalf("get_skill_profile ran tesseract %d times; want 1", runs)
	}
}
