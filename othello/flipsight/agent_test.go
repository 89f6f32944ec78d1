package flipsight_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
	"github.com/botarena/gamebot/othello/flipsight/fakeserver"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/wire"
)

type harness struct {
	fake   *fakeserver.Server
	delays *delayLog
}

// delayLog records the delays the agent logs (attributes of kind
// Duration, by key: retry_in, reconnect_in, resend_in, again_in), so that
// tests check the schedule the agent chose rather than wall-clock gaps a
// loaded machine stretches.
type delayLog struct {
	mu   sync.Mutex
	next slog.Handler
	d    map[string][]time.Duration
}

func (l *delayLog) Enabled(context.Context, slog.Level) bool { return true }

func (l *delayLog) Handle(ctx context.Context, r slog.Record) error {
	l.mu.Lock()
	leg := ""
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "leg" {
			leg = a.Value.String()
		}
		return true
	})
	r.Attrs(func(a slog.Attr) bool {
		if a.Value.Kind() == slog.KindDuration && strings.HasSuffix(a.Key, "_in") {
			l.d[a.Key] = append(l.d[a.Key], a.Value.Duration())
			if leg != "" {
				k := a.Key + " leg " + leg
				l.d[k] = append(l.d[k], a.Value.Duration())
			}
		}
		return true
	})
	l.mu.Unlock()
	if l.next != nil && l.next.Enabled(ctx, r.Level) {
		return l.next.Handle(ctx, r)
	}
	return nil
}

func (l *delayLog) WithAttrs([]slog.Attr) slog.Handler { return l }

func (l *delayLog) WithGroup(string) slog.Handler { return l }

// of returns the delays logged under key (for one leg: "resend_in leg 0").
func (l *delayLog) of(key string) []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.d[key])
}

// newHarness starts a fake server, reached in this process through its
// Client: most tests run in a testing/synctest bubble, where the agent's
// timers, the server's clocks and the engine's answers all follow the
// fake clock, so the schedules they check are exact and take no time.
func newHarness(t *testing.T, seed uint64) *harness {
	t.Helper()
	fake := fakeserver.New(seed)
	fake.Ping = 50 * time.Millisecond
	return &harness{fake: fake, delays: &delayLog{d: map[string][]time.Duration{}}}
}

// inProcess is an engine factory of one in-process engine at a fixed
// depth: under the fake clock a search's own time does not pass, so the
// engine must not be the one waiting for it.
func inProcess(e *othello.Engine) func() wire.Engine {
	return func() wire.Engine { return wire.InProcess{E: e} }
}

// options are the platform's options scaled down 50×, with a fast engine.
func (h *harness) options(t *testing.T) flipsight.Options {
	if testing.Verbose() && os.Getenv("FS_TEST_LOG") != "" {
		h.delays.next = slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})
	}
	logger := slog.New(h.delays)
	return flipsight.Options{
		Client:     &flipsight.Client{HTTP: h.fake.Client(), API: "https://fake.test/api", Stream: "https://fake.test/stream", Token: "fsbm_test"},
		NewEngine:  inProcess(othello.NewEngine(othello.EngineOptions{TTBits: 12, MaxDepth: 2})),
		Env:        flipsight.Environment{CPU: "test cpu", OS: "linux", Engine: "test"},
		Logger:     logger,
		PollStream: 200 * time.Millisecond, PollMatch: 20 * time.Millisecond, PollIdle: 100 * time.Millisecond,
		MinGap: 20 * time.Millisecond, BackoffMin: 20 * time.Millisecond, BackoffMax: 600 * time.Millisecond,
	}
}

