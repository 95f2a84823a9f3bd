package facts

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Sensitivity classes reported in Path.Sensitivity.
const (
	// Secret marks keys, credentials and environment files: never read,
	// written, listed to an agent or searched.
	Secret = "secret"
	// Executes marks files that run later (hooks, task and shell start-up
	// files, autostart folders): never written.
	Executes = "executes"
)

// DefaultSecret are the built-in secret patterns: the one list every
// action, every command's path arguments and the agent's workspace view
// classify by. It was reviewed against the secret-bearing file names of
// gitleaks (its pkcs12-file path rule and its former global file list:
// key stores, password databases, *_rsa/*_dsa/*_ecdsa/*_ed25519, pgpass,
// s3cfg, aws/credentials, htpasswd, git-credentials) and the credential
// files of common command-line tools; docs/policy-input.md lists it.
//
// SSH keys are named by their OpenSSH types (id_rsa, id_ecdsa_sk …)
// rather than by a bare id_*, which would also take id_card.py.
var DefaultSecret = []string{
	// Environment files: .env, .env.production, config/prod.env.
	".env", ".env.*", "*.env", ".envrc",
	// Keys, certificates with keys, key stores and password databases.
	"*.pem", "*.key", "*.ppk", "*.p12", "*.pfx", "*.pkcs12", "*.jks", "*.keystore", "*.bks",
	"*.kdbx", "*.kdb", "*.psafe3", "*.agilekeychain", "*.keychain", "*.keychain-db", "*.keytab",
	"*.ovpn", "*.tblk",
	"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*", "id_xmss*",
	"*_rsa", "*_dsa", "*_ecdsa", "*_ed25519",
	// Infrastructure state and variables.
	"*.tfstate", "*.tfstate.*", "*.tfvars", "*.tfvars.json", "terraform.tfvars",
	// Credential files of tools.
	".npmrc", ".pypirc", ".netrc", "_netrc", ".pgpass", ".my.cnf", ".git-credentials", ".vault-token",
	"credentials", "credentials*.json", "client_secret*.json", ".htpasswd", "secrets.*",
	"kubeconfig", ".dockercfg",
	".ssh", ".gnupg", ".aws", ".azure", ".kube", ".password-store",
	".docker/config.json", ".config/gcloud", ".terraform.d/credentials.tfrc.json",
	".config/gh", ".config/hub", ".config/rclone", ".cargo/credentials", ".cargo/credentials.toml",
	".gem/credentials", ".composer/auth.json", ".m2/settings-security.xml",
	".s3cfg", ".boto", ".terraformrc", ".local/share/keyrings",
	// A repository's own configuration holds remote URLs with tokens
	// (https://user:token@host/...) and http.extraHeader credentials.
	".git/config", ".git/config.worktree", ".git/modules/*/config", ".git/worktrees/*/config.worktree",
	// The system's password hashes, host keys and other secrets only root
	// reads (a workspace of / or /etc, and a host run as root, would
	// otherwise hand them out).
	"etc/shadow", "etc/shadow-", "etc/gshadow", "etc/gshadow-", "etc/master.passwd", "etc/spwd.db",
	"etc/security/opasswd", "etc/sudoers", "etc/sudoers.d", "etc/ssh/ssh_host_*",
	"etc/ppp/chap-secrets", "etc/ppp/pap-secrets", "var/db/shadow",
	"Windows/System32/config/SAM", "Windows/System32/config/SECURITY", "Windows/System32/config/SYSTEM",
}

