package docconv

import (
	"strconv"
	"strings"
)

// chart reads the chart part a graphic frame points to (relationship id)
// and writes it as MarkItDown does: a "### Chart: title" heading and a
// table of its categories by its series. A chart outside the package is
// left out, never read.
func (s *slideText) chart(id string) []string {
	r, ok := s.rels[id]
	name, inside := resolve(s.dir, r.Target)
	if !ok || r.External || !inside {
		return nil
	}
	b, err := s.p.read(name)
	if err != nil || b == nil {
		return nil
	}
	tree, err := s.c.parseTree(b)
	if err != nil {
		return nil
	}
	h := "Chart"
	if t := tree.first("title"); t != nil {
		if text := oneLine(joinText(t.find("t")), 500); text != "" {
			h += ": " + text
		}
	}
	out := []string{heading(3, h)}
	if tbl := s.chartTable(tree); tbl != "" {
		out = append(out, tbl)
	}
	return out
}

// chartSeries is one series of a chart: its name and its points by
// index.
type chartSeries struct {
	name   string
	values map[string]string
}

// chartTable is the table "Category | series…" of the plots of a chart.
func (s *slideText) chartTable(tree *node) string {
	plot := tree.first("plotArea")
	if plot == nil {
		return ""
	}
	var series []chartSeries
	var cats []chartPoint
	for _, ser := range plot.find("ser") {
		cs := chartSeries{name: joinText(childOrNil(ser, "tx").find("v")), values: map[string]string{}}
		for _, pt := range chartPoints(firstNonEmpty1(ser.child("val"), ser.child("yVal"))) {
			cs.values[pt.idx] = pt.v
		}
		if cats == nil {
			cats = chartPoints(firstNonEmpty1(ser.child("cat"), ser.child("xVal")))
		}
		if cs.name == "" {
			cs.name = "Series " + strconv.Itoa(len(series)+1)
		}
		series = append(series, cs)
	}
	if len(series) == 0 {
		return ""
	}
	if len(cats) == 0 { // no categories: the points of the first series, numbered
		for _, pt := range chartPoints(firstNonEmpty1(plot.find("ser")[0].child("val"), plot.find("ser")[0].child("yVal"))) {
			cats = append(cats, chartPoint{idx: pt.idx, v: pt.idx})
		}
	}
	head := []string{"Category"}
	for _, cs := range series {
		head = append(head, esc(cs.name))
	}
	rows := [][]string{head}
	for _, cat := range cats {
		if !s.c.cellBudget(len(head)) {
			break
		}
		row := []string{esc(cat.v)}
		for _, cs := range series {
			row = append(row, esc(cs.values[cat.idx]))
		}
		rows = append(rows, row)
	}
	return table(rows)
}

// chartPoint is a cached point of a chart's data (c:pt): its index and
// value.
type chartPoint struct{ idx, v string }

// chartPoints returns the cached points below n (a c:cat, c:val…), in
// document order; nil for a nil n.
func chartPoints(n *node) []chartPoint {
	if n == nil {
		return nil
	}
	var out []chartPoint
	for _, pt := range n.find("pt") {
		out = append(out, chartPoint{idx: pt.attr("idx"), v: strings.TrimSpace(joinText(pt.find("v")))})
	}
	return out
}

// childOrNil returns n's child named name, or an empty node.
func childOrNil(n *node, name string) *node {
	if k := n.child(name); k != nil {
		return k
	}
	return &node{}
}

// joinText joins the text of nodes.
func joinText(ns []*node) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(n.textAll())
	}
	return b.String()
}
