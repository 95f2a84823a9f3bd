package project

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

//go:embed all:templates
var builtin embed.FS

// Limits of a template from a configured folder: a template is a small
// starting point, not a way to copy a tree.
const (
	MaxTemplateFiles = 500
	MaxTemplateBytes = 8 << 20
)

// ErrNoTemplate reports a template name that is neither built in nor in
// the configured templates folder.
var ErrNoTemplate = errors.New("project: no such template")

// ErrTemplateTooLarge reports a configured template past MaxTemplateFiles
// or MaxTemplateBytes.
var ErrTemplateTooLarge = errors.New("project: template too large")

// File is one file of a project made from a template: its path relative
// to the project folder (slash-separated) and its content.
type File struct {
	Path string
	Data []byte
}

// Builtin lists the names of the embedded templates, sorted.
func Builtin() []string {
	entries, _ := builtin.ReadDir("templates")
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// Template returns the files of the template name with {{name}} and
// {{description}} replaced. A folder of that name in dir (the
// configuration's projects.templates; "" for none) is taken before a
// built-in template, so a team can give its own "node"; it is read
// through a root handle, its symlinks and special files are left out.
// A name that is not one plain folder name is ErrNoTemplate.
func Template(dir, name string, vars map[string]string) ([]File, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\:`) {
		return nil, fmt.Errorf("%w: %q", ErrNoTemplate, name)
	}
	files, err := fromFolder(dir, name)
	if errors.Is(err, fs.ErrNotExist) {
		files, err = fromFS(builtin, path.Join("templates", name), false)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %q", ErrNoTemplate, name)
	}
	if err != nil {
		return nil, err
	}
	for i := range files {
		files[i].Data = expand(files[i].Data, vars)
	}
	return files, nil
}

// fromFolder reads the template name from the folder dir.
func fromFolder(dir, name string) ([]File, error) {
	if dir == "" {
		return nil, fs.ErrNotExist
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	fi, err := r.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fs.ErrNotExist
	}
	return fromFS(r.FS(), name, true)
}

// fromFS reads every regular file below base in fsys, but for a .git
// folder's. A name ending in
// .tmpl loses that ending (templates/go/main.go.tmpl is main.go: a Go
// file or go.mod in this source tree would be compiled or end the
// module).
func fromFS(fsys fs.FS, base string, capped bool) ([]File, error) {
	if _, err := fs.Stat(fsys, base); err != nil {
		return nil, err
	}
	var files []File
	total := 0
	err := fs.WalkDir(fsys, base, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".git" {
			return fs.SkipDir // a template's own repository (its hooks, its config) is not copied
		}
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		total += len(b)
		if capped && (len(files) >= MaxTemplateFiles || total > MaxTemplateBytes) {
			return ErrTemplateTooLarge
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(p, base+"/"), ".tmpl")
		files = append(files, File{Path: rel, Data: b})
		return nil
	})
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, err
}

// expand replaces {{key}} by vars[key] in b.
func expand(b []byte, vars map[string]string) []byte {
	s := string(b)
	for k, v := range vars {
		s = strings.ReplaceAll(s, "{{"+k+"}}", v)
	}
	return []byte(s)
}

// TemplateInfo names one template create_project can make a project from.
type TemplateInfo struct {
	Name string
	// Configured is set for a folder of the configuration's
	// projects.templates (which a built-in template of the same name
	// gives way to).
	Configured bool
}

// Templates lists the templates: the built-in ones and the plain folders
// (not links) in dir ("" for none), by name; a configured folder named as
// a built-in template replaces it, as Template does. A dir that cannot be
// read adds none.
func Templates(dir string) []TemplateInfo {
	byName := map[string]TemplateInfo{}
	for _, n := range Builtin() {
		byName[n] = TemplateInfo{Name: n}
	}
	if dir != "" {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.IsDir() && e.Type()&fs.ModeSymlink == 0 && !strings.HasPrefix(e.Name(), ".") {
				byName[e.Name()] = TemplateInfo{Name: e.Name(), Configured: true}
			}
		}
	}
	out := make([]TemplateInfo, 0, len(byName))
	for _, t := range byName {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b TemplateInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}
