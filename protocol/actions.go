package protocol

import (
	"maps"
	"slices"
)

// Skill names an area of actions that can be switched on and off as a whole.
type Skill string

// The v1 skills (docs/protocol.md, "Actions").
const (
	SkillControl      Skill = "control"
	SkillFiles        Skill = "files"
	SkillProjects     Skill = "projects"
	SkillClipboard    Skill = "clipboard"
	SkillApplications Skill = "applications"
	SkillCommands     Skill = "commands"
	SkillWindows      Skill = "windows"
	SkillAssets       Skill = "assets"
	SkillImages       Skill = "images"
	SkillDocuments    Skill = "documents"
	SkillAgent        Skill = "agent"
)

// Member names a member of the policy input that only some actions carry
// (docs/policy-input.md); on the others it is {}.
type Member string

// The input members an action's card may declare.
const (
	MemberCommand Member = "command" // input.command: the program and its arguments
	MemberURL     Member = "url"     // input.url: the URL, then its addresses
	MemberImport  Member = "import"  // input.import: the import source of a file
	MemberRun     Member = "run"     // input.run: the agent run named
	MemberWrite   Member = "write"   // input.write: whether the file written is a program
	MemberContent Member = "content" // input.content: in the content decision only
)

// PartialMembers are the input members only some actions carry, in the
// order of docs/policy-input.md.
var PartialMembers = []Member{MemberCommand, MemberURL, MemberImport, MemberRun, MemberWrite, MemberContent}

// Writes says what an action changes in the file system.
type Writes string

// What an action may write.
const (
	WritesNothing Writes = ""
	WritesFile    Writes = "file"    // one file: its content, a copy, a conversion, an image saved
	WritesFolder  Writes = "folder"  // a new folder
	WritesProject Writes = "project" // a project's folder, files and repository
)

// DefaultTimeoutMS is the timeout of an action whose card names none.
const DefaultTimeoutMS = 10_000

// ActionInfo is an action's card: everything about an action that is
// declared rather than computed. It is the one declaration every other
// view is made from: the whitelist (Lookup), the skill, the limits the
// host enforces (engine/action.Enforced), the policy's data
// data.deskbridge.actions (the writers, skills and default limits the
// default Rego reads), the lint table of `deskbridge policy check`, the
// members the content wall scans (engine/wall.go) and the actions table
// of docs/protocol.md. What the action does is its action.Spec (the
// argument type, the facts and run functions) in its feature package
// under engine/ (engine/files, engine/images …).
type ActionInfo struct {
	Name  string
	Skill Skill
	// Input are the members of the policy input, beside request and
	// paths, that the action's facts set (engine's input members test
	// checks them): command, url, import, run, write. input.content is
	// set for an action that declares Content (in the content decision).
	Input []Member
	// Writes says what the action changes in the file system ("" for
	// nothing): the default policy keeps every writer off DeskBridge's
	// own files and off the secret class.
	Writes Writes
	// TimeoutMS is the default policy's timeout_ms (0: DefaultTimeoutMS).
	TimeoutMS int64
	// Limits are the limits the action enforces beside timeout_ms, each
	// with its default: the default policy's value and the value the run
	// function gets when a decision gives none (engine/action's
	// Call.Limit), the one default there is. 0 means the action has no
	// default of its own: the agent's limits, whose values come from the
	// configuration's agent member. A limit configured or decided that is
	// not named here (or timeout_ms) is refused, since it would be
	// ignored. Their bounds are LimitBounds.
	Limits map[string]int64
	// Content names the members of the answer that carry workspace or
	// desktop content, as paths into its JSON: "markdown", "warnings[]",
	// "entries[].name"; a path covers every member under it ("results").
	// A secret in a declared member goes to the policy's content decision;
	// one in a member not declared is refused (engine/wall.go).
	Content []string
	// Errors are the codes the action may answer beyond CommonErrors,
	// which every action may: what its facts, the default policy's rules
	// for it and its run function refuse or fail with (engine's
	// TestAnswersAreOnTheCard holds every answer its tests see to them).
	// They are published in docs/protocol.md and extension/schemas.json.
	Errors []Code
}

