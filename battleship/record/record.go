// Package record is the battleship referee's game record (battleref
// -record): one JSON Lines file per duel game. A file is written by the
// goroutine that plays its game, so games played at once never share a
// file, and one game can be shown or mailed alone.
//
//	duel   the header: command, game number, seed, board, fleet rules,
//	       both players by seat (seat 0 shoots first), the subject
//	fleet  one seat's fleet as placed: each ship's cells, in the order
//	       the player gave its ships; the init call's latency (HTTP)
//	shot   one shot, numbered in the order fired: who shot, the cell, the
//	       result (miss, hit, sunk) and the play-turn call's latency (HTTP)
//	end    the winner and the shots each seat fired; the loser's invalid
//	       answer (a bad fleet, a bad shot, no win within the shot cap);
//	       or the error that stopped the game
//
// Cells are [x, y] from 0, x the column. A shot's "target" is the answer
// as the arena compares it with ship cells, written only when it is not
// the canonical "x,y" (a leading zero: the arena finds no ship there).
package record

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/internal/jsonl"
)

// DuelVersion is the duel format's version, in every duel header.
const DuelVersion = 1

// Line types of a duel record (it ends with an "end" line, TypeEnd).
const (
	TypeDuel  = "duel"
	TypeFleet = "fleet"
	TypeShot  = "shot"
	TypeEnd   = "end"
)

// Shot results.
const (
	ResultMiss = "miss"
	ResultHit  = "hit"
	ResultSunk = "sunk" // the last ship sunk wins the game
)

// Cell is a board cell: [x, y], from 0.
type Cell [2]int

