package flipsight_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
)

// TestClockUse plays one std match against the fake server with the
// platform's real cadence (1 s poll floor without the stream, 10 s poll
// period with it) and the real engine with its own time management, and
// reports where our clock went: waiting to learn of each turn, thinking,
// sending. It measures, it does not assert timings; it runs only when
// FLIPSIGHT_CLOCK_MS is set (60000 for the platform's clock):
//
//	FLIPSIGHT_CLOCK_MS=60000 go test -run TestClockUse -v -timeout 20m ./othello/flipsight
func TestClockUse(t *testing.T) {
	clock, _ := strconv.ParseInt(os.Getenv("FLIPSIGHT_CLOCK_MS"), 10, 64)
	if clock <= 0 {
		t.Skip("set FLIPSIGHT_CLOCK_MS (e.g. 60000) to measure")
	}
	for _, noStream := range []bool{false, true} {
		t.Run(fmt.Sprintf("nostream=%v", noStream), func(t *testing.T) {
			h := newHarness(t, 2026)
			h.fake.ClockMs = clock
			h.fake.Ping = 10 * time.Second
			id := h.fake.Challenge(othello.Std, 0)
			ho := h.options(t)
			o := flipsight.Options{
				Client:    ho.Client,
				Logger:    ho.Logger,
				NewEngine: inProcess(othello.NewEngine(othello.EngineOptions{Pool: 2})),
				OnceMatch: id, NoStream: noStream,
			}
			a := flipsight.NewAgent(o)
			ctx, cancel := context.WithTimeout(t.Context(), time.Duration(4*clock+60000)*time.Millisecond)
			defer cancel()
			if err := a.Run(ctx); err != nil {
				t.Fatal(err)
			}
			m, _ := h.fake.Match(id)
			s := a.Stats()[id]
			var charged time.Duration
			for _, mv := range h.fake.Moves() {
				charged += mv.Charged
			}
			t.Logf("match %s, legs %s/%s, totals %v; our clock left %.1f s and %.1f s of %d s",
				m.Status, m.Legs[0].Status, m.Legs[1].Status, m.Totals, m.Legs[0].ClocksMs[1]/1000, m.Legs[1].ClocksMs[0]/1000, clock/1000)
			t.Logf("%d moves: server charged %v; waiting to learn of the turn %v (%.1f%%), thinking %v, sending %v; turns seen first in stream events %d, in polls %d",
				s.Moves, charged.Round(time.Millisecond), s.Waiting.Round(time.Millisecond), 100*s.WaitingShare(),
				s.Thinking.Round(time.Millisecond), s.Sending.Round(time.Millisecond), s.ByStream, s.ByPoll)
		})
	}
}
