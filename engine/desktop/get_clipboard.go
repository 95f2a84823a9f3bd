package desktop

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/textenc"
	"github.com/deskbridge/deskbridge/internal/jsonenc"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

type getClipboardArgs struct {
	Format string `json:"format" jsonschema:"enum=text,enum=html,enum=image"`
	// Destination is the workspace file an image is saved to.
	Destination string `json:"destination"`
}

// Validate allows a destination for images only.
func (a *getClipboardArgs) Validate() error {
	if a.Destination != "" && a.Format != "image" {
		return envelope.ArgumentError(`The argument destination is for "format": "image" only; text and HTML come in the response.`)
	}
	return nil
}

// getClipboardData is get_clipboard's data.
type getClipboardData struct {
	Format string `json:"format"`
	// Content is the text or HTML, or the PNG in base64.
	Content string `json:"content"`
	Length  int    `json:"length"`
	// Empty says the clipboard holds nothing in this format; Formats are
	// the ones it holds.
	Empty   bool     `json:"empty,omitzero"`
	Formats []string `json:"formats,omitempty"`
	// Path is where the image was saved; Width and Height its size.
	Path      string  `json:"path,omitempty"`
	Width     int     `json:"width,omitzero"`
	Height    int     `json:"height,omitzero"`
	Scale     float64 `json:"scale,omitzero"`
	Truncated bool    `json:"truncated,omitzero"`
}

func init() {
	action.Register(action.Spec{
		Name:    "get_clipboard",
		Rules:   []action.Rule{action.Absolute("destination"), action.When(action.Given("destination"), action.Is("format", "image"))},
		NewArgs: func() any { return &getClipboardArgs{} },
		Facts: func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
			if d := action.Args[getClipboardArgs](c).Destination; d != "" {
				_, perr := c.Path(env, "destination", d)
				return perr
			}
			return nil
		},
		Run: getClipboard,
	})
}

// getClipboard reads the clipboard in the asked format: text and HTML cut
// to one message and through the content check, an image saved to the
// destination or, without one, scaled to fit the message.
func getClipboard(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[getClipboardArgs](c)
	f := desktop.Format(a.Format)
	if f == "" {
		f = desktop.Text
	}
	d := systemDesktop(env)
	if f == desktop.Image {
		return clipboardImage(ctx, env, c, d, a.Destination)
	}
	budget := c.ResponseBudget(getClipboardData{Format: string(f), Length: 1 << 40, Truncated: true})
	b, err := d.Read(ctx, f, clipboardMax)
	if errors.Is(err, desktop.ErrEmpty) {
		return emptyClipboard(ctx, c, d, f), nil
	}
	if err != nil {
		return nil, errmap.Desktop(err, "Reading the clipboard")
	}
	b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	digestDetail(c, string(f), b)
	if perr := env.Content(ctx, c, action.Outgoing{Source: "content", Text: b}); perr != nil {
		return nil, perr
	}
	out := getClipboardData{Format: string(f), Length: len(b)}
	text, cut := fitJSONString(b, budget)
	out.Content, out.Truncated = text, cut
	return out, nil
}

// emptyClipboard is the answer for a clipboard without format f.
func emptyClipboard(ctx context.Context, c *action.Call, d desktop.Desktop, f desktop.Format) getClipboardData {
	out := getClipboardData{Format: string(f), Empty: true}
	if fs, err := d.Formats(ctx); err == nil {
		for _, x := range fs {
			out.Formats = append(out.Formats, string(x))
		}
	}
	c.Detail = map[string]any{"format": string(f), "empty": true}
	return out
}

// clipboardImage saves the clipboard's PNG to dest, or returns it scaled
// to fit one message.
func clipboardImage(ctx context.Context, env *action.Env, c *action.Call, d desktop.Desktop, dest string) (any, *protocol.Error) {
	b, err := d.Read(ctx, desktop.Image, clipboardMax)
	if errors.Is(err, desktop.ErrEmpty) {
		return emptyClipboard(ctx, c, d, desktop.Image), nil
	}
	if err != nil {
		return nil, errmap.Desktop(err, "Reading the clipboard")
	}
	digestDetail(c, "image", b)
	img, err := desktop.DecodePNG(b, maxPixels)
	if err != nil {
		return nil, protocol.Wrap(protocol.UnsupportedImageFormat, err, "The clipboard's image is not a PNG DeskBridge can read.")
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	if dest != "" {
		path, perr := writeDestination(env, c, b)
		if perr != nil {
			return nil, perr
		}
		return getClipboardData{Format: "image", Length: len(b), Path: path, Width: w, Height: h, Scale: 1}, nil
	}
	budget := c.ResponseBudget(getClipboardData{Format: "image", Length: 1 << 40, Width: w, Height: h, Scale: 0.123456789})
	enc, err := desktop.Encode(img, "png", 0, base64.StdEncoding.DecodedLen(budget))
	if err != nil {
		return nil, errmap.Desktop(err, "Encoding the image")
	}
	return getClipboardData{Format: "image", Length: len(enc.Data), Content: base64.StdEncoding.EncodeToString(enc.Data),
		Width: enc.Width, Height: enc.Height, Scale: enc.Scale}, nil
}

// maxPixels bounds the images decoded (a PNG's header may claim any size).
const maxPixels = 64 << 20

// jsonLen is what b adds to a response as a JSON string's content.
func jsonLen(b []byte) int { return int(jsonenc.QuotedLen(b)) - 2 }

// fitJSONString returns the longest prefix of b, cut at a character
// boundary, whose JSON string encoding fits budget bytes, and whether it
// was cut.
func fitJSONString(b []byte, budget int) (string, bool) {
	if jsonLen(b) <= budget {
		return string(b), false
	}
	lo, hi := 0, len(b)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if jsonLen(b[:textenc.RuneStart(b[:mid])]) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(b[:textenc.RuneStart(b[:lo])]), true
}
