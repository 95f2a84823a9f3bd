package policy

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
)

// TestReport counts the outcome of a policy test run.
type TestReport struct {
	Passed, Failed, Errored int
	// Failures name the tests that failed or errored, as
	// file:line: package.test_name.
	Failures []string
	// Coverage is OPA's coverage report of the modules (not the tests),
	// when TestOptions.Coverage asked for it.
	Coverage *cover.Report
}

// OK reports whether every test passed and at least one ran.
func (r TestReport) OK() bool { return r.Failed == 0 && r.Errored == 0 && r.Passed > 0 }

// TestOptions choose how RunTestsWith runs and reports a policy's tests;
// each is the setting of OPA's tester of the same name.
type TestOptions struct {
	Verbose bool
	// Run keeps the tests whose name (package.test_name) matches the
	// regular expression; "" runs them all.
	Run string
	// Timeout bounds each test; 0 is OPA's default.
	Timeout time.Duration
	// Coverage measures which lines of the modules the tests evaluate
	// (TestReport.Coverage).
	Coverage bool
	// JSON reports each result as OPA's JSON reporter does.
	JSON bool
	// Bench runs the tests as benchmarks and reports their times.
	Bench bool
}

// RunTests runs src's _test.rego tests with OPA's tester under the same
// restricted capabilities the host uses, writing OPA-style lines to w.
func RunTests(ctx context.Context, src *Source, verbose bool, w io.Writer) (TestReport, error) {
	return RunTestsWith(ctx, src, TestOptions{Verbose: verbose}, w)
}

// RunTestsWith is RunTests with every option of TestOptions.
func RunTestsWith(ctx context.Context, src *Source, opts TestOptions, w io.Writer) (TestReport, error) {
	modules, err := parseAll(src)
	if err != nil {
		return TestReport{}, err
	}
	compiler := ast.NewCompiler().
		WithCapabilities(Capabilities()).
		WithEnablePrintStatements(true)
	// The set's data documents are there (data.<team>); data.config is
	// not: tests give it with `with data.config as …`.
	store := inmem.NewFromObject(src.DataDocument(nil))
	txn, err := store.NewTransaction(ctx)
	if err != nil {
		return TestReport{}, err
	}
	defer store.Abort(ctx, txn)
	runner := tester.NewRunner().
		SetCompiler(compiler).
		SetStore(store).
		SetModules(modules).
		CapturePrintOutput(true).
		RaiseBuiltinErrors(true).
		Filter(opts.Run)
	if opts.Timeout > 0 {
		runner = runner.SetTimeout(opts.Timeout)
	}
	var cov *cover.Cover
	if opts.Coverage {
		cov = cover.New()
		runner = runner.SetCoverageQueryTracer(cov)
	}
	var ch chan *tester.Result
	if opts.Bench {
		ch, err = runner.RunBenchmarks(ctx, txn, tester.BenchmarkOptions{ReportAllocations: true})
	} else {
		ch, err = runner.RunTests(ctx, txn)
	}
	if err != nil {
		return TestReport{}, fmt.Errorf("policy tests: %w", err)
	}
	var results []*tester.Result
	var rep TestReport
	for r := range ch {
		switch {
		case r.Error != nil:
			rep.Errored++
			rep.Failures = append(rep.Failures, testName(r))
		case r.Fail:
			rep.Failed++
			rep.Failures = append(rep.Failures, testName(r))
		default:
			rep.Passed++
		}
		results = append(results, r)
	}
	if cov != nil {
		covered := policyCoverage(cov.Report(withoutTests(modules, src)), src)
		rep.Coverage = &covered
	}
	return rep, report(results, opts, w)
}

// report writes results to w with OPA's pretty or JSON reporter.
func report(results []*tester.Result, opts TestOptions, w io.Writer) error {
	ch := make(chan *tester.Result, len(results))
	for _, r := range results {
		ch <- r
	}
	close(ch)
	if opts.JSON {
		return tester.JSONReporter{Output: w}.Report(ch)
	}
	return tester.PrettyReporter{Output: w, Verbose: opts.Verbose, BenchmarkResults: opts.Bench, BenchMarkShowAllocations: opts.Bench}.Report(ch)
}

// withoutTests are the modules of src that are not tests: coverage is of
// the policy, not of its tests.
func withoutTests(modules map[string]*ast.Module, src *Source) map[string]*ast.Module {
	out := make(map[string]*ast.Module, len(src.Modules))
	for name := range src.Modules {
		out[name] = modules[name]
	}
	return out
}

func parseAll(src *Source) (map[string]*ast.Module, error) {
	modules := map[string]*ast.Module{}
	for _, set := range []map[string]string{src.Modules, src.Tests} {
		for name, text := range set {
			m, err := ast.ParseModuleWithOpts(name, text, parserOptions(nil))
			if err != nil {
				return nil, err
			}
			modules[name] = m
		}
	}
	return modules, nil
}

// testName names test result r as file:line: package.name.
func testName(r *tester.Result) string {
	name := strings.TrimPrefix(r.Package, "data.") + "." + r.Name
	if r.Location != nil {
		return fmt.Sprintf("%s:%d: %s", r.Location.File, r.Location.Row, name)
	}
	return name
}

// policyCoverage is r without the test files (the tracer sees them
// evaluated too), its totals counted again.
func policyCoverage(r cover.Report, src *Source) cover.Report {
	r.CoveredLines, r.NotCoveredLines = 0, 0
	for name, f := range r.Files {
		if _, isTest := src.Tests[name]; isTest {
			delete(r.Files, name)
			continue
		}
		r.CoveredLines += f.CoveredLines
		r.NotCoveredLines += f.NotCoveredLines
	}
	r.Coverage = 0
	if total := r.CoveredLines + r.NotCoveredLines; total > 0 {
		r.Coverage = 100 * float64(r.CoveredLines) / float64(total)
	}
	return r
}
