package imaging

import "bytes"

// Sniff returns the format of the content b by its signature, never by a
// name; anything unknown is an *UnsupportedError with no format.
func Sniff(b []byte) (Format, error) {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, nil
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		return JPEG, nil
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return GIF, nil
	case len(b) >= 16 && string(b[:4]) == "RIFF" && string(b[8:15]) == "WEBPVP8":
		return WebP, nil
	case bytes.HasPrefix(b, []byte("BM")) && len(b) >= 26:
		return BMP, nil
	case bytes.HasPrefix(b, []byte("II*\x00")), bytes.HasPrefix(b, []byte("MM\x00*")):
		return TIFF, nil
	}
	if f := isoBrand(b); f != "" {
		return f, nil
	}
	if isSVG(b) {
		return SVG, nil
	}
	return "", &UnsupportedError{Op: "read"}
}

// isoBrand recognises the ISO base media file ("ftyp" box) brands of AVIF
// and HEIC/HEIF.
func isoBrand(b []byte) Format {
	if len(b) < 12 || string(b[4:8]) != "ftyp" {
		return ""
	}
	switch string(b[8:12]) {
	case "avif", "avis":
		return AVIF
	case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1":
		return HEIC
	}
	return ""
}

// Extension returns the usual file extension of f, with its dot.
func Extension(f Format) string {
	if f == JPEG {
		return ".jpg"
	}
	return "." + string(f)
}

// ByExtension returns the format a file extension (with its dot, any
// case) names, or "" for none the package writes.
func ByExtension(ext string) Format {
	switch string(bytes.ToLower([]byte(ext))) {
	case ".png":
		return PNG
	case ".jpg", ".jpeg", ".jpe", ".jfif":
		return JPEG
	case ".gif":
		return GIF
	case ".webp":
		return WebP
	case ".bmp", ".dib":
		return BMP
	case ".tif", ".tiff":
		return TIFF
	case ".avif":
		return AVIF
	case ".heic", ".heif":
		return HEIC
	case ".svg":
		return SVG
	}
	return ""
}
