package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/draw"
	"image/gif"

	"github.com/gen2brain/webp"
)

// An animated WebP is decoded by libwebp's animation decoder
// (WebPAnimDecoder, through github.com/gen2brain/webp's DecodeAll, in
// the worker only), which composes each frame over the canvas as the
// frames before it left it; each frame is then a whole canvas. It is
// written back by encoding every canvas with libwebp (lossy at a
// quality, or lossless, as a still WebP is) and putting the frames in
// the WebP container's animation chunks (VP8X, ANIM, ANMF), which the
// package writes itself: no maintained Go module muxes an animated WebP
// (gen2brain/webp encodes one image, nativewebp has no animation).

// Animation is the frames of an animated WebP, each a whole canvas.
type Animation struct {
	Frames []*image.RGBA
	// Delays are the frames' durations, in milliseconds.
	Delays []int
	// LoopCount is the number of times the animation plays, 0 for
	// ever (the ANIM chunk's).
	LoopCount     int
	Width, Height int
}

// DecodeWebPAnimation decodes every frame of an animated WebP, after
// Inspect's checks (max_frames counted from its ANMF chunks) and a check
// of the canvases together (frames × canvas) against lim.MaxPixels:
// libwebp hands out every frame as a whole canvas, all held at once.
func DecodeWebPAnimation(b []byte, lim Limits) (*Animation, Info, error) {
	in, err := Inspect(b, lim)
	if err != nil {
		return nil, in, err
	}
	if in.Format != WebP || in.Frames < 2 {
		return nil, in, &UnsupportedError{Format: in.Format, Op: "animate"}
	}
	px := int64(in.Width) * int64(in.Height) * int64(in.Frames)
	if lim.MaxPixels > 0 && px > lim.MaxPixels {
		return nil, in, &AnimationPixelsError{Pixels: px, Limit: lim.MaxPixels}
	}
	if err := wasmOnly(WebP, webp.Dynamic()); err != nil {
		return nil, in, err
	}
	all, err := webp.DecodeAll(bytes.NewReader(b))
	if err != nil {
		return nil, in, corrupt(WebP, err)
	}
	a := &Animation{Width: in.Width, Height: in.Height, LoopCount: webpLoopCount(b)}
	for i, img := range all.Image {
		rgba, ok := img.(*image.RGBA)
		if !ok || rgba.Rect.Dx() != in.Width || rgba.Rect.Dy() != in.Height {
			return nil, in, corrupt(WebP, errors.New("the decoder gave a frame that is not the canvas"))
		}
		a.Frames = append(a.Frames, rgba)
		a.Delays = append(a.Delays, all.Delay[i])
	}
	return a, in, nil
}

// webpLoopCount reads the ANIM chunk's loop count (0: for ever).
func webpLoopCount(b []byte) int {
	i := bytes.Index(b, []byte("ANIM"))
	if i < 0 || i+14 > len(b) {
		return 0
	}
	return int(binary.LittleEndian.Uint16(b[i+12:]))
}

// Resize scales every frame of a by p (a plan of its canvas,
// orientation 1).
func (a *Animation) Resize(p Plan) *Animation {
	out := &Animation{Delays: a.Delays, LoopCount: a.LoopCount, Width: p.Width, Height: p.Height}
	for _, f := range a.Frames {
		out.Frames = append(out.Frames, Resize(f, 1, p))
	}
	return out
}

// GIF returns a as an animated GIF: each canvas reduced to a palette
// with its transparency (Quantize), its delay in hundredths of a second.
func (a *Animation) GIF() *gif.GIF {
	g := &gif.GIF{LoopCount: gifLoop(a.LoopCount), Config: image.Config{Width: a.Width, Height: a.Height}}
	for i, f := range a.Frames {
		g.Image = append(g.Image, Quantize(f, 256, true))
		g.Delay = append(g.Delay, (a.Delays[i]+5)/10)
		g.Disposal = append(g.Disposal, gif.DisposalBackground)
	}
	return g
}

// gifLoop is a WebP loop count as image/gif's LoopCount: 0 plays for
// ever in both; n plays n times in WebP and n+1 in GIF.
func gifLoop(n int) int {
	if n == 0 {
		return 0
	}
	return max(n-1, -1)
}

