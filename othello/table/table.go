// Package table is Othello's browser table (gamebot play): a person
// plays one leg against an engine, in any of the five FlipSight modes,
// from the initial position, an XOT-style opening or FlipSight's random
// opening, with FlipSight's clocks or none; or watches a FlipSight match
// between two engines, both legs at once on two boards. Othello hides
// nothing, so a view is the whole position; the rules (othello.State)
// decide every move, and each leg is recorded (othello/record) and
// reviewed (othello/report).
package table

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/match"
	"github.com/botarena/gamebot/othello/openings"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/report"
	"github.com/botarena/gamebot/othello/wire"
)

//go:embed page.html.tmpl
var pageSource string

//go:embed page.js
var pageJS []byte

//go:embed page.css
var pageCSS []byte

// FlipSightClock is a side's clock in a FlipSight leg.
const FlipSightClock = 60 * time.Second

// EngineSpec is an engine a table may seat: its id in the setup form,
// its title, and how to start one for a leg and side.
type EngineSpec struct {
	ID    string
	Title string
	Kind  string // record.Player.Kind: "engine", "command", "nboard"
	New   func(mode othello.Mode, timed bool) (wire.Engine, error)
}

// Config is the Othello tables' configuration.
type Config struct {
	Engines []EngineSpec // the first is the default opponent
	// Openings are the XOT-style starts (8 std moves each); nil: the
	// embedded list.
	Openings [][]int
}

// Game is Othello's entry in the play hub.
func Game(cfg Config) (*table.Game, error) {
	if len(cfg.Engines) == 0 {
		return nil, fmt.Errorf("othello table: no engine")
	}
	if cfg.Openings == nil {
		cfg.Openings = openings.XOT()
	}
	t, err := template.New("page").Parse(pageSource)
	if err != nil {
		return nil, err
	}
	var page bytes.Buffer
	if err := t.Execute(&page, struct{ Engines []EngineSpec }{cfg.Engines}); err != nil {
		return nil, err
	}
	return &table.Game{
		Name: "othello", Title: "Othello", Blurb: "the five FlipSight modes against the engine, or watch two engines play a FlipSight match",
		Page: page.Bytes(), Assets: map[string][]byte{"page.js": pageJS, "page.css": pageCSS},
		New: func(ctx context.Context, options []byte, env table.Env) (table.Table, table.Seating, error) {
			t, err := newTable(ctx, cfg, options, env)
			if err != nil {
				return nil, table.Seating{}, err
			}
			return t, t.seating(), nil
		},
	}, nil
}

// Options are the setup form's fields.
type Options struct {
	Mode     string `json:"mode"`
	Start    string `json:"start"`  // initial, xot, random
	Clock    string `json:"clock"`  // none, flipsight
	Table    string `json:"table"`  // play, watch
	Colour   string `json:"colour"` // black, white, random
	Opponent string `json:"opponent"`
	A        string `json:"a"` // watch: the engines of the match
	B        string `json:"b"`
	Pace     *int   `json:"pace"` // ms before an engine's move
	Seed     uint64 `json:"seed"`
}

// Table is one Othello table.
type Table struct {
	id      string
	created time.Time
	env     table.Env
	notify  func()
	records string
	watch   bool
	mode    othello.Mode
	clock   time.Duration // 0: untimed

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	wake    *sync.Cond // a leg's engine waits for its turn, a pause, or the end
	seq     int
	legs    []*leg
	log     []logLine
	logN    int
	pace    time.Duration
	paused  bool
	steps   int // moves a paused watch may still play
	written bool
	engines []wire.Engine
}

type logLine struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// leg is one game on one board.
type leg struct {
	no      int
	st      *othello.State
	rec     record.Leg
	seats   [2]*seat // black, white
	left    [2]time.Duration
	turnAt  time.Time // when the side to move started thinking
	timer   *time.Timer
	pass    string
	over    bool
	result  string
	matchID int64
}

// seat is a side of a leg: the person (engine nil) or an engine.
type seat struct {
	name   string
	kind   string
	engine wire.Engine
}

