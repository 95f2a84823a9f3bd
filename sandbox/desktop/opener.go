package desktop

// FolderOpener is the program OpenFolder runs ("" where it calls the
// system instead: ShellExecute on Windows).
func FolderOpener() string { return folderOpener }
