package flipsight

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/gamebot/othello/wire"
)

// Options configure an Agent. Zero durations take the platform's values.
type Options struct {
	Client *Client
	// NewEngine starts the engine of one leg, as the official connector
	// runs one engine process per game; it is closed when the match is
	// over.
	NewEngine func() wire.Engine
	Env       Environment
	Logger    *slog.Logger

	NoStream   bool          // poll only
	OnceMatch  int64         // handle only this match, exit once it is over (0: every match, run on)
	MaxRuntime time.Duration // exit with ErrMaxRuntime after this long (0: no limit)
	MaxThink   time.Duration // budget cap per move (0: none, remaining − 750 ms)

	PollStream   time.Duration // poll period while the stream is up (10 s)
	PollMatch    time.Duration // poll period during a match without stream (1 s)
	PollIdle     time.Duration // poll period when idle without stream (5 s)
	MinGap       time.Duration // without the stream, never poll more often than this (1 s)
	BackoffMin   time.Duration // first retry delay after errors and stream drops (1 s)
	BackoffMax   time.Duration // retry delay cap (30 s)
	MoveRetryMin time.Duration // first resend delay of a move whose answer was lost (500 ms)
}

func (o *Options) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.PollStream, 10*time.Second)
	def(&o.PollMatch, time.Second)
	def(&o.PollIdle, 5*time.Second)
	def(&o.MinGap, time.Second)
	def(&o.BackoffMin, time.Second)
	def(&o.BackoffMax, 30*time.Second)
	def(&o.MoveRetryMin, 500*time.Millisecond)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// ErrMaxRuntime is returned when Options.MaxRuntime is reached.
var ErrMaxRuntime = errors.New("max runtime reached")

// MatchStats are one match's timings, from our side of the clock. Waiting
// is how long each of our turns had run (by the server's clock) before the
// connector started deciding it: the time lost to learning of the turn.
type MatchStats struct {
	Moves    int
	Waiting  time.Duration
	Thinking time.Duration
	Sending  time.Duration // agent_move round trips
	ByStream int           // turns first seen in a stream event
	ByPoll   int           // turns first seen in a poll answer
}

// WaitingShare is Waiting as a share of the clock the connector used.
func (s MatchStats) WaitingShare() float64 {
	total := s.Waiting + s.Thinking + s.Sending
	if total <= 0 {
		return 0
	}
	return float64(s.Waiting) / float64(total)
}

// seenAt is a view of the server's state: its clock when it answered and
// ours when the answer arrived.
type seenAt struct {
	serverNow float64
	local     time.Time
	byStream  bool
}

type pollResult struct {
	reply *PollReply
	err   error
	at    time.Time
}

// Agent is the connector's state machine.
type Agent struct {
	o        Options
	wake     chan struct{} // poll soon (move answered, 409, retry due)
	events   chan received // match events from the stream
	fatal    chan error
	streamUp atomic.Bool
	runCtx   context.Context

	mu       sync.Mutex
	me       int64
	meKnown  bool
	accepted map[int64]bool
	active   map[int64]bool // running matches seen
	over     map[int64]bool // matches seen over: later (older) views of them are ignored
	overList []int64        // over, oldest first (bounded)
	legs     map[legID]*legTrack
	stats    map[int64]*MatchStats
	engines  map[legID]wire.Engine
	onceSeen bool
	onceDone bool
	wg       sync.WaitGroup
}

// NewAgent returns an agent; Run starts it.
func NewAgent(o Options) *Agent {
	o.defaults()
	return &Agent{
		o: o, wake: make(chan struct{}, 1), events: make(chan received, 64), fatal: make(chan error, 1),
		accepted: map[int64]bool{}, active: map[int64]bool{}, over: map[int64]bool{}, legs: map[legID]*legTrack{}, stats: map[int64]*MatchStats{}, engines: map[legID]wire.Engine{},
	}
}

// Stats returns the timings of every match played so far.
func (a *Agent) Stats() map[int64]MatchStats {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make(map[int64]MatchStats, len(a.stats))
	for id, s := range a.stats {
		out[id] = *s
	}
	return out
}

func (a *Agent) poke() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

func (a *Agent) setFatal(err error) {
	select {
	case a.fatal <- err:
	default:
	}
}

