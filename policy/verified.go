package policy

import "github.com/open-policy-agent/opa/v1/ast"

// verifiedEmbedded is Source.Hash(nil) of the embedded policy set as
// TestEmbeddedPassesEveryCheck compiled it with every compiler stage. A
// set with exactly these modules is known to pass the check-only stages,
// so compiling it at start-up may skip them. Changing rego/ makes that
// test fail until this is updated (the test prints the new value); until
// then the changed set simply compiles with every stage.
const verifiedEmbedded = "7943c231d5ad12f09bcd42e079e89f2fe2b06da7ea353717b280141444a9e908"

// checkOnlyStages are the compiler stages that only report errors, and
// the rule dependency graph, which only the recursion and type checks read
// (evaluation does not): skipping them leaves the modules, rule tree and
// indices as a full compile makes them. The type check also records rule
// types in the compiler's type environment, which evaluation reads only
// for `with` replacing a function (the verified set has no `with` outside
// its tests). Rule conflicts (which include conflicts with data.config)
// and the unsafe-builtin check always run.
var checkOnlyStages = []ast.StageID{
	ast.StageCheckKeywordOverrides,
	ast.StageCheckVoidCalls,
	ast.StageSetGraph,
	ast.StageCheckUndefinedFuncs,
	ast.StageCheckSafetyRuleHeads,
	ast.StageCheckRecursion,
	ast.StageCheckTypes,
}

// verifiedSets are the module hashes that are known to pass every check.
var verifiedSets = map[string]bool{verifiedEmbedded: true}

// skippedStages returns the stages compiling src may skip: the check-only
// stages when src's modules are, byte for byte, a set verified by a full
// compile (verifiedSets), none otherwise. Only the module text decides;
// the capabilities and compiler options are fixed in the binary, and the
// configuration reaches the compiler only through the rule-conflict
// check, which always runs.
func skippedStages(src *Source) []ast.StageID {
	if verifiedSets[src.Hash(nil)] {
		return checkOnlyStages
	}
	return nil
}
