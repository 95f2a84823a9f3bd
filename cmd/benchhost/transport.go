package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// framing reads and writes one message on a pipe.
type framing interface {
	write(w io.Writer, msg []byte) error
	read(r *bufio.Reader) ([]byte, error)
}

// nativeFraming is Chrome Native Messaging: a 32-bit length in native
// (little-endian on every supported machine) byte order, then the JSON.
type nativeFraming struct{}

func (nativeFraming) write(w io.Writer, msg []byte) error {
	b := make([]byte, 4+len(msg))
	binary.LittleEndian.PutUint32(b, uint32(len(msg)))
	copy(b[4:], msg)
	_, err := w.Write(b)
	return err
}

func (nativeFraming) read(r *bufio.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	b := make([]byte, binary.LittleEndian.Uint32(n[:]))
	_, err := io.ReadFull(r, b)
	return b, err
}

// lineFraming is MCP's stdio transport: one JSON-RPC message per line.
type lineFraming struct{}

func (lineFraming) write(w io.Writer, msg []byte) error {
	_, err := w.Write(append(append([]byte{}, msg...), '\n'))
	return err
}

func (lineFraming) read(r *bufio.Reader) ([]byte, error) {
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		if len(line) > 1 {
			return line[:len(line)-1], nil
		}
	}
}

// proc is one spawned server speaking a framing on its stdin and stdout.
type proc struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	fr  framing
}

func spawn(fr framing, argv []string, dir string) (*proc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	if _, lines := fr.(lineFraming); lines {
		cmd.Stderr = nil // the MCP server chats on stderr
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &proc{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), fr: fr}, nil
}

func (p *proc) send(msg []byte) error { return p.fr.write(p.in, msg) }

func (p *proc) recv() ([]byte, error) { return p.fr.read(p.out) }

// call sends msg and returns the next message.
func (p *proc) call(msg []byte) ([]byte, error) {
	if err := p.send(msg); err != nil {
		return nil, err
	}
	return p.recv()
}

// close ends the server as a browser would: by closing its stdin.
func (p *proc) close() error {
	p.in.Close()
	if err := p.cmd.Wait(); err != nil {
		return fmt.Errorf("%s: %w", p.cmd.Path, err)
	}
	return nil
}
