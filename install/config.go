package install

import "encoding/json"

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
