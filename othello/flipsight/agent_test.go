package flipsight_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
	"github.com/botarena/gamebot/othello/flipsight/fakeserver"
)

type harness struct {
	fake *fakeserver.Server
	ts   *httptest.Server
}

func newHarness(t *testing.T, seed uint64) *harness {
	t.Helper()
	fake := fakeserver.New(seed)
	fake.Ping = 50 * time.Millisecond
	ts := httptest.NewTLSServer(fake)
	t.Cleanup(ts.Close)
	return &harness{fake: fake, ts: ts}
}

// options are the platform's options scaled down 50×, with a fast engine.
func (h *harness) options(t *testing.T) flipsight.Options {
	logger := slog.New(slog.DiscardHandler)
	if testing.Verbose() && os.Getenv("FS_TEST_LOG") != "" {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return flipsight.Options{
		Client:     &flipsight.Client{HTTP: h.ts.Client(), API: h.ts.URL + "/api", Stream: h.ts.URL + "/stream", Token: "fsbm_test"},
		Engine:     flipsight.NativeEngine{E: othello.NewEngine(othello.EngineOptions{TTBits: 12, FixedTime: 2 * time.Millisecond})},
		Env:        flipsight.Environment{CPU: "test cpu", OS: "linux", Engine: "test"},
		Logger:     logger,
		PollStream: 200 * time.Millisecond, PollMatch: 20 * time.Millisecond, PollIdle: 100 * time.Millisecond,
		MinGap: 20 * time.Millisecond, BackoffMin: 20 * time.Millisecond, BackoffMax: 600 * time.Millisecond,
	}
}

func runAgent(t *testing.T, o flipsight.Options, limit time.Duration) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	err := flipsight.NewAgent(o).Run(ctx)
	if ctx.Err() != nil {
		t.Fatalf("agent still running after %v", limit)
	}
	return err
}

// checkFinished asserts the match ended on the board (no timeouts) and
// that every (match, leg, revision) got at most one move.
func checkFinished(t *testing.T, h *harness, id int64) {
	t.Helper()
	m, ok := h.fake.Match(id)
	if !ok || m.Status != "finished" {
		t.Fatalf("match %d status %q", id, m.Status)
	}
	for li, l := range m.State.Legs {
		if l.Status != "finished" {
			t.Errorf("leg %d status %s", li, l.Status)
		}
	}
	type key struct {
		leg int
		rev int64
	}
	moves := map[key]any{}
	for _, mv := range h.fake.Moves() {
		if mv.Match != id {
			continue
		}
		k := key{mv.Leg, mv.Revision}
		if prev, dup := moves[k]; dup && fmt.Sprint(prev) != fmt.Sprint(mv.Move) {
			t.Errorf("two different moves for leg %d revision %d: %v then %v (%s)", mv.Leg, mv.Revision, prev, mv.Move, mv.Error)
		}
		if mv.Error == "illegal_move" {
			delete(moves, k) // a refused move is replaced, never resent
			continue
		}
		moves[k] = mv.Move
	}
	if len(moves) == 0 {
		t.Error("no moves were sent")
	}
}

func TestBotMatchEveryMode(t *testing.T) {
	for _, mode := range othello.Modes {
		for _, noStream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/nostream=%v", mode, noStream), func(t *testing.T) {
				h := newHarness(t, uint64(mode)+1)
				id := h.fake.Challenge(mode, 14)
				o := h.options(t)
				o.OnceMatch, o.NoStream = id, noStream
				if err := runAgent(t, o, 30*time.Second); err != nil {
					t.Fatal(err)
				}
				checkFinished(t, h, id)
				for _, mv := range h.fake.Moves() {
					if mv.Status != 200 {
						t.Errorf("move %+v refused", mv)
					}
				}
				if envs := h.fake.Envs(); len(envs) == 0 || envs[0].CPU != "test cpu" || envs[0].Practice {
					t.Errorf("environment reports %+v", envs)
				}
				if !noStream && h.fake.StreamConnections() == 0 {
					t.Error("no stream connection")
				}
				if noStream && h.fake.StreamConnections() != 0 {
					t.Error("stream used with NoStream")
				}
			})
		}
	}
}

