package match

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/gamebot/internal/stats"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/wire"
)

// countingGate records the gate's calls and may refuse to go on after
// some moves.
type countingGate struct {
	mu        sync.Mutex
	asks      []int // colours asked
	plays     []int // colours whose move was played
	stopAfter int   // 0: never
}

func (g *countingGate) Ask(ctx context.Context, c int, ask func()) error {
	g.mu.Lock()
	g.asks = append(g.asks, c)
	stop := g.stopAfter > 0 && len(g.asks) > g.stopAfter
	g.mu.Unlock()
	if stop {
		return errors.New("the table was closed")
	}
	time.Sleep(time.Second) // a pace: not the side's time
	ask()
	return nil
}

func (g *countingGate) Play(ctx context.Context, c int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.plays = append(g.plays, c)
	return nil
}

// TestRunLegGateAndHook: every move, passes too, is asked through the
// gate and told to the hook in order; the time the gate takes is not the
// side's; a gate that refuses ends the leg abandoned, its discs as they
// are and no winner.
func TestRunLegGateAndHook(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start, _ := RandomOpening(othello.Std, rand.New(rand.NewPCG(7, 7)))
		g := &countingGate{}
		var moves []record.Move
		var last *othello.State
		cfg := LegConfig{MatchID: 9, Sides: [2]Side{{Engine: &asker{}, Clock: time.Minute, MaxThink: time.Second}, {Engine: &asker{}, Clock: time.Minute, MaxThink: time.Second}}, Gate: g,
			OnMove: func(m record.Move, after *othello.State) { moves = append(moves, m); last = after }}
		l := RunLeg(context.Background(), cfg, start)
		if l.Failed != 0 || l.Failure != "" || len(moves) != l.Moves || len(g.asks) != l.Moves || len(g.plays) != l.Moves || !last.Over() {
			t.Fatalf("%d moves, %d told, %d asked, %d played: %+v", l.Moves, len(moves), len(g.asks), len(g.plays), l)
		}
		if !slices.Equal(l.Played, moves) || l.Used != [2]time.Duration{} || *moves[0].RemainingMs != 60000 {
			t.Fatalf("the pace was counted: used %v, first move %+v", l.Used, moves[0])
		}
		if b, w := last.Discs(); l.Discs != [2]int{b, w} || l.Result != l.Discs {
			t.Fatalf("discs %v, result %v, board %d–%d", l.Discs, l.Result, b, w)
		}
		g = &countingGate{stopAfter: 5}
		cfg.Gate, cfg.OnMove = g, nil
		l = RunLeg(context.Background(), cfg, start)
		if l.Failure != FailAbandoned || l.Failed != 0 || l.Moves != 5 || l.Result != l.Discs {
			t.Fatalf("a refused gate: %+v", l)
		}
		if r := l.Outcome(othello.Std); r.Reason != record.ReasonAbandoned || r.Winner != "draw" {
			t.Fatalf("abandoned outcome %+v", r)
		}
	})
}

// waiter answers nothing until its context ends or the budget passes, as
// a person who does not move.
type waiter struct{ budgets []time.Duration }

func (w *waiter) Move(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error) {
	w.budgets = append(w.budgets, budget)
	var timeout <-chan time.Time
	if budget > 0 {
		timeout = time.After(budget)
	}
	select {
	case <-timeout:
		return wire.Answer{}, wire.ErrEngine
	case <-ctx.Done():
		return wire.Answer{}, ctx.Err()
	}
}

func (w *waiter) Close() error { return nil }

// TestRunLegBudgets: a side without a cap (a person) has its whole clock
// for a budget and loses on time when it runs out; untimed, an engine is
// told Untimed and UntimedBudget, and a person has no budget: the leg
// waits until it is cut short.
func TestRunLegBudgets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := othello.NewState(othello.Std)
		w := &waiter{}
		l := RunLeg(context.Background(), LegConfig{Sides: [2]Side{{Engine: w, Clock: 30 * time.Second}, {Engine: &asker{}, Clock: 30 * time.Second, MaxThink: time.Second}}}, start)
		if l.Failed != othello.Black || l.Failure != FailTimeout || l.Used[0] != 30*time.Second || w.budgets[0] != 30*time.Second {
			t.Fatalf("a person's clock: %+v, budgets %v", l, w.budgets)
		}
		var reqs []*wire.Request
		rec := recorder{inner: &asker{}, reqs: &reqs}
		w = &waiter{}
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		l = RunLeg(ctx, LegConfig{Sides: [2]Side{{Engine: rec, MaxThink: time.Second}, {Engine: w}}}, start)
		if l.Failure != FailAbandoned || w.budgets[0] != 0 || *reqs[0].RemainingMs != Untimed.Milliseconds() || *reqs[0].BudgetMs != UntimedBudget.Milliseconds() {
			t.Fatalf("untimed: %+v, person's budgets %v, engine's request %+v", l, w.budgets, reqs[0])
		}
	})
}

