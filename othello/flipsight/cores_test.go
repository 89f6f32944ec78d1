package flipsight_test

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
	"github.com/botarena/gamebot/othello/wire"
)

// TestLegsShareCores plays whole matches with the built-in engine as the
// flipsight command wires it: an engine per leg, every leg's engine on one
// othello.Cores of two cores. A leg searching alone has both cores; when
// the other leg starts searching, the first gives a core back and each
// searches on one; the cores all come back.
//
// In a bubble a search takes no fake time, so the overlap is made: the
// first search of the match (both legs are ours to move at the start, the
// opponent moving at once) searches without a depth limit until the
// second one, which starts once the first holds both cores, is over.
func TestLegsShareCores(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 61)
		id := h.fake.Challenge(othello.Std, 40)
		cores := othello.NewCores(2)
		endless := othello.NewEngine(othello.EngineOptions{TTBits: 14, MaxDepth: 64, Threads: 2, Cores: cores})
		var calls atomic.Int32
		secondDone := make(chan struct{})
		var during othello.CoreStats
		h.playOnce(t, id, func(o *flipsight.Options) {
			o.NewEngine = func() wire.Engine {
				leg := wire.InProcess{E: othello.NewEngine(othello.EngineOptions{TTBits: 14, MaxDepth: 3, Threads: 2, Cores: cores})}
				return engineFunc(func(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error) {
					switch calls.Add(1) {
					case 1:
						ctx, cancel := context.WithCancel(ctx)
						defer cancel()
						go func() {
							select {
							case <-secondDone:
							case <-ctx.Done():
							}
							cancel()
						}()
						return wire.InProcess{E: endless}.Move(ctx, req, budget)
					case 2:
						for cores.Stats().Used < 2 {
							runtime.Gosched() // until the first search holds both cores
						}
						defer close(secondDone)
						defer func() { during = cores.Stats() }()
					}
					return leg.Move(ctx, req, budget)
				})
			}
		})
		// The second search called the first one's helper back and searched
		// on the core it freed (two cores taken at most, one search helped);
		// once it was done, the first search's own core was still taken.
		if during.CalledBack != 1 || during.Helped != 1 || during.Peak != 2 || during.Used != 1 {
			t.Errorf("cores when the second leg's search ended: %+v", during)
		}
		if s := cores.Stats(); s.Used != 0 || s.Peak != 2 || s.Searches < 10 {
			t.Errorf("cores after the match: %+v", s)
		}
	})
}

// TestLoneLegUsesBothCores: in a human game (one leg) every search is
// alone and searches on both cores.
func TestLoneLegUsesBothCores(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 62)
		id := h.fake.HumanGame(46, true, 20)
		cores := othello.NewCores(2)
		h.playOnce(t, id, func(o *flipsight.Options) {
			o.NewEngine = func() wire.Engine {
				return wire.InProcess{E: othello.NewEngine(othello.EngineOptions{TTBits: 14, MaxDepth: 4, Threads: 2, Cores: cores})}
			}
		})
		if s := cores.Stats(); s.Searches == 0 || s.Helped != s.Searches || s.CalledBack != 0 || s.Used != 0 {
			t.Errorf("cores after a one-leg game: %+v", s)
		}
	})
}

// TestPonderingLegs: with --ponder each leg's engine thinks on the
// opponent's time on a free core; the match is played to the end, the
// ponders found cores, and every core comes back.
func TestPonderingLegs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 63)
		id := h.fake.Challenge(othello.Std, 40)
		cores := othello.NewCores(2)
		h.playOnce(t, id, func(o *flipsight.Options) {
			o.NewEngine = func() wire.Engine {
				return &wire.Pondering{E: othello.NewEngine(othello.EngineOptions{TTBits: 14, MaxDepth: 4, Threads: 2, Cores: cores, Pool: 1})}
			}
		})
		if s := cores.Stats(); s.Ponders == 0 || s.Used != 0 || s.Searches < 10 {
			t.Errorf("cores after a match with ponders: %+v", s)
		}
	})
}

// engineFunc is a wire.Engine of one function.
type engineFunc func(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error)

func (f engineFunc) Move(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error) {
	return f(ctx, req, budget)
}

func (engineFunc) Close() error { return nil }
