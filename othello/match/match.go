// Package match is Othello's referee. RunLeg is the one leg runner: it
// asks each side (a wire.Engine: in process, a JSON-line or NBoard
// command, or a person's page) for its move, passes too, with its clock
// and budget_ms as FlipSight's connector does, adjudicates a leg lost on
// time, by an illegal answer or by a failure, and tells a hook each move;
// a Gate lets a browser table pace, pause and step it. Play is a local
// two-leg FlipSight match on it: both legs from the same random 12-disc
// position with colours swapped, at once (or, Config.Sequential, one
// after the other). Campaign is othello-match: matches mode after mode,
// their tally, a sequential test and the records.
package match

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/wire"
)

// Config describes a match.
type Config struct {
	Mode othello.Mode
	// Clock per leg per colour (FlipSight: 60 s).
	Clock time.Duration
	// MaxThink caps budget_ms like the connector's --max-think-seconds
	// (default 10 s); budget_ms = min(MaxThink, remaining − 750 ms).
	MaxThink time.Duration
	// ClockB and MaxThinkB, when positive, replace Clock and MaxThink for
	// participant B only: a reference engine searching to a fixed depth
	// ignores the clock, so giving it room measures its play, not how
	// it copes with a clock it does not read.
	ClockB, MaxThinkB time.Duration
	// NewEngine starts participant p's engine (0 = A, 1 = B) for one leg
	// (the connector runs one engine per game); it is closed when the leg
	// ends.
	NewEngine func(participant, leg int) wire.Engine
	// MatchID is echoed in requests.
	MatchID int64
	// Sequential plays the legs one after the other instead of at once:
	// with one match at a time, one engine searches at a time, as on
	// FlipSight while the opponent thinks on its own machine, so an
	// engine with several threads has the cores to itself and takes none
	// from the other leg.
	Sequential bool
}

// Participant failure kinds.
const (
	FailNone    = ""
	FailTimeout = "timeout" // clock ran out or budget exceeded (engine killed)
	FailIllegal = "illegal" // answered a move outside legal_moves
	FailEngine  = "engine"  // crashed or answered garbage
	// FailAbandoned: the leg was cut short (the match cancelled, the
	// table closed); its result is its discs, without a winner.
	FailAbandoned = "abandoned"
)

// Leg is the outcome of one leg.
type Leg struct {
	BlackParticipant int
	Discs            [2]int // black, white on the final board
	Result           [2]int // black, white after adjudication
	Failed           int    // colour that lost on time/illegal/engine failure, 0 if none
	Failure          string
	FailureDetail    string
	Moves            int
	Passes           int
	MaxMove          [2]time.Duration // longest answer per colour
	Used             [2]time.Duration // clock used per colour
	// Played are the leg's moves as a record keeps them: each with its
	// time, the mover's clock after it and what the engine said of it.
	Played []record.Move
}

// Result is the outcome of a match.
type Result struct {
	Opening []int
	Legs    [2]Leg
	Totals  [2]int // per participant
	Winner  int    // 0 = A, 1 = B, −1 draw
}

// RandomOpening returns the server's random start: 8 random legal moves
// from the initial position (12 discs), or for classic Reversi 12 random
// placements (the 4 centre ones first). It never returns a finished game.
func RandomOpening(mode othello.Mode, rng *rand.Rand) (*othello.State, []int) {
	n := 8
	if mode == othello.Reversi {
		n = 12
	}
	for {
		s := othello.NewState(mode)
		var moves []int
		for len(moves) < n {
			legal := s.LegalMoves()
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			_ = s.Play(m)
			moves = append(moves, m)
		}
		if len(moves) == n && !s.Over() {
			return s, moves
		}
	}
}

