package browser

func systemOpener(dirs []string) Opener { return commandOpener{program: "open", dirs: dirs} }