func newTable(parent context.Context, cfg Config, raw []byte, env table.Env) (*Table, error) {
	var o Options
	if err := problem.DecodeStrict(raw, &o); err != nil {
		return nil, err
	}
	mode, err := othello.ParseMode(o.Mode)
	if err != nil {
		return nil, problem.Malformedf("mode: %v", err)
	}
	t := &Table{id: env.ID, created: time.Now(), env: env, notify: env.Notify, records: env.Records, mode: mode, pace: 400 * time.Millisecond}
	t.wake = sync.NewCond(&t.mu)
	switch o.Clock {
	case "", "none":
	case "flipsight":
		t.clock = FlipSightClock
	default:
		return nil, problem.Malformedf("clock %q: want none or flipsight", o.Clock)
	}
	if o.Pace != nil {
		if *o.Pace < 0 || *o.Pace > 5000 {
			return nil, problem.Malformedf("pace %d: want 0 … 5000 ms", *o.Pace)
		}
		t.pace = time.Duration(*o.Pace) * time.Millisecond
	}
	seed := o.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	rng := rand.New(rand.NewPCG(seed, 0x07e1))
	start, opening, err := startOf(mode, o.Start, cfg.Openings, rng)
	if err != nil {
		return nil, err
	}
	find := func(field, id string) (*EngineSpec, error) {
		if id == "" {
			return &cfg.Engines[0], nil
		}
		for i := range cfg.Engines {
			if cfg.Engines[i].ID == id {
				return &cfg.Engines[i], nil
			}
		}
		ids := make([]string, len(cfg.Engines))
		for i, e := range cfg.Engines {
			ids[i] = e.ID
		}
		return nil, problem.Malformedf("%s %q: want one of %s", field, id, strings.Join(ids, ", "))
	}
	newSeat := func(spec *EngineSpec) (*seat, error) {
		e, err := spec.New(mode, t.clock > 0)
		if err != nil {
			return nil, fmt.Errorf("starting %s: %w", spec.Title, err)
		}
		t.engines = append(t.engines, e)
		return &seat{name: spec.Title, kind: spec.Kind, engine: e}, nil
	}
	fail := func(err error) (*Table, error) {
		for _, e := range t.engines {
			e.Close()
		}
		return nil, err
	}
	matchID := int64(rng.Uint32())
	switch o.Table {
	case "", "play":
		spec, err := find("opponent", o.Opponent)
		if err != nil {
			return nil, err
		}
		colour := othello.Black
		switch o.Colour {
		case "", "black":
		case "white":
			colour = othello.White
		case "random":
			colour = othello.Black + rng.IntN(2)
		default:
			return nil, problem.Malformedf("colour %q: want black, white or random", o.Colour)
		}
		bot, err := newSeat(spec)
		if err != nil {
			return fail(err)
		}
		you := &seat{name: "you", kind: "person"}
		seats := [2]*seat{you, bot}
		if colour == othello.White {
			seats = [2]*seat{bot, you}
		}
		t.legs = []*leg{t.newLeg(0, start, opening, o.Start, seats, matchID)}
	case "watch":
		t.watch = true
		a, err := find("a", o.A)
		if err != nil {
			return nil, err
		}
		b, err := find("b", o.B)
		if err != nil {
			return nil, err
		}
		// FlipSight's match: both legs from the same start, colours
		// swapped, played at the same time; one engine per leg and side.
		var s [4]*seat
		for i, spec := range []*EngineSpec{a, b, b, a} {
			if s[i], err = newSeat(spec); err != nil {
				return fail(err)
			}
		}
		if a.ID == b.ID {
			s[0].name, s[3].name = a.Title+" (A)", a.Title+" (A)"
			s[1].name, s[2].name = b.Title+" (B)", b.Title+" (B)"
		}
		t.legs = []*leg{
			t.newLeg(0, start, opening, o.Start, [2]*seat{s[0], s[1]}, matchID),
			t.newLeg(1, start, opening, o.Start, [2]*seat{s[2], s[3]}, matchID),
		}
	default:
		return nil, problem.Malformedf("table %q: want play or watch", o.Table)
	}
	t.ctx, t.cancel = context.WithCancel(parent)
	t.mu.Lock()
	for _, l := range t.legs {
		t.settle(l)
	}
	t.say("%s, %s: %s (black) against %s (white)%s", mode, startText(o.Start), t.legs[0].seats[0].name, t.legs[0].seats[1].name, clockNote(t.clock))
	t.mu.Unlock()
	for _, l := range t.legs {
		for c := range 2 {
			if l.seats[c].engine != nil {
				t.wg.Go(func() { t.engineLoop(l, c+1) })
			}
		}
	}
	return t, nil
}

