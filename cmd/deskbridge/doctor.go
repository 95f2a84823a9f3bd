package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/install"
	"github.com/deskbridge/deskbridge/internal/cliflag"
)

const doctorUsage = `usage: deskbridge [--config FILE] doctor [--browser LIST]

Find every problem that stops the host, and say how to fix each:
  - each browser's registration, user and system-wide: the manifest is
    DeskBridge's, starts this binary, lists exact extension origins, and
    neither it nor the binary is writable by others;
  - the configuration, loaded exactly as the host loads it: every problem,
    each with the file, the line and column and the member;
  - workspaces that give away the machine (/, a system folder, the home
    folder) or hold DeskBridge's own files, which it names;
  - every registered extension is allowed by allowed_origins;
  - the policy compiles and its tests pass;
  - the decision log, its lock and the policy store can be written;
  - the command sandbox (Landlock) is up, and each skill's runtime is
    present, or why not;
  - the servers and clipboard owner running in the background (see
    deskbridge status).
Nothing is written. Exit 0 when the host would serve, 1 when something
must be fixed ("FIX" lines), 2 on bad usage.
`

// doctorCommand runs `deskbridge doctor`.
func doctorCommand(configPath string, args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("doctor", doctorUsage, stdout, stderr)
	browsers := c.Flags.String("browser", "all", "browsers to check, comma-separated: chrome,chromium,edge,brave,vivaldi,firefox or all")
	c.Flags.StringVar(&configPath, "config", configPath, "configuration `FILE` (default $DESKBRIDGE_CONFIG, else deskbridge/config.json in the user configuration folder)")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	bs, err := install.ParseBrowsers(*browsers)
	if err != nil {
		return c.Fail("%v", err)
	}
	origins, healthy := install.NewInstaller(stdout).DoctorRegistrations(bs)
	if !doctorConfig(configPath, origins, stdout) {
		healthy = false
	}
	if !healthy {
		return 1
	}
	return 0
}

// doctorConfig loads the configuration as the host does (config.Load,
// then engine.Check for the rest of engine.Start) and prints what it
// finds; it reports whether nothing needs fixing.
func doctorConfig(configPath string, origins []string, out io.Writer) bool {
	cfg, found, err := config.Load(configPath)
	if err != nil {
		printConfigError(out, err)
		return false
	}
	if !found {
		fmt.Fprintf(out, "FIX  configuration: there is none at %s, so the host serves no workspace and no extension: run deskbridge install --extension-id ID, or pass --config FILE\n", config.DefaultPath())
		return false
	}
	fmt.Fprintf(out, "ok   configuration %s (%d workspace(s))\n", cfg.Source, len(cfg.Workspaces))
	doctorProcesses(cfg, out)
	ok := true
	if len(cfg.Workspaces) == 0 {
		fmt.Fprintf(out, "warn configuration: no workspaces: every file and command request is refused; add one to %s (docs/configuration.md)\n", cfg.Source)
	}
	for _, f := range engine.CheckWorkspaces(cfg, install.ManifestDirs()) {
		fmt.Fprintf(out, "%-4s %s: %s\n", f.Level, f.What, f.Detail)
	}
	for _, o := range origins {
		if !slices.Contains(cfg.AllowedOrigins, o) {
			fmt.Fprintf(out, "FIX  configuration %s: member /allowed_origins lacks %s, which a browser's manifest names, so the host refuses that extension: add it\n", cfg.Source, o)
			ok = false
		}
	}
	for _, f := range engine.Check(context.Background(), cfg) {
		fmt.Fprintf(out, "%-4s %s: %s\n", f.Level, f.What, f.Detail)
		ok = ok && f.Level != engine.LevelFix
	}
	return ok
}

// printConfigError prints every problem of a configuration the host
// refuses: the file, the member and the line and column when known.
func printConfigError(out io.Writer, err error) {
	problems := config.Problems(err)
	if problems == nil {
		fmt.Fprintf(out, "FIX  configuration: %v\n", err)
		return
	}
	for _, ce := range problems {
		where := ce.File
		if ce.Line > 0 {
			where = fmt.Sprintf("%s, line %d, column %d", ce.File, ce.Line, ce.Column)
		}
		if ce.Member != "" {
			where += ", member " + ce.Member
		}
		fmt.Fprintf(out, "FIX  configuration %s: %s\n", where, ce.Msg)
	}
	fmt.Fprintln(out, "     (the host refuses every request until this is fixed; docs/configuration.md describes every member)")
}