// DuelHeader is the first line of a duel record.
type DuelHeader struct {
	Type    string `json:"type"` // "duel"
	Version int    `json:"version"`
	// Command is the battleref mode that played the game: duel (HTTP) or
	// duel-inproc.
	Command string `json:"command"`
	// Game is the game's number in its run, from 1.
	Game   int    `json:"game"`
	Seed   uint64 `json:"seed"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	// Fleet counts the ships by length: ship1..ship6.
	Fleet   [battleship.MaxLen]int `json:"fleet"`
	Players [2]string              `json:"players"` // by seat; seat 0 shoots first
	// HTTP marks the seats played by a bot server (their calls are timed).
	HTTP [2]bool `json:"http"`
	// Subject is the player the run is about (battleref -bot), SubjectSeat
	// its seat in this game.
	Subject     string `json:"subject"`
	SubjectSeat int    `json:"subjectSeat"`
}

// Rules is the header's board and fleet.
func (h *DuelHeader) Rules() battleship.Rules {
	r := battleship.Rules{W: h.Width, H: h.Height}
	copy(r.Fleet[1:], h.Fleet[:])
	return r
}

// FleetLine is one seat's fleet.
type FleetLine struct {
	Type  string   `json:"type"`
	Seat  int      `json:"seat"`
	Ships [][]Cell `json:"ships"`
	MS    float64  `json:"ms,omitempty"` // the init call (HTTP seats)
}

// ShotLine is one shot.
type ShotLine struct {
	Type   string  `json:"type"`
	Shot   int     `json:"shot"` // from 1, both seats' shots in the order fired
	Seat   int     `json:"seat"`
	Cell   Cell    `json:"cell"`
	Target string  `json:"target,omitempty"` // the answer, when not the canonical "x,y"
	Result string  `json:"result"`           // miss, hit, sunk
	MS     float64 `json:"ms,omitempty"`     // the play-turn call (HTTP seats)
}

// DuelEnd closes a duel record.
type DuelEnd struct {
	Type   string `json:"type"`
	Winner *int   `json:"winner,omitempty"` // the winner's seat
	Shots  [2]int `json:"shots"`            // fired by each seat
	// Invalid is why the loser lost at once: a bad answer, or no win
	// within the referee's shot cap.
	Invalid string `json:"invalid,omitempty"`
	// Error is what stopped the game unfinished (an interrupt).
	Error       string `json:"error,omitempty"`
	Interrupted bool   `json:"interrupted,omitempty"`
}

// ShipCells lists a ship's cells from its first.
func ShipCells(s battleship.Ship) []Cell {
	cells := make([]Cell, s.L)
	for i := range s.L {
		if s.Vertical {
			cells[i] = Cell{s.X, s.Y + i}
		} else {
			cells[i] = Cell{s.X + i, s.Y}
		}
	}
	return cells
}

// DuelWriter writes one duel game's record as it is played. Its methods
// may be called on a nil *DuelWriter (not recording): they do nothing.
// Writing errors are kept and returned by End.
type DuelWriter struct {
	mu    sync.Mutex
	out   *jsonl.Writer
	shots [2]int
}

// CreateDuel writes the header to a new file at path.
func CreateDuel(path string, h DuelHeader) (*DuelWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return NewDuel(f, h), nil
}

// NewDuel is CreateDuel on any writer; End closes it if it is an io.Closer.
func NewDuel(w io.Writer, h DuelHeader) *DuelWriter {
	dw := &DuelWriter{out: jsonl.NewWriter(w)}
	h.Type, h.Version = TypeDuel, DuelVersion
	dw.out.Put(&h)
	return dw
}

// Fleet records a seat's placed fleet; d is its init call's latency (0:
// in-process).
func (w *DuelWriter) Fleet(seat int, ships []battleship.Ship, d time.Duration) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	l := FleetLine{Type: TypeFleet, Seat: seat, Ships: make([][]Cell, len(ships)), MS: jsonl.Millis(d)}
	for i, s := range ships {
		l.Ships[i] = ShipCells(s)
	}
	w.out.Put(&l)
}

// Shot records a shot: target is the answer as the arena compares it (a
// valid shot: digits, a comma, digits, in the board), result the arena's
// text ("", "hit", "hit and sunk", "hit sunk and win"), d the play-turn
// call's latency (0: in-process).
func (w *DuelWriter) Shot(seat int, target, result string, d time.Duration) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	cell, _ := targetCell(target)
	w.shots[seat&1]++
	l := ShotLine{Type: TypeShot, Shot: w.shots[0] + w.shots[1], Seat: seat, Cell: cell, MS: jsonl.Millis(d)}
	if target != battleship.FormatTarget(cell[0], cell[1]) {
		l.Target = target
	}
	switch battleship.ParseResult(result) {
	case battleship.Miss:
		l.Result = ResultMiss
	case battleship.Hit:
		l.Result = ResultHit
	default:
		l.Result = ResultSunk
	}
	w.out.Put(&l)
}

// End writes the last line: the winner's seat (< 0: none, the game was
// stopped by err), the loser's invalid answer if it lost by one; then it
// flushes and closes the output.
func (w *DuelWriter) End(winner int, invalid string, err error, interrupted bool) error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	l := DuelEnd{Type: TypeEnd, Shots: w.shots, Invalid: invalid, Interrupted: interrupted}
	if err != nil {
		l.Error = err.Error()
	} else if winner >= 0 {
		l.Winner = &winner
	}
	w.out.Put(&l)
	return w.out.Close()
}

// targetCell reads a valid shot's cell: decimal x and y, leading zeros
// allowed, a final newline tolerated (the arena's regular expression).
func targetCell(target string) (Cell, bool) {
	xs, ys, ok := strings.Cut(strings.TrimSuffix(target, "\n"), ",")
	if !ok || len(xs) > 20 || len(ys) > 20 {
		return Cell{}, false
	}
	x, err1 := strconv.Atoi(xs)
	y, err2 := strconv.Atoi(ys)
	if err1 != nil || err2 != nil || xs[0] == '+' || ys[0] == '+' || xs[0] == '-' || ys[0] == '-' {
		return Cell{}, false
	}
	return Cell{x, y}, true
}

// Duel is a duel record read back. What ReadDuel returns is consistent:
// the fleets are valid for the header's rules, and every shot's result is
// what the arena answers to it given the fleet it was fired at.
type Duel struct {
	Path   string
	Header DuelHeader
	// Fleets are the seats' fleets as placed (nil: not placed, the seat's
	// init answer was invalid or the game stopped before).
	Fleets [2][]battleship.Ship
	// FleetMS is each seat's init latency (HTTP).
	FleetMS [2]float64
	Shots   []Shot
	End     *DuelEnd // nil when the record was cut short
}

// Shot is a shot line, its line number, and the ship it hit (an index
// into the target's fleet, -1 for a miss).
type Shot struct {
	ShotLine
	Line int
	Ship int
}

// ReadDuelFile reads the duel record at path.
func ReadDuelFile(path string) (*Duel, error) {
	d, err := jsonl.ReadFile(path, ReadDuel)
	if err == nil {
		d.Path = path
	}
	return d, err
}

// ReadDuelDir reads every *.jsonl duel record in dir, in file-name order.
func ReadDuelDir(dir string) ([]*Duel, error) { return jsonl.ReadDir(dir, ReadDuelFile) }

// FindDuel opens path, a duel record or a folder of them, and returns game
// number n of it (0: the first).
func FindDuel(path string, n int) (*Duel, error) {
	return jsonl.Find(path, n, "game", ReadDuelFile, ReadDuelDir, func(d *Duel) int { return d.Header.Game })
}

// ReadDuel reads and checks one duel game's record: the fleets must fit
// the rules and every result must be the arena's. Unknown line types are
// skipped; anything inconsistent is an error naming its line.
func ReadDuel(r io.Reader) (*Duel, error) {
	dr := &duelReader{d: &Duel{}}
	err := jsonl.Scan(r, func(n int, typ string, b []byte) error {
		switch {
		case n == 1:
			return dr.header(n, typ, b)
		case dr.d.End != nil:
			return jsonl.LineError(n, "a line after the end line")
		case typ == TypeDuel:
			return jsonl.LineError(n, "a second header")
		case typ == TypeFleet:
			return dr.fleet(n, b)
		case typ == TypeShot:
			return dr.shot(n, b)
		case typ == TypeEnd:
			return dr.end(n, b)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return dr.d, nil
}

// duelReader is a duel record in the reading: the game replayed line by
// line against the arena's judging.
type duelReader struct {
	d      *Duel
	rules  battleship.Rules
	arenas [2]*battleship.Arena // each seat's fleet, shot at by the other
	shots  [2]int
}

func (dr *duelReader) header(n int, typ string, b []byte) error {
	if typ != TypeDuel {
		return jsonl.LineError(n, "a duel record starts with a %q line, not %q", TypeDuel, typ)
	}
	h := &dr.d.Header
	if err := jsonl.Strict(b, h); err != nil {
		return jsonl.LineError(n, "%v", err)
	}
	if h.Version < 1 || h.Version > DuelVersion {
		return jsonl.LineError(n, "format version %d (this reader knows 1..%d)", h.Version, DuelVersion)
	}
	dr.rules = h.Rules()
	if err := dr.rules.Check(); err != nil {
		return jsonl.LineError(n, "rules: %v", err)
	}
	if h.SubjectSeat != 0 && h.SubjectSeat != 1 {
		return jsonl.LineError(n, "subject seat %d", h.SubjectSeat)
	}
	return nil
}

func seatOK(n, s int) error {
	if s != 0 && s != 1 {
		return jsonl.LineError(n, "seat %d", s)
	}
	return nil
}

func (dr *duelReader) fleet(n int, b []byte) error {
	var l FleetLine
	if err := jsonl.Strict(b, &l); err != nil {
		return jsonl.LineError(n, "%v", err)
	}
	if err := seatOK(n, l.Seat); err != nil {
		return err
	}
	d := dr.d
	if d.Fleets[l.Seat] != nil || len(d.Shots) > 0 {
		return jsonl.LineError(n, "a second fleet for seat %d, or a fleet after the shots", l.Seat)
	}
	ships := make([]battleship.Ship, 0, len(l.Ships))
	for _, cells := range l.Ships {
		s, err := shipOf(dr.rules, cells)
		if err != nil {
			return jsonl.LineError(n, "%v", err)
		}
		ships = append(ships, s)
	}
	if err := battleship.CheckPlacement(dr.rules, ships); err != nil {
		return jsonl.LineError(n, "%v", err)
	}
	d.Fleets[l.Seat], d.FleetMS[l.Seat] = ships, l.MS
	dr.arenas[l.Seat] = battleship.NewArena(dr.rules, ships)
	return nil
}

func (dr *duelReader) shot(n int, b []byte) error {
	var l ShotLine
	if err := jsonl.Strict(b, &l); err != nil {
		return jsonl.LineError(n, "%v", err)
	}
	if err := seatOK(n, l.Seat); err != nil {
		return err
	}
	d, rules := dr.d, dr.rules
	if dr.arenas[0] == nil || dr.arenas[1] == nil {
		return jsonl.LineError(n, "a shot before both fleets")
	}
	if l.Shot != len(d.Shots)+1 {
		return jsonl.LineError(n, "shot %d after %d shots", l.Shot, len(d.Shots))
	}
	x, y := l.Cell[0], l.Cell[1]
	if x < 0 || y < 0 || x >= rules.W || y >= rules.H {
		return jsonl.LineError(n, "cell %v is off the %dx%d board", l.Cell, rules.W, rules.H)
	}
	target := battleship.FormatTarget(x, y)
	if l.Target != "" {
		if t, ok := battleship.ValidShot(rules, l.Target); !ok || t != l.Target || l.Target == target {
			return jsonl.LineError(n, "target %q: not a valid shot written otherwise than %q", l.Target, target)
		}
		if c, ok := targetCell(l.Target); !ok || c != l.Cell {
			return jsonl.LineError(n, "target %q is not cell %v", l.Target, l.Cell)
		}
		target = l.Target
	}
	him := dr.arenas[1-l.Seat]
	if him.Remaining() == 0 {
		return jsonl.LineError(n, "seat %d shoots at a fleet already sunk", l.Seat)
	}
	want := ResultMiss
	switch battleship.ParseResult(him.Shoot(target)) {
	case battleship.Hit:
		want = ResultHit
	case battleship.Sunk:
		want = ResultSunk
	}
	if l.Result != want {
		return jsonl.LineError(n, "result %q, the arena answers %q", l.Result, want)
	}
	s := Shot{ShotLine: l, Line: n, Ship: -1}
	if want != ResultMiss {
		s.Ship = shipAt(d.Fleets[1-l.Seat], l.Cell)
	}
	d.Shots = append(d.Shots, s)
	dr.shots[l.Seat]++
	return nil
}

func (dr *duelReader) end(n int, b []byte) error {
	var l DuelEnd
	if err := jsonl.Strict(b, &l); err != nil {
		return jsonl.LineError(n, "%v", err)
	}
	if l.Shots != dr.shots {
		return jsonl.LineError(n, "end counts %v shots, the record holds %v", l.Shots, dr.shots)
	}
	if l.Winner != nil {
		w := *l.Winner
		if err := seatOK(n, w); err != nil {
			return err
		}
		if l.Error != "" {
			return jsonl.LineError(n, "a winner and an error")
		}
		if l.Invalid == "" && (dr.arenas[1-w] == nil || dr.arenas[1-w].Remaining() != 0) {
			return jsonl.LineError(n, "seat %d wins without sinking the fleet", w)
		}
	}
	dr.d.End = &l
	return nil
}

// shipOf reads a ship's cells: in the board, in a line, each next to the
// one before.
func shipOf(r battleship.Rules, cells []Cell) (battleship.Ship, error) {
	if len(cells) < 1 || len(cells) > battleship.MaxLen {
		return battleship.Ship{}, fmt.Errorf("a ship of %d cells", len(cells))
	}
	for _, c := range cells {
		if c[0] < 0 || c[1] < 0 || c[0] >= r.W || c[1] >= r.H {
			return battleship.Ship{}, fmt.Errorf("cell %v is off the %dx%d board", c, r.W, r.H)
		}
	}
	s := battleship.Ship{X: cells[0][0], Y: cells[0][1], L: len(cells), Vertical: len(cells) > 1 && cells[1][0] == cells[0][0]}
	for i, c := range ShipCells(s) {
		if cells[i] != c {
			return battleship.Ship{}, fmt.Errorf("ship %v: cells not in a line from the first", cells)
		}
	}
	return s, nil
}

// shipAt is the index of the ship covering c, -1 if none.
func shipAt(ships []battleship.Ship, c Cell) int {
	for i, s := range ships {
		for _, sc := range ShipCells(s) {
			if sc == c {
				return i
			}
		}
	}
	return -1
}

// Winner is the subject's result: 1 won, 0 lost, -1 not finished.
func (d *Duel) Winner() int {
	if d.End == nil || d.End.Winner == nil {
		return -1
	}
	if *d.End.Winner == d.Header.SubjectSeat {
		return 1
	}
	return 0
}

// Describe is a one-line summary such as "game 3: self vs stupid, self
// won in 41 shots".
func (d *Duel) Describe() string {
	h := &d.Header
	var b strings.Builder
	fmt.Fprintf(&b, "game %d: %s vs %s", h.Game, h.Players[0], h.Players[1])
	if e := d.End; e != nil {
		switch {
		case e.Winner != nil:
			w := *e.Winner & 1
			fmt.Fprintf(&b, ", %s won in %d shots", h.Players[w], e.Shots[w])
			if e.Invalid != "" {
				fmt.Fprintf(&b, " (%s lost by an invalid answer)", h.Players[1-w])
			}
		case e.Error != "":
			fmt.Fprintf(&b, ", stopped: %s", e.Error)
		}
	}
	return b.String()
}
