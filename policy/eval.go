package policy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/print"
)

// compiled is one policy set compiled once, with the configuration in its
// store; queries over it evaluate through topdown directly, without the
// rego package's per-evaluation set-up and result conversion.
type compiled struct {
	compiler *ast.Compiler
	store    storage.Store
	print    print.Hook
	modules  map[string]*ast.Module
}

// compile parses and compiles src's modules with the capabilities
// decisions run under (the parser and compiler options the rego package
// used before), print statements on and data in the store (a rule
// that would shadow data.config is a compile error). Constant rules are
// inlined for the rule index (inline.go); mode can leave out stages.
func compile(ctx context.Context, src *Source, data map[string]any, out io.Writer, mode compileMode) (*compiled, error) {
	caps := Capabilities()
	mods, cached, err := mode.modules(src, caps)
	if err != nil {
		return nil, err
	}
	store := inmem.NewFromObjectWithOpts(src.DataDocument(data),
		inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true))
	txn, err := store.NewTransaction(ctx)
	if err != nil {
		return nil, err
	}
	defer store.Abort(ctx, txn)
	c := ast.NewCompiler().
		WithCapabilities(caps).
		WithEnablePrintStatements(true).
		WithUseTypeCheckAnnotations(true).
		WithPathConflictsCheck(storage.NonEmpty(ctx, store, txn)).
		WithSkipStages(skipped(mode.skipChecks)...)
	if !mode.keepRefs {
		c = c.WithStageAfterID(ast.StageCheckUnsafeBuiltins, inlineConstantsStage)
	}
	if c.Compile(mods); c.Failed() {
		return nil, c.Errors
	}
	if mode.useParseCache() && !cached {
		_ = saveParsed(mode.parseCache, src, mods) // the compiler copied mods
	}
	return &compiled{compiler: c, store: store, print: topdown.NewPrintHook(out), modules: mods}, nil
}

// compileMode leaves compiler stages out.
type compileMode struct {
	skipChecks bool // the check-only stages (checked.go)
	keepRefs   bool // inlineConstants: tests compare the set without it
	// parseCache is the file of the set's parse cache (astcache.go; "":
	// none), read and written only with skipChecks.
	parseCache string
}

func (mode compileMode) useParseCache() bool { return mode.skipChecks && mode.parseCache != "" }

// modules returns src's modules as mode parses them, from its parse cache
// when that holds them (cached true).
func (mode compileMode) modules(src *Source, caps *ast.Capabilities) (mods map[string]*ast.Module, cached bool, err error) {
	if mode.useParseCache() {
		if mods, err := loadParsed(mode.parseCache, src); err == nil {
			return mods, true, nil
		}
	}
	mods, err = parseModules(src, mode.parserOptions(caps))
	return mods, false, err
}

// parserOptions are the options a compile in mode parses with: a marked
// set's (skipChecks) leave METADATA comments unread (see parseModules).
func (mode compileMode) parserOptions(caps *ast.Capabilities) ast.ParserOptions {
	opts := parserOptions(caps)
	opts.ProcessAnnotation = !mode.skipChecks
	return opts
}

// skipped returns the check-only stages when skipChecks is set.
func skipped(skipChecks bool) []ast.StageID {
	if skipChecks {
		return checkOnlyStages
	}
	return nil
}

// parseModules parses src's modules with opts, several at once (parsing is
// a third of a cold start). Every module's parse errors are returned, in
// name order.
//
// A set with a mark (mode.skipChecks) is parsed without reading its
// METADATA comments (ProcessAnnotation false; 3 % of a parse's
// allocations): the mark says they were read and accepted when the same
// text was checked, and serving reads no annotation (only the contract
// checks do, which a marked set skips). A rule that calls rego.metadata
// still gets them: OPA's compiler parses the comments in its
// parse_metadata_blocks stage when some rule calls rego.metadata.chain or
// rego.metadata.rule.
func parseModules(src *Source, opts ast.ParserOptions) (map[string]*ast.Module, error) {
	names := sortedKeys(src.Modules)
	parsed := make([]*ast.Module, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(names); i = int(next.Add(1) - 1) {
				parsed[i], errs[i] = ast.ParseModuleWithOpts(names[i], src.Modules[names[i]], opts)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	mods := make(map[string]*ast.Module, len(names))
	for i, name := range names {
		mods[name] = parsed[i]
	}
	return mods, nil
}

// parserOptions are the options every module is parsed with, by the host
// and by `policy check` and `policy test` alike (caps nil: OPA's own).
// METADATA comments are read as OPA reads them, so that a set OPA's
// command line refuses (an annotation that is not YAML, a package
// annotated in two files) is refused here too, not first by `opa build`.
func parserOptions(caps *ast.Capabilities) ast.ParserOptions {
	return ast.ParserOptions{RegoVersion: ast.RegoV1, Capabilities: caps, ProcessAnnotation: true}
}

// hasPackage reports whether some module declares package path.
func (c *compiled) hasPackage(path string) bool {
	for _, m := range c.modules {
		if m.Package.Path.String() == path {
			return true
		}
	}
	return false
}

// query is one prepared query: `result = <ref>`.
type query struct {
	c      *compiled
	qc     ast.QueryCompiler
	body   ast.Body
	result ast.Var
	// opaCaches evaluates with OPA's own caches instead of the pooled
	// ones (tests compare the two).
	opaCaches bool
}

// prepare compiles the query `result = ref`.
func (c *compiled) prepare(ref string) (*query, error) {
	r, err := ast.ParseRef(ref)
	if err != nil {
		return nil, err
	}
	v := ast.Var("result")
	body := ast.NewBody(ast.Equality.Expr(ast.NewTerm(v), ast.NewTerm(r)))
	qc := c.compiler.QueryCompiler().WithEnablePrintStatements(true).WithStrict(false)
	compiled, err := qc.Compile(body)
	if err != nil {
		return nil, err
	}
	return &query{c: c, qc: qc, body: compiled, result: v}, nil
}

// eval evaluates q with input and returns the value of its ref, or nil
// when the ref is undefined. It stops when ctx is cancelled. A non-nil
// tracer receives every evaluation event.
func (q *query) eval(ctx context.Context, input ast.Value, tracer topdown.QueryTracer) (ast.Value, error) {
	txn, err := q.c.store.NewTransaction(ctx)
	if err != nil {
		return nil, err
	}
	defer q.c.store.Abort(ctx, txn)
	tq := topdown.NewQuery(q.body).
		WithQueryCompiler(q.qc).
		WithCompiler(q.c.compiler).
		WithStore(q.c.store).
		WithTransaction(txn).
		WithInput(ast.NewTerm(input)).
		WithStrictBuiltinErrors(true).
		WithPrintHook(q.c.print).
		WithMetrics(metrics.NoOp()).
		WithTime(time.Now())
	if !q.opaCaches {
		caches := getCaches()
		defer putCaches(caches)
		tq = tq.WithVirtualCache(&caches.virtual).WithBaseCache(&caches.base)
	}
	if tracer != nil {
		tq = tq.WithQueryTracer(tracer)
	}
	if ctx.Done() != nil {
		cancel := topdown.NewCancel()
		stop := context.AfterFunc(ctx, cancel.Cancel)
		defer stop()
		tq = tq.WithCancel(cancel)
	}
	var out ast.Value
	n := 0
	err = tq.Iter(ctx, func(r topdown.QueryResult) error {
		n++
		if t := r[q.result]; t != nil {
			out = t.Value
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if n > 1 {
		return nil, fmt.Errorf("policy: %s has %d values", q.body, n)
	}
	return out, nil
}
