package match

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/wire"
)

func TestRandomOpening(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, mode := range othello.Modes() {
		for range 20 {
			s, moves := RandomOpening(mode, rng)
			b, w := s.Discs()
			want := 12
			if len(moves) != map[bool]int{true: 12, false: 8}[mode == othello.Reversi] || b+w != want || s.Over() {
				t.Fatalf("%v: %d moves, %d discs, over %v", mode, len(moves), b+w, s.Over())
			}
			if s.Placed[0]+s.Placed[1] != len(moves) {
				t.Fatalf("%v: placed %v after %d moves", mode, s.Placed, len(moves))
			}
		}
	}
}

// asker is an in-process engine: first legal move, or a scripted failure.
type asker struct {
	illegal bool // answers a square outside legal_moves
	slow    bool // answers nothing within the budget, as a killed process
	broken  bool // answers an error of its own
}

func (a *asker) Move(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error) {
	switch {
	case a.slow:
		time.Sleep(budget)
		return wire.Answer{}, fmt.Errorf("%w: no answer within %v", wire.ErrEngine, budget)
	case a.broken:
		return wire.Answer{}, errors.New("cannot answer")
	case a.illegal:
		return wire.Answer{Move: req.BoardSize*req.BoardSize - 1}, nil
	case len(req.LegalMoves) == 0:
		return wire.Answer{Move: othello.Pass}, nil
	}
	return wire.Answer{Move: req.LegalMoves[0]}, nil
}

func (a *asker) Close() error { return nil }

// The tests run in a synctest bubble: the engines' time is the fake
// clock's, so every duration below is exact.

func TestPlayAdjudication(t *testing.T) {
	tests := []struct {
		mode     othello.Mode
		b        *asker
		wantB    int // B's total
		wantFail string
	}{
		{othello.Std, &asker{illegal: true}, 0, FailIllegal},
		{othello.Anti, &asker{illegal: true}, 128, FailIllegal}, // anti: the failing side gets 64
		{othello.Grand, &asker{illegal: true}, 0, FailIllegal},
		{othello.Octagon, &asker{slow: true}, 0, FailTimeout},
		{othello.Reversi, &asker{broken: true}, 0, FailEngine},
	}
	for _, tc := range tests {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2, 2))
			start, opening := RandomOpening(tc.mode, rng)
			cfg := Config{Mode: tc.mode, Clock: 3 * time.Second, MaxThink: 100 * time.Millisecond, NewEngine: func(p, _ int) wire.Engine {
				if p == 0 {
					return &asker{}
				}
				return tc.b
			}}
			res := Play(context.Background(), cfg, start, opening)
			if res.Totals[1] != tc.wantB {
				t.Errorf("%v: B total %d, want %d (%+v)", tc.mode, res.Totals[1], tc.wantB, res.Legs)
			}
			for i, l := range res.Legs {
				bColour := []int{othello.White, othello.Black}[i]
				if l.Failure != tc.wantFail || l.Failed != bColour {
					t.Errorf("%v leg %d: %s lost by %q, want B (%d) by %q", tc.mode, i, colour(l.Failed), l.Failure, bColour, tc.wantFail)
				}
				// A answers at once; B's one answer took the whole budget
				// when it was slow, nothing otherwise.
				want := time.Duration(0)
				if tc.b.slow {
					want = 100 * time.Millisecond
				}
				if l.MaxMove[2-bColour] != 0 || l.MaxMove[bColour-1] != want {
					t.Errorf("%v leg %d: longest answers %v, want A 0 and B %v", tc.mode, i, l.MaxMove, want)
				}
			}
			if res.Winner != 0 {
				t.Errorf("%v: winner %d", tc.mode, res.Winner)
			}
		})
	}
	// Two correct engines finish both legs with disc totals = final boards.
	synctest.Test(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 3))
		start, opening := RandomOpening(othello.Reversi, rng)
		res := Play(context.Background(), Config{Mode: othello.Reversi, NewEngine: func(int, int) wire.Engine { return &asker{} }}, start, opening)
		for i, l := range res.Legs {
			if l.Failed != 0 || l.Result != l.Discs {
				t.Errorf("leg %d: %+v", i, l)
			}
		}
	})
}

func colour(c int) string {
	switch c {
	case othello.Black:
		return "black"
	case othello.White:
		return "white"
	}
	return "nobody"
}

// sleeper answers its first legal move after a fixed delay, or fails as a
// killed process at the budget when the delay is longer.
type sleeper struct{ d time.Duration }

func (a *sleeper) Move(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error) {
	if a.d > budget {
		time.Sleep(budget)
		return wire.Answer{}, fmt.Errorf("%w: killed at the budget", wire.ErrEngine)
	}
	time.Sleep(a.d)
	return (&asker{}).Move(ctx, req, budget)
}

func (a *sleeper) Close() error { return nil }

