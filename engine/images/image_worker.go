package images

import (
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/gif"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/media/imaging"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/worker"
)

// The image actions that touch pixels (resize_image, compress_image,
// convert_image) decode, transform and encode in the image worker
// (sandbox/worker), never in the host: the host reads the file through
// the workspace's root handle after the decision, hands the bytes to a
// warm confined child of its own binary, and writes what comes back. A
// decoder bug or bomb costs that child, killed at the request's timeout,
// never the host and the other requests it serves. inspect_image reads
// headers only and stays in the host (docs/images.md).

// Sizes of the image worker pool.
const (
	// imageWorkerCount is how many images are worked on at once, each in
	// a child of its own.
	imageWorkerCount = 2
	// imageWorkerMemory caps each child's data memory: the decode budget
	// (4 bytes for each pixel of max_pixels, 400 MB by default) and the
	// copies a transform and an encoder make beside it.
	imageWorkerMemory = 1536 << 20
	// imageWorkerIO caps the bytes passed to and from a child.
	imageWorkerIO = 1 << 30
)

// imageWorkers is the host's one pool: in a warm process, the ports it
// serves share it, as they shared the one slot for decoded pixels before.
var imageWorkers = worker.NewPool(imageWorkerCount, imageWorkerMemory, imageWorkerIO, imageWorkerIO)

// imageJob is what an image action asks of the worker: its arguments,
// the destination's path (whose extension may name the format written)
// and the decision's limits.
type imageJob[A any] struct {
	Args   A              `json:"args"`
	Dest   string         `json:"dest"`
	Limits imaging.Limits `json:"limits"`
}

// encoded is an image action's result, made by the worker, and what the
// answer says of it (imageOut).
type encoded struct {
	Data    []byte         `json:"-"`
	Width   int            `json:"width"`
	Height  int            `json:"height"`
	Format  imaging.Format `json:"format"`
	Quality int            `json:"quality"` // 0 for a lossless result and a kept source
	// Lossless is set for a WebP written lossless.
	Lossless bool `json:"lossless,omitempty"`
	// Colors is the palette a PNG was reduced to (compress_image).
	Colors int `json:"colors,omitempty"`
	// Frames is the frames written.
	Frames int `json:"frames,omitempty"`
	// KeptSource is set when the source's own image data was kept
	// (compress_image).
	KeptSource bool `json:"kept_source,omitempty"`
	// NotEnlarged is set when the image was kept at its size
	// (resize_image).
	NotEnlarged bool `json:"not_enlarged,omitempty"`
	// Warnings say what the result lost that the source had (a colour
	// profile it cannot carry).
	Warnings []string `json:"warnings,omitempty"`
}

// jobAnswer is the worker's meta: the result, or the action's refusal.
type jobAnswer struct {
	Result  encoded       `json:"result"`
	Code    protocol.Code `json:"code,omitempty"`
	Message string        `json:"message,omitempty"`
}

// pixelWork is an image action's work on the pixels of src, run in the
// worker.
type pixelWork[A any] func(ctx context.Context, j imageJob[A], src []byte) (encoded, *protocol.Error)

// registerPixelWork registers work as the worker job name.
func registerPixelWork[A any](name string, work pixelWork[A]) {
	worker.Register(name, func(ctx context.Context, params, src []byte) ([]byte, []byte) {
		var j imageJob[A]
		res, perr := encoded{}, (*protocol.Error)(nil)
		if err := json.Unmarshal(params, &j); err != nil {
			perr = protocol.Wrap(protocol.InternalError, err, "The image worker could not read its job.")
		} else {
			res, perr = work(ctx, j, src)
		}
		a := jobAnswer{Result: res}
		if perr != nil {
			a = jobAnswer{Code: perr.Code, Message: perr.Message}
		}
		meta, _ := json.Marshal(a)
		return meta, a.Result.Data
	})
}

// runImageJob reads the target, has the worker run the action name's
// pixel work on it and writes the result to the destination.
func runImageJob[A any](ctx context.Context, env *action.Env, c *action.Call, name string, args A, overwrite bool) (any, *protocol.Error) {
	src, perr := readImage(env, c)
	if perr != nil {
		return nil, perr
	}
	dst := c.Paths["destination"].Canonical
	res, perr := callWorker(ctx, name, imageJob[A]{Args: args, Dest: dst, Limits: imageLimits(c)}, src)
	if perr != nil {
		return nil, perr
	}
	created, perr := writeImage(env, c, res.Data, overwrite)
	if perr != nil {
		return nil, perr
	}
	return answerOf(dst, res, created), nil
}