// AnimationOfGIF composes every frame of g into a whole canvas (its
// disposal applied), for writing it as a WebP.
func AnimationOfGIF(g *gif.GIF) *Animation {
	w, h := g.Config.Width, g.Config.Height
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	a := &Animation{Width: w, Height: h, LoopCount: webpLoop(g.LoopCount)}
	for i, frame := range g.Image {
		var saved *image.RGBA
		disposal := disposalOf(g, i)
		if disposal == gif.DisposalPrevious {
			saved = image.NewRGBA(canvas.Rect)
			copy(saved.Pix, canvas.Pix)
		}
		draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Over)
		snapshot := image.NewRGBA(canvas.Rect)
		copy(snapshot.Pix, canvas.Pix)
		a.Frames = append(a.Frames, snapshot)
		a.Delays = append(a.Delays, delayOf(g, i)*10)
		switch disposal {
		case gif.DisposalBackground:
			draw.Draw(canvas, frame.Bounds(), image.Transparent, image.Point{}, draw.Src)
		case gif.DisposalPrevious:
			canvas = saved
		}
	}
	return a
}

// webpLoop is image/gif's LoopCount as a WebP loop count.
func webpLoop(n int) int {
	switch {
	case n == 0:
		return 0
	case n < 0:
		return 1
	}
	return min(n+1, 0xffff)
}

// EncodeWebPAnimation writes a as an animated WebP: each canvas encoded
// by libwebp as o says (lossy at its quality, or lossless), put in an
// ANMF chunk that replaces the canvas (no blending, no disposal).
func EncodeWebPAnimation(a *Animation, o Output) ([]byte, error) {
	o.Format = WebP
	var frames []byte
	alpha := false
	for i, f := range a.Frames {
		var buf bytes.Buffer
		if err := encodeWasm(&buf, f, o); err != nil {
			return nil, corrupt(WebP, err)
		}
		data, hasAlpha, err := frameChunks(buf.Bytes())
		if err != nil {
			return nil, corrupt(WebP, err)
		}
		alpha = alpha || hasAlpha
		frames = append(frames, webpChunk("ANMF", anmf(a.Width, a.Height, a.Delays[i], data))...)
	}
	var body []byte
	body = append(body, "WEBP"...)
	body = append(body, webpChunk("VP8X", vp8x(a.Width, a.Height, alpha))...)
	anim := binary.LittleEndian.AppendUint32(nil, 0) // background: transparent
	anim = binary.LittleEndian.AppendUint16(anim, uint16(a.LoopCount))
	body = append(body, webpChunk("ANIM", anim)...)
	body = append(body, frames...)
	out := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...)
	return append(out, body...), nil
}

// frameChunks returns the image chunks (ALPH, VP8, VP8L) of a still
// WebP, and whether it has alpha.
func frameChunks(b []byte) ([]byte, bool, error) {
	var out []byte
	alpha := false
	for i := 12; i+8 <= len(b); {
		id := string(b[i : i+4])
		n := int(binary.LittleEndian.Uint32(b[i+4:]))
		end := i + 8 + n + n&1
		if i+8+n > len(b) {
			return nil, false, errTruncated
		}
		switch id {
		case "ALPH", "VP8 ", "VP8L":
			out = append(out, b[i:min(end, len(b))]...)
			alpha = alpha || id == "ALPH" || id == "VP8L" && n >= 5 && b[i+8+4]&0x10 != 0
		}
		i = end
	}
	if out == nil {
		return nil, false, errors.New("the encoder wrote no image chunk")
	}
	return out, alpha, nil
}

// anmf is an ANMF chunk's payload: a frame at (0, 0) of the whole
// canvas, its duration, no blending, no disposal, then its chunks.
func anmf(w, h, delay int, data []byte) []byte {
	p := make([]byte, 0, 16+len(data))
	p = append24(p, 0)
	p = append24(p, 0)
	p = append24(p, w-1)
	p = append24(p, h-1)
	p = append24(p, min(max(delay, 0), 1<<24-1))
	p = append(p, 0x02) // do not blend: the frame replaces the canvas
	return append(p, data...)
}

// vp8x is the extended header's payload: animation, alpha, the canvas.
func vp8x(w, h int, alpha bool) []byte {
	flags := byte(0x02) // animation
	if alpha {
		flags |= 0x10
	}
	p := []byte{flags, 0, 0, 0}
	p = append24(p, w-1)
	return append24(p, h-1)
}

// webpChunk is a RIFF chunk of WebP: its id, size and data, padded to
// an even length.
func webpChunk(id string, data []byte) []byte {
	c := append([]byte(id), binary.LittleEndian.AppendUint32(nil, uint32(len(data)))...)
	c = append(c, data...)
	if len(data)%2 == 1 {
		c = append(c, 0)
	}
	return c
}

// append24 appends v as 24 bits, little-endian.
func append24(b []byte, v int) []byte { return append(b, byte(v), byte(v>>8), byte(v>>16)) }
