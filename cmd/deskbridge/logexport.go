package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/logcmd"
	"github.com/deskbridge/deskbridge/internal/cliflag"
	"github.com/deskbridge/deskbridge/policy"
)

const logUsage = `usage:
  deskbridge log verify --log FILE [--head HASH|HEADFILE] [--key FILE] [--pub FILE] [--json]
                          check that the hash-chained decision log is intact
  deskbridge log prove --log FILE --decision ID [--pub FILE]
                          print the proof that a decision is in a signed head
  deskbridge log export --log FILE --to DIR [--force]
                          copy the log, its rotated files, its checkpoints, signed heads
                          and every policy revision its decisions name into DIR, so that
                          deskbridge replay --log DIR/<name> works anywhere
  deskbridge log query --log FILE [filters] [--format jsonl|csv] [--summary]
                          print (or count) the decisions that match every
                          filter: time, origin, action, outcome, rule, path

Run deskbridge log verify|export|query --help for the flags.
`

// logCommand runs `deskbridge log SUBCOMMAND …`: export here (it reads
// the policy store), the others in decisionlog/logcmd.
func logCommand(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("log", logUsage, stdout, stderr)
	switch {
	case len(args) == 0:
		fmt.Fprint(stderr, logUsage)
		return cliflag.ExitUsage
	case cliflag.IsHelp(args[0]):
		c.Help()
		return 0
	case args[0] == "export":
		return logExport(args[1:], stdout, stderr)
	}
	return logcmd.Run(args, stdout, stderr)
}

const logExportUsage = `usage: deskbridge log export --log FILE --to DIR [--force]

Copy a decision log, its rotated files, its checkpoint file, its signed
heads with their public key, and every policy revision its decisions name (from the policies folder beside it) into the new folder
DIR, so that an auditor who receives DIR can verify and replay it:
  deskbridge replay --log DIR/<name of FILE>
The chain is verified first; a broken one is refused unless --force. A
policy revision missing from the store is named, with what to copy, and
the export exits 1.
`

// logExport runs `deskbridge log export`.
func logExport(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("log export", logExportUsage, stdout, stderr)
	logFile := c.Flags.String("log", "", "decision log `FILE` (its rotated FILE.n are copied too)")
	to := c.Flags.String("to", "", "new folder `DIR` to export into (must not exist, or be empty)")
	force := c.Flags.Bool("force", false, "export a log whose hash chain is broken")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	if *logFile == "" || *to == "" {
		return c.Fail("--log FILE and --to DIR are required")
	}
	v, err := decisionlog.VerifyFile(*logFile)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge log export: %v\n", err)
		return cliflag.ExitUsage
	}
	if !v.OK() && !*force {
		fmt.Fprintf(stderr, "deskbridge log export: %s's hash chain is broken (%d finding(s); see deskbridge log verify); --force exports it anyway\n", *logFile, len(v.Issues))
		return 1
	}
	hashes, err := loggedPolicies(*logFile)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge log export: %v\n", err)
		return 1
	}
	if err := emptyDir(*to); err != nil {
		fmt.Fprintf(stderr, "deskbridge log export: %v\n", err)
		return cliflag.ExitUsage
	}
	for _, f := range v.Files {
		if err := copyFile(f, filepath.Join(*to, filepath.Base(f)), 0o600); err != nil {
			fmt.Fprintf(stderr, "deskbridge log export: %v\n", err)
			return 1
		}
	}
	if err := copyCheckpoints(*logFile, *to); err != nil {
		fmt.Fprintf(stderr, "deskbridge log export: %v\n", err)
		return 1
	}
	missing := exportPolicies(policy.StoreDir(*logFile), filepath.Join(*to, "policies"), hashes, stderr)
	fmt.Fprintf(stdout, "exported %d file(s) of %s (chain head %s) and %d of %d policy revision(s) to %s\nreplay it with: deskbridge replay --log %s\n",
		len(v.Files), *logFile, v.Head, len(hashes)-missing, len(hashes), *to, filepath.Join(*to, filepath.Base(*logFile)))
	if missing > 0 {
		return 1
	}
	return 0
}

// copyCheckpoints copies the log's checkpoint file, its signed heads and
// their public key, those there are, beside the exported log, so that the
// auditor checks the export against them (log verify, replay).
func copyCheckpoints(logFile, to string) error {
	for _, src := range []string{decisionlog.CheckpointPath(logFile), decisionlog.HeadsPath(logFile), decisionlog.PublicKeyPath(logFile)} {
		err := copyFile(src, filepath.Join(to, filepath.Base(src)), 0o600)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// loggedPolicies lists the policy hashes the log's decisions name.
func loggedPolicies(logFile string) ([]string, error) {
	var out []string
	for ev, err := range decisionlog.Read(logFile) {
		if err != nil {
			return nil, err
		}
		if ev.PolicyHash != "" && !slices.Contains(out, ev.PolicyHash) {
			out = append(out, ev.PolicyHash)
		}
	}
	return out, nil
}

// exportPolicies copies the store entries of hashes from store to dst,
// checking each (policy.LoadStored), and returns how many are missing or
// damaged, each named on stderr with what to copy.
func exportPolicies(store, dst string, hashes []string, stderr io.Writer) int {
	missing := 0
	for _, h := range hashes {
		if _, _, err := policy.LoadStored(store, h); err != nil {
			missing++
			if errors.Is(err, policy.ErrNotStored) {
				fmt.Fprintf(stderr, "deskbridge log export: policy revision %s is not in %s: copy the folder %s from the machine that wrote the log into %s\n",
					h, store, h, dst)
			} else {
				fmt.Fprintf(stderr, "deskbridge log export: policy revision %s: %v\n", h, err)
			}
			continue
		}
		if err := copyTree(filepath.Join(store, h), filepath.Join(dst, h)); err != nil {
			missing++
			fmt.Fprintf(stderr, "deskbridge log export: policy revision %s: %v\n", h, err)
		}
	}
	return missing
}

// emptyDir creates dir, or accepts it when it exists and is empty.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s is not empty: export into a new folder", dir)
	}
	return nil
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case d.Type().IsRegular():
			return copyFile(p, target, 0o400)
		}
		return fmt.Errorf("%s is not a regular file", p)
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
