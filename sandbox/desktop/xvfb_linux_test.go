package desktop

import "github.com/deskbridge/deskbridge/internal/xvfb"

func startXvfb() (*xvfb.Server, error) { return xvfb.Start() }
