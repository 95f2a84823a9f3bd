package preview

import (
	"bytes"
	"context"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// LiveName is the path, below the token, of the preview's event stream
// (Server-Sent Events): one "reload" event after the served folder's
// files change. It carries no file name or content.
const LiveName = "/.deskbridge-live"

// Limits of live reload: folders watched (inotify watches are a per-user
// resource) and event streams open at once.
const (
	maxWatchedFolders = 1000
	maxStreams        = 16
	settle            = 150 * time.Millisecond
)

// LiveScript is what an HTML answer of the preview gets before its
// </body>: it opens the event stream at the preview's own origin (below
// the token, the first segment of the page's path) and reloads the page
// on a "reload" event. The preview's Content-Security-Policy allows
// inline scripts and connections to 'self' only.
const LiveScript = `<script data-deskbridge-live>(function(){var t=location.pathname.split("/")[1];` +
	`var s=new EventSource("/"+t+"` + LiveName + `");s.addEventListener("reload",function(){s.close();location.reload();});})();</script>`

// Live tells the preview's open pages that the served folder changed.
type Live struct {
	mu      sync.Mutex
	streams map[chan struct{}]bool
}

// NewLive returns a Live with no stream open.
func NewLive() *Live { return &Live{streams: map[chan struct{}]bool{}} }

// Changed wakes every open stream.
func (l *Live) Changed() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for ch := range l.streams {
		select {
		case ch <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// subscribe opens a stream, or returns nil when maxStreams are open.
func (l *Live) subscribe() chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.streams) >= maxStreams {
		return nil
	}
	ch := make(chan struct{}, 1)
	l.streams[ch] = true
	return ch
}

func (l *Live) unsubscribe(ch chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.streams, ch)
}

// ServeHTTP is the event stream: a comment at once (so the page knows it
// is open), then "event: reload" after each change, until the request
// ends (the page leaves, or the server stops).
func (l *Live) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ch := l.subscribe()
	if ch == nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	defer l.unsubscribe(ch)
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	send := func(s string) bool {
		if _, err := w.Write([]byte(s)); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	if !send(": live\n\n") {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ch:
			if !send("event: reload\ndata: changed\n\n") {
				return
			}
		}
	}
}

// Watch calls l.Changed, once the changes settle, whenever a file or
// folder below dir is made, written, removed or renamed, until ctx ends.
// It watches dir and its folders (not through links, not .git, at most
// maxWatchedFolders), and each folder made later. An error means no live
// reload; the preview still serves.
func (l *Live) Watch(ctx context.Context, dir string) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	n := 0
	addTree(w, dir, &n)
	go l.watchLoop(ctx, w, &n)
	return nil
}

// watchLoop turns the watcher's events into settled Changed calls.
func (l *Live) watchLoop(ctx context.Context, w *fsnotify.Watcher, n *int) {
	defer w.Close()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if ignored(ev.Name) {
				continue
			}
			if ev.Has(fsnotify.Create) {
				addTree(w, ev.Name, n)
			}
			timer.Reset(settle)
		case _, ok := <-w.Errors:
			if !ok {
				return
			}
		case <-timer.C:
			l.Changed()
		}
	}
}

// addTree watches dir and every folder below it that is not a link or
// .git, while fewer than maxWatchedFolders are watched.
func addTree(w *fsnotify.Watcher, dir string, n *int) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil // a file, a link, or a folder that went away
		}
		if d.Name() == ".git" || *n >= maxWatchedFolders {
			return filepath.SkipDir
		}
		if w.Add(p) == nil {
			*n++
		}
		return nil
	})
}

// ignored reports changes that are no page's: inside a .git folder.
func ignored(name string) bool {
	for _, part := range strings.Split(filepath.ToSlash(name), "/") {
		if part == ".git" {
			return true
		}
	}
	return false
}

// isHTML reports whether the served file rel is an HTML page.
func isHTML(rel string) bool {
	ext := strings.ToLower(filepath.Ext(rel))
	return ext == ".html" || ext == ".htm"
}

// injectLive returns page with LiveScript before its last </body>, or at
// its end when it has none.
func injectLive(page []byte) []byte {
	i := bytes.LastIndex(bytes.ToLower(page), []byte("</body"))
	if i < 0 {
		i = len(page)
	}
	out := make([]byte, 0, len(page)+len(LiveScript))
	out = append(out, page[:i]...)
	out = append(out, LiveScript...)
	return append(out, page[i:]...)
}
