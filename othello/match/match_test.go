package match

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
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
	illegal bool
	slow    bool
}

func (a *asker) Ask(ctx context.Context, req *wire.Request, timeout time.Duration) (int, error) {
	switch {
	case a.slow:
		time.Sleep(timeout + 10*time.Millisecond)
		return 0, context.DeadlineExceeded
	case a.illegal:
		return req.BoardSize*req.BoardSize - 1, nil
	case len(req.LegalMoves) == 0:
		return othello.Pass, nil
	}
	return req.LegalMoves[0], nil
}

func (a *asker) Close() error { return nil }

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
		{othello.Octagon, &asker{slow: true}, 0, FailEngine},
	}
	for _, tc := range tests {
		rng := rand.New(rand.NewPCG(2, 2))
		start, opening := RandomOpening(tc.mode, rng)
		cfg := Config{Mode: tc.mode, Clock: 3 * time.Second, MaxThink: 100 * time.Millisecond, NewEngine: func(p, _ int) Asker {
			if p == 0 {
				return &asker{}
			}
			return tc.b
		}}
		res := Play(context.Background(), cfg, start, opening)
		if res.Totals[1] != tc.wantB {
			t.Errorf("%v: B total %d, want %d (%+v)", tc.mode, res.Totals[1], tc.wantB, res.Legs)
		}
		for _, l := range res.Legs {
			if l.Failure != tc.wantFail && !(tc.b.slow && l.Failure == FailTimeout) {
				t.Errorf("%v: failure %q, want %q", tc.mode, l.Failure, tc.wantFail)
			}
		}
		if res.Winner != 0 {
			t.Errorf("%v: winner %d", tc.mode, res.Winner)
		}
	}
	// Two correct engines finish both legs with disc totals = final boards.
	rng := rand.New(rand.NewPCG(3, 3))
	start, opening := RandomOpening(othello.Reversi, rng)
	res := Play(context.Background(), Config{Mode: othello.Reversi, NewEngine: func(int, int) Asker { return &asker{} }}, start, opening)
	for i, l := range res.Legs {
		if l.Failed != 0 || l.Result != l.Discs {
			t.Errorf("leg %d: %+v", i, l)
		}
	}
}

// sleeper answers its first legal move after a fixed delay.
type sleeper struct{ d time.Duration }

func (a *sleeper) Ask(ctx context.Context, req *wire.Request, timeout time.Duration) (int, error) {
	if a.d > timeout {
		time.Sleep(timeout)
		return 0, fmt.Errorf("%w: killed at the budget", jsonline.ErrEngine)
	}
	time.Sleep(a.d)
	return (&asker{}).Ask(ctx, req, timeout)
}

func (a *sleeper) Close() error { return nil }

// TestClockB: B's own clock and budget cap apply to B in both legs (B is
// white in leg 0 and black in leg 1), and A keeps the shared ones.
func TestClockB(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	start, opening := RandomOpening(othello.Std, rng)
	slowB := func(p, _ int) Asker {
		if p == 0 {
			return &asker{}
		}
		return &sleeper{d: 40 * time.Millisecond}
	}
	// 30 moves of 40 ms do not fit a 1 s clock (750 ms margin) nor a 20 ms cap.
	cfg := Config{Mode: othello.Std, Clock: time.Second, MaxThink: 20 * time.Millisecond, NewEngine: slowB}
	res := Play(context.Background(), cfg, start, opening)
	for i, l := range res.Legs {
		bColour := []int{othello.White, othello.Black}[i]
		if l.Failed != bColour || l.Failure != FailTimeout {
			t.Errorf("shared clock, leg %d: failed %d (%s), want B's colour %d on time", i, l.Failed, l.Failure, bColour)
		}
	}
	cfg.ClockB, cfg.MaxThinkB = 10*time.Second, time.Second
	res = Play(context.Background(), cfg, start, opening)
	for i, l := range res.Legs {
		if l.Failed != 0 || l.Result != l.Discs {
			t.Errorf("B's own clock, leg %d: %+v", i, l)
		}
	}
	// A under the same 20 ms cap as before but slow itself fails.
	cfg.NewEngine = func(p, _ int) Asker {
		if p == 0 {
			return &sleeper{d: 40 * time.Millisecond}
		}
		return &asker{}
	}
	res = Play(context.Background(), cfg, start, opening)
	for i, l := range res.Legs {
		aColour := []int{othello.Black, othello.White}[i]
		if l.Failed != aColour {
			t.Errorf("slow A, leg %d: failed %d, want A's colour %d", i, l.Failed, aColour)
		}
	}
}