// TestErrorTable runs a match under each injected failure of the API's
// error table and checks the connector's reaction.
func TestErrorTable(t *testing.T) {
	tests := []struct {
		name   string
		faults fakeserver.Faults
		check  func(t *testing.T, h *harness, id int64)
	}{
		{"503 on poll backs off", fakeserver.Faults{PollStatus: []int{503, 503, 503}}, func(t *testing.T, h *harness, _ int64) {
			p := h.fake.Polls()
			if len(p) < 5 {
				t.Fatalf("%d polls", len(p))
			}
			g1, g2 := p[2].Sub(p[1]), p[3].Sub(p[2])
			if g1 < 20*time.Millisecond || g2 < 2*g1*8/10 {
				t.Errorf("backoff gaps %v then %v: not growing from BackoffMin", g1, g2)
			}
		}},
		{"429 on poll backs off", fakeserver.Faults{PollStatus: []int{429}}, nil},
		{"lost move answer is not resent after the revision moved", fakeserver.Faults{LoseMoveAnswer: 2}, func(t *testing.T, h *harness, _ int64) {
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
		{"409 stale_revision re-polls", fakeserver.Faults{BumpRevision: 1}, func(t *testing.T, h *harness, _ int64) {
			n := 0
			for _, mv := range h.fake.Moves() {
				if mv.Error == "stale_revision" {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d stale_revision answers, want 1", n)
			}
		}},
		{"illegal_move falls back to another legal move", fakeserver.Faults{RejectIllegal: 1}, func(t *testing.T, h *harness, _ int64) {
			mv := h.fake.Moves()
			for i, m := range mv {
				if m.Error != "illegal_move" {
					continue
				}
				for _, n := range mv[i+1:] {
					if n.Leg == m.Leg && n.Revision == m.Revision {
						if fmt.Sprint(n.Move) == fmt.Sprint(m.Move) {
							t.Errorf("illegal move %v resent", m.Move)
						}
						return
					}
				}
				t.Errorf("no fallback move after the illegal_move at leg %d revision %d", m.Leg, m.Revision)
				return
			}
			t.Error("no illegal_move answer recorded")
		}},
		{"429 on the stream keeps polling", fakeserver.Faults{StreamStatus: []int{429, 429}}, nil},
		{"stream drops reconnect", fakeserver.Faults{StreamDrop: 2}, func(t *testing.T, h *harness, _ int64) {
			if n := h.fake.StreamConnections(); n < 3 {
				t.Errorf("%d stream connections, want ≥ 3", n)
			}
		}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, uint64(40+i))
			h.fake.SetFaults(tc.faults)
			id := h.fake.Challenge(othello.Std, 14)
			o := h.options(t)
			o.OnceMatch = id
			if err := runAgent(t, o, 30*time.Second); err != nil {
				t.Fatal(err)
			}
			checkFinished(t, h, id)
			if tc.check != nil {
				tc.check(t, h, id)
			}
		})
	}
}

func TestCredentialRejected(t *testing.T) {
	h := newHarness(t, 5)
	h.fake.Revoke()
	err := runAgent(t, h.options(t), 10*time.Second)
	if !errors.Is(err, flipsight.ErrCredential) {
		t.Fatalf("err %v, want ErrCredential", err)
	}
	// Revoked mid-match.
	h = newHarness(t, 6)
	h.fake.Challenge(othello.Std, 30)
	go func() {
		time.Sleep(150 * time.Millisecond)
		h.fake.Revoke()
	}()
	if err := runAgent(t, h.options(t), 10*time.Second); !errors.Is(err, flipsight.ErrCredential) {
		t.Fatalf("err %v, want ErrCredential", err)
	}
}

func TestMaxRuntime(t *testing.T) {
	h := newHarness(t, 8)
	o := h.options(t)
	o.MaxRuntime = 150 * time.Millisecond
	if err := runAgent(t, o, 10*time.Second); !errors.Is(err, flipsight.ErrMaxRuntime) {
		t.Fatalf("err %v, want ErrMaxRuntime", err)
	}
}

// TestHumanGame: negative id, one leg, round_no and room_created_at echoed
// exactly, and never a pass (the server passes for the bot).
func TestHumanGame(t *testing.T) {
	for _, black := range []bool{true, false} {
		h := newHarness(t, 11)
		id := h.fake.HumanGame(45, black, 16)
		o := h.options(t)
		o.OnceMatch = id
		if err := runAgent(t, o, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		if id != -45 {
			t.Fatalf("id %d", id)
		}
		m, _ := h.fake.Match(id)
		if m.Status != "finished" {
			t.Fatalf("status %s", m.Status)
		}
		moves := h.fake.Moves()
		if len(moves) == 0 {
			t.Fatal("no moves")
		}
		for _, mv := range moves {
			if mv.Status != 200 || mv.Leg != 0 || mv.RoundNo == nil || *mv.RoundNo != 3 || mv.RoomAt == nil || *mv.RoomAt != "2026-11-30 12:00:00" {
				t.Errorf("move %+v", mv)
			}
			if fmt.Sprint(mv.Move) == "-1" {
				t.Errorf("pass sent in a human game")
			}
		}
	}
}

// TestPollCadence: without the stream, idle polls follow PollIdle and no
// two polls are closer than MinGap, even with wake-ups during a match.
func TestPollCadence(t *testing.T) {
	h := newHarness(t, 12)
	o := h.options(t)
	o.NoStream = true
	o.MaxRuntime = 450 * time.Millisecond
	_ = runAgent(t, o, 10*time.Second)
	p := h.fake.Polls()
	if len(p) < 3 || len(p) > 7 {
		t.Fatalf("%d idle polls in 450 ms with a 100 ms period", len(p))
	}
	for i := 1; i < len(p); i++ {
		if g := p[i].Sub(p[i-1]); g < 90*time.Millisecond {
			t.Errorf("idle poll gap %v below the idle period", g)
		}
	}
	h = newHarness(t, 13)
	id := h.fake.Challenge(othello.Std, 16)
	o = h.options(t)
	o.OnceMatch = id
	if err := runAgent(t, o, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	p = h.fake.Polls()
	for i := 1; i < len(p); i++ {
		if g := p[i].Sub(p[i-1]); g < o.MinGap-2*time.Millisecond {
			t.Errorf("poll gap %v below MinGap %v", g, o.MinGap)
		}
	}
}

// TestCommandEngineFallback: an --engine command that answers nonsense or
// nothing still leads to legal moves (a fallback from legal_moves) and a
// finished match, one process per leg.
func TestCommandEngineFallback(t *testing.T) {
	for _, script := range []string{`while read l; do echo '{"move": 99}'; done`, `while read l; do :; done`, `exit 1`} {
		h := newHarness(t, 31)
		id := h.fake.Challenge(othello.Std, 10)
		o := h.options(t)
		ce := &flipsight.CommandEngine{Command: script}
		defer ce.Close()
		o.Engine = ce
		o.OnceMatch = id
		o.MaxThink = 50 * time.Millisecond
		if err := runAgent(t, o, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		checkFinished(t, h, id)
		for _, mv := range h.fake.Moves() {
			if mv.Status != 200 {
				t.Errorf("%q: move %+v refused", script, mv)
			}
		}
	}
}