// DefaultExecutes are the built-in patterns of files that run later:
// what another program reads to decide what to run (a task, build or
// test definition, a hook, an editor's tasks), shell start-up files,
// autostart entries, and the folders of programs users run by name.
var DefaultExecutes = []string{
	".git", ".husky", ".githooks", ".pre-commit-config.yaml", ".devcontainer",
	".vscode", "*.code-workspace",
	".idea/workspace.xml", ".idea/runConfigurations",
	// Task, build and test definitions that npm, yarn, make, just, tox,
	// pytest, pip and CI run: writing one is writing a script.
	"makefile", "gnumakefile", "*.mk", "justfile", ".justfile",
	"package.json", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs",
	".github/workflows", ".github/actions", ".gitlab-ci.yml",
	"conftest.py", "tox.ini", "noxfile.py", "pyproject.toml", "setup.py", "setup.cfg",
	// Shell start-up files.
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".cshrc", ".tcshrc", ".kshrc",
	".xprofile", ".xinitrc", ".xsession", ".xsessionrc",
	".config/fish", ".config/autostart", ".config/systemd/user", ".config/environment.d",
	// What xdg-open and the desktop start for a file or URL.
	".config/mimeapps.list", ".local/share/applications",
	"Library/LaunchAgents", "Library/LaunchDaemons",
	"Library/Application Support/com.apple.backgroundtaskmanagementagent",
	"Start Menu/Programs/Startup",
	"Microsoft.PowerShell_profile.ps1", "profile.ps1",
	".gitconfig", ".config/git", ".bash_aliases", ".hg",
	"NativeMessagingHosts", "native-messaging-hosts",
	// Folders of programs users run by name (on the PATH).
	".local/bin", ".cargo/bin", ".npm-global/bin", ".yarn/bin", ".deno/bin", ".bun/bin",
}

// HomeExecutes are folders below the home folder that hold programs users
// run by name, too common a name elsewhere (a project's bin/) to match
// anywhere: NewClassifier anchors them at the user's home folder.
var HomeExecutes = []string{"bin", "go/bin"}

// Classifier assigns a sensitivity class to a path by glob patterns over
// its components. A pattern is a slash-separated list of path.Match globs
// that matches any run of consecutive components; a match on a folder
// covers everything beneath it. Secret is checked before Executes.
//
// Matching ignores case on every OS: whether `.ENV` opens `.env` is a
// property of the file system (WSL's /mnt/c, vfat and exFAT drives, CIFS
// shares and casefold folders are case-insensitive on Linux too), and a
// false positive costs less than a leaked secret.
type Classifier struct {
	secret, executes patternSet
}

// patternSet is a compiled list of patterns: one-component patterns
// without glob characters are looked up in a set; the rest are matched
// component by component, literal components by string comparison, those
// whose first component is literal only where a path element equals it
// (looked up by it), the others at every element.
//
// Runs whose first component is a suffix glob with a dot (*.pem,
// *.tfvars.json) are looked up by the extension of the element, the part
// from its last dot (".pem", ".json"): an element that ends with the
// suffix has the suffix's extension, so only those runs need matching.
// Runs whose first component is another glob that begins with two literal
// bytes (id_rsa*, credentials*.json) are looked up by the element's first
// two bytes.
type patternSet struct {
	names     map[string]bool
	byFirst   map[string][][]component // runs by their literal first component
	byExt     map[string][][]component // runs whose first component is *<…>.<ext>, by .<ext>
	byLead    map[string][][]component // runs whose first component is a glob with a literal lead, by its first two bytes
	globFirst [][]component            // runs whose first component is any other glob
}

// component is one slash-separated element of a pattern.
type component struct {
	text string
	glob bool // text has path.Match metacharacters
	// prefix, suffix, contains: the glob is text*, *text or *text* with
	// text literal.
	prefix, suffix, contains bool
}

