// Package table is Othello's browser table (gamebot play): a person
// plays one leg against an engine or against another person (a seat kept
// for them, its link passed on), in any of the five FlipSight modes, from
// the initial position, an XOT-style opening or FlipSight's random
// opening, with FlipSight's clocks or none; or watches a FlipSight match
// between two engines, both legs at once on two boards.
//
// A leg is othello/match's RunLeg, the one leg runner: it asks each side
// for its move, adjudicates (clocks, illegal answers, failures) and
// records; a person is a side whose engine waits for the page of its seat
// (person.go), and the table's pace, pause and step are its gate. The
// table only draws: Othello hides nothing, so a view is the whole
// position, with the moves its seat may play. Each leg is recorded
// (othello/record) and reviewed (othello/report).
package table

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/match"
	"github.com/botarena/gamebot/othello/openings"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/wire"
	"github.com/botarena/gamebot/othello/words"
)

//go:embed page.html.tmpl
var pageSource string

//go:embed page.js
var pageJS []byte

//go:embed page.css
var pageCSS []byte

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
	// The engines' menus are written into the page here, between [[ ]],
	// as the hub's template actions (option), so that the page stays a
	// template of the hub's own: the hub renders it in each language and
	// escapes every value.
	t, err := template.New("page").Delims("[[", "]]").Parse(pageSource)
	if err != nil {
		return nil, err
	}
	var menu strings.Builder
	for i := range cfg.Engines {
		menu.WriteString(cfg.Engines[i].option())
	}
	var page bytes.Buffer
	if err := t.Execute(&page, struct{ Engines string }{menu.String()}); err != nil {
		return nil, err
	}
	return &table.Game{
		Name: "othello", Title: "Othello", Blurb: "the five FlipSight modes against the engine or a friend, or watch two engines play a FlipSight match",
		Page: page.Bytes(), Assets: map[string][]byte{"page.js": pageJS, "page.css": pageCSS},
		New: func(ctx context.Context, options []byte, env table.Env) (table.Table, table.Seating, error) {
			return newTable(ctx, &cfg, options, env)
		},
	}, nil
}

// Table is one Othello table.
type Table struct {
	s       *setup
	id      string
	created time.Time
	env     table.Env
	creator table.Seat
	ctx     context.Context // the legs': done when the table closes
	cancel  context.CancelFunc
	runs    sync.WaitGroup // the legs' runners

	mu      sync.Mutex
	seq     int
	legs    []*leg
	log     []logLine
	logN    int
	pace    time.Duration
	paused  bool
	steps   int           // moves a paused watch may still play
	wake    chan struct{} // closed when pause, step or pace change
	written bool
}

// leg is one game on one board, as the table draws it.
type leg struct {
	no     int
	st     *othello.State // the position now
	start  *othello.State
	rec    record.Leg
	seats  [2]*seat // black, white
	left   [2]time.Duration
	turnAt time.Time // when the side to move started thinking
	passed int       // the colour that passed last, until the next move
	over   bool
	asked  *ask          // the person's move the runner waits for
	moved  chan struct{} // closed and replaced at each move and at the end
}

// seat is a side of a leg: a person's (seat > 0) or an engine.
type seat struct {
	name   string     // as the record names it, in English
	kind   string     // record.Player.Kind
	seat   table.Seat // the person's seat: 1 black, 2 white; 0: an engine
	spec   *EngineSpec
	tag    string // " (A)": which engine of a match between one engine's two copies
	engine wire.Engine
}

func newTable(parent context.Context, cfg *Config, raw []byte, env table.Env) (*Table, table.Seating, error) {
	var o Options
	if err := problem.DecodeStrict(raw, &o); err != nil {
		return nil, table.Seating{}, err
	}
	s, err := o.check(cfg, words.Words{P: env.P})
	if err != nil {
		return nil, table.Seating{}, err
	}
	t := &Table{s: s, id: env.ID, created: time.Now(), env: env, pace: s.pace, wake: make(chan struct{})}
	seating := table.Seating{Creator: table.Host}
	if !s.watch {
		seating.Creator, t.creator = table.Seat(s.you), table.Seat(s.you)
	} else {
		t.creator = table.Host
	}
	for no, specs := range s.seats {
		l, err := t.newLeg(no, specs)
		t.legs = append(t.legs, l)
		if err != nil {
			t.closeEngines()
			return nil, table.Seating{}, err
		}
	}
	for c, st := range t.legs[0].seats {
		if st.seat != 0 && st.seat != seating.Creator {
			seating.Others = append(seating.Others, table.Place{Seat: st.seat, Name: words.Words{P: env.P}.Side(c + 1)})
		}
	}
	l0 := t.legs[0]
	t.sayLocked(func(r reader) string {
		return r.T("log.start", r.Mode(s.mode), r.Start(s.startAs), l0.seats[0].nameFor(r), l0.seats[1].nameFor(r), r.Clock(s.clock))
	})
	t.ctx, t.cancel = context.WithCancel(parent)
	for _, l := range t.legs {
		t.runs.Go(func() { t.run(t.ctx, l) })
	}
	return t, seating, nil
}