// playOnce runs the agent on match id alone (OnceMatch), with tweak
// applied to the harness options, and checks that the match finished.
func (h *harness) playOnce(t *testing.T, id int64, tweak func(o *flipsight.Options)) {
	t.Helper()
	o := h.options(t)
	o.OnceMatch = id
	if tweak != nil {
		tweak(&o)
	}
	if err := runAgent(t, o, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	checkFinished(t, h, id)
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
// that every (match, leg, revision) got at most one move (resends of the
// same move after a lost answer aside).
func checkFinished(t *testing.T, h *harness, id int64) {
	t.Helper()
	checkOver(t, h, id, false)
}

// checkOver is checkFinished that may allow legs lost on time.
func checkOver(t *testing.T, h *harness, id int64, timeoutOK bool) {
	t.Helper()
	m, ok := h.fake.Match(id)
	if !ok || m.Status != "finished" {
		t.Fatalf("match %d status %q", id, m.Status)
	}
	for li, l := range m.Legs {
		if l.Status != "finished" && !(timeoutOK && l.Status == "timeout") {
			t.Errorf("leg %d status %s", li, l.Status)
		}
	}
	type key struct {
		leg int
		rev int64
	}
	moves := map[key]any{}
	for _, mv := range h.fake.Moves() {
		if mv.Match != id || mv.Error == "illegal_move" {
			continue // a refused move did not count: another may follow
		}
		k := key{mv.Leg, mv.Revision}
		if prev, dup := moves[k]; dup && fmt.Sprint(prev) != fmt.Sprint(mv.Move) {
			t.Errorf("two different moves for leg %d revision %d: %v then %v (%s)", mv.Leg, mv.Revision, prev, mv.Move, mv.Error)
		}
		moves[k] = mv.Move
	}
	if len(moves) == 0 {
		t.Error("no moves were sent")
	}
}

func TestBotMatchEveryMode(t *testing.T) {
	for _, mode := range othello.Modes() {
		for _, noStream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/nostream=%v", mode, noStream), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { testBotMatch(t, mode, noStream) })
			})
		}
	}
}

func testBotMatch(t *testing.T, mode othello.Mode, noStream bool) {
	h := newHarness(t, uint64(mode)+1)
	h.playOnce(t, h.fake.Challenge(mode, 14), func(o *flipsight.Options) { o.NoStream = noStream })
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
}

// TestServerQuirks plays whole matches against a server that varies its
// replies within the documented types: clocks with fractions of a
// millisecond ([number, number]) and ids sent as strings.
func TestServerQuirks(t *testing.T) {
	for _, q := range []fakeserver.Quirks{{FloatClocks: true}, {StringIDs: true}, {FloatClocks: true, StringIDs: true}} {
		t.Run(fmt.Sprintf("%+v", q), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, 77)
				h.fake.Quirks = q
				h.playOnce(t, h.fake.Challenge(othello.Std, 14), nil)
			})
		})
	}
}

// TestOnceMatchLeavesOthersAlone: with other challenges pending, only the
// named match is accepted and played.
func TestOnceMatchLeavesOthersAlone(t *testing.T) {
	synctest.Test(t, testOnceMatchLeavesOthersAlone)
}

func testOnceMatchLeavesOthersAlone(t *testing.T) {
	h := newHarness(t, 3)
	a := h.fake.Challenge(othello.Std, 12)
	id := h.fake.Challenge(othello.Anti, 12)
	b := h.fake.Challenge(othello.Grand, 12)
	h.playOnce(t, id, nil)
	if acc := h.fake.Accepts(); len(acc) != 1 || acc[0] != id {
		t.Errorf("accepted %v, want only %d (not %d, %d)", acc, id, a, b)
	}
	for _, mv := range h.fake.Moves() {
		if mv.Match != id {
			t.Errorf("move sent for match %d", mv.Match)
		}
	}
}

// blockingEngine blocks its first search until cancelled and then reports
// the match's status at that moment. Later searches wait until that
// status is read: the cancelled goroutine may be scheduled late, and
// meanwhile the agent could play the match to its end.
type blockingEngine struct {
	started   chan *wire.Request
	cancelled chan string
	read      chan struct{}
	status    func() string
	calls     atomic.Int32
}

func (b *blockingEngine) Move(ctx context.Context, req *wire.Request, _ time.Duration) (wire.Answer, error) {
	if b.calls.Add(1) == 1 {
		b.started <- req
		<-ctx.Done()
		b.cancelled <- b.status()
		close(b.read)
		return wire.Answer{}, ctx.Err()
	}
	select {
	case <-b.read:
		return wire.Answer{Move: req.LegalMoves[0]}, nil
	case <-ctx.Done():
		return wire.Answer{}, ctx.Err()
	}
}

