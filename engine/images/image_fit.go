package images

import (
	"image"
	"slices"
	"strings"

	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// extractArg is resize_image's extract: a rectangle of the displayed
// (upright) image, in pixels, taken before the box applies (sharp's
// extract).
type extractArg struct {
	Left   int `json:"left" jsonschema:"minimum=0,maximum=65535"`
	Top    int `json:"top" jsonschema:"minimum=0,maximum=65535"`
	Width  int `json:"width" jsonschema:"required,minimum=1,maximum=65535"`
	Height int `json:"height" jsonschema:"required,minimum=1,maximum=65535"`
}

// rect is e as a rectangle; nil is the empty one (the whole image).
func (e *extractArg) rect() image.Rectangle {
	if e == nil {
		return image.Rectangle{}
	}
	return image.Rect(e.Left, e.Top, e.Left+e.Width, e.Top+e.Height)
}

// validateFit checks resize_image's gravity and extract.
func validateFit(gravity string, e *extractArg) error {
	if gravity != "" && !slices.Contains(imaging.Gravities, imaging.Gravity(gravity)) {
		return envelope.ArgumentError("The argument gravity must be one of %s.", gravityNames())
	}
	if e != nil && (e.Width < 1 || e.Height < 1 || e.Left < 0 || e.Top < 0) {
		return envelope.ArgumentError("The argument extract needs left and top of 0 or more and a width and a height of 1 or more.")
	}
	return nil
}

func gravityNames() string {
	names := make([]string, len(imaging.Gravities))
	for i, g := range imaging.Gravities {
		names[i] = string(g)
	}
	return strings.Join(names, ", ")
}

// resizeBox is the box resize_image's arguments ask for.
func resizeBox(a *resizeImageArgs) imaging.Box {
	g := imaging.Gravity(a.Gravity)
	if g == "center" {
		g = imaging.Centre
	}
	return imaging.Box{Width: a.Width, Height: a.Height, Fit: imaging.Fit(a.Fit),
		WithoutEnlargement: a.WithoutEnlargement == nil || *a.WithoutEnlargement,
		Gravity:            g, Extract: a.Extract.rect()}
}
