package desktop

import (
	"bytes"
	"context"
	"image"
	_ "image/jpeg" // a JPEG file is put on the clipboard as PNG
	"image/png"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

type setClipboardArgs struct {
	Text string `json:"text"`
	HTML string `json:"html"`
	// ImagePath is a PNG or JPEG file in a workspace.
	ImagePath string `json:"image_path"`
}

// Validate wants text, html (both may go together: the text is the HTML's
// plain alternative) or image_path alone.
func (a *setClipboardArgs) Validate() error {
	switch {
	case a.ImagePath != "" && (a.Text != "" || a.HTML != ""):
		return envelope.ArgumentError("Give image_path alone, or text and/or html.")
	case a.ImagePath == "" && a.Text == "" && a.HTML == "":
		return envelope.ArgumentError("Give the text, html or image_path to put on the clipboard.")
	}
	return nil
}

// setClipboardData is set_clipboard's data.
type setClipboardData struct {
	Formats []string `json:"formats"`
	Length  int      `json:"length"`
}

func init() {
	action.Register(action.Spec{
		Name: "set_clipboard",
		Rules: []action.Rule{action.Absolute("image_path"),
			action.ExactlyOne(action.Given("image_path"), action.Any(action.Given("text"), action.Given("html")))},
		NewArgs: func() any { return &setClipboardArgs{} },
		Digest:  []string{"text", "html"},
		Facts: func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
			if p := action.Args[setClipboardArgs](c).ImagePath; p != "" {
				_, perr := c.Path(env, "target", p)
				return perr
			}
			return nil
		},
		Run: setClipboard,
	})
}

// setClipboard puts the content on the clipboard and answers once the
// clipboard holds it.
func setClipboard(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	items, perr := clipboardItems(env, c)
	if perr != nil {
		return nil, perr
	}
	if err := systemDesktop(env).Write(ctx, items); err != nil {
		return nil, errmap.Desktop(err, "Setting the clipboard")
	}
	out := setClipboardData{}
	for _, it := range items {
		out.Formats = append(out.Formats, string(it.Format))
		out.Length += len(it.Data)
	}
	digestDetail(c, out.Formats[0], items[0].Data)
	return out, nil
}

// clipboardItems are the request's formats, the image read through its
// workspace's root handle and given as PNG.
func clipboardItems(env *action.Env, c *action.Call) ([]desktop.Item, *protocol.Error) {
	a := action.Args[setClipboardArgs](c)
	if a.ImagePath == "" {
		var items []desktop.Item
		if a.Text != "" {
			items = append(items, desktop.Item{Format: desktop.Text, Data: []byte(a.Text)})
		}
		if a.HTML != "" {
			items = append(items, desktop.Item{Format: desktop.HTML, Data: []byte(a.HTML)})
		}
		return items, nil
	}
	p := c.Paths["target"]
	root, perr := env.Root(p)
	if perr != nil {
		return nil, perr
	}
	b, size, err := sandbox.ReadAt(root, p.Rel(), 0, clipboardMax)
	if err != nil {
		return nil, errmap.File(err)
	}
	if size > clipboardMax {
		return nil, protocol.Errorf(protocol.InvalidRequest, "The image is larger than %d MiB, more than DeskBridge puts on the clipboard.", clipboardMax>>20)
	}
	data, perr := asPNG(b)
	if perr != nil {
		return nil, perr
	}
	return []desktop.Item{{Format: desktop.Image, Data: data}}, nil
}

// asPNG returns b when it is a PNG, else the JPEG it holds re-encoded as
// PNG; the header is checked before any pixel is decoded.
func asPNG(b []byte) ([]byte, *protocol.Error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	switch {
	case err != nil:
		return nil, protocol.Wrap(protocol.UnsupportedImageFormat, err, "The image is not a PNG or JPEG file.")
	case cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxPixels/max(cfg.Height, 1):
		return nil, protocol.Errorf(protocol.UnsupportedImageFormat, "The image claims %d×%d pixels, more than DeskBridge decodes.", cfg.Width, cfg.Height)
	case format == "png":
		return b, nil
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, protocol.Wrap(protocol.UnsupportedImageFormat, err, "The image could not be decoded.")
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, protocol.Wrap(protocol.ImageProcessingFailed, err, "The image could not be encoded as PNG.")
	}
	return buf.Bytes(), nil
}
