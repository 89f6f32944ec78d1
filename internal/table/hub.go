package table

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/botarena/gamebot/internal/httpkit"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
)

// HubConfig bounds a hub.
type HubConfig struct {
	MaxTables int // tables at once (default 64)
	// MaxPerClient is the tables one client may hold open at once (0: no
	// cap beyond MaxTables). A client is a browser (its cookie), and a
	// remote address besides: a client that drops its cookie is still
	// one client.
	MaxPerClient int
	// Thinkers is how many bot decisions run at once across the tables
	// (default: the CPUs less one, at least one), so that a person's
	// request always finds a core.
	Thinkers int
	IdleTTL  time.Duration // a table nobody asked about for this long is closed (default 30 min)
	Records  string        // where tables write their records, a folder a game ("": nowhere)
	// Hosts are the names besides loopback's that the listener is
	// reached by (the Host of a request; see Handler).
	Hosts []string
	Now   func() time.Time
}

// Hub holds the tables.
type Hub struct {
	cfg   HubConfig
	games map[string]*Game
	order []string

	slots chan struct{} // a token a bot decision in progress

	pages map[string]map[i18n.Lang][]byte // each game's page in each language

	mu      sync.Mutex
	tables  map[string]*entry  // by id
	tickets map[string]*ticket // by token
	closed  bool
}

// ticket is what a token stands for: a seat at a table.
type ticket struct {
	e    *entry
	seat Seat
}

// Client is who asks the hub for a table: a browser's cookie and, for
// a client on another machine, its address.
type Client struct {
	Key  string // the browser's (its cookie); "" for a tool that keeps none
	Addr string // its IP address, "" when it is this machine's
	// P is the language the client reads (nil: English): a refused
	// setup says why in it.
	P *i18n.Printer
}

// think runs decide holding a thinking slot.
func (h *Hub) think(ctx context.Context, decide func()) error {
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-h.slots }()
	decide()
	return nil
}

// entry is a table with its seats' tokens, its wake-up channel and its
// last use.
type entry struct {
	id      string
	game    *Game
	client  Client
	seating Seating
	tokens  map[Seat]string // the creator's seat, Watch, and each seat kept for a person
	table   Table
	cancel  context.CancelFunc

	mu        sync.Mutex
	changed   chan struct{} // closed and replaced at each Notify
	changedAt time.Time     // when the table last said its view changed
	used      time.Time
}

