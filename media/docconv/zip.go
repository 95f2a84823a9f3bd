package docconv

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"path"
	"strings"
)

// pkg is an opened ZIP package whose members are read within the
// conversion's caps.
type pkg struct {
	c     *conv
	z     *zip.Reader
	names map[string]*zip.File
}

func (c *conv) openZip(r io.ReaderAt, size int64) (*pkg, error) {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fail(ErrCorrupt, "the ZIP archive cannot be read: %v", err)
	}
	if len(z.File) > c.o.Limits.ZipEntries {
		return nil, fail(ErrLimit, "the archive has %d members, more than the limit of %d", len(z.File), c.o.Limits.ZipEntries)
	}
	p := &pkg{c: c, z: z, names: make(map[string]*zip.File, len(z.File))}
	for _, f := range z.File {
		p.names[f.Name] = f
	}
	return p, nil
}

// has reports whether the package holds a member name.
func (p *pkg) has(name string) bool { return p.names[name] != nil }

// read reads the member name whole, within the caps: its declared size
// and the bytes it really gives against the per-member cap and the
// conversion's total, and its ratio to its compressed size. A missing
// member is (nil, nil).
func (p *pkg) read(name string) ([]byte, error) {
	f := p.names[name]
	if f == nil {
		return nil, nil
	}
	return p.c.readMember(f)
}

func (c *conv) readMember(f *zip.File) ([]byte, error) {
	lim := c.o.Limits
	if f.UncompressedSize64 > uint64(lim.ZipMember) {
		return nil, fail(ErrLimit, "the member %q unpacks to %d bytes, more than the limit of %d", f.Name, f.UncompressedSize64, lim.ZipMember)
	}
	rc, err := f.Open()
	if err != nil {
		if err == zip.ErrAlgorithm {
			return nil, fail(ErrUnsupported, "the member %q is compressed with a method DeskBridge does not read", f.Name)
		}
		return nil, fail(ErrCorrupt, "the member %q cannot be read: %v", f.Name, err)
	}
	defer rc.Close()
	var buf bytes.Buffer
	chunk := make([]byte, 64<<10)
	for {
		n, err := rc.Read(chunk)
		buf.Write(chunk[:n])
		got := int64(buf.Len())
		if got > lim.ZipMember {
			return nil, fail(ErrLimit, "the member %q unpacks to more than the limit of %d bytes (its header says %d)", f.Name, lim.ZipMember, f.UncompressedSize64)
		}
		if got > c.zipLeft {
			return nil, fail(ErrLimit, "the archive unpacks to more than the limit of %d bytes in all", lim.ZipTotal)
		}
		if got > 1<<20 && got > lim.ZipRatio*int64(max(f.CompressedSize64, 1)) {
			return nil, fail(ErrLimit, "the member %q unpacks to more than %d times its compressed size (a ZIP bomb)", f.Name, lim.ZipRatio)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if isChecksum(err) && f.Method == zip.Store {
				return nil, fail(ErrCorrupt, "the member %q is damaged: %v", f.Name, err)
			}
			return nil, fail(ErrCorrupt, "the member %q cannot be read: %v", f.Name, err)
		}
	}
	c.zipLeft -= int64(buf.Len())
	return buf.Bytes(), nil
}

func isChecksum(err error) bool { return err == zip.ErrChecksum }

// resolve joins a relationship target to the folder of the part that
// names it, inside the package; ok is false for an external target (a
// URL, an absolute path) or one that leaves the package.
func resolve(dir, target string) (string, bool) {
	if target == "" || strings.Contains(target, ":") || strings.HasPrefix(target, "//") || strings.HasPrefix(target, `\`) {
		return "", false
	}
	var p string
	if strings.HasPrefix(target, "/") {
		p = path.Clean(target[1:])
	} else {
		p = path.Clean(path.Join(dir, target))
	}
	if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return "", false
	}
	return p, true
}

// rel is one package relationship.
type rel struct {
	Target   string
	External bool
	Type     string
}

// rels reads the relationships of part (its _rels/<name>.rels).
func (p *pkg) rels(part string) (map[string]rel, error) {
	dir, file := path.Split(part)
	b, err := p.read(path.Join(dir, "_rels", file+".rels"))
	if err != nil || b == nil {
		return map[string]rel{}, err
	}
	out := map[string]rel{}
	err = p.c.walkXML(b, func(d *xmlDec, se xml.StartElement) error {
		if se.Name.Local == "Relationship" {
			out[attrOf(se, "Id")] = rel{Target: attrOf(se, "Target"), External: attrOf(se, "TargetMode") == "External", Type: attrOf(se, "Type")}
		}
		return nil
	})
	return out, err
}
