// Package match plays local two-leg FlipSight matches between two engines
// (wire.Engine: in process, JSON-line or NBoard commands), the way the
// FlipSight server and the official connector do: both legs from the same
// random 12-disc position with colours swapped, played at the same time
// (or, Config.Sequential, one after the other), a clock per leg per
// colour, budget_ms from the clock, and adjudication when a leg is lost
// on time (or, here, by an illegal answer).
package match

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
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
// of othello/report reads them): names are A's and B's.
func (r *Result) Records(cfg Config, names [2]string, started time.Time) [2]record.Leg {
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
			Players: [2]record.Player{{Name: names[black], Kind: "engine"}, {Name: names[1-black], Kind: "engine"}},
			ClockMs: cfg.Clock.Milliseconds(), Match: fmt.Sprint(cfg.MatchID), LegNo: i, Started: started.UTC().Truncate(time.Millisecond),
			Moves: l.Played}
		res := record.Result{Black: l.Discs[0], White: l.Discs[1], Reason: record.ReasonEnd}
		switch l.Failure {
		case FailTimeout:
			res.Reason = record.ReasonTimeout
		case FailIllegal:
			res.Reason = record.ReasonIllegal
		case FailEngine:
			res.Reason = record.ReasonFailed
		}
		a, b := l.Result[0], l.Result[1]
		if cfg.Mode == othello.Anti {
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
		rec.Result = &res
		out[i] = rec
	}
	return out
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

func playLeg(ctx context.Context, cfg Config, s *othello.State, leg int) Leg {
	l := Leg{BlackParticipant: leg} // leg 0: A is black; leg 1: B is black
	engines := [2]wire.Engine{}     // by colour − 1
	for c := range 2 {
		participant := c
		if leg == 1 {
			participant = 1 - c
		}
		engines[c] = cfg.NewEngine(participant, leg)
	}
	defer func() {
		for _, e := range engines {
			_ = e.Close()
		}
	}()
	// Per colour: the clock and budget cap of the participant playing it.
	clocks := [2]time.Duration{cfg.Clock, cfg.Clock}
	caps := [2]time.Duration{cfg.MaxThink, cfg.MaxThink}
	bColour := 1 // B's colour − 1: white in leg 0, black in leg 1
	if leg == 1 {
		bColour = 0
	}
	if cfg.ClockB > 0 {
		clocks[bColour] = cfg.ClockB
	}
	if cfg.MaxThinkB > 0 {
		caps[bColour] = cfg.MaxThinkB
	}
	revision := int64(0)
	fail := func(color int, kind, detail string) Leg {
		l.Failed, l.Failure, l.FailureDetail = color, kind, detail
		b, w := s.Discs()
		l.Discs = [2]int{b, w}
		max := maxScore(cfg.Mode)
		loser, winner := 0, max
		if cfg.Mode == othello.Anti {
			loser, winner = 64, 0
		}
		if color == othello.Black {
			l.Result = [2]int{loser, winner}
		} else {
			l.Result = [2]int{winner, loser}
		}
		return l
	}
	for !s.Over() {
		if ctx.Err() != nil {
			return fail(s.Turn, FailEngine, "match cancelled")
		}
		c := s.Turn
		legal := s.LegalMoves()
		if legal == nil {
			legal = []int{}
		}
		remaining := clocks[c-1]
		budget := min(caps[c-1], remaining-750*time.Millisecond)
		req := wire.NewRequest(s, remaining, budget, cfg.MatchID, leg, revision)
		if budget <= 0 {
			return fail(c, FailTimeout, fmt.Sprintf("clock %v below the connector's 750 ms margin", remaining))
		}
		t0 := time.Now()
		ans, err := engines[c-1].Move(ctx, req, budget)
		move := ans.Move
		took := time.Since(t0)
		clocks[c-1] -= took
		if err == nil && (move == othello.Pass && len(legal) == 0 || slices.Contains(legal, move)) {
			rem := max(clocks[c-1], 0).Milliseconds()
			l.Played = append(l.Played, record.Move{Move: record.MoveName(move, s.Mode.Size()), Ms: took.Milliseconds(),
				RemainingMs: &rem, Score: ans.Score, Depth: ans.Depth, Exact: ans.Exact})
		}
		l.Used[c-1] += took
		l.MaxMove[c-1] = max(l.MaxMove[c-1], took)
		switch {
		case err != nil && errors.Is(err, wire.ErrEngine) && took >= budget:
			return fail(c, FailTimeout, err.Error())
		case err != nil:
			return fail(c, FailEngine, err.Error())
		case clocks[c-1] <= 0:
			return fail(c, FailTimeout, fmt.Sprintf("clock ran out (answer took %v)", took))
		}
		if move == othello.Pass {
			if len(legal) > 0 {
				return fail(c, FailIllegal, fmt.Sprintf("passed with legal moves %v", legal))
			}
			_ = s.Play(othello.Pass)
			l.Passes++
		} else {
			if !slices.Contains(legal, move) {
				return fail(c, FailIllegal, fmt.Sprintf("move %d not in legal_moves %v", move, legal))
			}
			_ = s.Play(move)
		}
		l.Moves++
		revision++
	}
	b, w := s.Discs()
	l.Discs = [2]int{b, w}
	l.Result = l.Discs
	return l
}
