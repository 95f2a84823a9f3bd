package actions

import (
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/project"
)

// TemplateProfile is one template in the projects skill's profile.
type TemplateProfile struct {
	Name string `json:"name"`
	// Source is "builtin", or "configured" for a folder of the
	// configuration's projects.templates.
	Source string `json:"source"`
}

func init() {
	profileEnvDetails[protocol.SkillProjects] = projectsProfile
}

// projectsProfile lists the templates create_project can use (read from
// the configured folder, so left out of get_status).
func projectsProfile(env *action.Env, p *SkillProfile) {
	if p.usableOnly {
		return
	}
	p.Templates = []TemplateProfile{}
	for _, t := range project.Templates(env.Config.Projects.Templates) {
		src := "builtin"
		if t.Configured {
			src = "configured"
		}
		p.Templates = append(p.Templates, TemplateProfile{Name: t.Name, Source: src})
	}
}
