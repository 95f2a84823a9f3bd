package projects

import (
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/skills"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/project"
)

func init() {
	skills.EnvDetail(protocol.SkillProjects, projectsProfile)
}

// projectsProfile lists the templates create_project can use (read from
// the configured folder, so left out of get_status).
func projectsProfile(env *action.Env, p *skills.Profile) {
	if p.UsableOnly() {
		return
	}
	p.Templates = []skills.Template{}
	for _, t := range project.Templates(env.Config.Projects.Templates) {
		src := "builtin"
		if t.Configured {
			src = "configured"
		}
		p.Templates = append(p.Templates, skills.Template{Name: t.Name, Source: src})
	}
}