// newComponent classifies one pattern element.
func newComponent(e string) component {
	const meta = `*?[\`
	if !strings.ContainsAny(e, meta) {
		return component{text: e}
	}
	if rest, ok := strings.CutSuffix(e, "*"); ok && !strings.ContainsAny(rest, meta) {
		return component{text: rest, glob: true, prefix: true}
	}
	if rest, ok := strings.CutPrefix(e, "*"); ok && !strings.ContainsAny(rest, meta) {
		return component{text: rest, glob: true, suffix: true}
	}
	if mid, ok := strings.CutPrefix(e, "*"); ok {
		if mid, ok = strings.CutSuffix(mid, "*"); ok && !strings.ContainsAny(mid, meta) {
			return component{text: mid, glob: true, contains: true}
		}
	}
	return component{text: e, glob: true}
}

// match reports whether the element e matches the component, as
// path.Match would (a * never matches a slash; elements have none).
func (g component) match(e string) bool {
	switch {
	case !g.glob:
		return g.text == e
	case g.prefix:
		return strings.HasPrefix(e, g.text)
	case g.suffix:
		return strings.HasSuffix(e, g.text)
	case g.contains:
		return strings.Contains(e, g.text)
	}
	ok, _ := path.Match(g.text, e)
	return ok
}

// NewClassifier returns a Classifier with the built-in patterns plus extra
// secret and executes patterns from the configuration.
// HomeExecutes are anchored at the home folder ($HOME, or the user's
// profile folder on Windows), with its symlinks resolved as canonical
// paths have theirs.
func NewClassifier(extraSecret, extraExecutes []string) *Classifier {
	c := &Classifier{}
	c.secret = c.compile(append(append([]string{}, DefaultSecret...), extraSecret...))
	executes := append(append([]string{}, DefaultExecutes...), extraExecutes...)
	c.executes = c.compile(append(executes, homePatterns(HomeExecutes)...))
	return c
}

// homePatterns returns rels as absolute patterns below the home folder,
// or none when there is no home folder.
func homePatterns(rels []string) []string {
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return nil
	}
	if real, err := filepath.EvalSymlinks(home); err == nil {
		home = real
	}
	var out []string
	for _, r := range rels {
		out = append(out, escapeGlob(filepath.ToSlash(filepath.Join(home, r))))
	}
	return out
}

// escapeGlob quotes path.Match's metacharacters in a literal path.
func escapeGlob(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (c *Classifier) compile(patterns []string) patternSet {
	set := patternSet{names: map[string]bool{}, byFirst: map[string][][]component{},
		byExt: map[string][][]component{}, byLead: map[string][][]component{}}
	for _, p := range patterns {
		p = strings.ToLower(strings.Trim(filepath.ToSlash(p), "/"))
		if p == "" {
			continue
		}
		var run []component
		for _, e := range strings.Split(p, "/") {
			run = append(run, newComponent(e))
		}
		switch {
		case len(run) == 1 && !run[0].glob:
			set.names[run[0].text] = true
		case !run[0].glob:
			set.byFirst[run[0].text] = append(set.byFirst[run[0].text], run)
		case run[0].suffix && strings.Contains(run[0].text, "."):
			ext := extension(run[0].text)
			set.byExt[ext] = append(set.byExt[ext], run)
		case !run[0].suffix && !run[0].contains && len(literalLead(run[0].text)) >= 2:
			lead := run[0].text[:2]
			set.byLead[lead] = append(set.byLead[lead], run)
		default:
			set.globFirst = append(set.globFirst, run)
		}
	}
	return set
}

// Classify returns the class of a native absolute or relative path.
func (c *Classifier) Classify(p string) string {
	return c.ClassifySlash(filepath.ToSlash(p))
}

// ClassifySlash returns the class of a slash-separated path.
func (c *Classifier) ClassifySlash(p string) string {
	p = strings.ToLower(p)
	elems := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
	switch {
	case anyMatch(c.secret, elems):
		return Secret
	case anyMatch(c.executes, elems):
		return Executes
	}
	return ""
}

// anyMatch reports whether a pattern of set matches a run of elems
// starting at any element.
func anyMatch(set patternSet, elems []string) bool {
	for start, e := range elems {
		if set.names[e] {
			return true
		}
		for _, pat := range set.byFirst[e] {
			if matchRun(pat[1:], elems[start+1:]) {
				return true
			}
		}
		for _, pat := range set.byExt[extension(e)] {
			if matchRun(pat, elems[start:]) {
				return true
			}
		}
		if len(e) >= 2 {
			for _, pat := range set.byLead[e[:2]] {
				if matchRun(pat, elems[start:]) {
					return true
				}
			}
		}
		for _, pat := range set.globFirst {
			if matchRun(pat, elems[start:]) {
				return true
			}
		}
	}
	return false
}

// matchRun reports whether pat matches a prefix of elems.
func matchRun(pat []component, elems []string) bool {
	if len(pat) > len(elems) {
		return false
	}
	for i, g := range pat {
		if !g.match(elems[i]) {
			return false
		}
	}
	return true
}

// extension is the part of a path element from its last dot, or "".
func extension(e string) string {
	if i := strings.LastIndexByte(e, '.'); i >= 0 {
		return e[i:]
	}
	return ""
}

// literalLead is the part of a glob before its first metacharacter.
func literalLead(glob string) string {
	if i := strings.IndexAny(glob, `*?[\`); i >= 0 {
		return glob[:i]
	}
	return glob
}
