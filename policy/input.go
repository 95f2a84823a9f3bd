package policy

import (
	stdjson "encoding/json"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// InputVersion is the version of the input document's shape.
const InputVersion = 1

// Input is the policy input document (docs/policy-input.md): what one
// request is, with the facts the host computed about it. Document turns
// it into the value the policy evaluates and the decision log records.
type Input struct {
	Version int           `json:"version"`
	TimeNS  int64         `json:"time_ns"`
	Request Request       `json:"request"`
	Paths   map[Role]Path `json:"paths"`
	// Command, URL, Import, Run and Write are set for the actions whose
	// card (protocol.ActionInfo.Input) names them: the program a request
	// runs, its URL, the import source of a file, the agent run, and
	// whether the file a request writes is a program. Document puts every
	// member of the document in, {} for one that is nil, so the input
	// always has the same members (docs/policy-input.md).
	Command *Command `json:"command,omitzero"`
	URL     *URL     `json:"url,omitzero"`
	Import  *Import  `json:"import,omitzero"`
	Run     *Run     `json:"run,omitzero"`
	Write   *Write   `json:"write,omitzero"`
	// Content is set only for the content decision (DecideContent): what
	// the executor read and is about to send matched secret formats.
	Content *Content `json:"content,omitzero"`
}

// Write is input.write: what the file a request writes would be.
// DeskBridge never sets an executable bit, so Executable says whether the
// file is a program by what it is: its content starts as one (#!, ELF, MZ,
// Mach-O: "shebang", "elf", "pe", "mach-o") or its name ends in an
// extension Windows runs by name ("extension": .exe, .bat, .cmd, .ps1 …).
// For a download or a patch the content is not known when the policy
// decides, and only the name counts.
type Write struct {
	Executable bool   `json:"executable"`
	Reason     string `json:"reason,omitzero"`
}

// Content is input.content: the secret formats found in what a request
// would send out of the host, by rule id, never the secrets themselves.
type Content struct {
	Secrets []ContentSecret `json:"secrets"`
}

// ContentSecret is one rule that matched in one part of the response.
type ContentSecret struct {
	// Rule is the secret format's id (gitleaks' rule id, e.g.
	// "aws-access-token").
	Rule string `json:"rule"`
	// Source is the member of the answer it is in, with its indices:
	// "content" (read_file), "stdout" (run_command), "entries[3].name"
	// (list_folder), "results[2].data.content" (web_agent_context).
	Source string `json:"source"`
	// Count is how many times the rule matched there.
	Count int `json:"count"`
}

// Request is input.request.
type Request struct {
	ID      string `json:"id"`
	Action  string `json:"action"`
	Skill   string `json:"skill"`
	Origin  string `json:"origin"`
	Channel string `json:"channel"`
	// Arguments are the decoded arguments the executor runs with; their
	// JSON form enters the document.
	Arguments any `json:"arguments"`
	// Digest names the members of Arguments that enter as {length,
	// sha256} instead of themselves; "edits[].new_text" reaches into
	// every element of an array. It is the same for every request of an
	// action.
	Digest []string `json:"-"`
}

// Role names a path argument's part in its action.
type Role string

// The roles of path arguments.
const (
	RoleTarget      Role = "target"
	RoleSource      Role = "source"
	RoleDestination Role = "destination"
	RoleCwd         Role = "cwd"
)

// Path is one entry of input.paths.
type Path struct {
	Input         string `json:"input"`
	Canonical     string `json:"canonical"`
	Workspace     string `json:"workspace"`
	WorkspaceRoot string `json:"workspace_root"`
	Relative      string `json:"relative"`
	Inside        bool   `json:"inside"`
	Exists        bool   `json:"exists"`
	Type          string `json:"type"`
	Sensitivity   string `json:"sensitivity"`
	Protected     bool   `json:"protected"`
	Links         int    `json:"links"`
	// Size is an existing regular file's size in bytes (0 for anything
	// else), and Modified its modification time in RFC 3339 (UTC, with
	// nanoseconds; "" when nothing exists at the path).
	Size     int64  `json:"size"`
	Modified string `json:"modified"`
}

// Rel returns the path relative to its workspace root in native form, as
// the executor's root handle takes it.
func (p Path) Rel() string { return filepath.FromSlash(p.Relative) }

// Command is input.command.
type Command struct {
	Argv        []string `json:"argv"`
	Program     string   `json:"program"`
	ProgramName string   `json:"program_name"`
	Resolved    string   `json:"resolved"`
	Args        []string `json:"args"`
	// OptionsEnd is the index in Args of the first "--", or len(Args).
	OptionsEnd int `json:"options_end"`
	// FirstOperand is the index in Args of the first argument that does
	// not begin with "-", or len(Args).
	FirstOperand int              `json:"first_operand"`
	PathArgs     []CommandPathArg `json:"path_args"`
	EnvNames     []string         `json:"env_names"`
	HasStdin     bool             `json:"has_stdin"`
	// ScriptRunner names the kind of program that runs scripts the
	// workspace defines (package.json scripts, a Makefile, conftest.py,
	// build scripts …), or is "" for a program that does not.
	ScriptRunner string `json:"script_runner"`
	// Excludes are arguments the host inserts into Argv at ExcludesAt
	// before it runs the program: exclusions (git pathspecs, grep's
	// --exclude, rg's --iglob) that keep files of the secret class out of
	// a reader of many files.
	Excludes   []string `json:"excludes"`
	ExcludesAt int      `json:"excludes_at"`
	// GitObjects are the revision operands of git show and git diff
	// (before "--", not paths, not rev:path) with the type of the object
	// each names: "commit", "tree", "blob", or "unknown" when it could not
	// be resolved. Such a reader prints a blob named by id or ref whole,
	// whatever pathspec follows, so a blob's path cannot be judged.
	GitObjects []CommandGitObject `json:"git_objects"`
}

// CommandGitObject is one entry of input.command.git_objects: the operand
// at Index in args, the type of the object it names, and, for a commit or
// a tree, the operand with each revision replaced by the object id it
// resolved to, which is what runs.
type CommandGitObject struct {
	Index int    `json:"index"`
	Arg   string `json:"arg"`
	Type  string `json:"type"`
	Run   string `json:"run"`
}

// CommandPathArg is an argument, or the value of an `--option=value` or
// glued `-Ivalue` argument, that may name a path, resolved against the
// working folder.
type CommandPathArg struct {
	// Index is the argument's index in Argv (so never 0).
	Index int `json:"index"`
	// Value is the path as the program will see it.
	Value string `json:"value"`
	// Canonical is the absolute path with symlinks resolved, or "" when
	// it cannot be resolved (a Windows drive-relative path, say).
	Canonical string `json:"canonical"`
	// Inside reports that Canonical lies inside Workspace.
	Inside    bool   `json:"inside"`
	Workspace string `json:"workspace"`
	// Sensitivity is Canonical's class, as input.paths gives it.
	Sensitivity string `json:"sensitivity"`
	// Write reports that the program writes the path (an output file
	// named by an option its rules know, such as sort's --output).
	Write bool `json:"write"`
}

// URL is input.url.
type URL struct {
	Raw         string       `json:"raw"`
	Normalized  string       `json:"normalized"`
	Scheme      string       `json:"scheme"`
	Host        string       `json:"host"`
	ASCIIHost   string       `json:"ascii_host"`
	Port        int          `json:"port"`
	Path        string       `json:"path"`
	IsIPLiteral bool         `json:"is_ip_literal"`
	IPs         []URLAddress `json:"ips,omitzero"` // nil (absent) before the host is resolved: docs/policy-input.md, "Two decisions"
	Classes     []string     `json:"classes,omitzero"`
	// RedirectFrom and Redirects are set on the decisions of a redirect
	// hop (docs/policy-input.md, "Redirects"): the URL whose answer
	// redirected here, and the hop's number (1 for the first redirect).
	// Both are absent on the request's own URL.
	RedirectFrom string `json:"redirect_from,omitzero"`
	Redirects    int    `json:"redirects,omitzero"`
}

// URLAddress is one address a URL's host stands for.
type URLAddress struct {
	IP       string   `json:"ip"`
	Class    string   `json:"class"`
	Embedded []string `json:"embedded,omitempty"` // IPv4 addresses an IPv6 address carries
}

// Import is input.import: the configured import source that contains the
// canonical source path, if any.
type Import struct {
	// Source is the canonical import source folder ("" when none contains it).
	Source string `json:"source"`
	// Relative is the source path relative to it, with "/" separators.
	Relative string `json:"relative"`
	// Inside reports whether an import source contains the source path.
	Inside bool `json:"inside"`
}

// Run is input.run. A member that is nil is absent (omitzero: a pointer to "" or 0 is present): for a run that does
// not exist only ID and Exists are set, and web_agent_start (no run yet)
// sets Mode and, when a workspace is named, Workspace and
// WorkspaceConfigured. Members are in the order of their names.
type Run struct {
	Ended               *bool          `json:"ended,omitzero"`
	Exists              bool           `json:"exists"`
	ID                  *string        `json:"id,omitzero"`
	MaxRounds           *int           `json:"max_rounds,omitzero"`
	Mode                *string        `json:"mode,omitzero"`
	Origin              *string        `json:"origin,omitzero"`
	RequestTypes        map[string]int `json:"request_types,omitzero"`
	RoundsUsed          *int           `json:"rounds_used,omitzero"`
	Workspace           *string        `json:"workspace,omitzero"`
	WorkspaceConfigured *bool          `json:"workspace_configured,omitzero"`
}

// InputDocument is an Input as OPA's value: the policy evaluates it, and
// the decision log encodes it directly (ASTValue) to the bytes its JSON
// form gives (MarshalJSON).
type InputDocument struct {
	value ast.Value
}

// InputDocumentOf returns v as an input document: one read from the
// decision log for replay, or written by hand.
func InputDocumentOf(v ast.Value) InputDocument { return InputDocument{value: v} }

// ASTValue returns the document as OPA's value (decisionlog.ASTValuer).
func (d InputDocument) ASTValue() ast.Value { return d.value }

// MarshalJSON writes the document's JSON form.
func (d InputDocument) MarshalJSON() ([]byte, error) {
	v, err := d.Map()
	if err != nil {
		return nil, err
	}
	return stdjson.Marshal(v)
}

// Map is the document's JSON form, numbers as json.Number.
func (d InputDocument) Map() (map[string]any, error) {
	v, err := ast.JSON(d.value)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	return m, nil
}

// Keys of the input's members, made once.
var (
	keyVersion, keyTimeNS      = ast.StringTerm("version"), ast.StringTerm("time_ns")
	keyRequest, keyPaths       = ast.StringTerm("request"), ast.StringTerm("paths")
	keyCommand, keyURL         = ast.StringTerm("command"), ast.StringTerm("url")
	keyImport, keyRun          = ast.StringTerm("import"), ast.StringTerm("run")
	keyContent                 = ast.StringTerm("content")
	keyWrite                   = ast.StringTerm("write")
	keyID, keyAction, keySkill = ast.StringTerm("id"), ast.StringTerm("action"), ast.StringTerm("skill")
	keyOrigin, keyChannel      = ast.StringTerm("origin"), ast.StringTerm("channel")
	keyArguments               = ast.StringTerm("arguments")
	pathKeys                   = keyTerms("input", "canonical", "workspace", "workspace_root", "relative",
		"inside", "exists", "type", "sensitivity", "protected", "links", "size", "modified")
)

// Document builds in's value. The fixed members (request, paths and
// input.command, which every request or every command has) are built
// directly; the arguments and the other facts through their JSON
// encoding, read token by token into OPA's value (inputjson.go).
func (in *Input) Document() (InputDocument, error) {
	args, err := argumentsTerm(&in.Request)
	if err != nil {
		return InputDocument{}, err
	}
	cmd := emptyObject
	if in.Command != nil {
		cv, ok := commandValue(*in.Command)
		if !ok {
			if cv, err = objectValue(in.Command, nil); err != nil {
				return InputDocument{}, err
			}
		}
		cmd = ast.NewTerm(cv)
	}
	// The members in the order of their names, which is the order OPA
	// sorts them in (an object is sorted once, when first read).
	items := make([][2]*ast.Term, 0, 10)
	items = append(items, [2]*ast.Term{keyCommand, cmd})
	for _, m := range []struct {
		key *ast.Term
		v   any
		set bool
	}{{keyContent, in.Content, in.Content != nil}, {keyImport, in.Import, in.Import != nil},
		{keyPaths, nil, true}, {keyRequest, nil, true}, {keyRun, in.Run, in.Run != nil}, {keyTimeNS, nil, true},
		{keyURL, in.URL, in.URL != nil}, {keyVersion, nil, true}, {keyWrite, in.Write, in.Write != nil}} {
		var t *ast.Term
		switch {
		case m.key == keyPaths:
			t = pathsTerm(in.Paths)
		case m.key == keyRequest:
			t = ast.NewTerm(requestValue(&in.Request, args))
		case m.key == keyTimeNS:
			t = ast.NewTerm(ast.Number(strconv.FormatInt(in.TimeNS, 10)))
		case m.key == keyVersion:
			t = ast.InternedTerm(in.Version)
		case !m.set:
			// Every member is always there, {} when it does not apply, so
			// that a rule reading it (count(input.command)) is not
			// undefined on another action's input.
			t = emptyObject
		default:
			v, err := objectValue(m.v, nil)
			if err != nil {
				return InputDocument{}, err
			}
			t = ast.NewTerm(v)
		}
		items = append(items, [2]*ast.Term{m.key, t})
	}
	return InputDocument{value: ast.NewObject(items...)}, nil
}

// emptyObject is the {} of a member that does not apply, one term shared
// by every document: nothing changes an input document once built.
var emptyObject = ast.NewTerm(ast.NewObject())

// digestTrees caches each action's digestTree by action name.
var digestTrees sync.Map

// digestsOf returns the tree of the action's Digest names (nil for none).
func digestsOf(action string, names []string) *digestNode {
	if t, ok := digestTrees.Load(action); ok {
		return t.(*digestNode)
	}
	t := digestTree(names)
	digestTrees.Store(action, t)
	return t
}

func requestValue(r *Request, args *ast.Term) ast.Value {
	terms := make(termBatch, 1)
	return ast.NewObject( // in the order of the names
		[2]*ast.Term{keyAction, nameTerm(r.Action)},
		[2]*ast.Term{keyArguments, args},
		[2]*ast.Term{keyChannel, nameTerm(r.Channel)},
		[2]*ast.Term{keyID, terms.str(r.ID)},
		[2]*ast.Term{keyOrigin, nameTerm(r.Origin)},
		[2]*ast.Term{keySkill, nameTerm(r.Skill)},
	)
}

// termBatch hands out terms from one allocation instead of one each.
type termBatch []ast.Term

// str is s as a term: OPA's interned term when there is one, else the
// batch's next.
func (b *termBatch) str(s string) *ast.Term {
	if ast.HasInternedValue(s) {
		return ast.InternedTerm(s)
	}
	return b.value(ast.String(s))
}

// value is the batch's next term, holding v.
func (b *termBatch) value(v ast.Value) *ast.Term {
	t := &(*b)[0]
	*b = (*b)[1:]
	t.Value = v
	return t
}

func pathsValue(paths map[Role]Path) ast.Value {
	items := make([][2]*ast.Term, 0, len(paths))
	for role, p := range paths {
		items = append(items, [2]*ast.Term{ast.InternedTerm(string(role)), ast.NewTerm(pathValue(p))})
	}
	return ast.NewObject(items...)
}

// sizeTerm is n as a term, OPA's interned one when there is one.
func sizeTerm(n int64) *ast.Term {
	if n >= 0 && n < 512 {
		return ast.InternedTerm(int(n))
	}
	return ast.NewTerm(ast.Number(strconv.FormatInt(n, 10)))
}

// pathValue is p as OPA's value.
func pathValue(p Path) ast.Value {
	k := pathKeys
	terms := make(termBatch, 8)
	return ast.NewObject(
		[2]*ast.Term{k[0], terms.str(p.Input)},
		[2]*ast.Term{k[1], terms.str(p.Canonical)},
		[2]*ast.Term{k[2], terms.str(p.Workspace)},
		[2]*ast.Term{k[3], terms.str(p.WorkspaceRoot)},
		[2]*ast.Term{k[4], terms.str(p.Relative)},
		[2]*ast.Term{k[5], ast.InternedTerm(p.Inside)},
		[2]*ast.Term{k[6], ast.InternedTerm(p.Exists)},
		[2]*ast.Term{k[7], terms.str(p.Type)},
		[2]*ast.Term{k[8], terms.str(p.Sensitivity)},
		[2]*ast.Term{k[9], ast.InternedTerm(p.Protected)},
		[2]*ast.Term{k[10], ast.InternedTerm(p.Links)},
		[2]*ast.Term{k[11], sizeTerm(p.Size)},
		[2]*ast.Term{k[12], terms.str(p.Modified)},
	)
}
