// Command echohost is a trivial Chrome native messaging host for the
// end-to-end tests and the benchmark baseline. It answers every request
// frame {"version":1,"id":…,"action":…,"arguments":…} with
// {"version":1,"id":…,"success":true,"data":{"host":"echo","action":…,
// "arguments":…,"origin":…}} and exits 0 at EOF (the browser closed the port).
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

const maxFrame = 1 << 20

type request struct {
	ID        string          `json:"id"`
	Action    string          `json:"action"`
	Arguments json.RawMessage `json:"arguments"`
}

type response struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	Success bool   `json:"success"`
	Data    any    `json:"data"`
}

func main() {
	origin := ""
	if len(os.Args) > 1 {
		origin = os.Args[1]
	}
	if err := serve(bufio.NewReader(os.Stdin), os.Stdout, origin); err != nil {
		fmt.Fprintln(os.Stderr, "echohost:", err)
		os.Exit(1)
	}
}

func serve(r io.Reader, w io.Writer, origin string) error {
	for {
		payload, err := readFrame(r)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		var req request
		if err := json.Unmarshal(payload, &req); err != nil {
			return err
		}
		data := map[string]any{"host": "echo", "action": req.Action, "arguments": req.Arguments, "origin": origin}
		if err := writeFrame(w, response{Version: 1, ID: req.ID, Success: true, Data: data}); err != nil {
			return err
		}
	}
}

func readFrame(r io.Reader) ([]byte, error) {
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return nil, err
	}
	if n == 0 || n > maxFrame {
		return nil, fmt.Errorf("frame length %d", n)
	}
	buf := make([]byte, n)
	_, err := io.ReadFull(r, buf)
	return buf, err
}

func writeFrame(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(b)))
	_, err = w.Write(append(out, b...))
	return err
}