func (*blockingEngine) Close() error { return nil }

// TestRevisionChangeMidSearch: when the leg's revision changes while the
// engine searches, the search is cancelled through its context (while the
// match goes on, not when it ends) and the new revision is decided instead.
func TestRevisionChangeMidSearch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 9)
		id := h.fake.Challenge(othello.Std, 30)
		o := h.options(t)
		o.OnceMatch = id
		eng := &blockingEngine{started: make(chan *wire.Request, 1), cancelled: make(chan string, 1), read: make(chan struct{})}
		eng.status = func() string {
			m, _ := h.fake.Match(id)
			return m.Status
		}
		o.NewEngine = func() wire.Engine { return eng }
		done := make(chan error, 1)
		go func() { done <- runAgent(t, o, 30*time.Second) }()
		req := <-eng.started
		h.fake.Touch(id, req.Leg)
		if st := <-eng.cancelled; st != "running" {
			t.Errorf("the stale search was cancelled only when the match was %s", st)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		checkFinished(t, h, id)
		for _, mv := range h.fake.Moves() {
			if mv.Leg == req.Leg && mv.Revision == req.Revision {
				t.Errorf("a move was sent for the stale revision %d: %+v", req.Revision, mv)
			}
		}
	})
}

// TestStreamEventsDriveMoves: with the stream up, turns are learned from
// the match objects the events carry, not from the next poll. Poll
// answers travel slower than events here (as over a real link, where the
// poll is a round trip and the event already on its way), so a connector
// that waited for polls would learn every turn from one.
func TestStreamEventsDriveMoves(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 15)
		h.fake.PollDelay = 30 * time.Millisecond
		id := h.fake.Challenge(othello.Std, 20)
		o := h.options(t)
		o.OnceMatch = id
		o.PollStream = 5 * time.Second
		a := flipsight.NewAgent(o)
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		if err := a.Run(ctx); err != nil {
			t.Fatal(err)
		}
		checkFinished(t, h, id)
		s := a.Stats()[id]
		if s.Moves == 0 || s.ByPoll > 1 {
			t.Errorf("turns learned: %d from stream events, %d from polls (%d moves)", s.ByStream, s.ByPoll, s.Moves)
		}
	})
}

// revokingEngine revokes the token when it is first asked for a move
// (our turn in a running match), then answers the first legal move.
type revokingEngine struct {
	h       *harness
	id      int64
	once    sync.Once
	status  string // the match's status when the token was revoked
	revoked chan struct{}
}

func (r *revokingEngine) Move(_ context.Context, req *wire.Request, _ time.Duration) (wire.Answer, error) {
	r.once.Do(func() {
		m, _ := r.h.fake.Match(r.id)
		r.status = m.Status
		r.h.fake.Revoke()
		close(r.revoked)
	})
	return wire.Answer{Move: req.LegalMoves[0]}, nil
}

func (*revokingEngine) Close() error { return nil }

// TestCredentialRejected: a token the server rejects stops the agent with
// ErrCredential, whether it is rejected from the start or in the middle
// of a match (revoked while the engine thinks about a move: no move is
// accepted after it, and the match is left running).
func TestCredentialRejected(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 5)
		h.fake.Revoke()
		err := runAgent(t, h.options(t), 10*time.Second)
		if !errors.Is(err, flipsight.ErrCredential) {
			t.Fatalf("err %v, want ErrCredential", err)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 6)
		id := h.fake.Challenge(othello.Std, 30)
		o := h.options(t)
		eng := &revokingEngine{h: h, id: id, revoked: make(chan struct{})}
		o.NewEngine = func() wire.Engine { return eng }
		if err := runAgent(t, o, 10*time.Second); !errors.Is(err, flipsight.ErrCredential) {
			t.Fatalf("err %v, want ErrCredential", err)
		}
		select {
		case <-eng.revoked:
		default:
			t.Fatal("the engine was never asked for a move: the token was not revoked mid-match")
		}
		if eng.status != "running" {
			t.Errorf("revoked while the match was %q, not running", eng.status)
		}
		for _, mv := range h.fake.Moves() {
			if mv.Status == 200 {
				t.Errorf("move accepted with the token revoked: %+v", mv)
			}
		}
		if m, _ := h.fake.Match(id); m.Status != "running" {
			t.Errorf("match %s after the agent stopped", m.Status)
		}
	})
}