// recorder keeps the requests its engine is asked.
type recorder struct {
	inner wire.Engine
	reqs  *[]*wire.Request
}

func (r recorder) Move(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error) {
	*r.reqs = append(*r.reqs, req)
	return r.inner.Move(ctx, req, budget)
}

func (r recorder) Close() error { return nil }

// TestCampaign: a campaign of in-process engines tells each match and
// each mode, in order, writes each match's legs, and its SPRT stops a
// mode early; the openings depend on the seed only.
func TestCampaign(t *testing.T) {
	a, _ := players.Parse("engine:depth=2,tt-bits=12")
	b, _ := players.Parse("B=engine:depth=1,tt-bits=12")
	dir := t.TempDir()
	cfg := CampaignConfig{Modes: []othello.Mode{othello.Std, othello.Grand}, N: 3, Concurrency: 2, Seed: 5, Players: [2]players.Player{a, b},
		Clock: time.Hour, MaxThink: time.Minute, Record: dir}
	var mu sync.Mutex
	var events []Event
	rep, err := Campaign(t.Context(), cfg, func(e Event) { mu.Lock(); events = append(events, e); mu.Unlock() })
	if err != nil || len(rep.Modes) != 2 || rep.Modes[0].Matches != 3 || rep.Modes[1].Matches != 3 || rep.FailedA() {
		t.Fatalf("%+v %v", rep, err)
	}
	if len(events) != 8 || events[3].Result != nil || events[3].Mode != othello.Std || events[7].Result != nil || events[7].Mode != othello.Grand {
		t.Fatalf("%d events: %+v", len(events), events)
	}
	legs, err := record.ReadPaths(dir)
	if err != nil || len(legs) != 12 || legs[0].Players[0] != (record.Player{Name: "engine:depth=2,tt-bits=12", Kind: "engine"}) || legs[0].Players[1].Name != "B" {
		t.Fatalf("%d legs, %v", len(legs), err)
	}
	// The same seed, the same starts, whatever the players.
	cfg.Record, cfg.Modes, cfg.Concurrency = "", []othello.Mode{othello.Std}, 1
	cfg.Players[1] = a
	var first [3]string
	Campaign(t.Context(), cfg, func(e Event) {
		if e.Result != nil {
			first[e.Match] = strings.Join(squares(e.Result.Opening), "")
		}
	})
	for i, l := range legs[6:] { // grand's files first, then std's

		if i%2 == 0 && strings.Join(l.Opening, "") != first[i/2] {
			t.Errorf("match %d: opening %v, then %s", i/2+1, l.Opening, first[i/2])
		}
	}
	// A sequential test that decides stops the mode before its 400 matches.
	cfg.N, cfg.Players[1] = 400, players.Custom("broken", "command", func(players.Leg) (wire.Engine, error) { return wire.Failed(errors.New("no engine")), nil })
	cfg.SPRT = new(stats.EloSPRT(0, 30, 0.05, 0.05))
	rep, err = Campaign(t.Context(), cfg, nil)
	if err != nil || rep.Modes[0].Verdict == stats.Continue || rep.Modes[0].Matches >= 400 || rep.Modes[0].Failures[1]["engine"] == 0 {
		t.Fatalf("sequential test: %+v %v", rep.Modes[0], err)
	}
	if _, err := os.Stat(filepath.Join(dir, "std-match-0001.jsonl")); err != nil {
		t.Fatal(err)
	}
	// An NBoard engine plays std only: said before anything is played.
	nb, _ := players.Parse("nboard:ntest")
	cfg.Modes, cfg.Players[1] = []othello.Mode{othello.Std, othello.Anti}, nb
	if _, err := Campaign(t.Context(), cfg, nil); err == nil || !strings.Contains(err.Error(), "std only") {
		t.Fatalf("nboard at anti: %v", err)
	}
}

func squares(moves []int) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = othello.SquareName(m, 8)
	}
	return out
}