// newLeg seats leg no: the engines started, the persons waiting for
// their pages.
func (t *Table) newLeg(no int, specs [2]*EngineSpec) (*leg, error) {
	s := t.s
	l := &leg{no: no, st: s.start.Clone(), start: s.start, left: [2]time.Duration{s.clock, s.clock}, turnAt: time.Now(), moved: make(chan struct{})}
	for c, spec := range specs {
		if spec == nil {
			st := &seat{name: "you", kind: "person", seat: table.Seat(c + 1)}
			if c+1 != s.you {
				st.name = "friend"
			}
			st.engine = &person{t: t, l: l, seat: st.seat}
			l.seats[c] = st
			continue
		}
		e, err := spec.Player.Start(players.Leg{Mode: s.mode, Timed: s.clock > 0})
		if err != nil {
			return l, fmt.Errorf("starting %s: %w", spec.Title, err)
		}
		l.seats[c] = &seat{name: spec.Title, kind: spec.Player.Kind, spec: spec, engine: e}
	}
	if s.watch && specs[0] == specs[1] {
		l.seats[no].tag, l.seats[1-no].tag = " (A)", " (B)"
		l.seats[no].name += l.seats[no].tag
		l.seats[1-no].name += l.seats[1-no].tag
	}
	l.rec = t.newRecord(no, l.seats)
	return l, nil
}

// newRecord is the record of leg no as it starts.
func (t *Table) newRecord(no int, seats [2]*seat) record.Leg {
	s := t.s
	size := s.mode.Size()
	rec := record.Leg{Version: record.Version, Mode: s.mode.String(), Start: s.startAs, Opening: []string{},
		Players: [2]record.Player{{Name: seats[0].name, Kind: seats[0].kind}, {Name: seats[1].name, Kind: seats[1].kind}},
		ClockMs: s.clock.Milliseconds(), Started: time.Now().UTC().Truncate(time.Millisecond)}
	for _, m := range s.opening {
		rec.Opening = append(rec.Opening, othello.SquareName(m, size))
	}
	if s.watch {
		rec.Match, rec.LegNo = fmt.Sprint(s.matchID), no
	}
	return rec
}

// run plays leg l with the one leg runner and ends it.
func (t *Table) run(ctx context.Context, l *leg) {
	var sides [2]match.Side
	for c, st := range l.seats {
		sides[c] = match.Side{Engine: st.engine, Clock: t.s.clock}
		if st.seat == 0 {
			sides[c].MaxThink = maxThink // the connector's rules; a person's budget is its clock
		}
	}
	cfg := match.LegConfig{MatchID: t.s.matchID, Leg: l.no, Sides: sides, Gate: gate{t, l},
		OnMove: func(m record.Move, after *othello.State) { t.moved(l, m, after) }}
	res := match.RunLeg(ctx, cfg, l.start)
	t.ended(l, res)
}

// moved draws a move the runner played on leg l.
func (t *Table) moved(l *leg, m record.Move, after *othello.State) {
	t.update(func() {
		c := l.st.Turn
		l.st = after
		l.rec.Moves = append(l.rec.Moves, m)
		if m.RemainingMs != nil {
			l.left[c-1] = time.Duration(*m.RemainingMs) * time.Millisecond
		}
		l.turnAt = time.Now()
		l.passed = 0
		if m.Move == "pass" {
			l.passed = c
			t.sayLocked(func(r reader) string { return t.ofLeg(l, r, r.T("log.pass", l.sideName(c, r))) })
		} else {
			t.sayLocked(func(r reader) string { return t.ofLeg(l, r, r.T("log.move", l.sideName(c, r), m.Move)) })
		}
		l.signal()
	})
}

// ended records how leg l ended, and the table's record once every leg
// has.
func (t *Table) ended(l *leg, res match.Leg) {
	t.update(func() {
		r := res.Outcome(t.s.mode)
		l.over = true
		l.rec.Result = &r
		if c := res.Failed; c != 0 {
			// Said by its kind: the detail is the runner's, in English,
			// and may quote what an engine sent.
			key := "log.failed"
			switch res.Failure {
			case match.FailTimeout:
				l.left[c-1] = 0
				key = "log.timeout"
			case match.FailIllegal:
				key = "log.illegal"
			}
			t.sayLocked(func(r reader) string { return t.ofLeg(l, r, r.T(key, l.sideName(c, r))) })
		}
		t.sayLocked(func(r reader) string { return t.ofLeg(l, r, l.resultFor(r)) })
		l.signal()
		if t.allOver() {
			t.writeRecord()
		}
	})
}

// signal wakes whoever waits for the leg's next move (an Act). Called
// with t.mu held.
func (l *leg) signal() {
	close(l.moved)
	l.moved = make(chan struct{})
}

// update applies f under the table's lock as a new version, and wakes
// the pages waiting for one.
func (t *Table) update(f func()) {
	t.mu.Lock()
	f()
	t.seq++
	t.mu.Unlock()
	t.env.Notify()
}

func (t *Table) allOver() bool {
	for _, l := range t.legs {
		if !l.over {
			return false
		}
	}
	return true
}

// Close implements table.Table: the legs stop (an unfinished one is
// recorded as abandoned) and the engines with them.
func (t *Table) Close() {
	t.cancel()
	t.runs.Wait()
	t.closeEngines()
}

func (t *Table) closeEngines() {
	for _, l := range t.legs {
		for _, s := range l.seats {
			if s != nil && s.engine != nil {
				s.engine.Close()
			}
		}
	}
}