func startText(s string) string {
	switch s {
	case record.StartXOT:
		return "an XOT-style opening"
	case record.StartRandom:
		return "FlipSight's random opening"
	}
	return "the initial position"
}

func clockNote(c time.Duration) string {
	if c == 0 {
		return ", no clocks"
	}
	return fmt.Sprintf(", %s a side", c)
}

// startOf is the leg's start: the initial position, an XOT-style opening
// (std only) or FlipSight's random one.
func startOf(mode othello.Mode, start string, openings [][]int, rng *rand.Rand) (*othello.State, []int, error) {
	switch start {
	case "", record.StartInitial:
		return othello.NewState(mode), nil, nil
	case record.StartXOT:
		if mode != othello.Std {
			return nil, nil, problem.Malformedf("start xot: the XOT openings are std openings (mode %s: use initial or random)", mode)
		}
		if len(openings) == 0 {
			return nil, nil, problem.Impossiblef("start xot: no openings")
		}
		moves := openings[rng.IntN(len(openings))]
		st := othello.NewState(mode)
		for _, m := range moves {
			if err := st.Play(m); err != nil {
				return nil, nil, fmt.Errorf("an XOT opening does not play: %w", err)
			}
		}
		return st, moves, nil
	case record.StartRandom:
		st, moves := match.RandomOpening(mode, rng)
		return st, moves, nil
	}
	return nil, nil, problem.Malformedf("start %q: want initial, xot or random", start)
}

func (t *Table) newLeg(no int, start *othello.State, opening []int, startName string, seats [2]*seat, matchID int64) *leg {
	size := t.mode.Size()
	rec := record.Leg{Version: record.Version, Mode: t.mode.String(), Start: startName, Opening: []string{},
		Players: [2]record.Player{{Name: seats[0].name, Kind: seats[0].kind}, {Name: seats[1].name, Kind: seats[1].kind}},
		ClockMs: t.clock.Milliseconds(), Started: time.Now().UTC().Truncate(time.Millisecond)}
	if rec.Start == "" {
		rec.Start = record.StartInitial
	}
	for _, m := range opening {
		rec.Opening = append(rec.Opening, othello.SquareName(m, size))
	}
	if t.watch {
		rec.Match, rec.LegNo = fmt.Sprint(matchID), no
	}
	l := &leg{no: no, st: start.Clone(), rec: rec, seats: seats, left: [2]time.Duration{t.clock, t.clock}, turnAt: time.Now(), matchID: matchID}
	return l
}

// settle passes for a side with no move and ends a finished leg; then it
// starts the clock of the side to move. Called with t.mu held.
func (t *Table) settle(l *leg) {
	for !l.over {
		if l.st.Over() {
			b, w := l.st.Discs()
			t.finish(l, record.Result{Black: b, White: w, Winner: record.WinnerName(l.st.Winner()), Reason: record.ReasonEnd})
			return
		}
		if len(l.st.LegalMoves()) > 0 {
			break
		}
		who := l.st.Turn
		l.st.Play(othello.Pass)
		l.rec.Moves = append(l.rec.Moves, record.Move{Move: "pass"})
		l.pass = fmt.Sprintf("%s has no legal move and passes.", colourTitle(who))
		t.say("%s%s passes: no legal move", t.legPrefix(l), t.sideName(l, who))
	}
	l.turnAt = time.Now()
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	if l.over || t.clock == 0 {
		return
	}
	c := l.st.Turn
	if l.seats[c-1].engine == nil {
		// The person's clock: when it runs out the leg is lost on time.
		n := l.rec.Moves
		l.timer = time.AfterFunc(l.left[c-1], func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			if !l.over && len(l.rec.Moves) == len(n) && l.st.Turn == c {
				t.timeout(l, c)
				t.changed()
			}
		})
	}
}

func (t *Table) timeout(l *leg, c int) {
	l.left[c-1] = 0
	b, w := l.st.Discs()
	t.say("%s%s ran out of time", t.legPrefix(l), t.sideName(l, c))
	t.finish(l, record.Result{Black: b, White: w, Winner: record.WinnerName(3 - c), Reason: record.ReasonTimeout})
}