// TestMaxRuntime: the agent stops with ErrMaxRuntime at MaxRuntime, not
// before.
func TestMaxRuntime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 8)
		o := h.options(t)
		o.MaxRuntime = 150 * time.Millisecond
		start := time.Now()
		if err := runAgent(t, o, 10*time.Second); !errors.Is(err, flipsight.ErrMaxRuntime) {
			t.Fatalf("err %v, want ErrMaxRuntime", err)
		}
		if d := time.Since(start); d != o.MaxRuntime {
			t.Errorf("stopped after %v, want %v", d, o.MaxRuntime)
		}
	})
}

// TestHumanGame: negative id, one leg, round_no and room_created_at echoed
// exactly, and never a pass (the server passes for the bot).
func TestHumanGame(t *testing.T) {
	for _, black := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
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
				if mv.Status != 200 || mv.Leg != 0 || string(mv.RoundNo) != "3" || string(mv.RoomAt) != `"2026-11-30 12:00:00"` {
					t.Errorf("move %+v", mv)
				}
				if fmt.Sprint(mv.Move) == "-1" {
					t.Errorf("pass sent in a human game")
				}
			}
		})
	}
}

// TestPollCadence: without the stream, idle polls follow PollIdle exactly
// and no two polls are closer than MinGap, even with wake-ups during a
// match. (With the stream, the documentation asks for a poll after each
// match event, with no floor.)
func TestPollCadence(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 12)
		o := h.options(t)
		o.NoStream = true
		o.MaxRuntime = 450 * time.Millisecond
		_ = runAgent(t, o, 10*time.Second)
		p := h.fake.Polls()
		if len(p) != 5 { // at 0, 100, 200, 300 and 400 ms
			t.Fatalf("%d idle polls in 450 ms with a 100 ms period, want 5", len(p))
		}
		for i := 1; i < len(p); i++ {
			if g := p[i].Sub(p[i-1]); g != o.PollIdle {
				t.Errorf("idle poll gap %v, want the idle period %v", g, o.PollIdle)
			}
		}
	})
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, 13)
		id := h.fake.Challenge(othello.Std, 16)
		o := h.options(t)
		o.OnceMatch, o.NoStream = id, true
		if err := runAgent(t, o, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		p := h.fake.Polls()
		for i := 1; i < len(p); i++ {
			if g := p[i].Sub(p[i-1]); g < o.MinGap {
				t.Errorf("poll gap %v below MinGap %v", g, o.MinGap)
			}
		}
	})
}

// TestCommandEngineFallback: an --engine command that answers nonsense or
// nothing still leads to legal moves (a fallback from legal_moves) and a
// finished match, one process per leg. The commands are processes, which
// the fake clock cannot wait for: this test runs on the real one.
func TestCommandEngineFallback(t *testing.T) {
	for _, script := range []string{`while read l; do echo '{"move": 99}'; done`, `while read l; do :; done`, `exit 1`} {
		h := newHarness(t, 31)
		var started atomic.Int32
		h.playOnce(t, h.fake.Challenge(othello.Std, 10), func(o *flipsight.Options) {
			o.MaxThink = 50 * time.Millisecond
			o.NewEngine = func() wire.Engine {
				started.Add(1)
				return &jsonline.Engine{Command: script}
			}
		})
		for _, mv := range h.fake.Moves() {
			if mv.Status != 200 {
				t.Errorf("%q: move %+v refused", script, mv)
			}
		}
		if n := started.Load(); n != 2 {
			t.Errorf("%q: %d engines started for a two-leg match", script, n)
		}
	}
}
