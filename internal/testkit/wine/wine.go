// Package wine tells a test whether it runs under Wine, and skips, with a
// named reason, a test that cannot pass there because of a gap in Wine
// itself (never because of DeskBridge). It is imported only by tests;
// docs/windows.md lists every reason and the tests that use it.
package wine

import "testing"

// Reasons a test is skipped under Wine: each names the Wine gap.
const (
	// NoSymlinks: Wine 8's CreateSymbolicLinkW is a stub that returns
	// success and creates nothing, so a test that plants a symbolic link
	// would test a plain missing file.
	NoSymlinks = "Wine 8 CreateSymbolicLinkW is a stub: os.Symlink succeeds and creates nothing"
	// NoGit: the Wine prefix has no Git for Windows, and a Linux git
	// cannot be started from a Windows program.
	NoGit = "no Git for Windows in the Wine prefix"
	// StartAfterKill: a process started right after Wine 8 terminated
	// another (TerminateProcess) sometimes dies at start with "Failed to
	// load ws2_32.dll: DLL initialization failed".
	StartAfterKill = "Wine 8 sometimes fails to start a process right after killing another (ws2_32.dll initialization failed)"
	// StartInternalError: under load Wine 8's CreateProcess sometimes
	// fails with ERROR_INTERNAL_ERROR ("Internal error") and starts
	// nothing; the cmd/deskbridge tests start the program again (never a
	// skip).
	StartInternalError = "Wine 8 CreateProcess sometimes fails with ERROR_INTERNAL_ERROR and starts nothing"
	// NoFirstPipeInstance: Wine 8's CreateNamedPipeW accepts
	// FILE_FLAG_FIRST_PIPE_INSTANCE and does not enforce it: a second
	// first instance of an existing pipe name is created.
	NoFirstPipeInstance = "Wine 8 does not enforce FILE_FLAG_FIRST_PIPE_INSTANCE"
	// NoJobLimits: Wine 8 accepts a job object's extended limits
	// (SetInformationJobObject succeeds) but neither keeps them
	// (QueryInformationJobObject reads zeros) nor enforces them: a process
	// in the job commits past its memory limit.
	NoJobLimits = "Wine 8 neither keeps nor enforces a job object's extended limits (memory, CPU time)"
	// NoLinuxPrograms: a Windows program under Wine cannot start the
	// Linux programs a test compares with (libvips, ImageMagick, the go
	// command).
	NoLinuxPrograms = "a Windows test under Wine cannot start the Linux programs it compares with (libvips, ImageMagick, go)"
	// WasmStdio: the WebP and AVIF codecs run as WebAssembly (wazero),
	// which stats the process's standard output when a module starts.
	WasmStdio = "the WebAssembly codecs fail under Wine 8 to stat standard output (GetFileInformationByHandle: invalid handle); open on Windows until run there (docs/windows.md)"
)

// Running reports whether this Windows program runs under Wine (ntdll.dll
// exports wine_get_version). It is false on every other platform.
func Running() bool { return running() }

// Skip skips t under Wine, saying why; elsewhere it does nothing.
func Skip(t testing.TB, reason string) {
	t.Helper()
	if Running() {
		t.Skip("skipped under Wine: " + reason)
	}
}