// NewHub returns a hub of the games.
func NewHub(cfg HubConfig, games ...*Game) *Hub {
	if cfg.MaxTables <= 0 {
		cfg.MaxTables = 64
	}
	if cfg.IdleTTL <= 0 {
		cfg.IdleTTL = 30 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Thinkers <= 0 {
		cfg.Thinkers = max(runtime.GOMAXPROCS(0)-1, 1)
	}
	h := &Hub{cfg: cfg, games: map[string]*Game{}, tables: map[string]*entry{}, tickets: map[string]*ticket{},
		slots: make(chan struct{}, cfg.Thinkers)}
	h.pages = map[string]map[i18n.Lang][]byte{}
	for _, g := range games {
		h.games[g.Name] = g
		h.order = append(h.order, g.Name)
		ps, err := renderPages(g)
		if err != nil {
			// A page is part of the binary: its game's tests render it.
			panic(err)
		}
		h.pages[g.Name] = ps
	}
	return h
}

// Created is a new table as its creator sees it: the link to their seat
// (its token) and the links to pass on.
type Created struct {
	// Token is the creator's: the table's API is /play/api/tables/{token}.
	Token string `json:"token"`
	URL   string `json:"url"`
	Links
}

// Create starts a table of game from the setup options, for client.
func (h *Hub) Create(game string, options []byte, client Client) (Created, error) {
	g := h.games[game]
	if g == nil {
		return Created{}, problem.New(problem.NotFound, "no game %q", game)
	}
	e := &entry{id: rand.Text(), game: g, client: client, changed: make(chan struct{}), used: h.cfg.Now()}
	if err := h.reserve(e); err != nil {
		return Created{}, err
	}
	records := ""
	if h.cfg.Records != "" {
		records = filepath.Join(h.cfg.Records, g.Name)
		if err := os.MkdirAll(records, 0o755); err != nil {
			h.drop(e)
			return Created{}, fmt.Errorf("records: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	t, seating, err := g.New(ctx, options, Env{ID: e.id, Notify: e.notify, Think: h.think, Records: records, P: client.P})
	if err != nil {
		cancel()
		h.drop(e)
		return Created{}, err
	}
	tokens := map[Seat]string{seating.Creator: rand.Text(), Watch: rand.Text()}
	for _, p := range seating.Others {
		tokens[p.Seat] = rand.Text()
	}
	e.mu.Lock()
	e.table, e.cancel = t, cancel
	e.mu.Unlock()
	// Published under the hub's lock, and never changed after: whoever
	// finds the tokens reads them and the seating without a lock.
	h.mu.Lock()
	if h.closed { // Close ran while the table was being set up
		h.mu.Unlock()
		e.close()
		return Created{}, problem.New(problem.Unavailable, "the server is shutting down")
	}
	e.tokens, e.seating = tokens, seating
	for seat, tok := range tokens {
		h.tickets[tok] = &ticket{e: e, seat: seat}
	}
	h.mu.Unlock()
	e.notify()
	return Created{Token: e.tokens[seating.Creator], URL: e.link(seating.Creator), Links: e.links()}, nil
}

// reserve counts e among the tables before it is set up, so that a
// second Create counts it, or says why there is no room.
func (h *Hub) reserve(e *entry) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return problem.New(problem.Unavailable, "the server is shutting down")
	}
	if n := h.cfg.MaxPerClient; n > 0 && h.heldLocked(e.client) >= n {
		return problem.New(problem.Unavailable, "you have %d tables open, the most one person may hold here: finish or leave one (an idle table closes after %s)", n, h.cfg.IdleTTL)
	}
	if len(h.tables) >= h.cfg.MaxTables {
		// A finished game's record is on disk: the finished table seen
		// least recently makes room before anyone's game in play does.
		old := h.finishedLocked()
		if old == nil {
			return problem.New(problem.Unavailable, "%d tables are in play, the most this server keeps: finish or leave one (an idle table closes after %s)", h.cfg.MaxTables, h.cfg.IdleTTL)
		}
		h.removeLocked(old)
		go old.close()
	}
	h.tables[e.id] = e
	return nil
}

// heldLocked counts the tables of client: by its cookie, and by its
// address when it has one (the caller holds h.mu).
func (h *Hub) heldLocked(c Client) int {
	n := 0
	for _, e := range h.tables {
		if e.client.Key != "" && e.client.Key == c.Key || e.client.Addr != "" && e.client.Addr == c.Addr {
			n++
		}
	}
	return n
}

// drop forgets a table that was not set up.
func (h *Hub) drop(e *entry) {
	h.mu.Lock()
	delete(h.tables, e.id)
	h.mu.Unlock()
}

// removeLocked forgets a table and its tokens (the caller holds h.mu).
func (h *Hub) removeLocked(e *entry) {
	delete(h.tables, e.id)
	for _, tok := range e.tokens {
		delete(h.tickets, tok)
	}
}

// link is the page of the table at seat.
func (e *entry) link(seat Seat) string {
	return "/play/" + e.game.Name + "?t=" + url.QueryEscape(e.tokens[seat])
}

// links are the table's links for the creator to pass on.
func (e *entry) links() Links {
	l := Links{Watch: e.link(Watch)}
	for _, p := range e.seating.Others {
		l.Seats = append(l.Seats, SeatLink{Name: p.Name, URL: e.link(p.Seat)})
	}
	return l
}

// finishedLocked is the finished table used least recently, or nil (the
// caller holds h.mu).
func (h *Hub) finishedLocked() *entry {
	var best *entry
	var used time.Time
	for _, e := range h.tables {
		e.mu.Lock()
		t, u := e.table, e.used
		e.mu.Unlock()
		if t == nil || !t.Summary(nil).Over {
			continue
		}
		if best == nil || u.Before(used) {
			best, used = e, u
		}
	}
	return best
}

func (e *entry) notify() {
	e.mu.Lock()
	close(e.changed)
	e.changed = make(chan struct{})
	e.changedAt = time.Now()
	e.mu.Unlock()
}

// At is a table as one token sees it.
type At struct {
	Table Table
	Seat  Seat
	Game  string
	// Creator: the token is the creator's, who sees the links to pass on.
	Creator bool
	e       *entry
}

// Links are the table's links to pass on (only the creator is shown
// them).
func (a At) Links() Links { return a.e.links() }

// get returns the ticket of token and marks its table used.
func (h *Hub) get(token string) (*ticket, error) {
	h.mu.Lock()
	tk := h.tickets[token]
	h.mu.Unlock()
	if tk == nil {
		return nil, problem.New(problem.NotFound, "no such table: it may have been closed after %s without a visit, or the link is not whole", h.cfg.IdleTTL)
	}
	tk.e.mu.Lock()
	tk.e.used = h.cfg.Now()
	tk.e.mu.Unlock()
	return tk, nil
}

// Table returns the table a token opens, at its seat (NotFound when
// there is none).
func (h *Hub) Table(token string) (At, error) {
	tk, err := h.get(token)
	if err != nil {
		return At{}, err
	}
	return At{Table: tk.e.table, Seat: tk.seat, Game: tk.e.game.Name, Creator: tk.seat == tk.e.seating.Creator, e: tk.e}, nil
}

// Wait returns the view of the table a token opens, at its seat in p's
// language, once
// its version is past after, or the current view when ctx ends first (a
// long poll answers in time either way, and the page asks again), with
// the time the table last said its view changed: a client measures from
// it how long a bot's move took to reach it.
func (h *Hub) Wait(ctx context.Context, token string, after int, p *i18n.Printer) (int, any, time.Time, error) {
	tk, err := h.get(token)
	if err != nil {
		return 0, nil, time.Time{}, err
	}
	e := tk.e
	for {
		e.mu.Lock()
		ch, at := e.changed, e.changedAt
		e.mu.Unlock()
		seq, v := e.table.View(Viewer{Seat: tk.seat, P: p, Since: after})
		if seq > after {
			return seq, v, at, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return seq, v, at, nil
		}
	}
}

// Tables are the lobby's lines of client's tables, newest first: a
// table is shown to its creator only, who holds its links.
func (h *Hub) Tables(c Client, p *i18n.Printer) []Line {
	h.mu.Lock()
	es := make([]*entry, 0, len(h.tables))
	for _, e := range h.tables {
		if e.client.Key == c.Key && e.tokens != nil {
			es = append(es, e)
		}
	}
	h.mu.Unlock()
	out := make([]Line, 0, len(es))
	for _, e := range es {
		e.mu.Lock()
		t := e.table
		e.mu.Unlock()
		if t == nil {
			continue
		}
		s := t.Summary(p)
		s.Game = e.game.Name
		tok := e.tokens[e.seating.Creator]
		out = append(out, Line{Summary: s, URL: e.link(e.seating.Creator), Token: tok, Links: e.links()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out
}

// Games are the hub's games in the order given.
func (h *Hub) Games() []*Game {
	out := make([]*Game, len(h.order))
	for i, n := range h.order {
		out[i] = h.games[n]
	}
	return out
}

// Game is the game named name, or nil.
func (h *Hub) Game(name string) *Game { return h.games[name] }

// Reap closes the tables idle for longer than the hub's IdleTTL and
// returns how many it closed.
func (h *Hub) Reap() int {
	now := h.cfg.Now()
	var idle []*entry
	h.mu.Lock()
	for _, e := range h.tables {
		e.mu.Lock()
		old := e.table != nil && now.Sub(e.used) > h.cfg.IdleTTL
		e.mu.Unlock()
		if old {
			h.removeLocked(e)
			idle = append(idle, e)
		}
	}
	h.mu.Unlock()
	for _, e := range idle {
		e.close()
	}
	return len(idle)
}

// Janitor reaps idle tables every interval until ctx is done.
func (h *Hub) Janitor(ctx context.Context, interval time.Duration) {
	httpkit.Every(ctx, interval, func() { h.Reap() })
}

// Close closes every table and refuses new ones.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	all := h.tables
	h.tables = map[string]*entry{}
	h.tickets = map[string]*ticket{}
	h.mu.Unlock()
	for _, e := range all {
		e.close()
	}
}

// close stops the table and wakes its long polls (their next ask is a 404).
func (e *entry) close() {
	e.mu.Lock()
	t, cancel := e.table, e.cancel
	e.mu.Unlock()
	defer e.notify()
	if cancel != nil {
		cancel()
	}
	if t != nil {
		t.Close()
	}
}
