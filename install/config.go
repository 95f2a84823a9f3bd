package install

import (
	"encoding/json"
	"errors"
	"path"
	"strings"
)

// starter is the configuration written when none exists (docs/configuration.md).
type starter struct {
	Workspaces     []workspace `json:"workspaces"`
	AllowedOrigins []string    `json:"allowed_origins"`
	DecisionLog    decisionLog `json:"decision_log"`
}

type workspace struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

type decisionLog struct {
	Path string `json:"path"`
}

// StarterConfig returns a starter configuration for configPath: no
// workspaces (nothing is reachable until the user adds one), the given
// Chromium extensions as allowed origins, and a decision log beside the file.
func StarterConfig(goos, configPath string, chromeIDs []string) ([]byte, error) {
	origins, err := mapIDs(chromeIDs, ChromeOrigin)
	if err != nil {
		return nil, err
	}
	doc := starter{Workspaces: []workspace{}, AllowedOrigins: origins}
	doc.DecisionLog.Path = siblingPath(goos, configPath, "decisions.jsonl")
	out, err := json.MarshalIndent(doc, "", "  ")
	return append(out, '\n'), err
}

func siblingPath(goos, p, name string) string {
	if goos == "windows" {
		if i := strings.LastIndexAny(p, `\/`); i >= 0 {
			return p[:i+1] + name
		}
		return name
	}
	return path.Join(path.Dir(p), name)
}

// configOrigins parses a configuration file far enough to check it: it must
// be a JSON object; allowed_origins, when present, a list of strings.
func configOrigins(data []byte) ([]string, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil || doc == nil {
		return nil, errors.New("it is not a valid JSON object")
	}
	var origins []string
	if raw, ok := doc["allowed_origins"]; ok {
		if err := json.Unmarshal(raw, &origins); err != nil {
			return nil, errors.New(`"allowed_origins" is not a list of strings`)
		}
	}
	return origins, nil
}
