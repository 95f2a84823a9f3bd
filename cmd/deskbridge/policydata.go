package main

import (
	"fmt"
	"io"

	"github.com/deskbridge/deskbridge/config"
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
	cfg, err := policyConfig(configPath, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	src, err := configuredSource(cfg, c.Arg(0), stderr)
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

// policyConfig loads the configuration as the host does (--config, else
// $DESKBRIDGE_CONFIG, else the user configuration folder's) and says on
// stderr which one it used.
func policyConfig(path string, stderr io.Writer) (*config.Config, error) {
	cfg, found, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if found {
		fmt.Fprintf(stderr, "deskbridge: configuration %s\n", cfg.Source)
	} else {
		fmt.Fprintf(stderr, "deskbridge: no configuration at %s: the defaults\n", config.DefaultPath())
	}
	return cfg, nil
}

// configuredSource is the policy at path, or, for "", the one cfg names
// (as the host reads it); it says on stderr which.
func configuredSource(cfg *config.Config, path string, stderr io.Writer) (*policy.Source, error) {
	if path != "" {
		return policy.Open(path)
	}
	src, err := engine.PolicySource(cfg)
	if err == nil {
		fmt.Fprintf(stderr, "deskbridge: policy %s\n", src.Name)
	}
	return src, err
}
