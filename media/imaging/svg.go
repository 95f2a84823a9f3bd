package imaging

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
)

// SVG is read by rasterising it (never written): github.com/srwiley/oksvg
// parses the drawing and github.com/srwiley/rasterx fills and strokes
// it, in pure Go, in the image worker. An SVG is hostile XML, so before
// oksvg sees it, checkSVG walks every token with encoding/xml (which
// expands no entity but the five predefined ones, and reads no DTD) and
// refuses what could reach out or blow up: a DOCTYPE (entity
// declarations, billion laughs, external DTDs), a processing
// instruction other than the XML declaration (xml-stylesheet), a
// reference that is not to the document itself (href, url(...) to a
// file or a URL), more than maxSVGElements elements counted with what
// each <use> repeats, more than maxSVGBytes bytes of attributes drawn
// counted the same way (a <use> makes oksvg parse and keep its
// definition's path data again: 50 uses of a 200 KB path are 10 MB of
// path parsed and held), a <use> inside <defs> (references of references
// grow exponentially), nesting deeper than maxSVGDepth. The raster's
// size comes from the root's width and height (or its viewBox) and is
// checked against max_pixels as any other header is. Elements oksvg
// does not draw but that carry visible content (text, raster images,
// foreign objects) are refused rather than silently left out.

// SVG is the format of an SVG drawing, read (rasterised) only.
const SVG Format = "svg"

func init() {
	codecs[SVG] = codec{decodeSVGConfig, decodeSVG, svgMeta}
}

// Bounds of an SVG, checked before it is parsed for drawing.
const (
	maxSVGBytes    = 8 << 20
	maxSVGElements = 50_000
	maxSVGDepth    = 256
)

// isSVG reports whether b is an SVG document: its first element, after
// a byte order mark, the XML declaration, comments and white space, is
// <svg.
func isSVG(b []byte) bool {
	b = bytes.TrimPrefix(b[:min(len(b), 4096)], []byte("\xef\xbb\xbf"))
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		t, err := d.RawToken()
		if err != nil {
			return false
		}
		switch t := t.(type) {
		case xml.StartElement:
			return t.Name.Local == "svg"
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return false
			}
		}
	}
}

// svgRoot is what the root element says of the drawing's size.
type svgRoot struct {
	width, height float64
}

// readSVGRoot reads the root element's size: width and height (px or
// unitless, or in pt, pc, in, cm, mm at 96 px an inch), each missing or
// relative one from the viewBox.
func readSVGRoot(b []byte) (svgRoot, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		t, err := d.RawToken()
		if err != nil {
			return svgRoot{}, errors.New("no <svg> element")
		}
		if se, ok := t.(xml.StartElement); ok {
			return rootSize(se)
		}
	}
}

// rootSize is the size of the drawing whose root element is se.
func rootSize(se xml.StartElement) (svgRoot, error) {
	var r svgRoot
	var vb []float64
	for _, a := range se.Attr {
		switch a.Name.Local {
		case "width":
			r.width = svgLength(a.Value)
		case "height":
			r.height = svgLength(a.Value)
		case "viewBox":
			for _, f := range strings.FieldsFunc(a.Value, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' }) {
				v, err := strconv.ParseFloat(f, 64)
				if err != nil {
					return r, fmt.Errorf("viewBox %q", a.Value)
				}
				vb = append(vb, v)
			}
		}
	}
	if len(vb) == 4 {
		if r.width <= 0 {
			r.width = vb[2]
		}
		if r.height <= 0 {
			r.height = vb[3]
		}
	}
	if !(r.width > 0 && r.height > 0) || math.IsInf(r.width, 0) || math.IsInf(r.height, 0) {
		return r, errors.New("the drawing has no size (width and height, or a viewBox)")
	}
	return r, nil
}

// svgUnits are the absolute units of a length, in px.
var svgUnits = map[string]float64{"": 1, "px": 1, "pt": 96.0 / 72, "pc": 16, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4}

// svgLength is a length in px, or 0 for a relative or unreadable one
// (a percentage, em).
func svgLength(s string) float64 {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(c rune) bool {
		return (c < '0' || c > '9') && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E'
	})
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], s[i:]
	}
	k, ok := svgUnits[unit]
	v, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil {
		return 0
	}
	return v * k
}

