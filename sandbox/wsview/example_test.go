package wsview_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/deskbridge/deskbridge/sandbox/wsview"
)

// ExampleView_Run answers one web_agent_context round.
func ExampleView_Run() {
	dir, _ := os.MkdirTemp("", "ws")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=x\n"), 0o644)

	secrets := wsview.ClassifierFunc(func(rel string, isDir bool) string {
		if strings.HasPrefix(filepath.Base(rel), ".env") {
			return wsview.Secret
		}
		return ""
	})
	v, err := wsview.Open("Demo", dir, secrets)
	if err != nil {
		panic(err)
	}
	defer v.Close()

	round := v.Run(context.Background(), []wsview.Request{
		{Type: wsview.TypeSearch, Query: "func main"},
		{Type: wsview.TypeRead, Path: ".env"},
	}, wsview.DefaultLimits())
	for _, r := range round.Results {
		if r.Err != nil {
			fmt.Println(r.Type, errors.Is(r.Err, wsview.ErrWithheld), r.Err)
			continue
		}
		b, _ := json.Marshal(r.Data)
		fmt.Println(r.Type, string(b))
	}
	// Output:
	// search_workspace {"matches":[{"path":"main.go","kind":"content","line":3,"text":"func main() {}"}],"files_searched":1,"head_only":0,"truncated":false}
	// read_file true wsview: read .env: wsview: path is withheld
}
