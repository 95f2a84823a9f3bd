package browser

var systemOpener Opener = commandOpener{program: "open"}
