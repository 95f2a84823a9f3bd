package docconv

import (
	"strings"

	"codeberg.org/readeck/go-readability/v2"
	"golang.org/x/net/html"
)

// readabilityElements caps the elements readability scores; a larger page
// is converted whole. Its scoring grows faster than the page: 50,000
// elements cost it about 2 s on a loaded two-core machine.
const readabilityElements = 100_000

// minArticleShare is the share of the page's text the main content must
// hold to be believed: less, and readability found only a fragment (a
// short document of tables and lists it does not score), so the whole
// page is converted.
const minArticleShare = 0.25

// htmlPage converts an HTML page: its main content, found by readability
// (codeberg.org/readeck/go-readability, a maintained port of Mozilla's
// Readability.js), without navigation, sidebars, footers or boilerplate
// links; the whole page with Options.FullPage, or when readability finds
// no main content. The title is the page's <title> either way; the main
// content starts with the article's title as a heading, as readability
// takes it out of the text (it is the page's h1 or its <title>, cleaned of
// the site's name).
func (c *conv) htmlPage(b []byte) (*doc, error) {
	root, err := parseHTML(b)
	if err != nil {
		return nil, err
	}
	h := &htmlConv{c: c, d: &doc{}}
	if !c.o.FullPage {
		if article, title := mainContent(root); article != nil {
			h.titleOf(root)
			h.d.add(heading(1, esc(title)))
			h.blocks(article, 0)
			return h.d, nil
		}
	}
	h.blocks(root, 0)
	return h.d, nil
}

// mainContent returns the main content of the page, or nil when
// readability finds none, only a small part of the page's text, or all
// of it.
func mainContent(root *html.Node) (*html.Node, string) {
	p := readability.NewParser()
	p.MaxElemsToParse = readabilityElements
	p.DisableJSONLD = true
	art, err := p.ParseDocument(root, nil)
	if err != nil || art.Node == nil {
		return nil, ""
	}
	all := len(strings.Fields(textContent(bodyOf(root))))
	kept := len(strings.Fields(textContent(art.Node)))
	if float64(kept) < minArticleShare*float64(all) || kept >= all {
		// A fragment, or all of the page: nothing to leave out, so the
		// page is converted as written, its headings at their levels.
		return nil, ""
	}
	return art.Node, art.Title()
}

// bodyOf returns the page's body element, or root when it has none.
func bodyOf(root *html.Node) *html.Node {
	stack := []*html.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Type == html.ElementNode && n.Data == "body" {
			return n
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			stack = append(stack, ch)
		}
	}
	return root
}

// titleOf takes the title from the page's head.
func (h *htmlConv) titleOf(root *html.Node) {
	stack := []*html.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Type == html.ElementNode && n.Data == "head" {
			h.head(n)
			return
		}
		for ch := n.LastChild; ch != nil; ch = ch.PrevSibling {
			if ch.Type == html.ElementNode || ch.Type == html.DocumentNode {
				stack = append(stack, ch)
			}
		}
	}
}
