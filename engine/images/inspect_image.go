package images

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
)

type inspectImageArgs struct {
	action.PathArgs
}

// imageInfo is inspect_image's data.
type imageInfo struct {
	Format      string        `json:"format"`
	Width       int           `json:"width"`
	Height      int           `json:"height"`
	ColorModel  string        `json:"color_model"`
	BitDepth    int           `json:"bit_depth"`
	HasAlpha    bool          `json:"has_alpha"`
	Frames      int           `json:"frames"`
	Orientation int           `json:"orientation"`
	Size        int           `json:"size"`
	SHA256      string        `json:"sha256"`
	Metadata    imageMetadata `json:"metadata"`
}

// imageMetadata says which metadata an image carries.
type imageMetadata struct {
	EXIF bool `json:"exif"`
	GPS  bool `json:"gps"`
	ICC  bool `json:"icc"`
}

func init() {
	action.Register(action.Spec{
		Name:    "inspect_image",
		Rules:   []action.Rule{action.Absolute("path")},
		NewArgs: func() any { return &inspectImageArgs{} },
		Facts:   action.TargetPath(func(a any) string { return a.(*inspectImageArgs).Path }),
		Run:     inspectImage,
	})
}

// inspectImage reads the image's header and metadata, never its pixels.
func inspectImage(_ context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	b, perr := readImage(env, c)
	if perr != nil {
		return nil, perr
	}
	in, err := imaging.Inspect(b, imageLimits(c))
	if err != nil {
		return nil, errmap.Image(err)
	}
	return imageInfo{Format: string(in.Format), Width: in.Width, Height: in.Height, ColorModel: in.ColorModel,
		BitDepth: in.BitDepth, HasAlpha: in.HasAlpha, Frames: in.Frames, Orientation: in.Orientation,
		Size: len(b), SHA256: sum(b), Metadata: imageMetadata{EXIF: in.EXIF, GPS: in.GPS, ICC: in.ICC}}, nil
}
