package warm

import "io"

// Port is the browser's port as a warm process serves it for one
// connection: deskbridge-host's standard input, output and error.
//
//   - On Linux and macOS they are deskbridge-host's own descriptors, passed
//     over the socket (SendFiles): In, Out and Err are *os.File, and no
//     byte of the messages passes through deskbridge-host.
//   - On Windows deskbridge-host relays them over the pipe (relay.go):
//     it copies bytes both ways, reading no frame and deciding nothing.
type Port struct {
	// In is the browser's port, the messages to serve.
	In io.Reader
	// Out takes the answers.
	Out io.Writer
	// Err takes the host's log lines for the browser's standard error.
	Err io.Writer

	gone  chan struct{}
	close func()
	done  func(status int) error
}

// Gone is closed when deskbridge-host has gone (it ended, or was
// stopped): the port's work is then cancelled, as a stopped host's is.
func (p *Port) Gone() <-chan struct{} { return p.gone }

// Close lets the port's streams go; it may be called more than once.
func (p *Port) Close() { p.close() }

// Finish closes the streams (the port is the browser's again) and then
// tells deskbridge-host the exit status a host serving the port itself
// would have had.
func (p *Port) Finish(status int) error {
	p.close()
	return p.done(status)
}
