package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/install"
	"github.com/deskbridge/deskbridge/internal/cliflag"
	"github.com/deskbridge/deskbridge/policy"
)

const policyUsage = `usage:
  deskbridge policy check [DIR_OR_BUNDLE]               compile errors, as file:line:column
  deskbridge policy test [DIR_OR_BUNDLE] [-v] [--run REGEX] [--coverage [--threshold N]]
                         [--format text|json] [--bench] [--timeout D]
                                                        run the policy's _test.rego tests
  deskbridge policy fmt [--write] DIR                   list (or rewrite) the .rego files that are
                                                        not formatted as opa fmt formats them
  deskbridge [--config FILE] policy eval --input FILE [--query Q] [--explain full|notes|fails]
                         [--profile] [DIR_OR_BUNDLE]   one decision and the deny rules that fired,
                                                        or any query, with OPA's trace and profile
  deskbridge [--config FILE] policy data [DIR_OR_BUNDLE] the data the policy reads: data.config and
                                                        the policy's data documents (data.<team>)
  deskbridge [--config FILE] policy input [--origin O] [--logged] ACTION [JSON]
                                                        the input document the host would build
                                                        (--logged: as the decision log records it)
`

// policyCommand runs `deskbridge policy SUBCOMMAND …`.
func policyCommand(configPath string, args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("policy", policyUsage, stdout, stderr)
	switch {
	case len(args) == 0:
		fmt.Fprint(stderr, policyUsage)
		return cliflag.ExitUsage
	case cliflag.IsHelp(args[0]):
		c.Help()
		return 0
	case args[0] == "test":
		return policyTest(args[1:], stdout, stderr)
	case args[0] == "fmt":
		return policyFmt(args[1:], stdout, stderr)
	case args[0] == "check":
		return policyCheck(args[1:], stdout, stderr)
	case args[0] == "eval":
		return policyEval(configPath, args[1:], stdout, stderr)
	case args[0] == "input":
		return policyInput(configPath, args[1:], stdout, stderr)
	case args[0] == "data":
		return policyData(configPath, args[1:], stdout, stderr)
	}
	return c.Fail("unknown command %q (want check, test, fmt, eval, input or data)", args[0])
}

// loadSource reads the policy at path, or the embedded default when path is "".
func loadSource(path string) (*policy.Source, error) {
	if path == "" {
		return policy.Embedded(), nil
	}
	return policy.Open(path)
}

