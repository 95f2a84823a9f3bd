package policy

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/util"
)

// MaxDataBytes caps the data documents of a policy set, all files
// together (as JSON): the documents are held in memory by every host.
const MaxDataBytes = 8 << 20

// reservedData are the names under data a data document may not take:
// data.config is the configuration, data.deskbridge the policy itself,
// data.system OPA's.
var reservedData = []string{"config", "deskbridge", "system"}

// isDataFile reports whether p names a data document (OPA's names).
func isDataFile(p string) bool {
	switch path.Base(p) {
	case "data.json", "data.yaml", "data.yml":
		return true
	}
	return false
}

// addDataFile reads the data document at p (JSON or YAML) into s.Data at
// the path of its folder, as OPA does: team/data.json is data.team,
// a/b/data.yaml is data.a.b, and a data.json at the top is the data tree
// whose members name teams ({"team": …}). A document under a reserved
// name (data.config …) is refused: it could replace the configuration the
// default policy reads.
func (s *Source) addDataFile(p string, b []byte) error {
	var segs []string
	if dir := path.Dir(p); dir != "." {
		segs = strings.Split(dir, "/")
	}
	if len(segs) > 0 && slices.Contains(reservedData, segs[0]) {
		return fmt.Errorf("%s: data.%s is reserved (%s); put the document in a folder named after the team", p, segs[0], strings.Join(reservedData, ", "))
	}
	var doc any
	var err error
	if path.Ext(p) == ".json" {
		err = util.UnmarshalJSON(b, &doc)
	} else {
		err = util.Unmarshal(b, &doc)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if s.Data == nil {
		s.Data = map[string]any{}
	}
	if len(segs) > 0 {
		return setData(s.Data, segs, doc, p)
	}
	top, ok := doc.(map[string]any) // the whole data tree: its members are teams
	if !ok {
		return fmt.Errorf("%s: a data document at the top of the policy must be an object whose members name teams ({\"myteam\": …})", p)
	}
	for name, v := range top {
		if slices.Contains(reservedData, name) {
			return fmt.Errorf("%s: data.%s is reserved (%s); put the team's data under data.<team>", p, name, strings.Join(reservedData, ", "))
		}
		if err := setData(s.Data, []string{name}, v, p); err != nil {
			return err
		}
	}
	return nil
}

// setData puts doc at segs in data, refusing two documents at one place.
func setData(data map[string]any, segs []string, doc any, p string) error {
	for _, seg := range segs[:len(segs)-1] {
		next, ok := data[seg].(map[string]any)
		if !ok {
			if _, taken := data[seg]; taken {
				return fmt.Errorf("%s: data.%s is already a document", p, seg)
			}
			next = map[string]any{}
			data[seg] = next
		}
		data = next
	}
	last := segs[len(segs)-1]
	if _, taken := data[last]; taken {
		return fmt.Errorf("%s: two data documents for data.%s", p, strings.Join(segs, "."))
	}
	data[last] = doc
	return nil
}

// checkData refuses data documents over MaxDataBytes together, or under
// a reserved name.
func (s *Source) checkData() error {
	for name := range s.Data {
		if slices.Contains(reservedData, name) {
			return fmt.Errorf("policy %s: data.%s is reserved (%s); put the team's data under data.<team>", s.Name, name, strings.Join(reservedData, ", "))
		}
	}
	if len(s.Data) == 0 {
		return nil
	}
	b, err := json.Marshal(s.Data)
	if err != nil {
		return fmt.Errorf("policy %s: data: %w", s.Name, err)
	}
	if len(b) > MaxDataBytes {
		return fmt.Errorf("policy %s: its data documents hold %d bytes, over %d", s.Name, len(b), MaxDataBytes)
	}
	return nil
}

// readDataFile reads a data document of fsys, or refuses one over the cap.
func readDataFile(fsys fs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > MaxDataBytes {
		return nil, fmt.Errorf("%s is %d bytes, over the data cap of %d", p, fi.Size(), MaxDataBytes)
	}
	return fs.ReadFile(fsys, p)
}

// DataDocument is the data the policy set reads besides its rules:
// data.config (the configuration, as given; left out when nil),
// data.deskbridge (the actions' cards, ActionsData, and the writers,
// Writers) and the set's
// own documents.
func (s *Source) DataDocument(config map[string]any) map[string]any {
	out := make(map[string]any, len(s.Data)+2)
	for k, v := range s.Data {
		out[k] = v
	}
	out["deskbridge"] = hostData()
	if config != nil {
		out["config"] = config
	}
	return out
}
