package imaging_test

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/media/imaging"
)

// badge is an SVG of 120×80 user units drawn at 240×160 px: a white
// background, a red square, a blue circle used from <defs> twice.
const badge = `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment before the root -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="240" height="160" viewBox="0 0 120 80">
  <defs><circle id="dot" cx="0" cy="0" r="10" fill="#0000ff"/></defs>
  <rect x="0" y="0" width="120" height="80" fill="#ffffff"/>
  <rect x="10" y="10" width="40" height="40" fill="#ff0000"/>
  <use xlink:href="#dot" x="80" y="30"/>
  <use href="#dot" x="80" y="60"/>
</svg>`

// TestSVGAsLibvips: an SVG is sniffed by its content, inspected at its
// size (width and height, the viewBox scaled to them) and rasterised
// with its shapes where libvips (librsvg) draws them: the red square and
// both used circles, with PSNR over 25 dB against libvips' raster (the
// edges' anti-aliasing differs).
func TestSVGAsLibvips(t *testing.T) {
	b := []byte(badge)
	in, err := imaging.Inspect(b, lim)
	if err != nil || in.Format != imaging.SVG || in.Width != 240 || in.Height != 160 || !in.HasAlpha {
		t.Fatalf("Inspect = %+v, %v", in, err)
	}
	img, _, err := imaging.Decode(b, lim)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x, y int
		want color.RGBA
	}{{60, 60, color.RGBA{255, 0, 0, 255}}, {160, 60, color.RGBA{0, 0, 255, 255}}, {160, 120, color.RGBA{0, 0, 255, 255}}, {200, 20, color.RGBA{255, 255, 255, 255}}} {
		if got := color.RGBAModel.Convert(img.At(c.x, c.y)); got != c.want {
			t.Errorf("(%d, %d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "badge.svg"), b, 0o644)
	vips(t, dir, "copy", "badge.svg", "ref.png")
	ref, err := os.ReadFile(filepath.Join(dir, "ref.png"))
	if err != nil {
		t.Fatal(err)
	}
	oracle, _, err := imaging.Decode(ref, lim)
	if err != nil || oracle.Bounds().Dx() != 240 {
		t.Fatalf("libvips' raster: %v %v", oracle.Bounds(), err)
	}
	if db := psnr(rgba(oracle), rgba(img)); db < 25 {
		t.Errorf("PSNR against libvips' raster %.1f dB", db)
	}
}

// svgAttacks are hostile SVGs, each refused before oksvg parses it,
// with the words the refusal must say.
var svgAttacks = []struct {
	name, svg, want string
}{
	{"external href", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><use xlink:href="file:///etc/passwd#x"/></svg>`, "outside the document"},
	{"external image", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5" fill="url(http://attacker.example/p.svg#g)"/></svg>`, "url(...) outside"},
	{"stylesheet import", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><style>@import url(http://attacker.example/x.css);</style></svg>`, "outside"},
	{"xml-stylesheet", `<?xml-stylesheet href="http://attacker.example/x.css"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`, "processing instruction"},
	{"billion laughs", `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&c;</text></svg>`, "DOCTYPE"},
	{"external DTD", `<!DOCTYPE svg SYSTEM "http://attacker.example/svg.dtd"><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`, "DOCTYPE"},
	{"use of uses", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><rect id="a" width="1" height="1"/><g id="b"><use href="#a"/><use href="#a"/></g></defs><use href="#b"/></svg>`, "inside <defs>"},
	{"many uses", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><g id="g">` + strings.Repeat(`<rect width="1" height="1"/>`, 1000) + `</g></defs>` + strings.Repeat(`<use href="#g"/>`, 100) + `</svg>`, "elements"},
	{"siblings of a definition", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><g id="g"/>` + strings.Repeat(`<rect width="1" height="1"/>`, 1000) + `</defs>` + strings.Repeat(`<use href="#g"/>`, 100) + `</svg>`, "elements"},
	{"xlink:href and href", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><defs><rect id="a" width="1" height="1"/><g id="b">` + strings.Repeat(`<rect width="1" height="1"/>`, 1000) + `</g></defs>` + strings.Repeat(`<use xlink:href="#a" href="#b"/>`, 100) + `</svg>`, "elements"},
	{"url( after characters longer in lower case", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5" fill="` + strings.Repeat("\u023a", len("http://attacker.example/p.svg")) + `url(http://attacker.example/p.svg#g)"/></svg>`, "url(...) outside"},
	{"path data repeated by <use>", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><path id="p" d="M0 0` + strings.Repeat(" L1 1", 40_000) + `"/></defs>` + strings.Repeat(`<use href="#p"/>`, 50) + `</svg>`, "bytes of attributes to draw"},
	{"an id inside a gradient", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><g id="g"><linearGradient><stop id="s"/></linearGradient>` + strings.Repeat(`<rect width="1" height="1"/>`, 1000) + `</g></defs>` + strings.Repeat(`<use href="#g"/>`, 100) + `</svg>`, "elements"},
	{"deep nesting", `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">` + strings.Repeat("<g>", 300) + strings.Repeat("</g>", 300) + `</svg>`, "nested"},
}

// TestSVGAttacksRefused: every hostile SVG is refused with its reason
// before oksvg parses it; a drawing whose size passes max_pixels (a
// viewBox of a billion units a side, or width and height of 10^6) is
// refused from its root element, before anything is rasterised.
func TestSVGAttacksRefused(t *testing.T) {
	for _, c := range svgAttacks {
		_, _, err := imaging.Decode([]byte(c.svg), lim)
		var refused *imaging.SVGError
		if !errors.As(err, &refused) || !strings.Contains(refused.Reason, c.want) {
			t.Errorf("%s: Decode = %v, want an SVGError saying %q", c.name, err, c.want)
		}
	}
	for _, root := range []string{`viewBox="0 0 1e9 1e9"`, `width="1000000" height="1000000"`, `width="1e300" height="1e300"`} {
		svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" %s><rect width="1" height="1"/></svg>`, root)
		var pixels *imaging.PixelsError
		if _, _, err := imaging.Decode([]byte(svg), lim); !errors.As(err, &pixels) {
			t.Errorf("%s: Decode = %v, want a PixelsError", root, err)
		}
	}
	shifted := `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5" fill="` + strings.Repeat("\u023a", 8) + `url(#a)"/></svg>`
	var refused *imaging.SVGError
	if _, _, err := imaging.Decode([]byte(shifted), lim); errors.As(err, &refused) {
		t.Errorf("a local url( after characters longer in lower case: %v", err)
	}
	var gap *imaging.DecoderGapError
	text := `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text x="1" y="5">hello</text></svg>`
	if _, _, err := imaging.Decode([]byte(text), lim); !errors.As(err, &gap) {
		t.Errorf("text, which oksvg does not draw: %v", err)
	}
	// oksvg stores the end of every group in <defs> with the definition
	// open at that point: a definition that starts inside a group takes
	// that group's end, and each use of it pops a style it never pushed
	// (three uses: index out of range, a panic).
	unbalanced := `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><g><circle id="a" r="1"/></g></defs><use href="#a"/><use href="#a"/><use href="#a"/></svg>`
	if _, _, err := imaging.Decode([]byte(unbalanced), lim); !errors.As(err, &gap) || !strings.Contains(gap.Reason, "group it did not open") {
		t.Errorf("uses of a definition that ends a group it did not open: %v", err)
	}
	balanced := `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><g id="a"><circle r="1"/></g></defs><use href="#a"/><use href="#a"/><use href="#a"/></svg>`
	if _, _, err := imaging.Decode([]byte(balanced), lim); err != nil {
		t.Errorf("uses of a group defined whole: %v", err)
	}
}
