package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/install"
	"github.com/deskbridge/deskbridge/internal/cliflag"
)

const callUsage = `usage: deskbridge [--config FILE] call [--config FILE] ACTION [JSON-ARGUMENTS]

Run one request through the whole pipeline (decode, facts, policy,
executor, decision log) and print the response. Exit 0 when it succeeded,
1 when it was refused or failed.

Without --config (and DESKBRIDGE_CONFIG) the current folder is the only
workspace, under the embedded policy. Every call is logged, like the
host's requests, to the configuration's decision log; without a
configuration to the default one, decisions.jsonl in the user state
folder (Linux: $XDG_STATE_HOME/deskbridge, else ~/.local/state/deskbridge).
The first call that creates the log says where it is on stderr.
`

// call runs one request through the whole pipeline and prints the
// response. Without a configuration (no --config, no DESKBRIDGE_CONFIG)
// it uses the embedded default: the current folder is the only workspace
// and decisions are logged to the default decision log
// (config.Config.LogPath), where the host logs too.
func call(configPath string, args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("call", callUsage, stdout, stderr)
	c.Flags.StringVar(&configPath, "config", configPath, "configuration `FILE` (default $DESKBRIDGE_CONFIG, else the current folder as the only workspace)")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(1, 2); !ok {
		return code
	}
	arguments := "{}"
	if len(c.Pos) == 2 {
		arguments = c.Pos[1]
	}
	cfg, err := callConfig(configPath)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 1
	}
	sayWhereLogged(cfg, stderr)
	ctx, stop := signalContext()
	defer stop()
	h, err := engine.Start(ctx, engine.Options{Config: cfg, Channel: engine.ChannelCLI, HostLog: stderr, ProtectedPaths: install.ManifestDirs()})
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 1
	}
	defer h.Close()
	req := fmt.Sprintf(`{"version":1,"id":"cli-1","action":%q,"arguments":%s}`, c.Pos[0], arguments)
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
	return config.ForFolder(wd, "")
}

// sayWhereLogged tells on stderr where the decision log is when this call
// is about to create it.
func sayWhereLogged(cfg *config.Config, stderr io.Writer) {
	if cfg.DecisionLog.Disabled {
		return
	}
	if _, err := os.Stat(cfg.LogPath()); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "deskbridge: decisions are logged to %s (docs/decision-log.md)\n", cfg.LogPath())
	}
}
