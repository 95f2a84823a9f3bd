// Package wine holds DeskBridge's binary-level Windows tests: run on Linux
// with the build tag wine, they drive deskbridge.exe under Wine
// (scripts/wine/test.sh, `make test-windows`) through its framed stdio,
// its command line, the Wine registry and the Windows file system. See
// docs/windows.md for what that covers and what it does not.
package wine
