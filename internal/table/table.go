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
	"time"

	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
)

// Seat is who a page acts for at a table: a person's seat, numbered as
// the table's game numbers its seats, or Watch or Host. A page holds a
// token; the hub knows the seat the token stands for, and a table is
// only ever asked for a seat's view or told a seat's action.
type Seat int

const (
	// Watch is a watcher: what anyone at the table may see (another
	// seat's hand only where no person plays, or once the game is over),
	// and no say in the game.
	Watch Seat = -1
	// Host is the creator of a table no person sits at: a watcher who
	// may also pause, step and pace the bots.
	Host Seat = -2
)

// Watching reports whether s sees the table as a watcher.
func (s Seat) Watching() bool { return s < 0 }

// Viewer is who a table is asked for: a seat, and the printer of the
// language the person reads.
type Viewer struct {
	Seat Seat
	P    *i18n.Printer
	// Since is the version of the view the page has drawn (-1: none). A
	// table may leave out of a view a part that has not changed since
	// (a view says which parts it left out): a page keeps what it drew.
	Since int
}

// Table is one game in progress, kept by its game's package. Its methods
// are called from any goroutine.
type Table interface {
	// View is what v's seat may see now, in v's language, with the
	// version the table is at. The value is encoded as JSON.
	View(v Viewer) (seq int, view any)
	// Act applies v's action, decided on version seq. It returns a
	// *problem.Problem: Stale when seq is not the current version,
	// Impossible (with the valid options in the Body) when the rules
	// refuse it, Malformed when it cannot be read, Forbidden when the
	// seat may not act so. A refused action changes nothing.
	Act(v Viewer, seq int, action []byte) error
	// Summary is the table's line in the lobby, in p's language.
	Summary(p *i18n.Printer) Summary
	// Close stops the table's players and waits for them.
	Close()
}

// Seating is who sits where at a new table: the seat of the person who
// set it up (Host when they watch) and the seats kept for other people,
// each of which gets a link of its own for the creator to pass on.
type Seating struct {
	Creator Seat
	Others  []Place
}

// Place is a seat kept for a person, with its name for people ("Top",
// "White").
type Place struct {
	Seat Seat
	Name string
}

// Reviewer is a Table with a review page (the game's viewer of what was
// played), written once the game, or a part of it, is over, in p's
// language.
type Reviewer interface {
	Review(p *i18n.Printer) (html []byte, err error)
}

// Scripted is a Table that lists the actions a seat may send now, as
// Act takes them: a scripted player (cmd/loadtest -scenario play) picks
// from them. A page asks for nothing of the kind: it draws the view.
type Scripted interface {
	Valid(seat Seat) []any
}

// Recorder is a Table with a record of its game in the format its
// referee reads.
type Recorder interface {
	Record() (name string, data []byte, err error)
}

// Summary is a table's line in the lobby.
type Summary struct {
	Game    string    `json:"game"`
	Title   string    `json:"title"`  // who plays what
	Status  string    `json:"status"` // "your turn", "deal 3, 45–12", "over: won 151–87"
	Over    bool      `json:"over"`
	Created time.Time `json:"created"`
	// Review: the table's review page has something to show now.
	Review bool `json:"review"`
}

// Line is a table's line in the lobby: its summary and the links of its
// creator (the only one the lobby shows a table to).
type Line struct {
	Summary
	// URL opens the table at the creator's seat.
	URL string `json:"url"`
	// Token is the creator's: /play/tables/{token}/review and /record.
	Token string `json:"token"`
	Links
}

// Links are a table's links besides the creator's own, for the creator
// to pass on: one to watch, one for each seat kept for a person.
type Links struct {
	Watch string     `json:"watch"`
	Seats []SeatLink `json:"seats,omitempty"`
}

// SeatLink is the link of a seat kept for a person.
type SeatLink struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// Env is what a new table gets from the hub.
type Env struct {
	// ID names the table in its record's file name; it grants nothing
	// (the seats' tokens do).
	ID string
	// Notify tells the hub the table's view changed; pages waiting for a
	// newer version are answered.
	Notify func()
	// Think runs a bot's decision in one of the hub's thinking slots
	// (nil: at once). Searches are CPU-bound: were every table's bots to
	// think at once, the persons' requests would wait for a core.
	Think func(ctx context.Context, decide func()) error
	// P is the language of the person setting the table up (nil:
	// English): a setup the table refuses says why in it.
	P *i18n.Printer
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
	// (JSON), and says who sits where. Its players stop when ctx is
	// cancelled (Close does it too).
	New func(ctx context.Context, options []byte, env Env) (Table, Seating, error)
	// Choices are what the setup form may offer, as the page draws them
	// (GET /play/api/{game}/choices; nil: none beyond the page's own).
	Choices func() any
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

// NotYours is the Problem a Table returns for an action its seat may not
// send (a watcher's decision, another seat's turn).
func NotYours(format string, args ...any) error {
	return problem.New(problem.Forbidden, format, args...)
}
