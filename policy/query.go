package policy

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/profiler"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/lineage"
)

// QueryOptions choose what Query reports beside the results.
type QueryOptions struct {
	// Explain writes OPA's trace to Trace: "full", "notes" or "fails"
	// (opa eval --explain); "" writes none.
	Explain string
	Trace   io.Writer
	// Profile reports the expressions that took longest (opa eval
	// --profile).
	Profile bool
}

// QueryResult is what Query found.
type QueryResult struct {
	// Results are the query's bindings, one map per result.
	Results []map[string]any `json:"result"`
	// Profile are the costliest expressions, with Options.Profile.
	Profile []profiler.ExprStats `json:"profile,omitempty"`
}

// Query evaluates any Rego query over the compiled set and input, with
// the host's capabilities and builtin errors raised, for `policy eval`.
func (e *Engine) Query(ctx context.Context, text string, input ast.Value, opts QueryOptions) (QueryResult, error) {
	body, err := ast.ParseBodyWithOpts(text, parserOptions(nil))
	if err != nil {
		return QueryResult{}, err
	}
	if t, ok := body[0].Terms.(*ast.Term); len(body) == 1 && ok && !body[0].Negated {
		// A bare value (data.x.deny): bind it to "value", as opa eval
		// reports an expression's value.
		body = ast.NewBody(ast.Equality.Expr(ast.VarTerm("value"), t))
	}
	qc := e.c.compiler.QueryCompiler().WithEnablePrintStatements(true)
	compiled, err := qc.Compile(body)
	if err != nil {
		return QueryResult{}, err
	}
	txn, err := e.c.store.NewTransaction(ctx)
	if err != nil {
		return QueryResult{}, err
	}
	defer e.c.store.Abort(ctx, txn)
	tq := topdown.NewQuery(compiled).WithQueryCompiler(qc).WithCompiler(e.c.compiler).
		WithStore(e.c.store).WithTransaction(txn).WithInput(ast.NewTerm(input)).
		WithStrictBuiltinErrors(true).WithPrintHook(e.c.print).WithTime(time.Now())
	var buf *topdown.BufferTracer
	if opts.Explain != "" {
		buf = topdown.NewBufferTracer()
		tq = tq.WithQueryTracer(buf)
	}
	var prof *profiler.Profiler
	if opts.Profile {
		prof = profiler.New()
		tq = tq.WithQueryTracer(prof)
	}
	var res QueryResult
	names := qc.RewrittenVars() // x := … is evaluated as a generated variable
	err = tq.Iter(ctx, func(r topdown.QueryResult) error {
		m := map[string]any{}
		for k, v := range r {
			if orig, ok := names[k]; ok {
				k = orig
			}
			if k.IsGenerated() || k.IsWildcard() {
				continue
			}
			var jerr error
			if m[string(k)], jerr = ast.JSON(v.Value); jerr != nil {
				return jerr
			}
		}
		res.Results = append(res.Results, m)
		return nil
	})
	if buf != nil {
		if err := writeTrace(opts.Trace, opts.Explain, *buf); err != nil {
			return QueryResult{}, err
		}
	}
	if prof != nil {
		res.Profile = prof.ReportTopNResults(10, []string{"total_time_ns", "num_eval", "num_redo", "file", "line"})
	}
	return res, err
}

// writeTrace writes trace filtered as mode says, as opa eval --explain.
func writeTrace(w io.Writer, mode string, trace []*topdown.Event) error {
	switch mode {
	case "full":
		trace = lineage.Full(trace)
	case "notes":
		trace = lineage.Notes(trace)
	case "fails":
		trace = lineage.Fails(trace)
	default:
		return fmt.Errorf("--explain is full, notes or fails, not %q", mode)
	}
	topdown.PrettyTraceWithLocation(w, trace)
	return nil
}
