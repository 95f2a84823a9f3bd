package protocol

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

// ActionInfo is one whitelisted v1 action and the skill it belongs to.
type ActionInfo struct {
	Name  string
	Skill Skill
}

// Actions is the v1 whitelist: the 28 actions, the v1 extensions
// (list_projects, list_checkpoints, diff_checkpoint: docs/protocol.md,
// "Checkpoints") and the internal web_agent_* messages. A request naming anything else is UNKNOWN_ACTION.
var Actions = []ActionInfo{
	{"get_status", SkillControl}, {"get_skill_profile", SkillControl}, {"open_deskbridge", SkillControl},
	{"read_file", SkillFiles}, {"write_file", SkillFiles}, {"create_file", SkillFiles},
	{"create_folder", SkillFiles}, {"list_folder", SkillFiles}, {"patch_file", SkillFiles},
	{"create_project", SkillProjects}, {"update_project", SkillProjects},
	{"list_projects", SkillProjects}, {"list_checkpoints", SkillProjects}, {"diff_checkpoint", SkillProjects},
	{"get_clipboard", SkillClipboard}, {"set_clipboard", SkillClipboard},
	{"open_folder", SkillApplications}, {"open_app", SkillApplications}, {"open_project", SkillApplications},
	{"open_in_browser", SkillApplications}, {"preview_web", SkillApplications},
	{"run_command", SkillCommands},
	{"capture_screen", SkillWindows}, {"get_active_window", SkillWindows},
	{"download_asset", SkillAssets}, {"import_asset", SkillAssets},
	{"inspect_image", SkillImages}, {"resize_image", SkillImages}, {"compress_image", SkillImages}, {"convert_image", SkillImages},
	{"convert_document_to_markdown", SkillDocuments},
	{"web_agent_start", SkillAgent}, {"web_agent_context", SkillAgent}, {"web_agent_end", SkillAgent},
}

var actionIndex = func() map[string]Skill {
	m := make(map[string]Skill, len(Actions))
	for _, a := range Actions {
		m[a.Name] = a.Skill
	}
	return m
}()

// Lookup returns the skill of a whitelisted action and whether name is one.
func Lookup(name string) (Skill, bool) {
	s, ok := actionIndex[name]
	return s, ok
}
