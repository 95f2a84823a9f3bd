package docconv

import (
	"encoding/xml"
	"io"
	"strings"
)

// maxNodes caps the elements of one XML part read whole.
const maxNodes = 2_000_000

// node is an element of a small XML tree, for the parts read whole (ODF
// content, slides). Names are local names; text is kept as child nodes
// with name "".
type node struct {
	name  string
	space string
	attrs []xml.Attr
	kids  []*node
	text  string
}

// parseTree reads b into a tree, within the depth cap and maxNodes.
func (c *conv) parseTree(b []byte) (*node, error) {
	d := c.newXML(b)
	root := &node{}
	stack := []*node{root}
	count := 0
	for {
		t, err := d.next()
		if err == io.EOF {
			return root, nil
		}
		if err != nil {
			return nil, err
		}
		top := stack[len(stack)-1]
		switch t := t.(type) {
		case xml.StartElement:
			if count++; count > maxNodes {
				return nil, fail(ErrLimit, "an XML part has more than %d elements", maxNodes)
			}
			n := &node{name: t.Name.Local, space: t.Name.Space, attrs: t.Attr}
			top.kids = append(top.kids, n)
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			top.kids = append(top.kids, &node{text: string(t)})
		}
	}
}

// attr returns the attribute with local name key.
func (n *node) attr(key string) string {
	for _, a := range n.attrs {
		if a.Name.Local == key {
			return a.Value
		}
	}
	return ""
}

// relID returns the relationship id attribute (r:id): the "id" of a
// namespace, not a plain id.
func (n *node) relID() string {
	for _, a := range n.attrs {
		if a.Name.Local == "id" && a.Name.Space != "" {
			return a.Value
		}
	}
	return ""
}

// find returns the elements named name below n, in document order,
// without descending into a match.
func (n *node) find(name string) []*node {
	var out []*node
	var walk func(*node)
	walk = func(x *node) {
		for _, k := range x.kids {
			if k.name == name {
				out = append(out, k)
				continue
			}
			walk(k)
		}
	}
	walk(n)
	return out
}

// first returns the first element named name below n, or nil.
func (n *node) first(name string) *node {
	if f := n.find(name); len(f) > 0 {
		return f[0]
	}
	return nil
}

// textAll is the character data below n.
func (n *node) textAll() string {
	var b strings.Builder
	var walk func(*node)
	walk = func(x *node) {
		if x.name == "" {
			b.WriteString(x.text)
		}
		for _, k := range x.kids {
			walk(k)
		}
	}
	walk(n)
	return b.String()
}
