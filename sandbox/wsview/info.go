package wsview

import (
	"context"
	"path"
	"slices"
	"strings"
)

// InfoData is the data of a workspace_info result.
type InfoData struct {
	Name      string     `json:"name"`
	Root      string     `json:"root"`
	Files     int        `json:"files"`
	Folders   int        `json:"folders"`
	Languages []Language `json:"languages"`
	Git       GitFacts   `json:"git"`
	Cut
}

// Language counts the visible files of one language.
type Language struct {
	Name  string `json:"name"`
	Files int    `json:"files"`
}

// Info describes the workspace: its visible file and folder counts (the
// walk is bounded by MaxWalkEntries), the languages of its files by
// extension, most files first, and its git facts.
func (v *View) Info(ctx context.Context, lim Limits) (*InfoData, error) {
	out := &InfoData{Name: v.name, Root: v.path, Languages: []Language{}}
	langs := map[string]int{}
	w := &walker{v: v, ctx: ctx, maxDepth: 1 << 30, cut: &out.Cut}
	w.visit = func(e *entry) (bool, error) {
		switch e.kind {
		case kindFolder:
			out.Folders++
		case kindFile:
			out.Files++
			if l := languageOf(e.name); l != "" {
				langs[l]++
			}
		}
		return true, nil
	}
	if err := w.run(".", nil, v.rules); err != nil {
		return nil, walkError("info", ".", err)
	}
	out.Languages = sortLanguages(langs)
	out.Git = v.gitFacts()
	return out, nil
}

// sortLanguages orders language counts by count, then name.
func sortLanguages(m map[string]int) []Language {
	ls := make([]Language, 0, len(m))
	for n, c := range m {
		ls = append(ls, Language{Name: n, Files: c})
	}
	slices.SortFunc(ls, func(a, b Language) int {
		if a.Files != b.Files {
			return b.Files - a.Files
		}
		return strings.Compare(a.Name, b.Name)
	})
	return ls
}

// languageOf names the language of a file by its extension, or "".
func languageOf(name string) string {
	if l, ok := languageByName[name]; ok {
		return l
	}
	return languageByExt[strings.ToLower(path.Ext(name))]
}

var languageByName = map[string]string{
	"Makefile": "Makefile", "Dockerfile": "Dockerfile", "go.mod": "Go Module",
}

var languageByExt = map[string]string{
	".go": "Go", ".rs": "Rust", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++",
	".hpp": "C++", ".cs": "C#", ".java": "Java", ".kt": "Kotlin", ".swift": "Swift",
	".m": "Objective-C", ".py": "Python", ".rb": "Ruby", ".php": "PHP", ".pl": "Perl",
	".js": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript", ".jsx": "JavaScript",
	".ts": "TypeScript", ".tsx": "TypeScript", ".vue": "Vue", ".svelte": "Svelte",
	".html": "HTML", ".htm": "HTML", ".css": "CSS", ".scss": "SCSS", ".less": "Less",
	".json": "JSON", ".yaml": "YAML", ".yml": "YAML", ".toml": "TOML", ".xml": "XML",
	".md": "Markdown", ".rst": "reStructuredText", ".txt": "Text", ".sh": "Shell",
	".bash": "Shell", ".zsh": "Shell", ".ps1": "PowerShell", ".bat": "Batch",
	".sql": "SQL", ".lua": "Lua", ".r": "R", ".dart": "Dart", ".scala": "Scala",
	".hs": "Haskell", ".ex": "Elixir", ".exs": "Elixir", ".erl": "Erlang",
	".zig": "Zig", ".s": "Assembly", ".asm": "Assembly", ".proto": "Protocol Buffers",
	".rego": "Rego", ".tf": "HCL", ".gd": "GDScript", ".cmake": "CMake",
}
