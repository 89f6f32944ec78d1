package flipsight_test

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
	"github.com/botarena/gamebot/othello/flipsight/fakeserver"
)

// TestErrorTable runs a match under each injected failure of the API's
// error table and checks the connector's reaction.
func TestErrorTable(t *testing.T) {
	tests := []struct {
		name      string
		faults    fakeserver.Faults
		clockMs   int64
		empties   int // 0: 14
		timeoutOK bool
		opts      func(o *flipsight.Options)
		check     func(t *testing.T, h *harness, id int64)
	}{
		{name: "503 on poll backs off", faults: fakeserver.Faults{PollStatus: []int{503, 503, 503}}, opts: noStream, check: func(t *testing.T, h *harness, _ int64) {
			// BackoffMin (20 ms), doubling; each wait exactly as long.
			want := []time.Duration{20 * time.Millisecond, 40 * time.Millisecond, 80 * time.Millisecond}
			if got := h.delays.of("retry_in"); !slices.Equal(got, want) {
				t.Errorf("poll retry delays %v, want %v", got, want)
			}
			p := h.fake.Polls()
			if len(p) < 5 {
				t.Fatalf("%d polls", len(p))
			}
			for i, d := range want {
				if g := p[i+1].Sub(p[i]); g != d {
					t.Errorf("poll %d came %v after a failed one, not after its %v delay", i+1, g, d)
				}
			}
		}},
		{name: "429 on poll backs off", faults: fakeserver.Faults{PollStatus: []int{429}}, check: func(t *testing.T, h *harness, _ int64) {
			if got := h.delays.of("retry_in"); !slices.Equal(got, []time.Duration{20 * time.Millisecond}) {
				t.Errorf("poll retry delays %v, want [20ms]", got)
			}
			if p := h.fake.Polls(); len(p) < 2 || p[1].Sub(p[0]) != 20*time.Millisecond {
				t.Errorf("polls %v: the second not 20ms after the refused one", p)
			}
		}},
		{name: "lost move answer is not resent after the revision moved", faults: fakeserver.Faults{LoseMoveAnswer: 2}, check: func(t *testing.T, h *harness, _ int64) {
			lost := 0
			for _, mv := range h.fake.Moves() {
				if mv.Status == 502 {
					lost++
				}
				if mv.Error == "stale_revision" {
					t.Errorf("resent a move after a lost answer: %+v", mv)
				}
			}
			if lost != 2 {
				t.Errorf("%d lost answers", lost)
			}
		}},
		{name: "repeated 503 on a move: the same move again after growing delays", faults: fakeserver.Faults{MoveStatus: []int{503, 503, 503, 503, 503, 503, 503, 503}}, opts: func(o *flipsight.Options) {
			o.BackoffMax = 5 * time.Second
		}, check: func(t *testing.T, h *harness, _ int64) {
			var mv []fakeserver.MoveRecord
			for _, m := range h.fake.Moves() {
				if len(mv) == 0 || (m.Leg == mv[0].Leg && m.Revision == mv[0].Revision) {
					mv = append(mv, m)
				}
			}
			if len(mv) < 5 {
				t.Fatalf("%d moves at the first revision", len(mv))
			}
			for _, m := range mv[1:5] {
				if m.Leg != mv[0].Leg || m.Revision != mv[0].Revision || fmt.Sprint(m.Move) != fmt.Sprint(mv[0].Move) {
					t.Fatalf("resend %+v differs from the first move %+v", m, mv[0])
				}
			}
			// 100, 200, 400, 800 ms (MoveRetryMin 100 ms): doubling, not a
			// fixed retry period; each resend waited at least its delay.
			want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond}
			if got := h.delays.of(fmt.Sprintf("resend_in leg %d", mv[0].Leg)); len(got) < 4 || !slices.Equal(got[:4], want) {
				t.Errorf("resend delays %v, want %v first", got, want)
			}
			for i := 1; i < 5; i++ {
				if g := mv[i].At.Sub(mv[i-1].At); g != want[i-1] {
					t.Errorf("resend %d after %v, not after its %v delay", i, g, want[i-1])
				}
			}
		}},
		{name: "409 stale_revision re-polls", faults: fakeserver.Faults{BumpRevision: 1}, check: func(t *testing.T, h *harness, _ int64) {
			var stale []time.Time
			for _, mv := range h.fake.Moves() {
				if mv.Error == "stale_revision" {
					stale = append(stale, mv.At)
				}
			}
			if len(stale) != 1 {
				t.Fatalf("%d stale_revision answers, want 1", len(stale))
			}
			// With the stream up a wake-up polls at once: at the very
			// instant of the 409, not at the next period.
			if !slices.ContainsFunc(h.fake.Polls(), stale[0].Equal) {
				t.Errorf("no poll at the 409 (%v); polls %v", stale[0], h.fake.Polls())
			}
		}},
		// A legal move refused once as illegal: the leg stays ours, and
		// the same move goes again at the same revision after
		// MoveRetryMin; the leg is played to its end, not lost on time.
		{name: "illegal_move: the same move again, the leg played out", faults: fakeserver.Faults{RejectIllegal: 1}, clockMs: 6000, check: func(t *testing.T, h *harness, _ int64) {
			mv := h.fake.Moves()
			for i, m := range mv {
				if m.Error != "illegal_move" {
					continue
				}
				for _, n := range mv[i+1:] {
					if n.Leg != m.Leg || n.Revision != m.Revision {
						continue
					}
					if fmt.Sprint(n.Move) != fmt.Sprint(m.Move) || n.Status != 200 {
						t.Errorf("after illegal_move %v: %+v", m.Move, n)
					}
					if g := n.At.Sub(m.At); g != 100*time.Millisecond {
						t.Errorf("sent again after %v, not after MoveRetryMin", g)
					}
					if got := h.delays.of("again_in"); !slices.Equal(got, []time.Duration{100 * time.Millisecond}) {
						t.Errorf("delays before sending again %v, want [100ms]", got)
					}
					return
				}
				t.Errorf("nothing sent again at leg %d revision %d after illegal_move", m.Leg, m.Revision)
				return
			}
			t.Error("no illegal_move answer recorded")
		}},
		// Refused, and left out of legal_moves at that revision by a
		// server whose board differs: the best move the server lists goes
		// instead, at the same revision.
		{name: "illegal_move not listed again: another listed move", faults: fakeserver.Faults{RejectIllegal: 1, HideRefused: true}, clockMs: 6000, check: func(t *testing.T, h *harness, _ int64) {
			mv := h.fake.Moves()
			for i, m := range mv {
				if m.Error != "illegal_move" {
					continue
				}
				for _, n := range mv[i+1:] {
					if n.Leg == m.Leg && n.Revision == m.Revision {
						if fmt.Sprint(n.Move) == fmt.Sprint(m.Move) || n.Status != 200 {
							t.Errorf("after illegal_move %v (not listed again): %+v", m.Move, n)
						}
						return
					}
				}
				t.Errorf("nothing sent again at leg %d revision %d after illegal_move", m.Leg, m.Revision)
				return
			}
			t.Error("no illegal_move answer recorded")
		}},
		// Refused at every try: the same move again with doubling delays
		// (every leg still ends, on time at worst).
		{name: "illegal_move repeated: doubling delays", faults: fakeserver.Faults{RejectIllegal: 4}, clockMs: 6000, timeoutOK: true, check: func(t *testing.T, h *harness, _ int64) {
			// The four refusals fall on either leg; each leg's delays
			// double from MoveRetryMin.
			want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond}
			n := 0
			for leg := range 2 {
				got := h.delays.of(fmt.Sprintf("again_in leg %d", leg))
				n += len(got)
				if !slices.Equal(got, want[:len(got)]) {
					t.Errorf("leg %d: delays before sending again %v, want a prefix of %v", leg, got, want)
				}
			}
			if n != 4 {
				t.Errorf("%d delays for 4 refusals", n)
			}
		}},
		{name: "429 on the stream keeps polling", faults: fakeserver.Faults{StreamStatus: []int{429, 429}}},
		// Each drop follows a healthy connection (hello received), so each
		// reconnection waits BackoffMin again instead of 2×, 4×, 8×.
		{name: "repeated stream drops reconnect from the first delay", faults: fakeserver.Faults{StreamDrop: 4}, empties: 40, opts: func(o *flipsight.Options) {
			o.BackoffMin = 100 * time.Millisecond
		}, check: func(t *testing.T, h *harness, _ int64) {
			st := h.fake.StreamTimes()
			if len(st) < 5 {
				t.Fatalf("%d stream connections, want ≥ 5", len(st))
			}
			for i, d := range h.delays.of("reconnect_in")[:4] {
				if d != 100*time.Millisecond {
					t.Errorf("reconnection %d after a delay of %v: the delay grew after a healthy connection", i+1, d)
				}
			}
		}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, uint64(40+i))
				if tc.clockMs > 0 {
					h.fake.ClockMs = tc.clockMs
				}
				h.fake.SetFaults(tc.faults)
				id := h.fake.Challenge(othello.Std, cmp.Or(tc.empties, 14))
				o := h.options(t)
				o.OnceMatch = id
				o.MoveRetryMin = 100 * time.Millisecond
				if tc.opts != nil {
					tc.opts(&o)
				}
				if err := runAgent(t, o, 30*time.Second); err != nil {
					t.Fatal(err)
				}
				checkOver(t, h, id, tc.timeoutOK)
				if tc.check != nil {
					tc.check(t, h, id)
				}
			})
		})
	}
}

func noStream(o *flipsight.Options) { o.NoStream = true }
