package main

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// server is one program under measurement and how to talk to it.
type server interface {
	name() string
	framing() framing
	argv() []string
	// first is the first request a fresh process answers.
	first() []byte
	// afterFirst is sent (without an answer) after the first answer.
	afterFirst() []byte
	read(id int, path string, offset int64) []byte
	list(id int, path string) []byte
	// page checks one read answer and returns where the next page starts
	// (0 when the file is complete).
	page(resp []byte) (next int64, err error)
	ok(resp []byte) error
}

// deskbridge is the real host, started as Chrome starts it; label, when
// set, names a variant (its configuration) in the report.
type deskbridge struct{ bin, config, origin, label string }

func (d deskbridge) name() string {
	if d.label != "" {
		return d.label
	}
	return "deskbridge"
}
func (d deskbridge) framing() framing   { return nativeFraming{} }
func (d deskbridge) argv() []string     { return []string{d.bin, "--config", d.config, d.origin} }
func (d deskbridge) afterFirst() []byte { return nil }

func (d deskbridge) first() []byte { return request(0, "get_status", map[string]any{}) }

func (d deskbridge) read(id int, path string, offset int64) []byte {
	args := map[string]any{"path": path}
	if offset > 0 {
		args["offset"] = offset
	}
	return request(id, "read_file", args)
}

func (d deskbridge) list(id int, path string) []byte {
	return request(id, "list_folder", map[string]any{"path": path})
}

func (d deskbridge) ok(resp []byte) error {
	var r struct {
		Success bool            `json:"success"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return err
	}
	if !r.Success {
		return fmt.Errorf("deskbridge answered %s", r.Error)
	}
	return nil
}

func (d deskbridge) page(resp []byte) (int64, error) {
	var r struct {
		Success bool            `json:"success"`
		Error   json.RawMessage `json:"error"`
		Data    struct {
			NextOffset int64 `json:"next_offset"`
		} `json:"data"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return 0, err
	}
	if !r.Success {
		return 0, fmt.Errorf("deskbridge answered %s", r.Error)
	}
	return r.Data.NextOffset, nil
}

func request(id int, action string, args map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"version": 1, "id": strconv.Itoa(id), "action": action, "arguments": args})
	return b
}

// echo is the floor: a trivial framed echo host (testdata/echohost).
type echo struct {
	deskbridge
}

func (e echo) name() string   { return "echo floor" }
func (e echo) argv() []string { return []string{e.bin, e.origin} }

func (e echo) page(resp []byte) (int64, error) { return 0, e.ok(resp) }

// mcpFS is the peer: @modelcontextprotocol/server-filesystem under node.
type mcpFS struct{ script, root string }

func (m mcpFS) name() string     { return "MCP server-filesystem (node)" }
func (m mcpFS) framing() framing { return lineFraming{} }
func (m mcpFS) argv() []string   { return []string{"node", m.script, m.root} }

func (m mcpFS) first() []byte {
	return rpc(0, "initialize", map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "benchhost", "version": "1"},
	})
}

func (m mcpFS) afterFirst() []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return b
}

func (m mcpFS) read(id int, path string, _ int64) []byte {
	return rpc(id, "tools/call", map[string]any{"name": "read_text_file", "arguments": map[string]any{"path": path}})
}

func (m mcpFS) list(id int, path string) []byte {
	return rpc(id, "tools/call", map[string]any{"name": "list_directory_with_sizes", "arguments": map[string]any{"path": path}})
}

func (m mcpFS) ok(resp []byte) error {
	var r struct {
		Error  json.RawMessage `json:"error"`
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return err
	}
	if r.Error != nil || r.Result.IsError {
		return fmt.Errorf("MCP server answered %.300s", resp)
	}
	return nil
}

func (m mcpFS) page(resp []byte) (int64, error) { return 0, m.ok(resp) }

func rpc(id int, method string, params any) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return b
}