// policyCheck prints every compile problem; exit 1 when there is one.
func policyCheck(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("policy check", "usage: deskbridge policy check [DIR_OR_BUNDLE]\n\nCompile the policy (default: the embedded policy) and print every problem as file:line:column: what does not compile, a rule DeskBridge would not read or would read as another type (docs/writing-policies.md, section What DeskBridge refuses), a rule that errors on a sample request of an action, a failing test of the policy's own. Exit 1 when there is one.\n", stdout, stderr)
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 1); !ok {
		return code
	}
	src, err := loadSource(c.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	probs := policy.Check(src)
	errs := 0
	for _, p := range probs {
		fmt.Fprintln(stdout, p)
		if !p.Warning {
			errs++
		}
	}
	if errs == 0 {
		for _, p := range unenforcedLimits(context.Background(), src) {
			fmt.Fprintln(stdout, p)
			errs++
		}
	}
	if errs == 0 && c.Arg(0) != "" { // the embedded tests ran when it was built
		if msg := failingTests(src); msg != "" {
			fmt.Fprintln(stdout, msg)
			errs++
		}
	}
	if errs > 0 {
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d modules, %d test modules, no problems (%d warnings)\n", src.Name, len(src.Modules), len(src.Tests), len(probs))
	return 0
}

// failingTests runs src's own tests, as the host does before it serves
// src, and says which fail, or "".
func failingTests(src *policy.Source) string {
	rep, err := policy.RunTests(context.Background(), src, false, io.Discard)
	switch {
	case err != nil:
		return fmt.Sprintf("%s: its tests do not run (%v), so the host would not serve it", src.Name, err)
	case rep.Failed > 0 || rep.Errored > 0:
		return fmt.Sprintf("%s: its own tests fail, so the host would not serve it: %s (deskbridge policy test %s -v shows why)", src.Name, strings.Join(rep.Failures, ", "), src.Name)
	}
	return ""
}

// policyEval decides one input document (as `policy input` prints it, or
// the input of a decision-log event) and explains the denials.
func policyEval(configPath string, args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("policy eval", "usage: deskbridge [--config FILE] policy eval --input FILE [DIR_OR_BUNDLE]\n\nDecide one input document (as policy input prints it, or a logged event's input) with the configuration's data, and list the deny rules that fired. Exit 1 when it is denied.\n", stdout, stderr)
	inputFile := c.Flags.String("input", "", "input document `FILE` (JSON)")
	query := c.Flags.String("query", "", "evaluate the Rego `QUERY` instead of the decision (e.g. data.deskbridge.policies.acme.deny)")
	var qopts policy.QueryOptions
	c.Flags.StringVar(&qopts.Explain, "explain", "", "print OPA's trace: `full`, notes or fails")
	c.Flags.BoolVar(&qopts.Profile, "profile", false, "report the expressions that took longest")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 1); !ok {
		return code
	}
	if *inputFile == "" {
		return c.Fail("--input FILE is required")
	}
	e, in, err := evalSetup(configPath, *inputFile, c.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	if *query != "" || qopts.Explain != "" || qopts.Profile {
		return policyQuery(e, in, *query, qopts, stdout, stderr)
	}
	dec, fired, err := e.Explain(context.Background(), in)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	printJSON(stdout, map[string]any{"decision": dec.Result, "fired": fired})
	if !dec.Allow {
		return 1
	}
	return 0
}

// policyQuery evaluates query (the decision when "") and prints its
// results, OPA's trace and profile as asked.
func policyQuery(e *policy.Engine, in ast.Value, query string, opts policy.QueryOptions, stdout, stderr io.Writer) int {
	if query == "" {
		query = policy.Query
	}
	opts.Trace = stdout
	res, err := e.Query(context.Background(), query, in, opts)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	printJSON(stdout, res)
	return 0
}

// evalSetup compiles the policy with the configuration's data and reads
// the input document.
func evalSetup(configPath, inputFile, policyPath string) (*policy.Engine, ast.Value, error) {
	b, err := os.ReadFile(inputFile)
	if err != nil {
		return nil, nil, err
	}
	raw, err := policy.DecodeData(b)
	if err != nil {
		return nil, nil, fmt.Errorf("input %s: %w", inputFile, err)
	}
	in, err := ast.InterfaceToValue(raw)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := policyConfig(configPath, os.Stderr)
	if err != nil {
		return nil, nil, err
	}
	src, err := configuredSource(cfg, policyPath, os.Stderr)
	if err != nil {
		return nil, nil, err
	}
	data, err := engine.ConfigData(cfg)
	if err != nil {
		return nil, nil, err
	}
	e, err := policy.New(context.Background(), src, policy.Options{Data: data, Print: os.Stderr})
	return e, in, err
}

// policyInput prints the input document the host would build for a
// request, without deciding or acting.
func policyInput(configPath string, args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("policy input", "usage: deskbridge [--config FILE] policy input [--origin O] [--logged] ACTION [JSON]\n\nPrint the input document the host would build for a request, without deciding or acting.\n", stdout, stderr)
	flags := c.Flags
	origin := flags.String("origin", "", "build the input for a request from this extension `ORIGIN` (channel native)")
	logged := flags.Bool("logged", false, "print the input as the decision log would record it (decided, then masked), with what was masked")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(1, 2); !ok {
		return code
	}
	cfg, err := policyConfig(configPath, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	cfg.DecisionLog.Disabled = true // nothing is decided, so nothing is logged
	opts := engine.Options{Config: cfg, Channel: engine.ChannelCLI, HostLog: stderr, ProtectedPaths: install.ManifestDirs()}
	if *origin != "" {
		opts.Channel, opts.Origin = engine.ChannelNative, *origin
	}
	h, err := engine.Start(context.Background(), opts)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	defer h.Close()
	arguments := "{}"
	if len(c.Pos) == 2 {
		arguments = c.Pos[1]
	}
	req := fmt.Sprintf(`{"version":1,"id":"cli-1","action":%q,"arguments":%s}`, c.Pos[0], arguments)
	if *logged {
		return printLoggedInput(h, []byte(req), stdout, stderr)
	}
	in, perr := h.Input(context.Background(), []byte(req))
	if perr != nil {
		fmt.Fprintf(stderr, "deskbridge: %s: %s\n", perr.Code, perr.Message)
		return 1
	}
	printJSON(stdout, in)
	return 0
}

// printLoggedInput prints {"input", "masked", "erased"} of req as the
// decision log would record them.
func printLoggedInput(h *engine.Host, req []byte, stdout, stderr io.Writer) int {
	in, masked, erased, perr := h.LoggedInput(context.Background(), req)
	if perr != nil {
		fmt.Fprintf(stderr, "deskbridge: %s: %s\n", perr.Code, perr.Message)
		return 1
	}
	printJSON(stdout, map[string]any{"input": in, "masked": orEmpty(masked), "erased": orEmpty(erased)})
	return 0
}

// orEmpty is s, or an empty list for nil (printed [] rather than null).
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func printJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}