func (t *Table) finish(l *leg, r record.Result) {
	l.over = true
	l.rec.Result = &r
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	l.result = fmt.Sprintf("%d–%d: %s", r.Black, r.White, t.winnerText(l, r))
	if r.Reason != record.ReasonEnd {
		l.result += " (" + r.Reason + ")"
	}
	t.say("%s%s", t.legPrefix(l), l.result)
	if t.allOver() {
		t.writeRecord()
	}
	t.wake.Broadcast()
}

func (t *Table) winnerText(l *leg, r record.Result) string {
	switch r.Winner {
	case "black":
		return t.sideName(l, othello.Black) + " won"
	case "white":
		return t.sideName(l, othello.White) + " won"
	}
	return "a draw"
}

func (t *Table) allOver() bool {
	for _, l := range t.legs {
		if !l.over {
			return false
		}
	}
	return true
}

func colourTitle(c int) string {
	if c == othello.Black {
		return "Black"
	}
	return "White"
}

func (t *Table) sideName(l *leg, c int) string {
	s := l.seats[c-1]
	if s.engine == nil {
		return colourTitle(c) + " (you)"
	}
	return colourTitle(c) + " (" + s.name + ")"
}

func (t *Table) legPrefix(l *leg) string {
	if len(t.legs) == 1 {
		return ""
	}
	return fmt.Sprintf("Leg %d: ", l.no+1)
}

// say adds a line to the log. Called with t.mu held.
func (t *Table) say(format string, args ...any) {
	t.logN++
	t.log = append(t.log, logLine{N: t.logN, Text: fmt.Sprintf(format, args...)})
	if len(t.log) > 40 {
		t.log = t.log[len(t.log)-40:]
	}
}

// changed bumps the version and wakes the pages. Called with t.mu held.
func (t *Table) changed() {
	t.seq++
	t.wake.Broadcast()
	t.notify()
}

// play applies a move of the side to move on leg l (legal: checked by the
// caller) with the time it took. Called with t.mu held.
func (t *Table) play(l *leg, sq int, d wire.Answer) {
	c := l.st.Turn
	took := time.Since(l.turnAt)
	m := record.Move{Move: record.MoveName(sq, t.mode.Size()), Ms: took.Milliseconds(), Score: d.Score, Depth: d.Depth, Exact: d.Exact}
	if t.clock > 0 {
		l.left[c-1] -= took
		rem := max(l.left[c-1], 0).Milliseconds()
		m.RemainingMs = &rem
	}
	l.st.Play(sq)
	l.rec.Moves = append(l.rec.Moves, m)
	l.pass = ""
	t.say("%s%s %s", t.legPrefix(l), t.sideName(l, c), m.Move)
	if t.clock > 0 && l.left[c-1] < 0 {
		t.timeout(l, c)
		return
	}
	t.settle(l)
}

// The connector's rules for an engine's budget, and the clock an engine
// is told of at a table without clocks.
const (
	maxThink        = 10 * time.Second
	connectorMargin = 750 * time.Millisecond
	untimed         = time.Hour
	untimedBudget   = time.Minute
)

var errNoTime = errors.New("the clock is below the connector's 750 ms margin")

