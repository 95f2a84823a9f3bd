package docconv

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"golang.org/x/net/html/charset"
)

// xmlDec reads the tokens of one XML part, counting its depth. It is
// encoding/xml's Decoder as it is: Strict, no Entity map, so an entity a
// document declares is an error and never expanded, and nothing is
// fetched for an external one.
type xmlDec struct {
	*xml.Decoder
	depth, maxDepth int
}

func (c *conv) newXML(b []byte) *xmlDec {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if strings.EqualFold(label, "utf-8") || strings.EqualFold(label, "us-ascii") {
			return r, nil
		}
		cr, err := charset.NewReaderLabel(label, r) // x/text's decoders, by WHATWG label
		if err != nil {
			return nil, errors.New("encoding " + label + " is not read")
		}
		return cr, nil
	}
	return &xmlDec{Decoder: d, maxDepth: c.o.Limits.Depth}
}

// next returns the next token, refusing a document nested deeper than the
// cap; io.EOF at the end.
func (d *xmlDec) next() (xml.Token, error) {
	t, err := d.Token()
	if err != nil {
		if err == io.EOF {
			return nil, err
		}
		return nil, fail(ErrCorrupt, "the document's XML is malformed: %v", err)
	}
	switch t.(type) {
	case xml.StartElement:
		d.depth++
		if d.depth > d.maxDepth {
			return nil, fail(ErrLimit, "the document's XML is nested deeper than the limit of %d", d.maxDepth)
		}
	case xml.EndElement:
		d.depth--
	}
	return t, nil
}

// walkXML calls fn for every start element of b.
func (c *conv) walkXML(b []byte, fn func(*xmlDec, xml.StartElement) error) error {
	d := c.newXML(b)
	for {
		t, err := d.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if se, ok := t.(xml.StartElement); ok {
			if err := fn(d, se); err != nil {
				return err
			}
		}
	}
}

// attrOf returns the value of the attribute with local name key.
func attrOf(se xml.StartElement, key string) string {
	for _, a := range se.Attr {
		if a.Name.Local == key {
			return a.Value
		}
	}
	return ""
}

// textOf reads the character data up to the end of the element just
// started, at any depth below it.
func (d *xmlDec) textOf() (string, error) {
	var b strings.Builder
	level := 1
	for level > 0 {
		t, err := d.next()
		if err != nil {
			if err == io.EOF {
				return "", fail(ErrCorrupt, "the document's XML ends inside an element")
			}
			return "", err
		}
		switch t := t.(type) {
		case xml.StartElement:
			level++
		case xml.EndElement:
			level--
		case xml.CharData:
			b.Write(t)
		}
	}
	return b.String(), nil
}
