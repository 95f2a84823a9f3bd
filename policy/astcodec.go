package policy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The parsed modules of a marked set in a binary form that reads back
// several times faster than the Rego text parses (astcache.go keeps it).
// It writes every exported field of the nodes the parser makes, and each
// module's Rego version; a node or value of a kind it does not know is an
// error, so a set that uses one is parsed every time. A location's text
// is written as its place in the module's source when it is that, so
// that the decoded text shares the source's bytes as the parser's does.
//
// Three fields cannot be written, being unexported: a rule's
// generatedBody, a head's generatedValue and keywords. The parser sets
// them for its own Rego v1 checks (ast/rego_v1.go), which ran when the
// text was parsed; the compiler and evaluation never read them. The test
// of this file compares decoded and parsed modules field by field and
// allows these three only.

// astCodecVersion is written first; a form written by another version
// is not read.
const astCodecVersion = 1

// maxASTDepth bounds the nesting decodeModules follows.
const maxASTDepth = 2000

var errASTKind = errors.New("policy: a node the parse cache does not know")

// encodeModules writes mods (named by names, in that order) as parsed
// from srcs (the module texts by name).
func encodeModules(names []string, mods map[string]*ast.Module, srcs map[string]string) ([]byte, error) {
	e := &astEncoder{}
	e.uint(astCodecVersion)
	e.uint(uint64(len(names)))
	for _, name := range names {
		e.str(name)
		e.src, e.file = srcs[name], name
		if err := e.module(mods[name]); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return e.buf, nil
}

type astEncoder struct {
	buf  []byte
	src  string // the text of the module being written
	file string // its name, every location's file but a few
}

func (e *astEncoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *astEncoder) int(v int)     { e.buf = binary.AppendVarint(e.buf, int64(v)) }
func (e *astEncoder) str(s string)  { e.uint(uint64(len(s))); e.buf = append(e.buf, s...) }

func (e *astEncoder) bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

func (e *astEncoder) module(m *ast.Module) error {
	if m == nil || m.Package == nil || len(m.Annotations) > 0 {
		return errASTKind
	}
	span := m.RegoVersionSpan()
	e.int(int(span.Min()))
	e.int(int(span.Max()))
	e.loc(m.Package.Location)
	if err := e.terms(m.Package.Path); err != nil {
		return err
	}
	e.uint(uint64(len(m.Imports)))
	for _, imp := range m.Imports {
		if err := e.term(imp.Path); err != nil {
			return err
		}
		e.str(string(imp.Alias))
		e.loc(imp.Location)
		e.loc(imp.AliasLocation)
	}
	e.uint(uint64(len(m.Rules)))
	for _, r := range m.Rules {
		if r.Module != m {
			return errASTKind
		}
		if err := e.rule(r); err != nil {
			return err
		}
	}
	e.uint(uint64(len(m.Comments)))
	for _, c := range m.Comments {
		e.str(string(c.Text))
		e.loc(c.Location)
	}
	return nil
}

func (e *astEncoder) rule(r *ast.Rule) error {
	if len(r.Annotations) > 0 || r.Head == nil {
		return errASTKind
	}
	h := r.Head
	e.str(string(h.Name))
	if err := e.terms(h.Reference); err != nil {
		return err
	}
	if err := e.terms(h.Args); err != nil {
		return err
	}
	if err := e.optTerm(h.Key); err != nil {
		return err
	}
	if err := e.optTerm(h.Value); err != nil {
		return err
	}
	e.bool(h.Assign)
	e.loc(h.Location)
	if err := e.body(r.Body); err != nil {
		return err
	}
	e.bool(r.Default)
	e.loc(r.Location)
	e.bool(r.Else != nil)
	if r.Else != nil {
		if r.Else.Module != r.Module {
			return errASTKind
		}
		return e.rule(r.Else)
	}
	return nil
}

// The kinds of an expression's Terms.
const (
	exprTerm = iota
	exprCall
	exprSome
	exprEvery
	exprNot
	exprAnd
	exprOr
)

func (e *astEncoder) body(b ast.Body) error {
	e.bool(b != nil)
	e.uint(uint64(len(b)))
	for _, x := range b {
		if err := e.expr(x); err != nil {
			return err
		}
	}
	return nil
}

func (e *astEncoder) expr(x *ast.Expr) error {
	if x == nil {
		return errASTKind
	}
	e.uint(uint64(len(x.With)))
	for _, w := range x.With {
		if err := e.term(w.Target); err != nil {
			return err
		}
		if err := e.term(w.Value); err != nil {
			return err
		}
		e.loc(w.Location)
	}
	e.int(x.Index)
	e.bool(x.Generated)
	e.bool(x.Negated)
	e.loc(x.Location)
	return e.exprTerms(x.Terms)
}

func (e *astEncoder) exprTerms(ts any) error {
	switch t := ts.(type) {
	case *ast.Term:
		e.uint(exprTerm)
		return e.term(t)
	case []*ast.Term:
		e.uint(exprCall)
		return e.terms(t)
	case *ast.SomeDecl:
		e.uint(exprSome)
		e.loc(t.Location)
		return e.terms(t.Symbols)
	case *ast.Every:
		e.uint(exprEvery)
		e.loc(t.Location)
		for _, x := range []*ast.Term{t.Key, t.Value, t.Domain} {
			if err := e.optTerm(x); err != nil {
				return err
			}
		}
		return e.body(t.Body)
	case *ast.Not:
		e.uint(exprNot)
		e.loc(t.Location)
		e.bool(t.ExplicitBody)
		return e.body(t.Body)
	case *ast.LogicalAnd:
		e.uint(exprAnd)
		return e.logical(t.Lhs, t.Rhs, t.ExplicitLhs, t.ExplicitRhs, t.Location)
	case *ast.LogicalOr:
		e.uint(exprOr)
		return e.logical(t.Lhs, t.Rhs, t.ExplicitLhs, t.ExplicitRhs, t.Location)
	}
	return errASTKind
}

func (e *astEncoder) logical(lhs, rhs ast.Body, el, er bool, loc *ast.Location) error {
	e.loc(loc)
	e.bool(el)
	e.bool(er)
	if err := e.body(lhs); err != nil {
		return err
	}
	return e.body(rhs)
}

// The kinds of a term's value.
const (
	valNull = iota
	valFalse
	valTrue
	valNumber
	valString
	valVar
	valRef
	valArray
	valSet
	valObject
	valArrayCompr
	valSetCompr
	valObjectCompr
	valCall
	valTemplate
)

func (e *astEncoder) terms(ts []*ast.Term) error {
	e.bool(ts != nil)
	e.uint(uint64(len(ts)))
	for _, t := range ts {
		if err := e.term(t); err != nil {
			return err
		}
	}
	return nil
}

func (e *astEncoder) optTerm(t *ast.Term) error {
	e.bool(t != nil)
	if t == nil {
		return nil
	}
	return e.term(t)
}

func (e *astEncoder) term(t *ast.Term) error {
	if t == nil {
		return errASTKind
	}
	e.loc(t.Location)
	return e.value(t.Value)
}

func (e *astEncoder) value(v ast.Value) error {
	switch v := v.(type) {
	case ast.Null:
		e.uint(valNull)
	case ast.Boolean:
		if v {
			e.uint(valTrue)
		} else {
			e.uint(valFalse)
		}
	case ast.Number:
		e.uint(valNumber)
		e.str(string(v))
	case ast.String:
		e.uint(valString)
		e.str(string(v))
	case ast.Var:
		e.uint(valVar)
		e.str(string(v))
	case ast.Ref:
		e.uint(valRef)
		return e.terms(v)
	case *ast.Array:
		e.uint(valArray)
		return e.elems(v.Len(), v.Elem)
	case ast.Set:
		e.uint(valSet)
		s := v.Slice()
		return e.elems(len(s), func(i int) *ast.Term { return s[i] })
	case ast.Object:
		e.uint(valObject)
		keys := v.Keys()
		return e.elems(2*len(keys), func(i int) *ast.Term {
			if i%2 == 0 {
				return keys[i/2]
			}
			return v.Get(keys[i/2])
		})
	case *ast.ArrayComprehension:
		e.uint(valArrayCompr)
		return e.compr(v.Term, nil, v.Body)
	case *ast.SetComprehension:
		e.uint(valSetCompr)
		return e.compr(v.Term, nil, v.Body)
	case *ast.ObjectComprehension:
		e.uint(valObjectCompr)
		return e.compr(v.Key, v.Value, v.Body)
	case ast.Call:
		e.uint(valCall)
		return e.terms(v)
	case *ast.TemplateString:
		e.uint(valTemplate)
		return e.template(v)
	default:
		return errASTKind
	}
	return nil
}

func (e *astEncoder) elems(n int, at func(int) *ast.Term) error {
	e.uint(uint64(n))
	for i := range n {
		if err := e.term(at(i)); err != nil {
			return err
		}
	}
	return nil
}

func (e *astEncoder) compr(a, b *ast.Term, body ast.Body) error {
	if err := e.term(a); err != nil {
		return err
	}
	if err := e.optTerm(b); err != nil {
		return err
	}
	return e.body(body)
}

func (e *astEncoder) template(ts *ast.TemplateString) error {
	e.bool(ts.MultiLine)
	e.uint(uint64(len(ts.Parts)))
	for _, p := range ts.Parts {
		switch p := p.(type) {
		case *ast.Expr:
			e.bool(true)
			if err := e.expr(p); err != nil {
				return err
			}
		case *ast.Term:
			e.bool(false)
			if err := e.term(p); err != nil {
				return err
			}
		default:
			return errASTKind
		}
	}
	return nil
}

// How a location's text and file are written.
const (
	locNone      = iota // a nil location
	locInSource         // text at the location's offset in the module's source
	locOwnText          // text written out
	locOtherFile        // text written out, and a file other than the module's
)

func (e *astEncoder) loc(l *ast.Location) {
	switch {
	case l == nil:
		e.uint(locNone)
		return
	case l.File != e.file:
		e.uint(locOtherFile)
		e.str(l.File)
		e.str(string(l.Text))
		e.bool(l.Text == nil)
	case l.Text != nil && l.Offset >= 0 && l.Offset+len(l.Text) <= len(e.src) && e.src[l.Offset:l.Offset+len(l.Text)] == string(l.Text):
		e.uint(locInSource)
		e.uint(uint64(len(l.Text)))
	default:
		e.uint(locOwnText)
		e.str(string(l.Text))
		e.bool(l.Text == nil)
	}
	e.int(l.Row)
	e.int(l.Col)
	e.int(l.Offset)
	e.bool(l.Tabs != nil)
	e.uint(uint64(len(l.Tabs)))
	for _, t := range l.Tabs {
		e.int(t)
	}
}

// decodeModules reads what encodeModules wrote for the module texts
// srcs. Any inconsistency is an error.
func decodeModules(b []byte, srcs map[string]string) (map[string]*ast.Module, error) {
	d := &astDecoder{buf: b, all: string(b)}
	if d.uint() != astCodecVersion {
		return nil, errors.New("policy: parse cache of another version")
	}
	n := d.count()
	mods := make(map[string]*ast.Module, n)
	for range n {
		name := d.str()
		src, ok := srcs[name]
		if !ok || d.err != nil {
			return nil, errors.New("policy: parse cache names a module the set does not have")
		}
		d.src, d.file = []byte(src), name
		mods[name] = d.module()
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(d.buf) != 0 || len(mods) != len(srcs) {
		return nil, errors.New("policy: parse cache does not hold the set's modules")
	}
	return mods, nil
}

type astDecoder struct {
	buf   []byte
	all   string // buf as it began, as a string the decoded strings share
	src   []byte
	file  string
	depth int
	err   error

	// Terms, locations and expressions are allocated a chunk at a time
	// (a third of the allocations otherwise).
	termSlab slab[ast.Term]
	locSlab  slab[ast.Location]
	exprSlab slab[ast.Expr]
}

// slab hands out pointers into chunks of Ts.
type slab[T any] struct{ free []T }

func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.free = make([]T, 256)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

var errASTCorrupt = errors.New("policy: corrupt parse cache")

func (d *astDecoder) fail() {
	if d.err == nil {
		d.err = errASTCorrupt
	}
	d.buf = nil
}

func (d *astDecoder) uint() uint64 {
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

func (d *astDecoder) int() int {
	v, n := binary.Varint(d.buf)
	if n <= 0 || v < math.MinInt32 || v > math.MaxInt32 {
		d.fail()
		return 0
	}
	d.buf = d.buf[n:]
	return int(v)
}

// count reads a length, which cannot exceed the bytes left.
func (d *astDecoder) count() int {
	v := d.uint()
	if v > uint64(len(d.buf)) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *astDecoder) bytes() []byte {
	n := d.count()
	b := d.buf[:n:n]
	d.buf = d.buf[n:]
	return b
}

func (d *astDecoder) str() string {
	n := d.count()
	off := len(d.all) - len(d.buf)
	d.buf = d.buf[n:]
	return d.all[off : off+n]
}

func (d *astDecoder) bool() bool {
	switch d.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail()
	return false
}

// enter counts one level of nesting; leave must follow when it is true.
func (d *astDecoder) enter() bool {
	if d.err != nil || d.depth >= maxASTDepth {
		d.fail()
		return false
	}
	d.depth++
	return true
}

func (d *astDecoder) leave() { d.depth-- }

func (d *astDecoder) module() *ast.Module {
	lo, hi := d.int(), d.int()
	span, err := ast.NewRegoVersionSpan(ast.RegoVersion(lo), ast.RegoVersion(hi))
	if err != nil {
		d.fail()
	}
	m := &ast.Module{}
	m.SetRegoVersionSpan(span)
	m.Package = &ast.Package{Location: d.loc(), Path: ast.Ref(d.terms())}
	if n := d.count(); n > 0 {
		m.Imports = make([]*ast.Import, n)
		for i := range m.Imports {
			m.Imports[i] = &ast.Import{Path: d.term(), Alias: ast.Var(d.str()), Location: d.loc(), AliasLocation: d.loc()}
		}
	}
	if n := d.count(); n > 0 {
		m.Rules = make([]*ast.Rule, n)
		for i := range m.Rules {
			m.Rules[i] = d.rule(m)
		}
	}
	if n := d.count(); n > 0 {
		m.Comments = make([]*ast.Comment, n)
		for i := range m.Comments {
			m.Comments[i] = &ast.Comment{Text: d.bytes(), Location: d.loc()}
		}
	}
	return m
}

func (d *astDecoder) rule(m *ast.Module) *ast.Rule {
	if !d.enter() {
		return nil
	}
	defer d.leave()
	h := &ast.Head{Name: ast.Var(d.str()), Reference: ast.Ref(d.terms()), Args: ast.Args(d.terms())}
	h.Key, h.Value, h.Assign, h.Location = d.optTerm(), d.optTerm(), d.bool(), d.loc()
	r := &ast.Rule{Head: h, Body: d.body(), Default: d.bool(), Location: d.loc(), Module: m}
	if d.bool() {
		r.Else = d.rule(m)
	}
	return r
}

func (d *astDecoder) body() ast.Body {
	isSet, n := d.bool(), d.count()
	if !isSet {
		if n != 0 {
			d.fail()
		}
		return nil
	}
	b := make(ast.Body, n)
	for i := range b {
		b[i] = d.expr()
	}
	return b
}

func (d *astDecoder) expr() *ast.Expr {
	if !d.enter() {
		return nil
	}
	defer d.leave()
	x := d.exprSlab.new()
	if n := d.count(); n > 0 {
		x.With = make([]*ast.With, n)
		for i := range x.With {
			x.With[i] = &ast.With{Target: d.term(), Value: d.term(), Location: d.loc()}
		}
	}
	x.Index, x.Generated, x.Negated, x.Location = d.int(), d.bool(), d.bool(), d.loc()
	x.Terms = d.exprTerms()
	return x
}

func (d *astDecoder) exprTerms() any {
	switch d.uint() {
	case exprTerm:
		return d.term()
	case exprCall:
		return d.terms()
	case exprSome:
		return &ast.SomeDecl{Location: d.loc(), Symbols: d.terms()}
	case exprEvery:
		ev := &ast.Every{Location: d.loc()}
		ev.Key, ev.Value, ev.Domain = d.optTerm(), d.optTerm(), d.optTerm()
		ev.Body = d.body()
		return ev
	case exprNot:
		n := &ast.Not{Location: d.loc(), ExplicitBody: d.bool()}
		n.Body = d.body()
		return n
	case exprAnd:
		a := &ast.LogicalAnd{Location: d.loc(), ExplicitLhs: d.bool(), ExplicitRhs: d.bool()}
		a.Lhs, a.Rhs = d.body(), d.body()
		return a
	case exprOr:
		o := &ast.LogicalOr{Location: d.loc(), ExplicitLhs: d.bool(), ExplicitRhs: d.bool()}
		o.Lhs, o.Rhs = d.body(), d.body()
		return o
	}
	d.fail()
	return nil
}

func (d *astDecoder) terms() []*ast.Term {
	isSet, n := d.bool(), d.count()
	if !isSet {
		if n != 0 {
			d.fail()
		}
		return nil
	}
	ts := make([]*ast.Term, n)
	for i := range ts {
		ts[i] = d.term()
	}
	return ts
}

func (d *astDecoder) optTerm() *ast.Term {
	if !d.bool() {
		return nil
	}
	return d.term()
}

func (d *astDecoder) term() *ast.Term {
	if !d.enter() {
		return nil
	}
	defer d.leave()
	t := d.termSlab.new()
	t.Location = d.loc()
	t.Value = d.value()
	if t.Value == nil {
		d.fail()
	}
	return t
}

func (d *astDecoder) value() ast.Value {
	switch d.uint() {
	case valNull:
		return ast.NullValue
	case valFalse:
		return ast.Boolean(false)
	case valTrue:
		return ast.Boolean(true)
	case valNumber:
		return ast.Number(d.str())
	case valString:
		return ast.String(d.str())
	case valVar:
		return ast.Var(d.str())
	case valRef:
		return ast.Ref(d.terms())
	case valArray:
		return ast.NewArray(d.elems()...)
	case valSet:
		return ast.NewSet(d.elems()...)
	case valObject:
		return d.object()
	case valArrayCompr:
		t, _, b := d.compr()
		return &ast.ArrayComprehension{Term: t, Body: b}
	case valSetCompr:
		t, _, b := d.compr()
		return &ast.SetComprehension{Term: t, Body: b}
	case valObjectCompr:
		k, v, b := d.compr()
		return &ast.ObjectComprehension{Key: k, Value: v, Body: b}
	case valCall:
		return ast.Call(d.terms())
	case valTemplate:
		return d.template()
	}
	d.fail()
	return nil
}

func (d *astDecoder) elems() []*ast.Term {
	n := d.count()
	if n == 0 {
		return nil // as the parser leaves an empty array
	}
	ts := make([]*ast.Term, n)
	for i := range ts {
		ts[i] = d.term()
	}
	if d.err != nil {
		return nil
	}
	return ts
}

func (d *astDecoder) object() ast.Value {
	ts := d.elems()
	if len(ts)%2 != 0 {
		d.fail()
		return nil
	}
	pairs := make([][2]*ast.Term, len(ts)/2)
	for i := range pairs {
		pairs[i] = [2]*ast.Term{ts[2*i], ts[2*i+1]}
	}
	return ast.NewObject(pairs...)
}

func (d *astDecoder) compr() (*ast.Term, *ast.Term, ast.Body) {
	a := d.term()
	b := d.optTerm()
	return a, b, d.body()
}

func (d *astDecoder) template() ast.Value {
	ts := &ast.TemplateString{MultiLine: d.bool()}
	ts.Parts = make([]ast.Node, d.count())
	for i := range ts.Parts {
		if d.bool() {
			ts.Parts[i] = d.expr()
		} else {
			ts.Parts[i] = d.term()
		}
	}
	return ts
}

func (d *astDecoder) loc() *ast.Location {
	kind := d.uint()
	if kind == locNone {
		return nil
	}
	l := d.locSlab.new()
	l.File = d.file
	var textLen int
	switch kind {
	case locInSource:
		if textLen = int(min(d.uint(), uint64(len(d.src)+1))); textLen > len(d.src) {
			d.fail()
		}
	case locOtherFile:
		l.File = d.str()
		fallthrough
	case locOwnText:
		l.Text = d.bytes()
		if d.bool() {
			l.Text = nil
		}
		textLen = -1
	default:
		d.fail()
		return nil
	}
	l.Row, l.Col, l.Offset = d.int(), d.int(), d.int()
	if textLen >= 0 {
		if l.Offset < 0 || l.Offset+textLen > len(d.src) {
			d.fail()
			return nil
		}
		l.Text = d.src[l.Offset : l.Offset+textLen : l.Offset+textLen]
	}
	tabsSet, n := d.bool(), d.count()
	if tabsSet {
		l.Tabs = make([]int, n)
		for i := range l.Tabs {
			l.Tabs[i] = d.int()
		}
	} else if n != 0 {
		d.fail()
	}
	return l
}