// pixelSize is the raster size of r, each side rounded up and capped
// where an int would overflow (max_pixels refuses it then).
func (r svgRoot) pixelSize() (int, int) {
	side := func(v float64) int { return int(math.Min(math.Ceil(v), 1<<30)) }
	return side(r.width), side(r.height)
}

// decodeSVGConfig reads an SVG's raster size from its root element.
func decodeSVGConfig(rd io.Reader) (image.Config, error) {
	b, err := io.ReadAll(io.LimitReader(rd, maxSVGBytes+1))
	if err != nil {
		return image.Config{}, err
	}
	r, err := readSVGRoot(b)
	if err != nil {
		return image.Config{}, err
	}
	w, h := r.pixelSize()
	return image.Config{ColorModel: color.NRGBAModel, Width: w, Height: h}, nil
}

// svgMeta is an SVG's meta: one frame, 8 bits, transparent where
// nothing is drawn.
func svgMeta([]byte, int) (meta, error) { return meta{Frames: 1, BitDepth: 8, HasAlpha: true}, nil }

// SVGError reports an SVG refused before it is parsed for drawing: what
// could reach outside it or grow out of proportion to its size.
type SVGError struct {
	Reason string
}

// Error implements error.
func (e *SVGError) Error() string { return "imaging: svg: " + e.Reason }

// svgWalk is checkSVG's state.
type svgWalk struct {
	elements, depth int
	// drawn is the bytes of attributes (path data, points…) oksvg parses
	// to draw: the elements' outside <defs>, and their definition's again
	// for each <use>.
	drawn     int
	defsDepth int                 // the depth of the open <defs>, 0 outside
	inGrad    bool                // oksvg's flag: set by a gradient's start, cleared by any gradient's end
	def       string              // the id of the definition the elements of <defs> go to
	defSize   map[string]svgDrawn // what each definition of <defs> repeats where used
}

// svgDrawn is what drawing a definition repeats: its elements and the
// bytes of their attributes; and the groups it opens less those it
// ends, which oksvg stores as pushes and pops of its style stack: a
// definition that ends more than it opens pops, at each use, a style it
// never pushed (a few uses empty the stack, and oksvg panics).
type svgDrawn struct {
	elements, bytes int
	groups          int
	unbalanced      bool
}

// checkSVG refuses an SVG before oksvg parses it (see the top of this
// file).
func checkSVG(b []byte) error {
	if len(b) > maxSVGBytes {
		return &SVGError{Reason: fmt.Sprintf("%d bytes, over the %d an SVG is read with", len(b), maxSVGBytes)}
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	w := svgWalk{defSize: map[string]svgDrawn{}}
	for {
		t, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &SVGError{Reason: "not well-formed XML: " + err.Error()}
		}
		if err := w.token(t); err != nil {
			return err
		}
	}
}

// token checks one token.
func (w *svgWalk) token(t xml.Token) error {
	switch t := t.(type) {
	case xml.Directive:
		return &SVGError{Reason: "a DOCTYPE or other declaration (entities and external DTDs are not read)"}
	case xml.ProcInst:
		if t.Target != "xml" {
			return &SVGError{Reason: "the processing instruction <?" + t.Target + "?> (a stylesheet is an outside reference)"}
		}
	case xml.StartElement:
		return w.start(t)
	case xml.CharData: // a <style> sheet's text
		return localReferences([]xml.Attr{{Name: xml.Name{Local: "style"}, Value: string(t)}})
	case xml.EndElement:
		w.end(t)
	}
	return nil
}

// svgUndrawn are elements with visible content that oksvg does not draw.
var svgUndrawn = map[string]bool{"text": true, "image": true, "foreignObject": true, "feImage": true}