// Run polls (and listens to the event stream) until ctx ends (nil), the
// token is rejected (ErrCredential), OnceMatch is over (nil) or MaxRuntime
// passes (ErrMaxRuntime).
//
// Polling follows the documentation's cadence: with the stream up, once
// after each match event and every PollStream; without it, every
// PollMatch during a match and PollIdle when idle, never twice within
// MinGap. Stream events that carry the full match are acted on at once,
// without waiting for a poll: the clock runs while we wait.
func (a *Agent) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	a.runCtx = ctx
	defer a.stop(cancel)
	var deadline <-chan time.Time
	if a.o.MaxRuntime > 0 {
		t := time.NewTimer(a.o.MaxRuntime)
		defer t.Stop()
		deadline = t.C
	}
	if !a.o.NoStream {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			a.streamLoop(ctx)
		}()
	}
	return a.loop(ctx, deadline)
}

// stop ends the run: its decisions and polls stop, and the engines close.
func (a *Agent) stop(cancel context.CancelFunc) {
	cancel()
	a.wg.Wait()
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, e := range a.engines {
		_ = e.Close()
		delete(a.engines, k)
	}
}

// loop polls when due and acts on each poll's answer and each stream
// event until the run ends.
func (a *Agent) loop(ctx context.Context, deadline <-chan time.Time) error {
	polls := make(chan pollResult, 1)
	var (
		inFlight bool
		soon     bool          // a poll was asked for (event, move answered, 409)
		lastEnd  time.Time     // when the last poll answer arrived (zero: poll now)
		backoff  time.Duration // after poll errors
	)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		var timerC <-chan time.Time
		if !inFlight {
			due := a.pollDue(lastEnd, soon, backoff)
			if d := time.Until(due); d > 0 {
				timer.Reset(d)
				timerC = timer.C
			} else {
				inFlight, soon = true, false
				a.wg.Add(1)
				go func() {
					defer a.wg.Done()
					r, err := a.o.Client.Poll(ctx, &a.o.Env)
					polls <- pollResult{r, err, time.Now()}
				}()
				continue
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case err := <-a.fatal:
			return err
		case <-deadline:
			return ErrMaxRuntime
		case <-timerC:
		case <-a.wake:
			soon = true
		case r := <-a.events:
			a.handleEvent(ctx, r)
			soon = true // the documentation: call agent_poll once per match event
			if a.isOnceDone() {
				return nil
			}
		case r := <-polls:
			inFlight, lastEnd = false, r.at
			if done, err := a.polled(ctx, r, &backoff); done {
				return err
			}
		}
	}
}

// polled acts on a poll's answer; done ends the run, with err. A failed
// poll backs off.
func (a *Agent) polled(ctx context.Context, r pollResult, backoff *time.Duration) (done bool, err error) {
	switch {
	case ctx.Err() != nil:
		return true, nil
	case errors.Is(r.err, ErrCredential):
		a.o.Logger.Error("Bot credential rejected: check FS_BOT_TOKEN", "err", r.err)
		return true, ErrCredential
	case r.err != nil:
		*backoff = nextBackoff(*backoff, a.o.BackoffMin, a.o.BackoffMax)
		a.o.Logger.Warn("Connection/state error", "err", r.err, "retry_in", *backoff)
		return false, nil
	}
	*backoff = 0
	a.handlePoll(ctx, r.reply, r.at)
	return a.isOnceDone(), nil
}

// pollDue is when the next poll may start.
func (a *Agent) pollDue(lastEnd time.Time, soon bool, backoff time.Duration) time.Time {
	if lastEnd.IsZero() {
		return lastEnd // the first poll goes at once
	}
	if backoff > 0 {
		return lastEnd.Add(backoff) // errors back off; wake-ups do not shorten it
	}
	if a.streamUp.Load() {
		if soon {
			return time.Time{}
		}
		return lastEnd.Add(a.o.PollStream)
	}
	if soon {
		return lastEnd.Add(a.o.MinGap)
	}
	return lastEnd.Add(max(a.interval(), a.o.MinGap))
}

func nextBackoff(cur, lo, hi time.Duration) time.Duration {
	if cur <= 0 {
		return lo
	}
	return min(cur*2, hi)
}

// interval is the poll period without the stream.
func (a *Agent) interval() time.Duration {
	a.mu.Lock()
	busy := len(a.active) > 0
	a.mu.Unlock()
	if busy {
		return a.o.PollMatch
	}
	return a.o.PollIdle
}

func (a *Agent) isOnceDone() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.onceDone
}
