package warm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// relayPair is the two ends of a relayed port over an in-memory
// connection: the warm process's Port and deskbridge-host's connection.
func relayPair(t *testing.T) (*Port, net.Conn) {
	t.Helper()
	server, client := net.Pipe()
	t.Cleanup(func() { server.Close(); client.Close() })
	return relayPort(server), client
}

// The relay carries the port both ways: the browser's bytes in, the
// answers and the host's log lines out, the end of the input, and the
// exit status last.
func TestRelayCarriesThePort(t *testing.T) {
	port, client := relayPair(t)
	go func() { // the warm process: echo the input, upper-cased
		b, err := io.ReadAll(port.In)
		if err != nil {
			port.Finish(9)
			return
		}
		port.Out.Write(bytes.ToUpper(b))
		port.Err.Write([]byte("a log line\n"))
		port.Finish(3)
	}()
	big := strings.Repeat("x", 3*maxChunk+7) // more than a chunk holds
	var out, errOut bytes.Buffer
	status, err := relayHandOver(client, strings.NewReader("hello "+big), &out, &errOut)
	if err != nil || status != 3 {
		t.Fatalf("relayHandOver = %d, %v; want 3", status, err)
	}
	if out.String() != strings.ToUpper("hello "+big) || errOut.String() != "a log line\n" {
		t.Fatalf("stdout %d bytes, stderr %q", out.Len(), errOut.String())
	}
}

// The warm process learns that deskbridge-host has gone even while the
// host is not reading its input (a long request in hand): the port's
// work is then cancelled.
func TestRelayGoneWhileInputWaits(t *testing.T) {
	port, client := relayPair(t)
	for range 3 {
		if err := writeChunk(client, chunkIn, []byte("unread")); err != nil {
			t.Fatal(err)
		}
	}
	client.Close()
	select {
	case <-port.Gone():
	case <-time.After(10 * time.Second):
		t.Fatal("Gone not closed after deskbridge-host went, with its input unread")
	}
}

// A chunk that breaks the relay's rules (too long, of an unknown kind,
// input after its end) ends the port as if deskbridge-host had gone.
func TestRelayRefusesBrokenChunks(t *testing.T) {
	tooLong := binary.LittleEndian.AppendUint32([]byte{chunkIn}, maxChunk+1)
	for name, chunks := range map[string][][]byte{
		"too long":        {tooLong},
		"unknown kind":    {{'?', 0, 0, 0, 0}},
		"a status in":     {{chunkDone, 4, 0, 0, 0, 0, 0, 0, 0}},
		"input after end": {{chunkInEnd, 0, 0, 0, 0}, {chunkIn, 1, 0, 0, 0, 'x'}},
	} {
		t.Run(name, func(t *testing.T) {
			port, client := relayPair(t)
			go func() {
				for _, c := range chunks {
					client.Write(c)
				}
			}()
			select {
			case <-port.Gone():
			case <-time.After(10 * time.Second):
				t.Fatal("the relay went on after a broken chunk")
			}
		})
	}
}

// deskbridge-host refuses what the warm process must not send it: a
// chunk too long, or one of an unknown kind.
func TestRelayHandOverRefusesBrokenChunks(t *testing.T) {
	for name, chunk := range map[string][]byte{
		"too long":     binary.LittleEndian.AppendUint32([]byte{chunkOut}, maxChunk+1),
		"unknown kind": {'?', 0, 0, 0, 0},
		"short status": {chunkDone, 1, 0, 0, 0, 0},
	} {
		t.Run(name, func(t *testing.T) {
			server, client := net.Pipe()
			defer server.Close()
			go func() {
				io.Copy(io.Discard, server)
			}()
			go server.Write(chunk)
			status, err := relayHandOver(client, strings.NewReader(""), io.Discard, io.Discard)
			if err == nil || status == 0 {
				t.Fatalf("relayHandOver = %d, %v; want refused", status, err)
			}
			if !errors.Is(err, errRelay) {
				t.Fatalf("relayHandOver's error %v is not errRelay", err)
			}
		})
	}
}
