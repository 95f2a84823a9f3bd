package facts

import "testing"

// Files that run code later but that the default executes patterns miss.
// A workspace that is (or contains) the home folder is the case the
// shell start-up patterns already assume.
func TestAttackClassifierMissesExecutes(t *testing.T) {
	c := NewClassifier(nil, nil)
	tests := []struct{ name, path, why string }{
		{"gitconfig", "/home/ann/.gitconfig", "core.fsmonitor, core.pager, core.hooksPath and aliases run programs on the next git command"},
		{"xdg git config", "/home/ann/.config/git/config", "the XDG form of ~/.gitconfig"},
		{"bash aliases", "/home/ann/.bash_aliases", "sourced by the default Debian/Ubuntu .bashrc"},
		{"chrome beta manifest", "/home/ann/.config/google-chrome-beta/NativeMessagingHosts/evil.json", "a native messaging manifest names a program the browser starts"},
		{"chrome manifest", "/home/ann/.config/google-chrome/NativeMessagingHosts/evil.json", "protected only for DeskBridge's own browsers' folders, not classified"},
		{"firefox manifest", "/home/ann/.mozilla/native-messaging-hosts/evil.json", "as above"},
		{"mercurial hooks", "/home/ann/Demo/.hg/hgrc", "[hooks] run on hg commands, like .git/config"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.Classify(tc.path); got == "" {
				t.Errorf("Classify(%q) = %q, want %q: %s", tc.path, got, Executes, tc.why)
			}
		})
	}
}

// Credential files that the default secret patterns miss.
func TestAttackClassifierMissesSecrets(t *testing.T) {
	c := NewClassifier(nil, nil)
	for _, p := range []string{
		"/home/ann/.config/gh/hosts.yml",       // GitHub CLI token
		"/home/ann/.cargo/credentials.toml",    // crates.io token
		"/home/ann/.s3cfg",                     // S3 keys
		"/home/ann/.boto",                      // GCS/S3 keys
		"/home/ann/.config/rclone/rclone.conf", // cloud storage tokens
		"/home/ann/.terraformrc",               // Terraform Cloud token
		"/home/ann/.config/hub",                // hub token
		"/home/ann/.local/share/keyrings/login.keyring",
	} {
		t.Run(p, func(t *testing.T) {
			if got := c.Classify(p); got != Secret {
				t.Errorf("Classify(%q) = %q, want %q", p, got, Secret)
			}
		})
	}
}

// Spellings that the classifier does catch (it works on whole components
// of the canonical path).
func TestAttackHeldClassifierSpellings(t *testing.T) {
	c := NewClassifier(nil, nil)
	tests := []struct{ path, want string }{
		{"/w//.git//hooks/pre-commit", Executes},
		{"/w/.git/hooks/", Executes},
		{"/w/sub/.git/config", Secret},
		{"/w/.GIT/Config", Secret},
		{"/w/.git/modules/lib/config", Secret},
		{"/w/.git/worktrees/wt/config.worktree", Secret},
		{"/w/.git/description", Executes},
		{"/w/.env.production", Secret},
		{"/w/a/b/.ssh/authorized_keys", Secret},
		{"/w/keys/id_ed25519.pub", Secret},
		{"/w/.vscode/tasks.json", Executes},
		{"/w/x.code-workspace", Executes},
		{"/w/.git", Executes},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			if got := c.ClassifySlash(tc.path); got != tc.want {
				t.Errorf("ClassifySlash(%q) = %q, want %q", tc.path, got, tc.want)
			}
		})
	}
}