// CommonErrors are the codes every action may answer, whatever it does:
// arguments the host refuses (INVALID_REQUEST); the refusals any request
// can meet, of its origin, its mode or run, a secret in its answer
// (ACTION_NOT_ALLOWED, PERMISSION_DENIED), of its skill (SKILL_DISABLED),
// of an action this build lacks (SKILL_RUNTIME_UNAVAILABLE); a decision
// log that cannot be written or an answer over the message cap
// (EXECUTION_FAILED); and a bug (INTERNAL_ERROR). UNKNOWN_ACTION names
// no action, so no card has it.
var CommonErrors = []Code{
	InvalidRequest, ActionNotAllowed, PermissionDenied, SkillDisabled,
	SkillRuntimeUnavailable, ExecutionFailed, InternalError,
}

// Answers reports whether the action may answer code: one of
// CommonErrors or of its Errors.
func (a *ActionInfo) Answers(code Code) bool {
	return slices.Contains(CommonErrors, code) || slices.Contains(a.Errors, code)
}

// InputMembers returns the partial input members the action carries: its Input,
// and content when it declares Content.
func (a *ActionInfo) InputMembers() []Member {
	out := append([]Member(nil), a.Input...)
	if len(a.Content) > 0 {
		out = append(out, MemberContent)
	}
	return out
}

// Timeout returns the default policy's timeout_ms for the action.
func (a *ActionInfo) Timeout() int64 {
	if a.TimeoutMS > 0 {
		return a.TimeoutMS
	}
	return DefaultTimeoutMS
}

// DefaultLimits returns the limits the default policy decides for the
// action: timeout_ms and every limit with a default.
func (a *ActionInfo) DefaultLimits() map[string]int64 {
	out := map[string]int64{"timeout_ms": a.Timeout()}
	maps.Copy(out, a.Limits)
	maps.DeleteFunc(out, func(_ string, v int64) bool { return v <= 0 })
	return out
}

// DefaultLimit returns the card's default of the named limit: Timeout for
// timeout_ms, the value in Limits for another, 0 for one without a
// default or not on the card.
func (a *ActionInfo) DefaultLimit(name string) int64 {
	if name == "timeout_ms" {
		return a.Timeout()
	}
	return max(a.Limits[name], 0)
}

// Limit defaults shared by several cards.
const (
	mib            = 1 << 20
	imageMaxBytes  = 100 * mib
	imageMaxPixels = 100_000_000
	imageMaxFrames = 1000
)

// Error codes shared by several cards, beyond CommonErrors.
var (
	// pathErrors: a path outside every workspace, or one that is not there.
	pathErrors = []Code{WorkspaceViolation, FileNotFound}
	// createErrors: pathErrors, and a file that exists where one is made.
	createErrors = []Code{WorkspaceViolation, FileNotFound, FileAlreadyExists}
	// urlErrors: a URL that does not parse, of another scheme, or that
	// leads to a private address.
	urlErrors = []Code{InvalidURL, UnsupportedProtocol, PrivateNetworkBlocked}
	// imageErrors: an image read, and one written to a destination.
	imageErrors = []Code{WorkspaceViolation, FileNotFound, FileAlreadyExists, UnsupportedImageFormat, ImageProcessingFailed}
)

// errs returns the codes of groups together, for a card.
func errs(groups ...[]Code) []Code { return slices.Concat(groups...) }

// imageLimits are the limits of the image actions: max_bytes caps the file
// read, max_pixels the header's width × height (checked before any pixel
// is decoded), max_frames an animation's frames (counted without
// decoding).
func imageLimits() map[string]int64 {
	return map[string]int64{"max_bytes": imageMaxBytes, "max_pixels": imageMaxPixels, "max_frames": imageMaxFrames}
}

// agentLimits are the limits of an agent run (docs/web-agent.md); the run
// takes its own values at its start, so the policy gives none by default.
func agentLimits() map[string]int64 {
	return map[string]int64{"max_file_bytes": 0, "max_lines": 0, "max_results": 0, "max_total_chars": 0, "max_rounds": 0}
}

