package table

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/match"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/words"
)

// Options are the setup form's fields.
type Options struct {
	Mode   string `json:"mode"`
	Start  string `json:"start"`  // initial, xot, random
	Clock  string `json:"clock"`  // none, flipsight
	Table  string `json:"table"`  // play, watch
	Colour string `json:"colour"` // black, white, random
	// Opponent is an engine's id, or "person": the other colour is kept
	// for someone else, whose link the creator passes on.
	Opponent string `json:"opponent"`
	A        string `json:"a"` // watch: the engines of the match
	B        string `json:"b"`
	Pace     *int   `json:"pace"` // ms before an engine's move
	Seed     uint64 `json:"seed"`
}

// FlipSightClock is a side's clock in a FlipSight leg.
const FlipSightClock = 60 * time.Second

// Setup limits and defaults.
const (
	defaultPace = 400 * time.Millisecond
	maxPaceMs   = 5000
	// maxThink is the connector's cap on an engine's budget.
	maxThink = 10 * time.Second
)

// opponentPersons are the opponents that keep the other colour for a
// person.
var opponentPersons = []string{"person", "friend"}

// setup is a checked Options: the position to start from and who sits
// where.
type setup struct {
	Options
	mode    othello.Mode
	clock   time.Duration // 0: untimed
	pace    time.Duration
	watch   bool
	start   *othello.State
	opening []int
	startAs string // record.Start*
	matchID int64
	// seats are by leg and colour − 1: an engine's spec, or nil for a
	// person (you: the creator's colour).
	seats [][2]*EngineSpec
	you   int // the creator's colour (0: watching)
}

// invalid is a setup the table cannot play: 400 naming the setting and
// what may be chosen, in w's language ("setup.KEY").
func invalid(w words.Words, key string, args ...any) error {
	return problem.Malformedf("%s", w.T("setup."+key, args...))
}

// check reads the setup; a refusal says why in w's language.
func (o *Options) check(cfg *Config, w words.Words) (*setup, error) {
	s := &setup{Options: *o, pace: defaultPace, startAs: o.Start}
	var err error
	if s.mode, err = othello.ParseMode(o.Mode); err != nil {
		return nil, invalid(w, "mode", o.Mode)
	}
	switch o.Clock {
	case "", "none":
	case "flipsight":
		s.clock = FlipSightClock
	default:
		return nil, invalid(w, "clock", o.Clock)
	}
	if o.Pace != nil {
		if *o.Pace < 0 || *o.Pace > maxPaceMs {
			return nil, invalid(w, "pace", *o.Pace, maxPaceMs)
		}
		s.pace = time.Duration(*o.Pace) * time.Millisecond
	}
	seed := o.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	rng := rand.New(rand.NewPCG(seed, 0x07e1))
	if s.start, s.opening, err = startOf(s.mode, o.Start, cfg.Openings, rng, w); err != nil {
		return nil, err
	}
	if s.startAs == "" {
		s.startAs = record.StartInitial
	}
	s.matchID = int64(rng.Uint32())
	switch o.Table {
	case "", "play":
		err = s.seatPlay(cfg, rng, w)
	case "watch":
		err = s.seatWatch(cfg, w)
	default:
		err = invalid(w, "table", o.Table)
	}
	return s, err
}

// seatPlay seats the creator at their colour against an engine or a
// person.
func (s *setup) seatPlay(cfg *Config, rng *rand.Rand, w words.Words) error {
	s.you = othello.Black
	switch s.Colour {
	case "", "black":
	case "white":
		s.you = othello.White
	case "random":
		s.you = othello.Black + rng.IntN(2)
	default:
		return invalid(w, "colour", s.Colour)
	}
	var other *EngineSpec
	if !isPerson(s.Opponent) {
		var err error
		if other, err = cfg.find("opponent", s.Opponent, w); err != nil {
			return err
		}
	}
	seats := [2]*EngineSpec{nil, other}
	if s.you == othello.White {
		seats = [2]*EngineSpec{other, nil}
	}
	s.seats = [][2]*EngineSpec{seats}
	return nil
}

// seatWatch seats FlipSight's match: both legs from the same start,
// colours swapped, played at the same time.
func (s *setup) seatWatch(cfg *Config, w words.Words) error {
	s.watch = true
	a, err := cfg.find("a", s.A, w)
	if err != nil {
		return err
	}
	b, err := cfg.find("b", s.B, w)
	if err != nil {
		return err
	}
	s.seats = [][2]*EngineSpec{{a, b}, {b, a}}
	return nil
}

func isPerson(opponent string) bool {
	for _, p := range opponentPersons {
		if strings.EqualFold(opponent, p) {
			return true
		}
	}
	return false
}

// find is the engine id names ("": the first); a refusal names the
// setup's field (opponent, a, b) as the form does, in w's language.
func (cfg *Config) find(field, id string, w words.Words) (*EngineSpec, error) {
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
	if field == "opponent" {
		ids = append(ids, opponentPersons[0])
	}
	return nil, invalid(w, "engine", w.T("setup.field."+field), id, strings.Join(ids, ", "))
}

// startOf is the leg's start: the initial position, an XOT-style opening
// (std only) or FlipSight's random one.
func startOf(mode othello.Mode, start string, openings [][]int, rng *rand.Rand, w words.Words) (*othello.State, []int, error) {
	switch start {
	case "", record.StartInitial:
		return othello.NewState(mode), nil, nil
	case record.StartXOT:
		if mode != othello.Std {
			return nil, nil, invalid(w, "xot", mode.String())
		}
		if len(openings) == 0 {
			return nil, nil, problem.Impossiblef("%s", w.T("setup.noOpenings"))
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
	return nil, nil, invalid(w, "start", start)
}

// again is the setup of the next game at this table: the same, with the
// colours swapped (the other leg of a FlipSight match) and a seed of its
// own unless one was typed (which, with the colours swapped, replays the
// start).
func (s *setup) again() *Options {
	o := s.Options
	switch {
	case s.watch:
		o.A, o.B = s.B, s.A
	case s.you == othello.Black:
		o.Colour = "white"
	default:
		o.Colour = "black"
	}
	pace := int(s.pace.Milliseconds())
	o.Pace = &pace
	return &o
}
