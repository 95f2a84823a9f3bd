package panel

import (
	"context"
	"crypto/subtle"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/deskbridge/deskbridge/sandbox/localserve"
)

// The panel is entered with a one-time ticket: open_deskbridge (or
// `deskbridge panel`) asks the running panel for a ticket, with the
// instance's Admin secret in TicketHeader: a secret the URL never
// carries, read from DeskBridge's own state file, so neither a page nor
// an extension that knows the panel's URL can ask for one; and hands
// /TOKEN/enter?ticket=T to the opener it starts (or prints it for the
// person), never to a response. The first visit
// spends the ticket for a session cookie (HttpOnly, SameSite=Strict,
// scoped to /TOKEN/) and is redirected to the panel; every page wants
// that cookie. A URL copied out of the browser's history is worth
// nothing: its ticket is spent, and the token alone opens nothing.

// TicketHeader is the request header of a ticket request.
const TicketHeader = "X-DeskBridge-Ticket"

// ticketTTL bounds how long an unspent ticket stays valid.
const ticketTTL = 2 * time.Minute

// cookieName is the session cookie's name.
const cookieName = "deskbridge_panel"

// ErrTicket reports a panel that gave no ticket.
var ErrTicket = errors.New("panel: no ticket")

// Ticket asks the running panel in for a one-time ticket and returns the
// URL that spends it.
func Ticket(ctx context.Context, in localserve.Instance) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, in.URL()+"ticket", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set(TicketHeader, in.Admin)
	resp, err := (&http.Client{Transport: &http.Transport{Proxy: nil}}).Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
	if resp.StatusCode != http.StatusOK || len(b) != 32 {
		return "", ErrTicket
	}
	return in.URL() + "enter?ticket=" + string(b), nil
}

// newTicket answers a fresh ticket to a request whose TicketHeader is the
// instance's Admin secret.
func (p *Server) newTicket(w http.ResponseWriter, r *http.Request) {
	if p.admin == "" || subtle.ConstantTimeCompare([]byte(r.Header.Get(TicketHeader)), []byte(p.admin)) != 1 {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	t := localserve.NewToken()
	p.mu.Lock()
	p.tickets[t] = time.Now().Add(ticketTTL)
	p.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain")
	io.WriteString(w, t)
}

// enter spends a ticket for a session cookie.
func (p *Server) enter(w http.ResponseWriter, r *http.Request) {
	t := r.URL.Query().Get("ticket")
	p.mu.Lock()
	exp, ok := p.tickets[t]
	delete(p.tickets, t)
	session := ""
	if ok && time.Now().Before(exp) {
		session = localserve.NewToken()
		p.sessions[session] = true
	}
	p.mu.Unlock()
	if session == "" {
		http.Error(w, "This panel link was used already or has expired; run `deskbridge panel` for a new one.", http.StatusForbidden)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: session, Path: p.base, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, p.base, http.StatusSeeOther)
}

// session wraps a page: it answers only a request with a session cookie.
func (p *Server) session(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(cookieName)
		p.mu.Lock()
		ok := err == nil && p.sessions[c.Value]
		p.mu.Unlock()
		if !ok {
			http.Error(w, "Open the control panel with `deskbridge panel` in a terminal on this computer: this page needs the session its one-time link starts.", http.StatusForbidden)
			return
		}
		h(w, r)
	}
}