// TestClockB: B's own clock and budget cap apply to B in both legs (B is
// white in leg 0 and black in leg 1), and A keeps the shared ones.
func TestClockB(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(4, 4))
		start, opening := RandomOpening(othello.Std, rng)
		slowB := func(p, _ int) wire.Engine {
			if p == 0 {
				return &asker{}
			}
			return &sleeper{d: 40 * time.Millisecond}
		}
		// 40 ms answers do not fit a 20 ms cap: B's first move is lost on
		// time, after exactly the cap.
		cfg := Config{Mode: othello.Std, Clock: time.Second, MaxThink: 20 * time.Millisecond, NewEngine: slowB}
		res := Play(context.Background(), cfg, start, opening)
		for i, l := range res.Legs {
			bColour := []int{othello.White, othello.Black}[i]
			if l.Failed != bColour || l.Failure != FailTimeout || l.Used[bColour-1] != 20*time.Millisecond {
				t.Errorf("shared clock, leg %d: failed %d (%s) after %v, want B's colour %d on time after 20ms", i, l.Failed, l.Failure, l.Used[bColour-1], bColour)
			}
		}
		// With its own clock and cap B plays every move in exactly 40 ms.
		cfg.ClockB, cfg.MaxThinkB = 10*time.Second, time.Second
		res = Play(context.Background(), cfg, start, opening)
		for i, l := range res.Legs {
			bColour := []int{othello.White, othello.Black}[i]
			if l.Failed != 0 || l.Result != l.Discs {
				t.Errorf("B's own clock, leg %d: %+v", i, l)
			}
			if l.MaxMove[bColour-1] != 40*time.Millisecond || l.Used[bColour-1]%(40*time.Millisecond) != 0 || l.Used[2-bColour] != 0 {
				t.Errorf("B's own clock, leg %d: longest %v, used %v", i, l.MaxMove, l.Used)
			}
		}
		// A under the same 20 ms cap as before but slow itself fails.
		cfg.NewEngine = func(p, _ int) wire.Engine {
			if p == 0 {
				return &sleeper{d: 40 * time.Millisecond}
			}
			return &asker{}
		}
		res = Play(context.Background(), cfg, start, opening)
		for i, l := range res.Legs {
			aColour := []int{othello.Black, othello.White}[i]
			if l.Failed != aColour || l.Failure != FailTimeout {
				t.Errorf("slow A, leg %d: failed %d (%s), want A's colour %d on time", i, l.Failed, l.Failure, aColour)
			}
		}
	})
}

// TestClockRunsOut: the budget shrinks with the clock (remaining less the
// connector's 750 ms margin), so an engine too slow for the clock is cut
// off at a shrunken budget, and a clock down to the margin loses the leg
// before the engine is asked, each at exactly its move.
func TestClockRunsOut(t *testing.T) {
	tests := []struct {
		d      time.Duration // B's answer time
		used   time.Duration // B's clock used when it lost
		detail string
	}{
		// 2 s − 4 × 300 ms = 800 ms: a 50 ms budget for the fifth answer.
		{300 * time.Millisecond, 1250 * time.Millisecond, "killed at the budget"},
		// 2 s − 5 × 250 ms = 750 ms: nothing left above the margin.
		{250 * time.Millisecond, 1250 * time.Millisecond, "below the connector's 750 ms margin"},
	}
	for _, tc := range tests {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 5))
			start, opening := RandomOpening(othello.Std, rng)
			cfg := Config{Mode: othello.Std, Clock: 2 * time.Second, MaxThink: time.Second, NewEngine: func(p, _ int) wire.Engine {
				if p == 0 {
					return &asker{}
				}
				return &sleeper{d: tc.d}
			}}
			res := Play(context.Background(), cfg, start, opening)
			for i, l := range res.Legs {
				bColour := []int{othello.White, othello.Black}[i]
				if l.Failed != bColour || l.Failure != FailTimeout || l.Used[bColour-1] != tc.used || !strings.Contains(l.FailureDetail, tc.detail) {
					t.Errorf("%v answers, leg %d: %s lost by %s (%s) after %v, want B on time (%s) after %v", tc.d, i, colour(l.Failed), l.Failure, l.FailureDetail, l.Used[bColour-1], tc.detail, tc.used)
				}
			}
		})
	}
}

// counting is a sleeper that counts the moves searched at once.
type counting struct {
	sleeper
	now, most *atomic.Int32
}

func (c *counting) Move(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error) {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for m := c.most.Load(); n > m && !c.most.CompareAndSwap(m, n); m = c.most.Load() {
	}
	return c.sleeper.Move(ctx, req, budget)
}

// TestSequential: with Config.Sequential the second leg starts when the
// first is over, so one engine searches at a time and the match lasts as
// long as its legs together; by default the legs are played at once.
func TestSequential(t *testing.T) {
	for _, seq := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(6, 6))
			start, opening := RandomOpening(othello.Std, rng)
			var now, most atomic.Int32
			cfg := Config{Mode: othello.Std, Clock: time.Minute, Sequential: seq, NewEngine: func(int, int) wire.Engine {
				return &counting{sleeper: sleeper{d: 10 * time.Millisecond}, now: &now, most: &most}
			}}
			t0 := time.Now()
			res := Play(context.Background(), cfg, start, opening)
			took := time.Since(t0)
			moves := [2]time.Duration{}
			for i, l := range res.Legs {
				if l.Failed != 0 {
					t.Fatalf("leg %d: %+v", i, l)
				}
				moves[i] = time.Duration(l.Moves) * 10 * time.Millisecond
			}
			want, wantMost := max(moves[0], moves[1]), int32(2)
			if seq {
				want, wantMost = moves[0]+moves[1], 1
			}
			if took != want || most.Load() != wantMost {
				t.Errorf("sequential %v: the match took %v with %d moves searched at once, want %v and %d", seq, took, most.Load(), want, wantMost)
			}
		})
	}
}
