package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/giretra/wire"
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

// engineSeat plays one seat against a server over HTTP the way the engine's
// RemoteBotClient does: lazy session creation, Content-Length JSON bodies,
// strict answer parsing; and it records every decision's latency.
type engineSeat struct {
	client   *http.Client
	base     string
	dialect  wire.Dialect
	matchID  string
	notify   map[giretra.EventKind]bool
	session  string
	mul      giretra.Multiplier
	mu       *sync.Mutex
	latency  *[]time.Duration
	position giretra.Position
}

func (s *engineSeat) post(ctx context.Context, path string, body any) ([]byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+path, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("POST %s: %s: %s", path, resp.Status, out)
	}
	return out, nil
}

func (s *engineSeat) ensureSession(ctx context.Context) error {
	if s.session != "" {
		return nil
	}
	body := wire.CreateSession{Position: s.position.String(), MatchID: s.matchID}
	if s.dialect == wire.Seed {
		body.Position = "" // the seed document's {matchId} alone: seat defaults to Bottom
	}
	b, err := s.post(ctx, "/api/sessions", body)
	if err != nil {
		return err
	}
	s.session, err = wire.SessionAnswer(b)
	return err
}

func (s *engineSeat) decide(ctx context.Context, path string, body any) ([]byte, error) {
	if err := s.ensureSession(ctx); err != nil {
		return nil, err
	}
	start := time.Now()
	b, err := s.post(ctx, "/api/sessions/"+s.session+"/"+path, body)
	s.mu.Lock()
	*s.latency = append(*s.latency, time.Since(start))
	s.mu.Unlock()
	return b, err
}

func (s *engineSeat) ChooseCut(ctx context.Context, _ giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	b, err := s.decide(ctx, "choose-cut", wire.EncodeCut(s.dialect, m))
	if err != nil {
		return giretra.Cut{}, err
	}
	return wire.CutAnswerOf(b)
}

func (s *engineSeat) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	b, err := s.decide(ctx, "choose-negotiation-action", wire.EncodeBid(s.dialect, v))
	if err != nil {
		return giretra.Action{}, err
	}
	return wire.ActionAnswerOf(b, v.Valid, s.dialect)
}

func (s *engineSeat) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	b, err := s.decide(ctx, "choose-card", wire.EncodeCard(s.dialect, v, s.mul))
	if err != nil {
		return giretra.NoCard, err
	}
	return wire.CardAnswerOf(b)
}

func (s *engineSeat) Notify(ctx context.Context, _ giretra.Position, e *giretra.Event) error {
	if e.Kind == giretra.NegotiationCompleted {
		b, _ := e.Negotiation.State()
		c, _ := b.Contract()
		s.mul = c.Multiplier
	}
	if !s.notify[e.Kind] {
		return nil
	}
	if s.session == "" {
		if e.Kind != giretra.DealStarted {
			return nil // the engine skips notifications until the session exists
		}
		if err := s.ensureSession(ctx); err != nil {
			return err
		}
	}
	_, err := s.post(ctx, "/api/sessions/"+s.session+"/notify/"+e.Kind.String(), wire.EncodeEvent(s.dialect, e, s.mul))
	return err
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

func allEvents() map[giretra.EventKind]bool {
	m := map[giretra.EventKind]bool{}
	for k := range giretra.EventKind(6) {
		m[k] = true
	}
	return m
}

// TestEndToEndMatches drives whole matches over real HTTP the way the engine
// does, in both dialects, with the server at Bottom+Top and at Left+Right,
// several matches at once. RunMatch fails on any answer that was not offered
// (IllegalError) and on any non-2xx or unparsable answer (DecisionError).
func TestEndToEndMatches(t *testing.T) {
	srv, ts := newTestServer(t, Config{})
	client := ts.Client()
	var (
		mu      sync.Mutex
		latency []time.Duration
		wg      sync.WaitGroup
	)
	type scenario struct {
		dialect wire.Dialect
		team    giretra.Team
		notify  map[giretra.EventKind]bool
	}
	scenarios := []scenario{
		{wire.Engine, giretra.Team1, map[giretra.EventKind]bool{giretra.NegotiationCompleted: true, giretra.MatchEnded: true}},
		{wire.Engine, giretra.Team2, allEvents()},
		{wire.Engine, giretra.Team2, map[giretra.EventKind]bool{}},
		{wire.Seed, giretra.Team1, allEvents()},
	}
	errs := make(chan error, len(scenarios)*2)
	for i, sc := range scenarios {
		for m := range 2 {
			wg.Go(func() {
				seed := uint64(i*10 + m)
				var players [4]giretra.Player
				for p := range giretra.Position(4) {
					if p.Team() == sc.team && !(sc.dialect == wire.Seed && p != giretra.Bottom) {
						players[p] = &engineSeat{client: client, base: ts.URL, dialect: sc.dialect, matchID: "run-1",
							notify: sc.notify, mu: &mu, latency: &latency, position: p}
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
	sort.Slice(latency, func(i, j int) bool { return latency[i] < latency[j] })
	t.Logf("%d decisions over HTTP: p50 %v, p99 %v, max %v; %d sessions held",
		len(latency), latency[len(latency)/2], latency[len(latency)*99/100], latency[len(latency)-1], srv.Sessions())
}
