package proc

// SystemReadRoots are what a child of the host's own binary (the document
// converter, the image worker) may read and run, as Spec.ReadRoots, on
// Linux with Landlock up: the system's program, library, configuration
// and data folders (for tesseract, pdftoppm and their fonts and language
// data), /proc, /sys and /dev, and the host's own executable self; never
// a home folder or a workspace (its input comes as an open file or as
// bytes). Elsewhere reads are not confined.
func SystemReadRoots(self string) []string {
	return []string{"/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/opt",
		"/proc", "/sys", "/dev", "/var/cache/fontconfig", self}
}
