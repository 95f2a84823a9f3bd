package main

import (
	"encoding/json"
	"testing"
)

// TestStatusAndSkillProfileAgree: get_status's skills are get_skill_profile's
// "enabled and available", skill by skill, so a skill whose actions are not
// built (or whose runtime is missing) is never reported usable.
func TestStatusAndSkillProfileAgree(t *testing.T) {
	cfg, ws := writeConfig(t, `,"skills":{"clipboard":false}`)
	out, errOut, code := runBin(t, ws, nil, "--config", cfg, "call", "get_status")
	if code != 0 {
		t.Fatalf("get_status: exit %d: %s", code, errOut)
	}
	var status struct {
		Data struct {
			Skills map[string]bool `json:"skills"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &status); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runBin(t, ws, nil, "--config", cfg, "call", "get_skill_profile")
	if code != 0 {
		t.Fatalf("get_skill_profile: exit %d: %s", code, errOut)
	}
	var prof struct {
		Data struct {
			Skills []struct {
				Name      string   `json:"name"`
				Enabled   bool     `json:"enabled"`
				Available bool     `json:"available"`
				Reason    string   `json:"reason"`
				Missing   []string `json:"missing"`
				Actions   []string `json:"actions"`
			} `json:"skills"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &prof); err != nil {
		t.Fatal(err)
	}
	if len(prof.Data.Skills) != len(status.Data.Skills) {
		t.Fatalf("get_status names %d skills, get_skill_profile %d", len(status.Data.Skills), len(prof.Data.Skills))
	}
	for _, p := range prof.Data.Skills {
		// Usable: enabled, some action built, runtime present (a missing
		// runtime makes a fully built skill unavailable).
		runtimeMissing := !p.Available && len(p.Missing) == 0
		want := p.Enabled && len(p.Missing) < len(p.Actions) && !runtimeMissing
		if got, ok := status.Data.Skills[p.Name]; !ok || got != want {
			t.Errorf("skill %s: get_status says %v, get_skill_profile enabled=%v available=%v (%s)", p.Name, got, p.Enabled, p.Available, p.Reason)
		}
		if len(p.Missing) > 0 && p.Available {
			t.Errorf("skill %s: available with unbuilt actions %v", p.Name, p.Missing)
		}
		if (!p.Enabled || !p.Available) && p.Reason == "" {
			t.Errorf("skill %s is not usable and says not why", p.Name)
		}
	}
	if status.Data.Skills["clipboard"] {
		t.Error("a skill switched off is reported usable")
	}
	if !status.Data.Skills["control"] || !status.Data.Skills["files"] {
		t.Errorf("built skills are not reported usable: %v", status.Data.Skills)
	}
}