// engineLoop plays side c of leg l with its engine until the leg ends or
// the table closes.
func (t *Table) engineLoop(l *leg, c int) {
	s := l.seats[c-1]
	for {
		t.mu.Lock()
		for t.ctx.Err() == nil && !l.over && l.st.Turn != c {
			t.wake.Wait()
		}
		if t.ctx.Err() != nil || l.over {
			t.mu.Unlock()
			return
		}
		pace := t.pace
		t.mu.Unlock()
		if pace > 0 {
			select {
			case <-time.After(pace):
			case <-t.ctx.Done():
				return
			}
		}
		t.mu.Lock()
		// A watched match paused during the pace waits for a step before
		// it thinks (the step is taken when the move is played, below).
		if !t.waitStep(l) {
			t.mu.Unlock()
			return
		}
		st, left, n := l.st.Clone(), l.left[c-1], len(l.rec.Moves)
		l.turnAt = time.Now() // the pace is not the engine's time
		t.mu.Unlock()
		// As FlipSight's connector asks: the clock, and a budget of the
		// clock less its margin, capped at its max think. Untimed, the
		// level's depth (or its time a move) decides.
		remaining, budget := left, min(maxThink, left-connectorMargin)
		if t.clock == 0 {
			remaining, budget = untimed, untimedBudget
		}
		req := wire.NewRequest(st, remaining, budget, l.matchID, l.no, int64(n))
		var d wire.Answer
		err := errNoTime
		if budget > 0 {
			err = nil
			ask := func() {
				t.mu.Lock()
				l.turnAt = time.Now() // waiting for a slot is not the engine's time
				t.mu.Unlock()
				d, err = s.engine.Move(t.ctx, req, budget)
			}
			if s.kind == "engine" { // ours, in process: it thinks in one of the hub's slots
				if derr := t.env.Decide(t.ctx, ask); derr != nil {
					err = derr
				}
			} else {
				ask()
			}
		}
		t.mu.Lock()
		// Paused, a move is played only with a step, which it takes: a
		// move found after the pause (its search was running when the
		// pause came) is held until a step or resume, so paused boards do
		// not change and a step is one move.
		held := time.Now()
		if !t.waitStep(l) {
			t.mu.Unlock()
			return
		}
		l.turnAt = l.turnAt.Add(time.Since(held)) // a held move's wait is not the engine's time
		if len(l.rec.Moves) != n {
			t.mu.Unlock()
			return
		}
		if t.watch && t.paused {
			t.steps--
		}
		if err == nil && !slices.Contains(st.LegalMoves(), d.Move) {
			err = fmt.Errorf("answered %s, not a legal move", record.MoveName(d.Move, t.mode.Size()))
		}
		if err != nil {
			b, w := l.st.Discs()
			reason := record.ReasonIllegal
			if errors.Is(err, errNoTime) || errors.Is(err, wire.ErrEngine) && t.clock > 0 && time.Since(l.turnAt) >= budget {
				reason = record.ReasonTimeout
			}
			t.say("%s%s failed: %v", t.legPrefix(l), t.sideName(l, c), err)
			t.finish(l, record.Result{Black: b, White: w, Winner: record.WinnerName(3 - c), Reason: reason})
		} else {
			t.play(l, d.Move, d)
		}
		t.changed()
		t.mu.Unlock()
	}
}

// waitStep waits, with t.mu held, while a watched match is paused and no
// step is granted; false when the table closed or the leg ended meanwhile.
func (t *Table) waitStep(l *leg) bool {
	for t.ctx.Err() == nil && !l.over && t.watch && t.paused && t.steps == 0 {
		t.wake.Wait()
	}
	return t.ctx.Err() == nil && !l.over
}

// View is what the page draws.
type View struct {
	Mode     string       `json:"mode"`
	Size     int          `json:"size"`
	Watch    bool         `json:"watch"`
	Paused   bool         `json:"paused"`
	Speed    int64        `json:"speed"`
	Headline string       `json:"headline"`
	Legs     []LegView    `json:"legs"`
	Over     bool         `json:"over"`
	Result   string       `json:"result"`
	Valid    []MoveAction `json:"valid"`
	Log      []logLine    `json:"log"`
}

// seating is who sits where: the person at their colour (1 black, 2
// white), or the creator watching a match with its controls.
func (t *Table) seating() table.Seating {
	if t.watch {
		return table.Seating{Creator: table.Host}
	}
	for c, s := range t.legs[0].seats {
		if s.engine == nil {
			return table.Seating{Creator: table.Seat(c + 1)}
		}
	}
	return table.Seating{Creator: table.Watch}
}

// Valid implements table.Scripted: the person's moves now.
func (t *Table) Valid(seat table.Seat) []any {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []any{}
	if seat.Watching() {
		return out
	}
	for _, l := range t.legs {
		if !l.over && l.seats[l.st.Turn-1].engine == nil {
			for _, sq := range l.st.LegalMoves() {
				out = append(out, MoveAction{Move: othello.SquareName(sq, t.mode.Size())})
			}
		}
	}
	return out
}

