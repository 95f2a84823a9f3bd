package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/install"
)

// call runs one request through the whole pipeline and prints the
// response. Without a configuration (no --config, no DESKBRIDGE_CONFIG)
// it uses the embedded default: the current folder is the only workspace
// and decisions are logged to the user state folder.
func call(configPath string, args []string, stdout, stderr io.Writer) int {
	if len(args) < 1 || len(args) > 2 {
		fmt.Fprint(stderr, "usage: deskbridge call ACTION [JSON-ARGUMENTS]\n")
		return 2
	}
	arguments := "{}"
	if len(args) == 2 {
		arguments = args[1]
	}
	cfg, err := callConfig(configPath)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 1
	}
	ctx, stop := signalContext()
	defer stop()
	h, err := engine.Start(ctx, engine.Options{Config: cfg, Channel: engine.ChannelCLI, HostLog: stderr, ProtectedPaths: install.ManifestDirs()})
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 1
	}
	defer h.Close()
	req := fmt.Sprintf(`{"version":1,"id":"cli-1","action":%q,"arguments":%s}`, args[0], arguments)
	resp := h.Handle(ctx, []byte(req))
	b, _ := engine.Encode(resp)
	var pretty bytes.Buffer
	json.Indent(&pretty, b, "", "  ")
	fmt.Fprintln(stdout, pretty.String())
	if s, ok := signalStatus(ctx); ok {
		return s
	}
	if !resp.Success {
		return 1
	}
	return 0
}

func callConfig(path string) (*config.Config, error) {
	if path != "" || os.Getenv(config.EnvVar) != "" {
		cfg, _, err := config.Load(path)
		return cfg, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return config.ForFolder(wd, filepath.Join(config.DefaultStateDir(), "call-decisions.jsonl"))
}
