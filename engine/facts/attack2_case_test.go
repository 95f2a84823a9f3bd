package facts

import "testing"

// TestAttack2SecretCaseVariants: whether names fold is a property of the
// file system, not of the OS. On Linux a workspace on a case-insensitive
// mount (WSL's /mnt/c, vfat/exFAT drives, CIFS shares, ext4 casefold
// folders) opens .env when asked for .ENV; the classifier, folding only on
// Windows and macOS, calls .ENV harmless there, so read_file and the agent
// hand out the .env file under its upper-case name. Secret patterns should
// match in any case everywhere (a false positive costs nothing).
func TestAttack2SecretCaseVariants(t *testing.T) {
	c := NewClassifier(nil, nil)
	for _, p := range []string{".ENV", ".Env", ".env.LOCAL", "ID_RSA", "server.PEM", ".SSH/config", ".AWS/credentials", "CREDENTIALS.json", ".NETRC"} {
		t.Run(p, func(t *testing.T) {
			if got := c.ClassifySlash(p); got != Secret {
				t.Fatalf("ClassifySlash(%q) = %q, want %q", p, got, Secret)
			}
		})
	}
}
