package desktop

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/skills"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

// systemDesktop is env's desktop, the session's when the host was given
// none.
func systemDesktop(env *action.Env) desktop.Desktop {
	if env.Desktop != nil {
		return env.Desktop
	}
	o := desktop.Options{Dirs: cmdfacts.Native().Dirs}
	if env.Config != nil {
		o.StateDir = env.Config.StateFolder()
	}
	return desktop.System(o)
}

// systemDirs are the folders launchers and helpers are found in.
func systemDirs() []string { return cmdfacts.Native().Dirs }

// digestDetail records what went through the clipboard for the decision
// log's outcome: its length and sha256, never the content.
func digestDetail(c *action.Call, format string, b []byte) {
	sum := sha256.Sum256(b)
	c.Detail = map[string]any{"format": format, "length": len(b), "sha256": hex.EncodeToString(sum[:])}
}

// writeDestination writes data to the call's destination path through
// its workspace's root handle (never DeskBridge's own files).
func writeDestination(env *action.Env, c *action.Call, data []byte) (string, *protocol.Error) {
	p := c.Paths["destination"]
	root, perr := env.WritableRoot(p)
	if perr != nil {
		return "", perr
	}
	if _, err := sandbox.WriteAtomic(root, p.Rel(), data, sandbox.WriteOptions{}); err != nil {
		return "", errmap.File(err)
	}
	return p.Canonical, nil
}

// privateDesktop mirrors desktop.rego's private_desktop: the actions
// closed until their skill is named in the configuration.
var privateDesktop = map[protocol.Skill][]string{
	protocol.SkillClipboard: {"get_clipboard"},
	protocol.SkillWindows:   {"capture_screen", "get_active_window"},
}

func init() {
	for _, sk := range []protocol.Skill{protocol.SkillClipboard, protocol.SkillWindows, protocol.SkillApplications} {
		skills.EnvDetail(sk, desktopProfile)
	}
}

// desktopProfile fills the desktop member of a skill's profile; a skill
// whose session offers none of its features is not available.
func desktopProfile(env *action.Env, p *skills.Profile) {
	st := systemDesktop(env).Status()
	d := &skills.Desktop{Status: st}
	feature := map[protocol.Skill]string{protocol.SkillClipboard: "clipboard", protocol.SkillWindows: "capture"}[protocol.Skill(p.Name)]
	if why, missing := st.Missing[feature]; missing && feature != "" {
		p.Available, p.Reason = false, why
	}
	if _, named := env.Config.Skills[p.Name]; !named {
		d.Closed = privateDesktop[protocol.Skill(p.Name)]
	}
	if protocol.Skill(p.Name) == protocol.SkillApplications {
		d.Editors = editorProfiles(env)
		d.Opener = folderOpener()
	}
	p.Desktop = d
}

// editorProfiles lists the configured editors by name.
func editorProfiles(env *action.Env) []skills.Editor {
	out := []skills.Editor{}
	for _, name := range editorNames(env) {
		cmd := env.Config.Editors[name].Command
		out = append(out, skills.Editor{Name: name, Command: cmd, Installed: desktop.Installed(cmd[0], systemDirs())})
	}
	return out
}

// editorNames are the configured editors' names, sorted.
func editorNames(env *action.Env) []string {
	names := make([]string, 0, len(env.Config.Editors))
	for n := range env.Config.Editors {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// clipboardMax is the most a clipboard read takes in (an image saved to a
// file; text is cut to one message).
const clipboardMax = 32 << 20

// folderOpener describes open_folder's program, where there is one.
func folderOpener() *skills.Program {
	prog := desktop.FolderOpener()
	if prog == "" {
		return nil
	}
	return &skills.Program{Program: prog, Installed: desktop.Installed(prog, systemDirs())}
}