// start checks an element: its count with what <use> repeats, its
// depth, its references.
func (w *svgWalk) start(se xml.StartElement) error {
	w.depth++
	w.elements++
	if w.depth > maxSVGDepth {
		return &SVGError{Reason: fmt.Sprintf("elements nested deeper than %d", maxSVGDepth)}
	}
	if svgUndrawn[se.Name.Local] {
		return &DecoderGapError{Format: SVG, Reason: "it has a <" + se.Name.Local + "> element, which the renderer does not draw"}
	}
	if err := localReferences(se.Attr); err != nil {
		return err
	}
	if se.Name.Local == "linearGradient" || se.Name.Local == "radialGradient" {
		w.inGrad = true
	}
	switch {
	case se.Name.Local == "use" && w.defsDepth > 0:
		return &SVGError{Reason: "a <use> inside <defs> (a reference to references, which grows exponentially)"}
	case se.Name.Local == "use":
		used := w.useSize(se.Attr)
		if used.unbalanced {
			return &DecoderGapError{Format: SVG, Reason: "a <use> of a definition that ends a group it did not open, which the renderer cannot draw"}
		}
		w.elements += used.elements
		w.drawn += used.bytes + attrBytes(se.Attr)
	case w.defsDepth > 0:
		w.define(se)
	default:
		w.drawn += attrBytes(se.Attr)
	}
	if se.Name.Local == "defs" {
		if w.defsDepth == 0 {
			w.def = ""
		}
		w.defsDepth = w.depth
	}
	if w.elements > maxSVGElements {
		return &SVGError{Reason: fmt.Sprintf("more than %d elements, counting what each <use> repeats", maxSVGElements)}
	}
	if w.drawn > maxSVGBytes {
		return &SVGError{Reason: fmt.Sprintf("more than %d bytes of attributes to draw, counting what each <use> repeats", maxSVGBytes)}
	}
	return nil
}

// attrBytes is the size of the attributes' values: what oksvg parses
// of an element (its path data, points, transforms, styles).
func attrBytes(attrs []xml.Attr) int {
	n := 0
	for _, a := range attrs {
		n += len(a.Value)
	}
	return n
}

// define counts an element of <defs> as oksvg stores it: an element
// with an id starts a new definition, and every element after it in
// <defs>, nested in it or not (its siblings too), belongs to it until
// the next element with an id; the elements before the first id form
// the definition "" (which href="#" uses). The id is the last id
// attribute, as oksvg reads it. A gradient and what follows it until a
// gradient ends are not stored (oksvg draws them at once), so their ids
// start nothing; they are counted in the open definition all the same.
func (w *svgWalk) define(se xml.StartElement) {
	local := se.Name.Local
	gradient := local == "linearGradient" || local == "radialGradient"
	stored := !gradient && !w.inGrad // oksvg stores neither a gradient nor what is in one
	if id := lastAttr(se.Attr, "id"); id != "" && stored {
		w.def = id
	}
	d := w.defSize[w.def]
	d.elements++
	d.bytes += attrBytes(se.Attr)
	if stored && local == "g" {
		d.groups++
	}
	w.defSize[w.def] = d
}

// useSize is what a <use> repeats: the most elements and bytes of the
// definitions any of its href attributes names (oksvg takes the last,
// xlink's or SVG 2's).
func (w *svgWalk) useSize(attrs []xml.Attr) svgDrawn {
	var most svgDrawn
	for _, a := range attrs {
		if a.Name.Local == "href" {
			d := w.defSize[strings.TrimPrefix(a.Value, "#")]
			most.elements, most.bytes = max(most.elements, d.elements), max(most.bytes, d.bytes)
			most.unbalanced = most.unbalanced || d.unbalanced
		}
	}
	return most
}

// end closes an element; the end of the <defs> oksvg is in ends its
// definitions, as it does for oksvg.
func (w *svgWalk) end(e xml.EndElement) {
	switch local := e.Name.Local; {
	case local == "linearGradient" || local == "radialGradient":
		w.inGrad = false
	case w.defsDepth > 0 && w.depth > w.defsDepth && local == "g":
		// oksvg stores the end of a group in <defs> (a gradient's too)
		// with the definition open now, whichever one the group began in.
		d := w.defSize[w.def]
		d.groups--
		d.unbalanced = d.unbalanced || d.groups < 0
		w.defSize[w.def] = d
	}
	if w.depth == w.defsDepth {
		w.defsDepth = 0
	}
	w.depth--
}

