// Package table is the game-agnostic half of the browser tables (gamebot
// play): a hub of tables, capped and reaped when idle, and the HTTP
// surface every game's table page talks to. A game's house (giretra/table,
// battleship/table, othello/table) owns its rules, its views and its page;
// this package knows none of them.
//
// One shape for every table:
//
//   - The page holds no rules. It draws the view the server sends and
//     sends actions; the game's Table decides everything.
//   - Every view carries the table's version (seq). A page waits for the
//     next one with GET …/tables/{id}?after=seq (a long poll), so a reload
//     or a lost answer resumes from the current view.
//   - An action names the version it was decided on: on any other
//     version it is stale (409) and changes nothing; an action the rules
//     refuse is 422 with the valid options, and changes nothing.
//   - Unknown table 404, body over the limit 413, a request from another
//     origin 403, more tables than the cap 503.
//   - A view is the person's seat's view only: the game's Table never
//     puts in it what that seat may not see.
package table

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/botarena/gamebot/internal/problem"
)

// Table is one game in progress, kept by its game's package. Its methods
// are called from any goroutine.
type Table interface {
	// View is what the person at the table may see now, with the version
	// it is at. The value is encoded as JSON.
	View() (seq int, view any)
	// Act applies the person's action, decided on version seq. It returns
	// a *problem.Problem: Stale when seq is not the current version,
	// Impossible (with the valid options in the Body) when the rules
	// refuse it, Malformed when it cannot be read. A refused action
	// changes nothing.
	Act(seq int, action []byte) error
	// Summary is the table's line in the lobby.
	Summary() Summary
	// Close stops the table's players and waits for them.
	Close()
}

// Reviewer is a Table with a review page (the game's viewer of what was
// played), written once the game, or a part of it, is over.
type Reviewer interface {
	Review() (html []byte, err error)
}

// Scripted is a Table that lists the actions its person may send now,
// as Act takes them: a scripted player (cmd/loadtest -scenario play)
// picks from them. A page asks for nothing of the kind: it draws the
// view.
type Scripted interface {
	Valid() []any
}

// Recorder is a Table with a record of its game in the format its
// referee reads.
type Recorder interface {
	Record() (name string, data []byte, err error)
}

// Summary is a table's line in the lobby.
type Summary struct {
	Game    string    `json:"game"`
	ID      string    `json:"id"`
	Title   string    `json:"title"`  // who plays what
	Status  string    `json:"status"` // "your turn", "deal 3, 45–12", "over: won 151–87"
	Over    bool      `json:"over"`
	Created time.Time `json:"created"`
}

// Env is what a new table gets from the hub.
type Env struct {
	// ID is the table's id (unguessable: it is the only key to the seat).
	ID string
	// Notify tells the hub the table's view changed; pages waiting for a
	// newer version are answered.
	Notify func()
	// Think runs a bot's decision in one of the hub's thinking slots
	// (nil: at once). Searches are CPU-bound: were every table's bots to
	// think at once, the persons' requests would wait for a core.
	Think func(ctx context.Context, decide func()) error
	// Records is the directory the table writes its record to, the
	// game's own (records/giretra, …), so that each referee's tools read
	// a folder of their game's records; "" keeps none.
	Records string
}

// Decide runs a bot's decision through e.Think (at once when it is nil);
// it returns ctx's error, without deciding, when ctx ends while the bot
// waits for a slot.
func (e Env) Decide(ctx context.Context, decide func()) error {
	if e.Think == nil {
		decide()
		return nil
	}
	return e.Think(ctx, decide)
}

// Game is one game's entry in the hub.
type Game struct {
	Name  string // path segment: giretra, battleship, othello
	Title string // for people: Giretra, Battleship, Othello
	Blurb string // one line in the lobby
	// Page is the table page (HTML); its script and style are Assets,
	// served under /play/{Name}/.
	Page   []byte
	Assets map[string][]byte // file name → content
	// New starts a table from the options the page's setup form sent
	// (JSON). Its players stop when ctx is cancelled (Close does it too).
	New func(ctx context.Context, options []byte, env Env) (Table, error)
}

// HubConfig bounds a hub.
type HubConfig struct {
	MaxTables int // tables at once (default 64)
	// Thinkers is how many bot decisions run at once across the tables
	// (default: the CPUs less one, at least one), so that a person's
	// request always finds a core.
	Thinkers int
	IdleTTL  time.Duration // a table nobody asked about for this long is closed (default 30 min)
	Records  string        // where tables write their records, a folder a game ("": nowhere)
	Now      func() time.Time
}

