package install

import (
	"encoding/json"
	"errors"
)

// starter is the configuration written when none exists
// (docs/configuration.md). It names no decision log: the host logs to the
// default one, the same for every command (config.Config.LogPath).
type starter struct {
	Workspaces     []workspace `json:"workspaces"`
	AllowedOrigins []string    `json:"allowed_origins"`
}

type workspace struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

// StarterConfig returns a starter configuration: no workspaces (nothing
// is reachable until the user adds one) and the given Chromium extensions
// as allowed origins; the decision log is the default one.
func StarterConfig(chromeIDs []string) ([]byte, error) {
	origins, err := mapIDs(chromeIDs, ChromeOrigin)
	if err != nil {
		return nil, err
	}
	doc := starter{Workspaces: []workspace{}, AllowedOrigins: origins}
	out, err := json.MarshalIndent(doc, "", "  ")
	return append(out, '\n'), err
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