// answerOf is the answer of an image action that wrote res to dst.
func answerOf(dst string, res encoded, created bool) imageOut {
	out := imageOut{Path: dst, Width: res.Width, Height: res.Height, Format: string(res.Format), Size: len(res.Data),
		Created: created, Quality: res.Quality, Lossless: res.Lossless, Colors: res.Colors,
		KeptSource: res.KeptSource, NotEnlarged: res.NotEnlarged, Warnings: res.Warnings}
	if res.Frames > 1 {
		out.Frames = res.Frames
	}
	return out
}

// callWorker runs job name in the image worker. The worker's answer is
// checked as any untrusted input is: a code that is not one of the
// protocol's is refused.
func callWorker[A any](ctx context.Context, name string, j imageJob[A], src []byte) (encoded, *protocol.Error) {
	params, err := json.Marshal(j)
	if err != nil {
		return encoded{}, protocol.Wrap(protocol.InternalError, err, "The image job could not be prepared.")
	}
	meta, out, err := imageWorkers.Call(ctx, name, params, src)
	if err != nil {
		return encoded{}, workerError(err)
	}
	var a jobAnswer
	if err := json.Unmarshal(meta, &a); err != nil || (a.Code != "" && !a.Code.Valid()) {
		return encoded{}, protocol.Errorf(protocol.ImageProcessingFailed, "The image worker answered out of protocol; the image was not written.")
	}
	if a.Code != "" {
		return encoded{}, protocol.Errorf(a.Code, "%s", a.Message)
	}
	a.Result.Data = out
	return a.Result, nil
}

// workerError maps a failed worker call.
func workerError(err error) *protocol.Error {
	var f *worker.Failure
	if errors.As(err, &f) && (f.TimedOut || f.Cancelled) {
		return imageTimedOut()
	}
	return errmap.ImageWorker(err)
}

// decodeJob decodes src under the job's limits (checked before any pixel
// is decoded), checks the deadline after it, and picks the format
// written: format, else the one the destination's extension names, else
// the source's. An animated GIF written as a GIF is decoded with every
// frame.
func decodeJob[A any](ctx context.Context, j imageJob[A], src []byte, format string) (source, imaging.Format, *protocol.Error) {
	s := source{bytes: src}
	if in, err := imaging.Inspect(src, j.Limits); err == nil && in.Format == imaging.GIF && in.Frames > 1 {
		if f, _ := outputFormat(format, j.Dest, in.Format); f == imaging.GIF {
			g, in, err := imaging.DecodeAnimation(src, j.Limits)
			if err != nil {
				return source{}, "", errmap.Image(err)
			}
			s.img, s.info, s.animation = g.Image[0], in, g
		}
	}
	if s.animation == nil {
		img, in, err := imaging.Decode(src, j.Limits)
		if err != nil {
			return source{}, "", errmap.Image(err)
		}
		s.img, s.info = img, in
	}
	if ctx.Err() != nil {
		return source{}, "", imageTimedOut()
	}
	f, perr := outputFormat(format, j.Dest, s.info.Format)
	return s, f, perr
}

// encodeResult encodes img as o says.
func encodeResult(img image.Image, o imaging.Output) (encoded, *protocol.Error) {
	data, perr := encodeImage(img, o)
	if perr != nil {
		return encoded{}, perr
	}
	return resultOf(data, img, o), nil
}

// encodeAnimation encodes every frame of g as a GIF.
func encodeAnimation(g *gif.GIF) (encoded, *protocol.Error) {
	data, err := imaging.EncodeAnimation(g)
	if err != nil {
		return encoded{}, errmap.Image(err)
	}
	return encoded{Data: data, Width: g.Config.Width, Height: g.Config.Height, Format: imaging.GIF, Frames: len(g.Image)}, nil
}

// resultOf is the result of img encoded as data with o: the quality is
// the one written for a lossy format, 0 otherwise.
func resultOf(data []byte, img image.Image, o imaging.Output) encoded {
	b := img.Bounds()
	res := encoded{Data: data, Width: b.Dx(), Height: b.Dy(), Format: o.Format, Quality: o.QualityOf(),
		Lossless: o.Format == imaging.WebP && o.Lossless, Colors: o.Colors, Frames: 1}
	if w := imaging.ProfileDropped(img, o); w != "" {
		res.Warnings = []string{w}
	}
	return res
}
