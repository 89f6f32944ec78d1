package server

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// panicky is a Giretra player whose decisions panic, unrecovered.
type panicky struct{ giretra.Player }

func (panicky) ChooseCard(context.Context, *giretra.PlayView) (giretra.Card, error) {
	panic("strategy bug")
}

func (panicky) ChooseAction(context.Context, *giretra.BidView) (giretra.Action, error) {
	var m map[string]int
	//lint:ignore SA5000 a runtime error on purpose, not a panic(string)
	m["x"]++
	return giretra.Action{}, nil
}

// TestDecisionPanics: a panic in a decision is answered by the fallback
// (an offered option, 200), logged at error level with its stack, and
// counted in bot_decision_fallbacks_total — whether the player lets it
// through or recovers it itself (giretra.PanicError).
func TestDecisionPanics(t *testing.T) {
	for _, tc := range []struct {
		name   string
		player func() giretra.Player
	}{
		{"unrecovered", func() giretra.Player { return panicky{bot.New(bot.Config{Fast: true})} }},
		{"recovered by the player", func() giretra.Player { return recovering{panicky{}} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			reg := prometheus.NewRegistry()
			s := New(slog.New(slog.NewTextHandler(&logs, nil)), Config{}, reg, Deps{NewGiretraPlayer: tc.player})
			id := createSession(t, s, `{"position":"Bottom","matchId":"m"}`)
			card := `{"hand":[{"rank":"Ace","suit":"Hearts"},{"rank":"Ten","suit":"Clubs"}],"handState":{"gameMode":"NoTrumps","completedTricks":[]},"matchState":{},"validPlays":[{"rank":"Ten","suit":"Clubs"},{"rank":"Ace","suit":"Hearts"}]}`
			rec := do(t, s, "POST", "/api/sessions/"+id+"/choose-card", card)
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"rank":"Ten"`) {
				t.Errorf("card: %d %s, want the fallback (the lowest valid card, TC)", rec.Code, rec.Body)
			}
			rec = do(t, s, "POST", "/api/sessions/"+id+"/choose-negotiation-action", `{"hand":[],"validActions":[{"type":"Announce","mode":"NoTrumps"},{"type":"Accept"}]}`)
			if rec.Code != 200 || rec.Body.String() != `{"type":"Accept"}`+"\n" {
				t.Errorf("bid: %d %q, want the fallback Accept", rec.Code, rec.Body)
			}
			for _, kind := range []string{"card", "negotiation"} {
				if n := testutil.ToFloat64(s.metrics.decisionFallbacks.WithLabelValues("giretra", kind)); n != 1 {
					t.Errorf("fallbacks{giretra,%s} = %v, want 1", kind, n)
				}
			}
			out := logs.String()
			if strings.Count(out, "level=ERROR msg=\"decision fell back\"") != 2 || !strings.Contains(out, "stack=") || !strings.Contains(out, "strategy bug") {
				t.Errorf("log:\n%s", out)
			}
		})
	}
}

// recovering recovers its player's panics as the real bot does.
type recovering struct{ giretra.Player }

func (r recovering) ChooseCard(ctx context.Context, v *giretra.PlayView) (c giretra.Card, err error) {
	defer func() {
		if p := recover(); p != nil {
			c, err = giretra.FallbackCard(v.Valid), giretra.NewPanicError(p)
		}
	}()
	return r.Player.ChooseCard(ctx, v)
}

func (r recovering) ChooseAction(ctx context.Context, v *giretra.BidView) (a giretra.Action, err error) {
	defer func() {
		if p := recover(); p != nil {
			a, err = giretra.FallbackAction(v.Valid), giretra.NewPanicError(p)
		}
	}()
	return r.Player.ChooseAction(ctx, v)
}
