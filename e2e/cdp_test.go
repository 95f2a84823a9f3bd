//go:build e2e && linux

package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// cdp is a minimal DevTools protocol client over --remote-debugging-pipe:
// the browser reads NUL-terminated JSON commands on fd 3 and writes
// NUL-terminated responses and events on fd 4.
type cdp struct {
	w       io.WriteCloser
	mu      sync.Mutex
	nextID  int
	waiting map[int]chan cdpReply
	done    chan struct{}
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func newCDP(r io.Reader, w io.WriteCloser) *cdp {
	c := &cdp{w: w, waiting: map[int]chan cdpReply{}, done: make(chan struct{})}
	go c.readLoop(r)
	return c
}

func (c *cdp) readLoop(r io.Reader) {
	defer close(c.done)
	br := bufio.NewReader(r)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m struct {
			ID int `json:"id"`
			cdpReply
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue // an event
		}
		c.mu.Lock()
		ch := c.waiting[m.ID]
		delete(c.waiting, m.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- m.cdpReply
		}
	}
}

// call sends method with params (in session, when not empty) and decodes
// the result into out.
func (c *cdp) call(session, method string, params, out any, timeout time.Duration) error {
	ch, err := c.send(session, method, params)
	if err != nil {
		return err
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if out == nil {
			return nil
		}
		return json.Unmarshal(r.Result, out)
	case <-c.done:
		return errors.New("browser closed the DevTools pipe")
	case <-time.After(timeout):
		return fmt.Errorf("%s: no answer within %v", method, timeout)
	}
}

func (c *cdp) send(session, method string, params any) (chan cdpReply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	msg := map[string]any{"id": c.nextID, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	ch := make(chan cdpReply, 1)
	c.waiting[c.nextID] = ch
	_, err = c.w.Write(append(b, 0))
	return ch, err
}