// Records are the match's legs as othello/record keeps them (the viewer
// of othello/report reads them): players are A and B.
func (r *Result) Records(cfg Config, players [2]record.Player, started time.Time) [2]record.Leg {
	var out [2]record.Leg
	size := cfg.Mode.Size()
	opening := make([]string, len(r.Opening))
	for i, m := range r.Opening {
		opening[i] = othello.SquareName(m, size)
	}
	start := record.StartRandom
	if len(opening) == 0 {
		start = record.StartInitial
	}
	for i, l := range r.Legs {
		black := l.BlackParticipant
		rec := record.Leg{Version: record.Version, Mode: cfg.Mode.String(), Start: start, Opening: opening,
			Players: [2]record.Player{players[black], players[1-black]},
			ClockMs: cfg.Clock.Milliseconds(), Match: fmt.Sprint(cfg.MatchID), LegNo: i, Started: started.UTC().Truncate(time.Millisecond),
			Moves: l.Played}
		res := l.Outcome(cfg.Mode)
		rec.Result = &res
		out[i] = rec
	}
	return out
}

// Outcome is the leg's result as a record keeps it: the discs on the
// board, and the winner by the adjudicated result (in anti, the side
// with fewer discs), no winner when it was abandoned.
func (l *Leg) Outcome(mode othello.Mode) record.Result {
	res := record.Result{Black: l.Discs[0], White: l.Discs[1], Reason: record.ReasonEnd}
	switch l.Failure {
	case FailTimeout:
		res.Reason = record.ReasonTimeout
	case FailIllegal:
		res.Reason = record.ReasonIllegal
	case FailEngine:
		res.Reason = record.ReasonFailed
	case FailAbandoned:
		res.Reason, res.Winner = record.ReasonAbandoned, "draw"
		return res
	}
	a, b := l.Result[0], l.Result[1]
	if mode == othello.Anti {
		a, b = b, a
	}
	switch {
	case a > b:
		res.Winner = "black"
	case b > a:
		res.Winner = "white"
	default:
		res.Winner = "draw"
	}
	return res
}

// maxScore is the adjudicated winner's score: the mode's playable squares.
func maxScore(mode othello.Mode) int { return mode.PlayableSquares() }

// Play runs one match from start (both legs at once, unless
// cfg.Sequential) and returns the result.
func Play(ctx context.Context, cfg Config, start *othello.State, opening []int) Result {
	if cfg.Clock <= 0 {
		cfg.Clock = 60 * time.Second
	}
	if cfg.MaxThink <= 0 {
		cfg.MaxThink = 10 * time.Second
	}
	var res Result
	res.Opening = opening
	var wg sync.WaitGroup
	for leg := range 2 {
		if cfg.Sequential {
			res.Legs[leg] = playLeg(ctx, cfg, start.Clone(), leg)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res.Legs[leg] = playLeg(ctx, cfg, start.Clone(), leg)
		}()
	}
	wg.Wait()
	for leg := range 2 {
		l := res.Legs[leg]
		bp := l.BlackParticipant
		res.Totals[bp] += l.Result[0]
		res.Totals[1-bp] += l.Result[1]
	}
	a, b := res.Totals[0], res.Totals[1]
	if cfg.Mode == othello.Anti {
		a, b = b, a
	}
	switch {
	case a > b:
		res.Winner = 0
	case b > a:
		res.Winner = 1
	default:
		res.Winner = -1
	}
	return res
}

// playLeg plays leg of the match: A is black in leg 0 and white in leg 1,
// each with its engine, its clock and its budget cap.
func playLeg(ctx context.Context, cfg Config, s *othello.State, leg int) Leg {
	var sides [2]Side // by colour − 1
	for c := range 2 {
		participant := c
		if leg == 1 {
			participant = 1 - c
		}
		sides[c] = Side{Engine: cfg.NewEngine(participant, leg), Clock: cfg.Clock, MaxThink: cfg.MaxThink}
		if participant == 1 && cfg.ClockB > 0 {
			sides[c].Clock = cfg.ClockB
		}
		if participant == 1 && cfg.MaxThinkB > 0 {
			sides[c].MaxThink = cfg.MaxThinkB
		}
	}
	defer func() {
		for _, sd := range sides {
			_ = sd.Engine.Close()
		}
	}()
	l := RunLeg(ctx, LegConfig{MatchID: cfg.MatchID, Leg: leg, Sides: sides}, s)
	l.BlackParticipant = leg // leg 0: A is black; leg 1: B is black
	return l
}