// Hub holds the tables.
type Hub struct {
	cfg   HubConfig
	games map[string]*Game
	order []string

	slots chan struct{} // a token a bot decision in progress

	mu     sync.Mutex
	tables map[string]*entry
	closed bool
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

// entry is a table with its wake-up channel and its last use.
type entry struct {
	id     string
	game   *Game
	table  Table
	cancel context.CancelFunc

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
	h := &Hub{cfg: cfg, games: map[string]*Game{}, tables: map[string]*entry{}, slots: make(chan struct{}, cfg.Thinkers)}
	for _, g := range games {
		h.games[g.Name] = g
		h.order = append(h.order, g.Name)
	}
	return h
}

// Create starts a table of game from the setup options.
func (h *Hub) Create(game string, options []byte) (string, error) {
	g := h.games[game]
	if g == nil {
		return "", problem.New(problem.NotFound, "no game %q", game)
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return "", problem.New(problem.Unavailable, "the server is shutting down")
	}
	if len(h.tables) >= h.cfg.MaxTables {
		// A finished game's record is on disk: the finished table seen
		// least recently makes room before anyone's game in play does.
		old := h.finishedLocked()
		if old == nil {
			h.mu.Unlock()
			return "", problem.New(problem.Unavailable, "%d tables are in play, the most this server keeps: finish or leave one (an idle table closes after %s)", h.cfg.MaxTables, h.cfg.IdleTTL)
		}
		delete(h.tables, old.id)
		defer old.close()
	}
	e := &entry{id: rand.Text(), game: g, changed: make(chan struct{}), used: h.cfg.Now()}
	h.tables[e.id] = e // reserved: a second Create counts it
	h.mu.Unlock()
	records := ""
	if h.cfg.Records != "" {
		records = filepath.Join(h.cfg.Records, g.Name)
		if err := os.MkdirAll(records, 0o755); err != nil {
			h.mu.Lock()
			delete(h.tables, e.id)
			h.mu.Unlock()
			return "", fmt.Errorf("records: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	t, err := g.New(ctx, options, Env{ID: e.id, Notify: e.notify, Think: h.think, Records: records})
	if err != nil {
		cancel()
		h.mu.Lock()
		delete(h.tables, e.id)
		h.mu.Unlock()
		return "", err
	}
	e.mu.Lock()
	e.table, e.cancel = t, cancel
	e.mu.Unlock()
	e.notify()
	return e.id, nil
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
		if t == nil || !t.Summary().Over {
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

// get returns the started table of id and marks it used.
func (h *Hub) get(id string) (*entry, error) {
	h.mu.Lock()
	e := h.tables[id]
	h.mu.Unlock()
	if e == nil {
		return nil, problem.New(problem.NotFound, "no table %q (it may have been closed after %s without a visit)", id, h.cfg.IdleTTL)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.table == nil {
		return nil, problem.New(problem.NotFound, "table %q is still being set up", id)
	}
	e.used = h.cfg.Now()
	return e, nil
}

// Table returns the table of id (NotFound when there is none).
func (h *Hub) Table(id string) (Table, string, error) {
	e, err := h.get(id)
	if err != nil {
		return nil, "", err
	}
	return e.table, e.game.Name, nil
}

// Wait returns the table's view once its version is past after, or the
// current view when ctx ends first (a long poll answers in time either
// way, and the page asks again), with the time the table last said its
// view changed: a client measures from it how long a bot's move took to
// reach it.
func (h *Hub) Wait(ctx context.Context, id string, after int) (int, any, time.Time, error) {
	e, err := h.get(id)
	if err != nil {
		return 0, nil, time.Time{}, err
	}
	for {
		e.mu.Lock()
		ch, at := e.changed, e.changedAt
		e.mu.Unlock()
		seq, v := e.table.View()
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

// Tables are the lobby's lines, newest first.
func (h *Hub) Tables() []Summary {
	h.mu.Lock()
	es := make([]*entry, 0, len(h.tables))
	for _, e := range h.tables {
		es = append(es, e)
	}
	h.mu.Unlock()
	out := make([]Summary, 0, len(es))
	for _, e := range es {
		e.mu.Lock()
		t := e.table
		e.mu.Unlock()
		if t != nil {
			s := t.Summary()
			s.Game, s.ID = e.game.Name, e.id
			out = append(out, s)
		}
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
	for id, e := range h.tables {
		e.mu.Lock()
		old := e.table != nil && now.Sub(e.used) > h.cfg.IdleTTL
		e.mu.Unlock()
		if old {
			delete(h.tables, id)
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
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			h.Reap()
		}
	}
}

// Close closes every table and refuses new ones.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	all := h.tables
	h.tables = map[string]*entry{}
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

// ErrStale is the Problem a Table returns for an action decided on
// another version.
func ErrStale(seq, current int) error {
	return problem.New(problem.Stale, "stale action: decided on version %d, the table is at %d (nothing changed)", seq, current)
}

// Illegal is the Problem a Table returns for an action the rules refuse:
// 422, with the valid options.
func Illegal(valid any, format string, args ...any) error {
	p := problem.Impossiblef(format, args...)
	p.Body = IllegalBody{Error: p.Msg, Valid: valid}
	return p
}

// IllegalBody is the answer to an illegal action.
type IllegalBody struct {
	Error string `json:"error"`
	Valid any    `json:"valid"`
}

// Weight is what a browser loads for the game's table page: the page,
// its assets and the shared kit, in bytes uncompressed.
func (g *Game) Weight() int {
	n := len(g.Page) + len(kitJS) + len(kitCSS)
	for _, a := range g.Assets {
		n += len(a)
	}
	return n
}
