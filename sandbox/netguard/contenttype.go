package netguard

import (
	"mime"
	"path/filepath"
	"strings"
)

// kind is what a destination file's extension promises its content is.
type kind struct {
	name     string
	declared func(mediaType string) bool // fits the server's Content-Type
	sniffed  func(mediaType string) bool // fits http.DetectContentType's answer
}

func prefix(p string) func(string) bool {
	return func(t string) bool { return strings.HasPrefix(t, p) }
}

func oneOf(ts ...string) func(string) bool {
	return func(t string) bool {
		for _, x := range ts {
			if t == x {
				return true
			}
		}
		return false
	}
}

func either(fs ...func(string) bool) func(string) bool {
	return func(t string) bool {
		for _, f := range fs {
			if f(t) {
				return true
			}
		}
		return false
	}
}

var (
	anyType = func(string) bool { return true }
	kImage  = kind{"image", prefix("image/"), prefix("image/")}
	kSVG    = kind{"image", oneOf("image/svg+xml"), oneOf("text/xml", "text/plain")}
	kText   = kind{"text",
		either(prefix("text/"), oneOf("application/json", "application/xml", "application/javascript", "application/yaml", "application/x-yaml")),
		prefix("text/")}
	kPDF     = kind{"pdf", oneOf("application/pdf"), oneOf("application/pdf")}
	kAudio   = kind{"audio", prefix("audio/"), either(prefix("audio/"), oneOf("application/ogg"))}
	kVideo   = kind{"video", prefix("video/"), either(prefix("video/"), oneOf("application/ogg"))}
	kFont    = kind{"font", either(prefix("font/"), oneOf("application/font-woff", "application/vnd.ms-fontobject")), either(prefix("font/"), oneOf("application/vnd.ms-fontobject"))}
	kArchive = kind{"archive",
		oneOf("application/zip", "application/gzip", "application/x-gzip", "application/x-tar", "application/x-7z-compressed", "application/x-bzip2", "application/x-xz", "application/zstd"),
		oneOf("application/zip", "application/x-gzip", "application/octet-stream", "application/x-rar-compressed")}
	kAny = kind{"any", anyType, anyType}
)

// kinds maps a lower-case file extension to the kind of content it must get.
var kinds = map[string]kind{
	".png": kImage, ".jpg": kImage, ".jpeg": kImage, ".gif": kImage, ".webp": kImage,
	".bmp": kImage, ".ico": kImage, ".avif": kImage, ".svg": kSVG,
	".txt": kText, ".md": kText, ".csv": kText, ".json": kText, ".xml": kText, ".html": kText,
	".htm": kText, ".css": kText, ".js": kText, ".yaml": kText, ".yml": kText,
	".pdf": kPDF,
	".mp3": kAudio, ".wav": kAudio, ".ogg": kAudio, ".flac": kAudio,
	".mp4": kVideo, ".webm": kVideo,
	".woff": kFont, ".woff2": kFont, ".ttf": kFont, ".otf": kFont,
	".zip": kArchive, ".gz": kArchive, ".tgz": kArchive, ".tar": kArchive,
}

// kindOf returns the kind for a destination name; unknown extensions accept
// any content.
func kindOf(name string) kind {
	if k, ok := kinds[strings.ToLower(filepath.Ext(name))]; ok {
		return k
	}
	return kAny
}

// fits reports whether the declared Content-Type header and the sniffed
// type suit k. A missing or application/octet-stream header says nothing,
// so only the sniffed type decides then; an unparsable header never fits.
func (k kind) fits(header, sniffed string) bool {
	if !k.sniffed(mediaType(sniffed)) {
		return false
	}
	if header == "" {
		return true
	}
	d := mediaType(header)
	return d == "application/octet-stream" || (d != "" && k.declared(d))
}

// mediaType returns the lower-case media type of a Content-Type value, or
// "" when it is absent or unparsable.
func mediaType(v string) string {
	t, _, err := mime.ParseMediaType(v)
	if err != nil {
		return ""
	}
	return t
}