// LegView is one board.
type LegView struct {
	Title   string        `json:"title"`
	Cells   string        `json:"cells"` // one character a square from a1, row by row: . x o #
	Turn    int           `json:"turn"`  // 1 black, 2 white, 0 over
	Last    string        `json:"last"`
	Pass    string        `json:"pass"`
	Legal   []string      `json:"legal"` // the person's moves, when it is their turn here
	Players [2]PlayerView `json:"players"`
	Over    bool          `json:"over"`
	Result  string        `json:"result"`
}

// PlayerView is a side of a board.
type PlayerView struct {
	Name    string `json:"name"`
	Discs   int    `json:"discs"`
	ClockMs *int64 `json:"clock_ms"` // nil: untimed
	Running bool   `json:"running"`
}

// MoveAction is the person's action: a square ("d3").
type MoveAction struct {
	Move string `json:"move"`
}

// View implements table.Table: a board holds nothing hidden, so every
// seat sees the same.
func (t *Table) View(table.Viewer) (int, any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	size := t.mode.Size()
	v := View{Mode: t.mode.String(), Size: size, Watch: t.watch, Paused: t.paused, Speed: t.pace.Milliseconds(), Over: t.allOver(),
		Log: slices.Clone(t.log)}
	yours := false
	var results []string
	for _, l := range t.legs {
		lv := LegView{Title: t.legTitle(l), Cells: l.st.Picture(), Pass: l.pass, Over: l.over, Result: l.result, Legal: []string{}}
		if !l.over {
			lv.Turn = l.st.Turn
		}
		for i := len(l.rec.Moves) - 1; i >= 0; i-- {
			if m := l.rec.Moves[i].Move; m != "pass" {
				lv.Last = m
				break
			}
		}
		b, w := l.st.Discs()
		for c := range 2 {
			p := PlayerView{Name: l.seats[c].name, Discs: [2]int{b, w}[c]}
			if t.clock > 0 {
				left := l.left[c]
				running := !l.over && l.st.Turn == c+1
				if running {
					left -= time.Since(l.turnAt)
				}
				ms := max(left, 0).Milliseconds()
				p.ClockMs, p.Running = &ms, running
			}
			lv.Players[c] = p
		}
		if !l.over && l.seats[l.st.Turn-1].engine == nil {
			yours = true
			for _, sq := range l.st.LegalMoves() {
				lv.Legal = append(lv.Legal, othello.SquareName(sq, size))
			}
		}
		if l.over {
			results = append(results, t.legPrefix(l)+l.result)
		}
		v.Legs = append(v.Legs, lv)
	}
	switch {
	case v.Over:
		v.Result = strings.Join(results, " · ")
		v.Headline = "Over."
	case yours:
		v.Headline = "Your move."
	case t.watch && t.paused:
		v.Headline = "Paused."
	default:
		v.Headline = "Waiting for the engine…"
	}
	return t.seq, v
}

func (t *Table) legTitle(l *leg) string {
	s := fmt.Sprintf("%s – %s", l.seats[0].name, l.seats[1].name)
	if len(t.legs) > 1 {
		s = fmt.Sprintf("Leg %d: %s", l.no+1, s)
	}
	return s
}

// Action is what the page sends: a move, or (watching) a control.
type Action struct {
	Move    string `json:"move"`
	Control string `json:"control"` // pause, resume, step, speed
	Ms      *int   `json:"ms"`
}

// Act implements table.Table: the person's move, or the controls of the
// creator of a watched match.
func (t *Table) Act(v table.Viewer, seq int, raw []byte) error {
	var a Action
	if err := problem.DecodeStrict(raw, &a); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if a.Control != "" {
		if t.watch && v.Seat != table.Host {
			return table.NotYours("pause, step and speed belong to whoever set the match up")
		}
		return t.control(a)
	}
	if v.Seat.Watching() {
		return table.NotYours("a watcher decides nothing: the person at the board does")
	}
	if seq != t.seq {
		return table.ErrStale(seq, t.seq)
	}
	var l *leg
	for _, x := range t.legs {
		if !x.over && x.seats[x.st.Turn-1].engine == nil {
			l = x
		}
	}
	if l == nil {
		return table.Illegal([]MoveAction{}, "it is not your move")
	}
	size := t.mode.Size()
	legal := l.st.LegalMoves()
	valid := make([]string, len(legal))
	for i, sq := range legal {
		valid[i] = othello.SquareName(sq, size)
	}
	sq, err := othello.ParseSquare(a.Move, size)
	if err != nil || !slices.Contains(legal, sq) {
		return table.Illegal(valid, "%q is not one of your moves", a.Move)
	}
	if t.clock > 0 && time.Since(l.turnAt) > l.left[l.st.Turn-1] {
		t.timeout(l, l.st.Turn)
		t.changed()
		return table.Illegal([]string{}, "your clock ran out")
	}
	t.play(l, sq, wire.Answer{})
	t.changed()
	return nil
}

