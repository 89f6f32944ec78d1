package players

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/referee/refereetest"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/wire"
)

// calls is a Recorder that keeps what it is told.
type calls struct{ got []string }

func (c *calls) Call(seat giretra.Position, kind, endpoint string, request, answer any, d time.Duration, err error) int {
	line := endpoint
	if err != nil {
		line += " error: " + err.Error()
	}
	c.got = append(c.got, line)
	return len(c.got)
}

func (c *calls) count(prefix string) (n, failed int) {
	for _, l := range c.got {
		if strings.HasPrefix(l, prefix) {
			n++
			if strings.Contains(l, " error: ") {
				failed++
			}
		}
	}
	return n, failed
}

// failingCards is a bot server whose every card answer is a 500 with a
// body a table must never show.
func failingCards(t *testing.T) *remote.Client {
	bot := refereetest.NewBot("random")
	bot.Fault = func(e string, _ *refereetest.Session, _ int) (int, string, bool) {
		return 500, "SECRET reply", e == "choose-card"
	}
	srv := httptest.NewServer(bot)
	t.Cleanup(srv.Close)
	c := remote.NewClient(srv.URL, wire.Engine, AllEvents(), 1)
	t.Cleanup(c.Close)
	return c
}

// match plays one match, Bottom by s, the other seats by random agents.
func match(t *testing.T, s *Seat) (giretra.MatchResult, error) {
	t.Helper()
	var ps [4]giretra.Player
	ps[0] = s
	for p := 1; p < 4; p++ {
		ps[p] = agents.NewRandom(rand.New(rand.NewPCG(7, uint64(p))))
	}
	return giretra.RunMatch(t.Context(), ps, giretra.MatchConfig{TargetScore: 151}, rand.New(rand.NewPCG(3, 4)), nil)
}

// TestSeatFallback: with Fallback a bot server that fails its cards is
// answered for by the engine's fallback, asked no more after FailLimit
// failures in a row, and told nothing more; the match ends. With Redact
// its errors are recorded and told by their status only.
func TestSeatFallback(t *testing.T) {
	s := NewSeat(giretra.Bottom, remote.NewSeat(failingCards(t), giretra.Bottom, nil), wire.Engine)
	rec := &calls{}
	var failures []Failure
	s.Record, s.Fallback, s.Redact = rec, true, true
	s.Failed = func(f Failure) { failures = append(failures, f) }
	if _, err := match(t, s); err != nil {
		t.Fatalf("the match stopped: %v", err)
	}
	if n, failed := rec.count("choose-card"); n != FailLimit || failed != FailLimit {
		t.Errorf("%d card calls recorded, %d failed; want %d of each", n, failed, FailLimit)
	}
	if len(failures) != FailLimit || !failures[FailLimit-1].Dead || failures[0].Dead || failures[0].Kind != record.KindCardPlay {
		t.Errorf("failures told: %+v", failures)
	}
	for _, l := range rec.got {
		if strings.Contains(l, "SECRET") {
			t.Errorf("recorded: %s", l)
		}
	}
	if !strings.HasSuffix(rec.got[len(rec.got)-1], "error: it answered HTTP 500") {
		t.Errorf("after the third failure the seat was still called: %s", rec.got[len(rec.got)-1])
	}
	if failures[0].Why != "it answered HTTP 500" {
		t.Errorf("why: %q", failures[0].Why)
	}
}

// TestSeatNoFallback: without Fallback the first failure stops the
// match, as in the engine's referee, and is recorded as it came.
func TestSeatNoFallback(t *testing.T) {
	s := NewSeat(giretra.Bottom, remote.NewSeat(failingCards(t), giretra.Bottom, nil), wire.Engine)
	rec := &calls{}
	s.Record = rec
	_, err := match(t, s)
	var de *giretra.DecisionError
	if !errors.As(err, &de) || de.Seat != giretra.Bottom {
		t.Fatalf("err %v, want the seat's decision error", err)
	}
	if n, failed := rec.count("choose-card"); n != 1 || failed != 1 || !strings.Contains(rec.got[len(rec.got)-1], "SECRET") {
		t.Errorf("calls %q", rec.got)
	}
}

// refuser is a player whose answers are outside the options.
type refuser struct{ giretra.Player }

func (refuser) ChooseCut(context.Context, giretra.Position, *giretra.MatchState) (giretra.Cut, error) {
	return giretra.Cut{Position: 3}, nil
}

func (refuser) ChooseAction(context.Context, *giretra.BidView) (giretra.Action, error) {
	return giretra.Action{Type: giretra.Redouble, Mode: giretra.NoTrumps}, nil
}

// TestSeatRefusedAnswers: an in-process player's answers outside the
// options are failures the fallback answers, but never make the seat
// dead.
func TestSeatRefusedAnswers(t *testing.T) {
	s := NewSeat(giretra.Bottom, refuser{agents.NewEva()}, wire.Engine)
	var failures []Failure
	s.Fallback = true
	s.Failed = func(f Failure) { failures = append(failures, f) }
	if _, err := match(t, s); err != nil {
		t.Fatal(err)
	}
	if c, err := s.ChooseCut(t.Context(), giretra.Bottom, &giretra.MatchState{}); err != nil || c != giretra.FallbackCut() {
		t.Errorf("a cut outside 6..26: %v %v", c, err)
	}
	kinds := map[string]int{}
	for _, f := range failures {
		kinds[f.Kind]++
		if f.Dead {
			t.Fatalf("an in-process player is never dead: %+v", f)
		}
	}
	if kinds[record.KindCut] == 0 || kinds[record.KindNegotiation] == 0 || kinds[record.KindCardPlay] != 0 {
		t.Errorf("failures by kind: %v", kinds)
	}
}

// TestSeatRun: a decision is timed from when Run starts it, and a Run
// that does not start it is the decision's error.
func TestSeatRun(t *testing.T) {
	const wait = 5 * time.Millisecond
	s := NewSeat(giretra.Bottom, agents.NewEva(), wire.Engine)
	var took time.Duration
	s.Decided = func(d Decision) { took = d.Took }
	s.Run = func(_ context.Context, decide func()) error {
		time.Sleep(wait) // waiting for a slot is not the player's time
		decide()
		return nil
	}
	start := time.Now()
	if _, err := s.ChooseCut(t.Context(), giretra.Bottom, &giretra.MatchState{}); err != nil {
		t.Fatal(err)
	}
	if total := time.Since(start); took > total-wait {
		t.Errorf("the decision took %v of %v, the wait for Run counted", took, total)
	}
	stop := errors.New("no slot")
	s.Run = func(context.Context, func()) error { return stop }
	if _, err := s.ChooseCut(t.Context(), giretra.Bottom, &giretra.MatchState{}); !errors.Is(err, stop) {
		t.Errorf("a Run that does not decide: %v", err)
	}
}
