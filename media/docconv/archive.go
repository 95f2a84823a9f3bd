package docconv

import (
	"bytes"
	"strings"
)

// maxArchiveDepth caps archives inside archives.
const maxArchiveDepth = 2

// zipArchive converts each member of a plain ZIP archive under a heading
// of its name, within the archive caps; a member of no readable format is
// named in a warning.
func (c *conv) zipArchive(p *pkg, depth int) (*doc, error) {
	if depth >= maxArchiveDepth {
		return nil, fail(ErrLimit, "the archive holds archives nested deeper than %d", maxArchiveDepth)
	}
	d := &doc{}
	for _, f := range p.z.File {
		if strings.HasSuffix(f.Name, "/") || f.FileInfo().IsDir() {
			continue
		}
		if err := c.ctx.Err(); err != nil {
			return nil, fail(ErrLimit, "the conversion was stopped: %v", err)
		}
		b, err := c.readMember(f)
		if err != nil {
			return nil, err
		}
		r := bytes.NewReader(b)
		format, err := Sniff(r, int64(len(b)))
		if err == nil && format == FormatImage {
			err = fail(ErrUnsupported, "an image")
		}
		var sub *doc
		if err == nil {
			sub, err = c.convert(format, r, int64(len(b)), depth+1)
		}
		if err != nil {
			if isLimit(err) {
				return nil, err
			}
			d.warn("%s: %v", oneLine(f.Name, 200), err)
			continue
		}
		sub.flush()
		d.add(heading(2, esc(f.Name)))
		d.blocks = append(d.blocks, sub.blocks...)
		d.pages++
	}
	return d, nil
}

func isLimit(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Kind == ErrLimit
}