func (t *Table) control(a Action) error {
	if !t.watch {
		return table.Illegal([]string{}, "control %q: only a watched match has controls", a.Control)
	}
	switch a.Control {
	case "pause":
		t.paused = true
		t.say("Paused")
	case "resume":
		t.paused, t.steps = false, 0
		t.say("Resumed")
	case "step":
		if !t.paused {
			return table.Illegal([]string{"pause"}, "step: pause first")
		}
		t.steps++
	case "speed":
		if a.Ms == nil || *a.Ms < 0 || *a.Ms > 5000 {
			return problem.Impossiblef("speed: ms must be 0 … 5000")
		}
		t.pace = time.Duration(*a.Ms) * time.Millisecond
	default:
		return table.Illegal([]string{"pause", "resume", "step", "speed"}, "unknown control %q", a.Control)
	}
	t.changed()
	return nil
}

// Summary implements table.Table.
func (t *Table) Summary(*i18n.Printer) table.Summary {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := table.Summary{Title: t.mode.String() + ": " + t.legTitle(t.legs[0]), Created: t.created, Over: t.allOver()}
	s.Review = s.Over || len(t.legs[0].rec.Moves) > 0
	if s.Over {
		var r []string
		for _, l := range t.legs {
			r = append(r, t.legPrefix(l)+l.result)
		}
		s.Status = "over: " + strings.Join(r, " · ")
	} else {
		s.Status = fmt.Sprintf("move %d", len(t.legs[0].rec.Moves)+1)
	}
	return s
}

// Close implements table.Table: the engines stop, and an unfinished leg
// is recorded as abandoned.
func (t *Table) Close() {
	t.cancel()
	t.mu.Lock()
	for _, l := range t.legs {
		if !l.over {
			b, w := l.st.Discs()
			t.finish(l, record.Result{Black: b, White: w, Winner: "draw", Reason: record.ReasonAbandoned})
		}
	}
	t.wake.Broadcast()
	t.mu.Unlock()
	t.wg.Wait()
	for _, e := range t.engines {
		e.Close()
	}
}

// legsLocked copies the records. Called with t.mu held.
func (t *Table) legsLocked() []record.Leg {
	out := make([]record.Leg, len(t.legs))
	for i, l := range t.legs {
		out[i] = l.rec
		out[i].Moves = slices.Clone(l.rec.Moves)
	}
	return out
}

// Record implements table.Recorder: the legs so far, one a line.
func (t *Table) Record() (string, []byte, error) {
	t.mu.Lock()
	legs := t.legsLocked()
	t.mu.Unlock()
	var b bytes.Buffer
	for i := range legs {
		if err := record.Append(&b, &legs[i]); err != nil {
			return "", nil, err
		}
	}
	return t.fileName(), b.Bytes(), nil
}

func (t *Table) fileName() string {
	return fmt.Sprintf("othello-%s-%s.jsonl", t.created.UTC().Format("20060102-150405"), strings.ToLower(t.id[:8]))
}

// Review implements table.Reviewer: the viewer of the legs so far.
func (t *Table) Review() ([]byte, error) {
	t.mu.Lock()
	legs := t.legsLocked()
	t.mu.Unlock()
	var b bytes.Buffer
	if err := report.Write(&b, legs, report.Options{Tool: "gamebot play"}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeRecord writes the legs to the records directory once, when the
// last leg ends. Called with t.mu held.
func (t *Table) writeRecord() {
	if t.written || t.records == "" {
		return
	}
	t.written = true
	var b bytes.Buffer
	for _, l := range t.legs {
		rec := l.rec
		record.Append(&b, &rec)
	}
	if err := os.WriteFile(filepath.Join(t.records, t.fileName()), b.Bytes(), 0o644); err != nil {
		t.say("The record could not be written: %v", err)
	}
}
