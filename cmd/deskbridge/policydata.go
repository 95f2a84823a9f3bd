package main

import (
	"fmt"
	"io"

	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/policy"
)

// policyData prints the data document the policy reads: data.config (the
// configuration) and the policy set's own data documents (data.<team>),
// of the configured policy or of DIR_OR_BUNDLE.
func policyData(configPath string, args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprint(stderr, policyUsage)
		return 2
	}
	cfg, err := callConfig(configPath)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	var src *policy.Source
	if len(args) == 1 {
		src, err = policy.Open(args[0])
	} else {
		src, err = engine.PolicySource(cfg)
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	data, err := engine.ConfigData(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	printJSON(stdout, src.DataDocument(data))
	return 0
}