// localReferences refuses an attribute that refers outside the
// document: an href (xlink's or SVG 2's) or a url(...) in any attribute
// (fill, style...) that is not a fragment of this document.
func localReferences(attrs []xml.Attr) error {
	for _, a := range attrs {
		if a.Name.Local == "href" && !strings.HasPrefix(strings.TrimSpace(a.Value), "#") {
			return &SVGError{Reason: fmt.Sprintf("the reference %q outside the document", a.Value)}
		}
		for rest := a.Value; ; {
			i := indexFoldASCII(rest, "url(")
			if i < 0 {
				break
			}
			rest = strings.TrimLeft(rest[i+4:], " \t\n\r'\"")
			if !strings.HasPrefix(rest, "#") {
				return &SVGError{Reason: fmt.Sprintf("a url(...) outside the document in %s", a.Name.Local)}
			}
		}
		if strings.Contains(strings.ToLower(a.Value), "@import") {
			return &SVGError{Reason: "an @import (a stylesheet outside the document)"}
		}
	}
	return nil
}

// indexFoldASCII is the index in s of the ASCII word sub (lower case),
// its letters matched in either case, or -1. Unlike an index in
// strings.ToLower(s) it is an index in s itself: lowering a character
// such as U+0130 changes its length and would shift the index.
func indexFoldASCII(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) && isASCII(s[i:i+len(sub)]) {
			return i
		}
	}
	return -1
}

// isASCII reports whether s is ASCII only (EqualFold matches the
// Kelvin sign to k, the long s to s).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// lastAttr is the value of the last attribute named local, or "": the
// one oksvg reads when an element repeats it (xlink:href and href).
func lastAttr(attrs []xml.Attr, local string) string {
	v := ""
	for _, a := range attrs {
		if a.Name.Local == local {
			v = a.Value
		}
	}
	return v
}

// decodeSVG checks an SVG (checkSVG), parses it with oksvg and
// rasterises it with rasterx at its size (decodeSVGConfig, which the
// pixel limit has checked), over transparency.
func decodeSVG(rd io.Reader) (image.Image, error) {
	b, err := io.ReadAll(io.LimitReader(rd, maxSVGBytes+1))
	if err != nil {
		return nil, err
	}
	return drawSVG(b, image.Rectangle{}, 0, 0)
}

// DecodeSVGRegion rasterises the part src of an SVG's raster at its own
// size (Inspect's width × height, stored pixels) straight at w×h pixels,
// as libvips renders an SVG at a thumbnail's size: the vector drawn at
// the scale of the result, where a raster at the SVG's own size scaled
// afterwards blurs an enlargement. The limits are Decode's, and w×h is
// checked against MaxPixels too, before anything is drawn.
func DecodeSVGRegion(b []byte, lim Limits, src image.Rectangle, w, h int) (image.Image, Info, error) {
	in, err := Inspect(b, lim)
	if err != nil {
		return nil, in, err
	}
	if in.Format != SVG {
		return nil, in, &UnsupportedError{Format: in.Format, Op: "draw as a vector"}
	}
	if lim.MaxPixels > 0 && int64(w)*int64(h) > lim.MaxPixels {
		return nil, in, &PixelsError{Width: w, Height: h, Limit: lim.MaxPixels}
	}
	if err := checkCost(b, in, lim); err != nil {
		return nil, in, err
	}
	img, err := drawSVG(b, src, w, h)
	if err != nil {
		return nil, in, corrupt(SVG, err)
	}
	return img, in, nil
}

// drawSVG checks an SVG (checkSVG) and draws the part src of its raster
// at its own size scaled to w×h (the whole at its size when src is
// empty).
func drawSVG(b []byte, src image.Rectangle, w, h int) (image.Image, error) {
	if err := checkSVG(b); err != nil {
		return nil, err
	}
	root, err := readSVGRoot(b)
	if err != nil {
		return nil, err
	}
	icon, err := oksvg.ReadIconStream(bytes.NewReader(b), oksvg.IgnoreErrorMode)
	if err != nil {
		return nil, err
	}
	sw, sh := root.pixelSize()
	if src.Empty() {
		src, w, h = image.Rect(0, 0, sw, sh), sw, sh
	}
	if icon.ViewBox.W <= 0 || icon.ViewBox.H <= 0 {
		icon.ViewBox.W, icon.ViewBox.H = root.width, root.height
	}
	kx, ky := float64(w)/float64(src.Dx()), float64(h)/float64(src.Dy())
	icon.SetTarget(-float64(src.Min.X)*kx, -float64(src.Min.Y)*ky, float64(sw)*kx, float64(sh)*ky)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	icon.Draw(rasterx.NewDasher(w, h, rasterx.NewScannerGV(w, h, img, img.Bounds())), 1)
	return img, nil
}
