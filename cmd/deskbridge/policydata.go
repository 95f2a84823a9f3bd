package main

import (
	"fmt"
	"io"

	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/internal/cliflag"
	"github.com/deskbridge/deskbridge/policy"
)

// policyData prints the data document the policy reads: data.config (the
// configuration) and the policy set's own data documents (data.<team>),
// of the configured policy or of DIR_OR_BUNDLE.
func policyData(configPath string, args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("policy data", "usage: deskbridge [--config FILE] policy data [DIR_OR_BUNDLE]\n\nPrint the data the policy reads: data.config and the policy's data documents (data.<team>).\n", stdout, stderr)
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 1); !ok {
		return code
	}
	args = c.Pos
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
