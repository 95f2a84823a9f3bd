package policy

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
)

// TestReport counts the outcome of a policy test run.
type TestReport struct {
	Passed, Failed, Errored int
	// Failures name the tests that failed or errored, as
	// file:line: package.test_name.
	Failures []string
}

// OK reports whether every test passed and at least one ran.
func (r TestReport) OK() bool { return r.Failed == 0 && r.Errored == 0 && r.Passed > 0 }

// RunTests runs src's _test.rego tests with OPA's tester under the same
// restricted capabilities the host uses, writing OPA-style lines to w.
func RunTests(ctx context.Context, src *Source, verbose bool, w io.Writer) (TestReport, error) {
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
	ch, err := tester.NewRunner().
		SetCompiler(compiler).
		SetStore(store).
		SetModules(modules).
		CapturePrintOutput(true).
		RaiseBuiltinErrors(true).
		RunTests(ctx, txn)
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
	reporter := tester.PrettyReporter{Output: w, Verbose: verbose}
	ch2 := make(chan *tester.Result, len(results))
	for _, r := range results {
		ch2 <- r
	}
	close(ch2)
	return rep, reporter.Report(ch2)
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
