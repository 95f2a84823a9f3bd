package install

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// createdName is the file install leaves in a manifest folder it created
// (and in no other): it lists, one a line, the folders the install made
// for the manifest, so that uninstall removes those, when empty, and never
// a folder the browser or the system made. Browsers read only the
// manifest named after the host; this name is not one.
const createdName = ".deskbridge-created-folders"

// splitDir is the folder of p and whether p has one, with the OS's
// separator (a backslash on Windows).
func (in *Installer) splitDir(p string) (string, bool) {
	if in.OS == "windows" {
		i := strings.LastIndexByte(p, '\\')
		if i <= 2 { // C:\ or shorter: no folder above
			return "", false
		}
		return p[:i], true
	}
	d := path.Dir(p)
	return d, d != p
}

// missingFolders lists dir and those of its parent folders that do not
// exist, deepest first.
func (in *Installer) missingFolders(dir string) []string {
	var missing []string
	for d, ok := dir, true; ok; d, ok = in.splitDir(d) {
		if _, err := in.FS.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
	}
	return missing
}

// recordCreated writes the created-folders record into the manifest folder
// when the install made folders for it.
func (in *Installer) recordCreated(manifestDir string, created []string) error {
	if len(created) == 0 {
		return nil
	}
	return in.FS.WriteFile(in.join(manifestDir, createdName), []byte(strings.Join(created, "\n")+"\n"), 0o644)
}

// removeCreated removes the folders the record in manifestDir names, when
// they are empty, deepest first, and then the record. A folder is removed
// only when it is manifestDir or one of its parents: the record is a file
// on disk, and trusted no further than that.
func (in *Installer) removeCreated(manifestDir string) error {
	record := in.join(manifestDir, createdName)
	data, err := in.FS.ReadFile(record)
	if err != nil {
		return nil // none: install made no folder
	}
	if err := in.FS.Remove(record); err != nil {
		return err
	}
	var above []string
	for d, ok := manifestDir, true; ok; d, ok = in.splitDir(d) {
		above = append(above, d) // deepest first
	}
	listed := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, d := range above {
		if !slices.Contains(listed, d) {
			continue
		}
		removed, err := in.FS.RemoveEmptyDir(d)
		if err != nil {
			return err
		}
		if !removed {
			fmt.Fprintf(in.Out, "left folder %s: it holds files that are not DeskBridge's\n", d)
			return nil
		}
		fmt.Fprintf(in.Out, "removed folder %s (install had created it)\n", d)
	}
	return nil
}

// join joins a folder and a name with the OS's separator.
func (in *Installer) join(dir, name string) string {
	if in.OS == "windows" {
		return dir + `\` + name
	}
	return path.Join(dir, name)
}
