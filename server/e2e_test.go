package server

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/internal/stats"
	"github.com/prometheus/client_golang/prometheus"
)

func newTestServer(t testing.TB, cfg Config) (*Server, *httptest.Server) {
	return newTestServerWith(t, cfg, bot.Config{})
}

func newTestServerWith(t testing.TB, cfg Config, bc bot.Config) (*Server, *httptest.Server) {
	t.Helper()
	s := New(slog.New(slog.DiscardHandler), cfg, prometheus.NewRegistry(), Deps{
		NewGiretraPlayer: func() giretra.Player { return bot.New(bc) },
	})
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// timed records the latency of every decision of the seat it wraps.
type timed struct {
	giretra.Player
	mu      *sync.Mutex
	latency *[]time.Duration
}

func (t timed) record(start time.Time) {
	t.mu.Lock()
	*t.latency = append(*t.latency, time.Since(start))
	t.mu.Unlock()
}

func (t timed) ChooseCut(ctx context.Context, p giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	defer t.record(time.Now())
	return t.Player.ChooseCut(ctx, p, m)
}

func (t timed) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	defer t.record(time.Now())
	return t.Player.ChooseAction(ctx, v)
}

func (t timed) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	defer t.record(time.Now())
	return t.Player.ChooseCard(ctx, v)
}

// randomSeat is an in-process opponent choosing uniformly among options.
type randomSeat struct{ rng *rand.Rand }

func (r randomSeat) ChooseCut(context.Context, giretra.Position, *giretra.MatchState) (giretra.Cut, error) {
	return giretra.Cut{Position: 6 + r.rng.IntN(21), FromTop: r.rng.IntN(2) == 0}, nil
}
func (r randomSeat) ChooseAction(_ context.Context, v *giretra.BidView) (giretra.Action, error) {
	return v.Valid[r.rng.IntN(len(v.Valid))], nil
}
func (r randomSeat) ChooseCard(_ context.Context, v *giretra.PlayView) (giretra.Card, error) {
	cs := v.Valid.Cards()
	return cs[r.rng.IntN(len(cs))], nil
}
func (randomSeat) Notify(context.Context, giretra.Position, *giretra.Event) error { return nil }

var allEvents = [6]bool{true, true, true, true, true, true}

// TestEndToEndMatches drives whole matches over real HTTP the way the engine
// does, in both dialects, with the server at Bottom+Top and at Left+Right,
// several matches at once. RunMatch fails on any answer that was not offered
// (IllegalError) and on any non-2xx or unparsable answer (DecisionError).
func TestEndToEndMatches(t *testing.T) {
	srv, ts := newTestServer(t, Config{})
	var (
		mu      sync.Mutex
		latency []time.Duration
		wg      sync.WaitGroup
	)
	type scenario struct {
		dialect wire.Dialect
		team    giretra.Team
		notify  [6]bool
	}
	scenarios := []scenario{
		{wire.Engine, giretra.Team1, [6]bool{giretra.NegotiationCompleted: true, giretra.MatchEnded: true}},
		{wire.Engine, giretra.Team2, allEvents},
		{wire.Engine, giretra.Team2, [6]bool{}},
		{wire.Seed, giretra.Team1, allEvents},
	}
	errs := make(chan error, len(scenarios)*2)
	for i, sc := range scenarios {
		for m := range 2 {
			wg.Go(func() {
				seed := uint64(i*10 + m)
				client := remote.NewClient(ts.URL, sc.dialect, sc.notify, 1)
				defer client.Close()
				var players [4]giretra.Player
				for p := range giretra.Position(4) {
					if p.Team() == sc.team && !(sc.dialect == wire.Seed && p != giretra.Bottom) {
						players[p] = timed{remote.NewSeat(client, p, nil), &mu, &latency}
					} else {
						players[p] = randomSeat{rand.New(rand.NewPCG(seed, uint64(p)))}
					}
				}
				res, err := giretra.RunMatch(t.Context(), players, giretra.MatchConfig{TargetScore: 151, FirstDealer: giretra.Position(m)}, rand.New(rand.NewPCG(seed, 7)), nil)
				if err != nil {
					errs <- fmt.Errorf("scenario %d match %d: %w", i, m, err)
					return
				}
				if !res.Final.Complete {
					errs <- fmt.Errorf("scenario %d match %d incomplete", i, m)
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(latency) == 0 {
		t.Fatal("no decision made over HTTP")
	}
	slices.Sort(latency)
	t.Logf("%d decisions over HTTP: p50 %v, p99 %v, max %v; %d sessions held",
		len(latency), stats.Quantile(latency, 0.5), stats.Quantile(latency, 0.99), latency[len(latency)-1], srv.Sessions())
}