// Actions is the v1 whitelist, one card per action: the 28 actions, the
// v1 extensions (list_projects, list_checkpoints, diff_checkpoint:
// docs/protocol.md, "Checkpoints") and the internal web_agent_* messages.
// A request naming anything else is UNKNOWN_ACTION.
var Actions = []ActionInfo{
	{Name: "get_status", Skill: SkillControl},
	{Name: "get_skill_profile", Skill: SkillControl},
	{Name: "open_deskbridge", Skill: SkillControl},

	{Name: "read_file", Skill: SkillFiles, Content: []string{"content"},
		Limits: map[string]int64{"max_bytes": 1 * mib},
		Errors: pathErrors},
	// write_file: max_bytes caps the decoded content; the default is what
	// one 1 MiB message can carry, so that any text the browser can send
	// is written.
	{Name: "write_file", Skill: SkillFiles, Input: []Member{MemberWrite}, Writes: WritesFile,
		Limits: map[string]int64{"max_bytes": 1 * mib},
		Errors: pathErrors},
	{Name: "create_file", Skill: SkillFiles, Input: []Member{MemberWrite}, Writes: WritesFile,
		Limits: map[string]int64{"max_bytes": 1 * mib},
		Errors: createErrors},
	{Name: "create_folder", Skill: SkillFiles, Writes: WritesFolder,
		Errors: createErrors},
	{Name: "list_folder", Skill: SkillFiles, Content: []string{"entries"},
		Limits: map[string]int64{"max_entries": 5000},
		Errors: pathErrors},
	{Name: "patch_file", Skill: SkillFiles, Input: []Member{MemberWrite}, Writes: WritesFile, Content: []string{"diff"},
		Limits: map[string]int64{"max_bytes": 8 * mib},
		Errors: errs(pathErrors, []Code{PatchTargetNotFound, PatchTargetNotUnique})},

	{Name: "create_project", Skill: SkillProjects, Writes: WritesProject, Content: []string{"files"},
		TimeoutMS: 30_000,
		Errors:    []Code{WorkspaceViolation, ProjectPathInvalid}},
	// update_project: max_bytes caps the changes' content together; a
	// commit in a large repository takes longer than a file write.
	{Name: "update_project", Skill: SkillProjects, Input: []Member{MemberWrite}, Writes: WritesProject,
		Content:   []string{"name", "description", "changed"},
		TimeoutMS: 30_000, Limits: map[string]int64{"max_bytes": 8 * mib},
		Errors: errs(pathErrors, []Code{ProjectPathInvalid})},
	{Name: "list_projects", Skill: SkillProjects, Content: []string{"workspaces[].projects"}},
	// list_checkpoints and diff_checkpoint walk a project's history, which
	// takes a while in a long one; diff_checkpoint's max_bytes caps the
	// patches together (the response's 1 MB cap applies too).
	{Name: "list_checkpoints", Skill: SkillProjects, Content: []string{"checkpoints"}, TimeoutMS: 30_000,
		Errors: []Code{WorkspaceViolation, ProjectPathInvalid}},
	{Name: "diff_checkpoint", Skill: SkillProjects, Content: []string{"message", "files", "patches"},
		TimeoutMS: 30_000, Limits: map[string]int64{"max_bytes": 512 << 10},
		Errors: []Code{WorkspaceViolation, ProjectPathInvalid}},

	// get_clipboard writes only an image given a destination.
	{Name: "get_clipboard", Skill: SkillClipboard, Writes: WritesFile, Content: []string{"content", "formats"},
		Errors: errs(createErrors, []Code{UnsupportedImageFormat})},
	{Name: "set_clipboard", Skill: SkillClipboard,
		Errors: errs(pathErrors, []Code{UnsupportedImageFormat, ImageProcessingFailed})},

	{Name: "open_folder", Skill: SkillApplications,
		Errors: errs(pathErrors, []Code{AppNotFound})},
	{Name: "open_app", Skill: SkillApplications, Input: []Member{MemberCommand},
		Errors: []Code{WorkspaceViolation, AppNotFound}},
	{Name: "open_project", Skill: SkillApplications,
		Errors: errs(pathErrors, []Code{AppNotFound})},
	{Name: "open_in_browser", Skill: SkillApplications, Input: []Member{MemberURL},
		Errors: errs(urlErrors, []Code{AppNotFound})},
	// preview_web carries input.url for a url; a path is a path fact.
	{Name: "preview_web", Skill: SkillApplications, Input: []Member{MemberURL},
		Errors: errs(pathErrors, urlErrors, []Code{AppNotFound})},

	{Name: "run_command", Skill: SkillCommands, Input: []Member{MemberCommand}, Content: []string{"stdout", "stderr"},
		TimeoutMS: 30_000, Limits: map[string]int64{"max_bytes": 256 << 10},
		Errors: errs(pathErrors, []Code{CommandNotAllowed, CommandTimeout})},

	// capture_screen writes only an image given a destination.
	{Name: "capture_screen", Skill: SkillWindows, Writes: WritesFile, Content: []string{"content"},
		Errors: createErrors},
	{Name: "get_active_window", Skill: SkillWindows, Content: []string{"title", "app"}},

	{Name: "download_asset", Skill: SkillAssets, Input: []Member{MemberURL, MemberWrite}, Writes: WritesFile,
		TimeoutMS: 60_000, Limits: map[string]int64{"max_bytes": 50 * mib},
		Errors: errs(createErrors, urlErrors, []Code{DownloadTooLarge, DownloadTimeout, InvalidContentType})},
	{Name: "import_asset", Skill: SkillAssets, Input: []Member{MemberImport, MemberWrite}, Writes: WritesFile,
		TimeoutMS: 30_000, Limits: map[string]int64{"max_bytes": 100 * mib},
		Errors: errs(createErrors, []Code{AssetImportDenied})},

	{Name: "inspect_image", Skill: SkillImages, Limits: imageLimits(),
		Errors: []Code{WorkspaceViolation, FileNotFound, UnsupportedImageFormat, ImageProcessingFailed}},
	{Name: "resize_image", Skill: SkillImages, Input: []Member{MemberWrite}, Writes: WritesFile,
		TimeoutMS: 60_000, Limits: imageLimits(),
		Errors: imageErrors},
	{Name: "compress_image", Skill: SkillImages, Input: []Member{MemberWrite}, Writes: WritesFile,
		TimeoutMS: 60_000, Limits: imageLimits(),
		Errors: imageErrors},
	{Name: "convert_image", Skill: SkillImages, Input: []Member{MemberWrite}, Writes: WritesFile,
		TimeoutMS: 60_000, Limits: imageLimits(),
		Errors: imageErrors},

	// convert_document_to_markdown: max_bytes caps the document,
	// max_file_bytes the Markdown made (written whole to a destination,
	// when one is given).
	{Name: "convert_document_to_markdown", Skill: SkillDocuments, Input: []Member{MemberWrite}, Writes: WritesFile,
		Content:   []string{"markdown", "title", "warnings"},
		TimeoutMS: 120_000, Limits: map[string]int64{"max_bytes": 100 * mib, "max_file_bytes": 32 * mib},
		Errors: errs(createErrors, []Code{UnsupportedDocumentFormat, DocumentConversionFailed, DocumentOCRRequired})},

	{Name: "web_agent_start", Skill: SkillAgent, Input: []Member{MemberRun}, Limits: agentLimits(),
		Errors: []Code{WorkspaceViolation}},
	{Name: "web_agent_context", Skill: SkillAgent, Input: []Member{MemberRun}, Content: []string{"results"},
		TimeoutMS: 20_000, Limits: agentLimits(),
		Errors: pathErrors},
	{Name: "web_agent_end", Skill: SkillAgent, Input: []Member{MemberRun}},
}

var actionIndex = func() map[string]*ActionInfo {
	m := make(map[string]*ActionInfo, len(Actions))
	for i := range Actions {
		m[Actions[i].Name] = &Actions[i]
	}
	return m
}()

// Lookup returns the skill of a whitelisted action and whether name is one.
func Lookup(name string) (Skill, bool) {
	a, ok := actionIndex[name]
	if !ok {
		return "", false
	}
	return a.Skill, true
}

// Card returns the card of a whitelisted action.
func Card(name string) (*ActionInfo, bool) {
	a, ok := actionIndex[name]
	return a, ok
}
