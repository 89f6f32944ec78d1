package flipsight

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/gamebot/othello"
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

// connector margin: the official connector keeps 750 ms of the clock.
const clockMargin = 750 * time.Millisecond

// legID names one board of one match.
type legID struct {
	match int64
	leg   int
}

// legTrack is what the connector knows of one leg. Revisions only move
// forward: a poll answered after a newer stream event cannot take a leg
// back, and whatever was decided for an older revision is dropped.
type legTrack struct {
	rev  int64 // newest revision seen
	seen bool

	cancel    context.CancelFunc // the decision running for rev, if any
	sent      bool               // a move was submitted at rev
	sentMove  int
	lost      bool // its answer was lost: the same move may go again at rev
	retries   int  // resends of sentMove so far
	retryAt   time.Time
	refused   bool // refused for good (a request the server never takes): nothing more goes at rev
	illegal   bool // refused as illegal at rev: sent again once retryAt is due
	turnKnown bool // our turn at rev has been counted in the stats
}

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

type received struct {
	ev Event
	at time.Time
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
	defer func() {
		cancel()
		a.wg.Wait()
		a.mu.Lock()
		defer a.mu.Unlock()
		for k, e := range a.engines {
			_ = e.Close()
			delete(a.engines, k)
		}
	}()
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
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(r.err, ErrCredential) {
				a.o.Logger.Error("Bot credential rejected: check FS_BOT_TOKEN", "err", r.err)
				return ErrCredential
			}
			if r.err != nil {
				backoff = nextBackoff(backoff, a.o.BackoffMin, a.o.BackoffMax)
				a.o.Logger.Warn("Connection/state error", "err", r.err, "retry_in", backoff)
				continue
			}
			backoff = 0
			a.handlePoll(ctx, r.reply, r.at)
			if a.isOnceDone() {
				return nil
			}
		}
	}
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

// handleEvent acts on a stream event: a bot-pair match event carries the
// whole match, so its legs are played at once.
func (a *Agent) handleEvent(ctx context.Context, r received) {
	m := r.ev.Match
	if r.ev.Type != "match" || m == nil || m.State == nil || len(m.State.Legs) == 0 {
		return // human-game events carry no state: the poll that follows has it
	}
	a.mu.Lock()
	known := a.meKnown
	a.mu.Unlock()
	if !known {
		return // who we are comes with the first poll
	}
	a.handleMatch(ctx, m, seenAt{serverNow: float64(r.ev.ServerNowMs), local: r.at, byStream: true})
}

// handlePoll acts on one poll answer: every match in it, then the matches
// that left the list (over).
func (a *Agent) handlePoll(ctx context.Context, r *PollReply, at time.Time) {
	for _, err := range r.Skipped {
		a.o.Logger.Warn("unreadable match object in agent_poll", "err", err)
	}
	a.mu.Lock()
	a.me, a.meKnown = int64(r.Bot.ID), true
	a.mu.Unlock()
	seen := map[int64]bool{}
	for i := range r.Matches {
		seen[int64(r.Matches[i].ID)] = true
		a.handleMatch(ctx, &r.Matches[i], seenAt{serverNow: float64(r.ServerNowMs), local: at})
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for id := range a.active {
		if !seen[id] {
			a.finishLocked(id, "left the list")
		}
	}
	if a.o.OnceMatch != 0 && a.onceSeen && !seen[a.o.OnceMatch] {
		a.onceDone = true
	}
}

// handleMatch accepts a pending challenge to us, plays the legs of a
// running match, or forgets a match that is over. With OnceMatch set,
// every other match is left alone.
func (a *Agent) handleMatch(ctx context.Context, m *Match, at seenAt) {
	id := int64(m.ID)
	if a.o.OnceMatch != 0 && id != a.o.OnceMatch {
		return
	}
	a.mu.Lock()
	me := a.me
	if id == a.o.OnceMatch {
		a.onceSeen = true
	}
	if a.over[id] {
		// Polls run while events arrive, so a view may be older than the
		// one that ended the match: never bring a match back.
		a.mu.Unlock()
		return
	}
	switch m.Status {
	case "pending":
		if m.BotB != Int(me) || m.IsHuman() || a.accepted[id] || a.active[id] {
			a.mu.Unlock()
			return
		}
		a.accepted[id] = true
		a.mu.Unlock()
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			a.accept(ctx, id)
		}()
		return
	case "running":
		a.active[id] = true
		a.mu.Unlock()
		a.play(m, me, at)
		return
	case "finished", "aborted", "rejected", "expired":
		a.finishLocked(id, string(m.Status))
	}
	a.mu.Unlock()
}

func (a *Agent) accept(ctx context.Context, id int64) {
	err := a.o.Client.Accept(ctx, id)
	if err == nil {
		a.o.Logger.Info("accepted challenge", "match", id)
		a.poke()
		return
	}
	a.o.Logger.Warn("accept failed", "match", id, "err", err)
	if errors.Is(err, ErrCredential) {
		a.setFatal(ErrCredential)
	}
	if StatusOf(err) != http.StatusConflict {
		a.mu.Lock()
		delete(a.accepted, id) // retry on the next poll
		a.mu.Unlock()
	}
}

// maxOver bounds the memory of finished matches (a bot plays a few
// hundred a day; a stale view arrives within seconds).
const maxOver = 1024

// finishLocked forgets a match and stops its decisions. a.mu is held.
func (a *Agent) finishLocked(id int64, why string) {
	if a.o.OnceMatch != 0 && id == a.o.OnceMatch {
		a.onceDone = true
	}
	delete(a.accepted, id)
	if !a.over[id] {
		a.over[id] = true
		a.overList = append(a.overList, id)
		if len(a.overList) > maxOver {
			delete(a.over, a.overList[0])
			a.overList = a.overList[1:]
		}
	}
	if !a.active[id] {
		return
	}
	delete(a.active, id)
	for k, tr := range a.legs {
		if k.match == id {
			if tr.cancel != nil {
				tr.cancel()
			}
			delete(a.legs, k)
		}
	}
	if s := a.stats[id]; s != nil {
		a.o.Logger.Info("match over", "match", id, "why", why, "moves", s.Moves,
			"waiting", s.Waiting.Round(time.Millisecond), "thinking", s.Thinking.Round(time.Millisecond),
			"sending", s.Sending.Round(time.Millisecond), "waiting_share", s.WaitingShare(),
			"turns_by_stream", s.ByStream, "turns_by_poll", s.ByPoll)
	}
	var done []wire.Engine
	for k, e := range a.engines {
		if k.match == id {
			done = append(done, e)
			delete(a.engines, k)
		}
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		for _, e := range done {
			_ = e.Close()
		}
	}()
}

// engine returns leg k's engine, started on its first move.
func (a *Agent) engine(k legID) wire.Engine {
	a.mu.Lock()
	defer a.mu.Unlock()
	e := a.engines[k]
	if e == nil {
		e = a.o.NewEngine()
		a.engines[k] = e
	}
	return e
}

type work struct {
	m      *Match
	li     int
	rev    int64
	leg    *Leg
	color  int
	legal  []int
	at     seenAt
	move   int // the move to resend, with resend
	resend bool
}

// play starts a decision for every leg of m where it is our turn at a
// revision not yet decided, and cancels decisions the leg has left behind.
func (a *Agent) play(m *Match, me int64, at seenAt) {
	if m.State == nil {
		return
	}
	participant := -1
	switch {
	case m.IsHuman():
		participant = 0
		if m.BotB == Int(me) {
			participant = 1
		}
	case m.BotA == Int(me):
		participant = 0
	case m.BotB == Int(me):
		participant = 1
	}
	if participant < 0 {
		return
	}
	id := int64(m.ID)
	for li := range m.State.Legs {
		if m.IsHuman() && li > 0 {
			break
		}
		leg := &m.State.Legs[li]
		color := othello.White
		if participant == int(leg.BlackParticipant) {
			color = othello.Black
		}
		rev := int64(leg.Revision)
		a.mu.Lock()
		k := legID{id, li}
		tr := a.legs[k]
		if tr == nil {
			tr = &legTrack{}
			a.legs[k] = tr
		}
		if tr.seen && rev < tr.rev {
			a.mu.Unlock() // an older view than one already acted on
			continue
		}
		if !tr.seen || rev > tr.rev {
			if tr.cancel != nil {
				tr.cancel() // stale work: the leg has moved on
				a.o.Logger.Debug("dropping stale decision", "match", id, "leg", li, "revision", tr.rev)
			}
			*tr = legTrack{rev: rev, seen: true}
		}
		if leg.Status != "active" || int(leg.Turn) != color || tr.cancel != nil || tr.refused {
			a.mu.Unlock()
			continue
		}
		job := work{m: m, li: li, rev: rev, leg: leg, color: color, at: at}
		redecide := false
		if tr.sent {
			if !(tr.lost || tr.illegal) || time.Now().Before(tr.retryAt) {
				a.mu.Unlock() // sent and answered, or a resend not yet due
				continue
			}
			job.move, job.resend = tr.sentMove, true
			if tr.illegal && leg.LegalMoves != nil && !slices.Contains([]int(leg.LegalMoves), tr.sentMove) {
				// The server does not list the refused move: choose again
				// among the moves it does list.
				redecide = true
				tr.sent, job.resend = false, false
			}
		}
		if !job.resend {
			job.legal = []int(leg.LegalMoves)
			if leg.LegalMoves == nil {
				job.legal = legalFromBoard(m.State, leg, color)
			}
			if redecide {
				job.legal = slices.DeleteFunc(slices.Clone(job.legal), func(mv int) bool { return mv == tr.sentMove })
			}
			if m.IsHuman() && len(job.legal) == 0 {
				a.mu.Unlock() // the server passes for us in human games
				continue
			}
			if !tr.turnKnown {
				tr.turnKnown = true
				s := a.statsLocked(id)
				s.Waiting += max(turnAge(leg, at), 0)
				if at.byStream {
					s.ByStream++
				} else {
					s.ByPoll++
				}
			}
		}
		ctx, cancel := context.WithCancel(a.runCtx)
		tr.cancel = cancel
		a.mu.Unlock()
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			a.decide(ctx, cancel, k, job)
		}()
	}
}

func (a *Agent) statsLocked(id int64) *MatchStats {
	s := a.stats[id]
	if s == nil {
		s = &MatchStats{}
		a.stats[id] = s
	}
	return s
}

// turnAge is how long the turn had run when the view arrived (by the
// server's clock) plus the time since (by ours).
func turnAge(leg *Leg, at seenAt) time.Duration {
	ms := at.serverNow - float64(leg.TurnStartedMs)
	if leg.TurnStartedMs == 0 || at.serverNow == 0 {
		ms = 0
	}
	return time.Duration(ms*float64(time.Millisecond)) + time.Since(at.local)
}

// decide computes (or resends) and submits one move for leg k at job.rev.
func (a *Agent) decide(ctx context.Context, cancel context.CancelFunc, k legID, w work) {
	defer func() {
		a.mu.Lock()
		if tr := a.legs[k]; tr != nil && tr.rev == w.rev {
			tr.cancel = nil
		}
		a.mu.Unlock()
		cancel()
	}()
	move := w.move
	switch {
	case w.resend:
	case len(w.legal) == 0:
		move = othello.Pass // bot pairs: we must pass ourselves
	default:
		start := time.Now()
		move = a.think(ctx, k, w)
		a.mu.Lock()
		a.statsLocked(k.match).Thinking += time.Since(start)
		a.mu.Unlock()
	}
	if ctx.Err() != nil {
		return // stale (the leg moved on, the match ended) or shutting down
	}
	a.mu.Lock()
	tr := a.legs[k]
	if tr == nil || tr.rev != w.rev || (tr.sent && !w.resend) {
		a.mu.Unlock()
		return
	}
	tr.sent, tr.sentMove, tr.lost, tr.illegal = true, move, false, false
	a.mu.Unlock()
	p := MoveParams{MatchID: k.match, Leg: k.leg, Revision: w.rev, Move: move}
	if w.m.IsHuman() {
		p.RoundNo, p.RoomCreatedAt = w.m.RoundNo, w.m.RoomCreatedAt
	}
	start := time.Now()
	// The run's context, not the decision's: once a move is on its way,
	// cancelling it would only leave us unsure whether it arrived.
	err := a.o.Client.Move(a.runCtx, p)
	a.mu.Lock()
	s := a.statsLocked(k.match)
	s.Sending += time.Since(start)
	if err == nil && !w.resend {
		s.Moves++
	}
	a.mu.Unlock()
	if err == nil {
		a.o.Logger.Debug("moved", "match", k.match, "leg", k.leg, "revision", w.rev, "move", move)
		if !a.streamUp.Load() {
			a.poke() // without the stream only a poll shows the next turn
		}
		return
	}
	a.moveFailed(k, w, move, err)
}

// moveFailed applies the error table to a refused or unanswered move.
func (a *Agent) moveFailed(k legID, w work, move int, err error) {
	var ae *APIError
	a.mu.Lock()
	defer a.mu.Unlock()
	tr := a.legs[k]
	if tr == nil || tr.rev != w.rev {
		tr = &legTrack{} // the leg moved on meanwhile: nothing to keep
	}
	switch {
	case errors.Is(err, ErrCredential):
		a.setFatal(ErrCredential)
	case errors.As(err, &ae) && ae.Status == http.StatusConflict:
		// 409: poll and look at the turn, revision and legal moves again.
		// The documents disagree on an illegal move: "never resend an
		// illegal move" (errors) against "the connector resends the same
		// move with the same revision" (illegal moves). Sending nothing
		// more at the revision loses the leg on time, the worst answer, so
		// the leg stays ours: after a growing delay, if it is still our
		// turn at that revision, the same move goes again when the server
		// lists it as legal, and the best move it does list otherwise.
		if ae.Msg == "illegal_move" || ae.Msg == "invalid move coordinate" || ae.Msg == "move outside board" {
			delay := a.retryDelay(tr)
			tr.illegal = true
			a.o.Logger.Error("move refused as illegal: trying again at this revision",
				"match", k.match, "leg", k.leg, "revision", w.rev, "move", move, "err", ae.Msg, "again_in", delay)
			time.AfterFunc(delay, a.poke)
		} else {
			a.o.Logger.Info("move refused", "match", k.match, "leg", k.leg, "revision", w.rev, "move", move, "err", ae.Msg)
		}
		a.poke()
	case errors.As(err, &ae) && ae.Status >= 400 && ae.Status < 500 && ae.Status != http.StatusTooManyRequests && ae.Status != http.StatusRequestTimeout:
		tr.refused = true // a request the server will never take: do not loop on it
		a.o.Logger.Error("move refused", "match", k.match, "leg", k.leg, "status", ae.Status, "err", ae.Msg)
		a.poke()
	default:
		// Lost answer (network error, 5xx, 429): the move may or may not
		// have arrived. Poll after a growing delay and resend the same
		// move only if the revision is still the same.
		tr.lost = true
		delay := a.retryDelay(tr)
		a.o.Logger.Warn("Connection/state error", "match", k.match, "leg", k.leg, "err", err, "resend_in", delay)
		time.AfterFunc(delay, a.poke)
	}
}

// retryDelay schedules the next attempt at a leg's revision: MoveRetryMin,
// doubling with each attempt, at most BackoffMax. a.mu is held.
func (a *Agent) retryDelay(tr *legTrack) time.Duration {
	delay := min(a.o.MoveRetryMin<<min(tr.retries, 16), a.o.BackoffMax)
	tr.retries++
	tr.retryAt = time.Now().Add(delay)
	return delay
}

// think asks the engine, with a budget from the leg's clock, and falls back
// to a legal move when the engine fails or answers outside legal.
func (a *Agent) think(ctx context.Context, k legID, w work) int {
	remaining := time.Duration(wire.DefaultBudgetMs) * time.Millisecond // no clock sent: think briefly
	if c := w.color - 1; c < len(w.leg.ClocksMs) {
		remaining = time.Duration(float64(w.leg.ClocksMs[c])*float64(time.Millisecond)) - turnAge(w.leg, w.at)
	}
	budget := remaining - clockMargin
	if a.o.MaxThink > 0 {
		budget = min(budget, a.o.MaxThink)
	}
	budget = max(budget, 20*time.Millisecond)
	st := w.m.State
	mode, size := string(st.GameMode), int(st.BoardSize)
	if mode == "" {
		mode = string(w.m.GameMode)
	}
	if size == 0 {
		size = 8
		if mode == "grand" || mode == "octagon" {
			size = 10
		}
	}
	blocked := []int(st.BlockedSquares)
	if blocked == nil {
		blocked = []int{}
	}
	// Without the stream, each of our later turns is learned only at the
	// next allowed poll: up to MinGap of the clock per move, whatever the
	// engine does. The engine is told the clock without that time for our
	// remaining moves (half the empties, and two more for the opponent's
	// passes near the end), or it plans the moves after an exact solve as
	// free and loses on time (measured at 60 s clocks: both legs lost with
	// 0.1 s left before this; 0.3 s and 6.3 s left with half the empties).
	plan := remaining
	if !a.streamUp.Load() {
		empties := -len(blocked)
		for _, c := range w.leg.Board {
			if c == 0 {
				empties++
			}
		}
		plan = max(remaining-time.Duration(max(empties-1, 0)/2+2)*a.o.MinGap, 0)
	}
	rem, bud := plan.Milliseconds(), budget.Milliseconds()
	req := &wire.Request{
		Board: []int(w.leg.Board), Color: w.color, LegalMoves: w.legal, GameMode: mode, BoardSize: size,
		BlockedSquares: blocked, Placed: map[string]int{"1": w.leg.Placed.Black, "2": w.leg.Placed.White},
		RemainingMs: &rem, BudgetMs: &bud, MatchID: int64(w.m.ID), Leg: w.li, Revision: w.rev, History: w.leg.History,
	}
	if len(req.History) == 0 || string(req.History) == "null" {
		req.History = json.RawMessage("[]")
	}
	if w.m.IsHuman() {
		req.RoundNo, req.RoomCreatedAt = w.m.RoundNo, w.m.RoomCreatedAt
	}
	start := time.Now()
	ans, err := a.engine(k).Move(ctx, req, budget)
	move := ans.Move
	a.o.Logger.Debug("engine answered", "match", int64(w.m.ID), "leg", w.li, "revision", w.rev, "move", move,
		"remaining", remaining.Round(time.Millisecond), "budget", budget.Round(time.Millisecond), "took", time.Since(start).Round(time.Millisecond))
	if ctx.Err() != nil {
		return w.legal[0] // dropped by the caller
	}
	if err != nil {
		a.o.Logger.Error("Engine failed for match", "match", int64(w.m.ID), "leg", w.li, "err", err)
		return w.legal[0]
	}
	if !slices.Contains(w.legal, move) {
		a.o.Logger.Error("engine answered a move outside legal_moves", "match", int64(w.m.ID), "leg", w.li, "move", move, "legal", w.legal)
		return w.legal[0]
	}
	return move
}

// legalFromBoard computes the legal moves with this package's rules when
// a leg arrives without legal_moves (the documentation always sends them;
// a server that leaves them out must not make us pass illegally).
func legalFromBoard(st *State, leg *Leg, color int) []int {
	mode, err := othello.ParseMode(string(st.GameMode))
	if err != nil || len(leg.Board) != mode.Size()*mode.Size() {
		return nil
	}
	s := othello.NewState(mode)
	for i, v := range leg.Board {
		if v >= 0 && v <= 2 {
			s.Cells[i] = int8(v)
		}
	}
	s.Turn = color
	s.Placed = [2]int{leg.Placed.Black, leg.Placed.White}
	return s.LegalMoves()
}

// streamLoop keeps the event stream connected and hands its match events
// to Run. After a drop it reconnects with a delay growing from BackoffMin
// to BackoffMax; a connection that was up (hello received) starts the
// delay again from BackoffMin.
func (a *Agent) streamLoop(ctx context.Context) {
	backoff := time.Duration(0)
	for ctx.Err() == nil {
		healthy, err := a.stream(ctx)
		a.streamUp.Store(false)
		a.poke() // the poll cadence falls back to the no-stream one
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, ErrCredential) {
			a.setFatal(ErrCredential)
			return
		}
		if healthy {
			backoff = 0
		}
		backoff = nextBackoff(backoff, a.o.BackoffMin, a.o.BackoffMax)
		a.o.Logger.Warn("event stream down", "err", err, "reconnect_in", backoff)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return
		}
	}
}

// errStreamEnded is a clean end of the stream by the server.
var errStreamEnded = errors.New("event stream ended")

// stream reads one connection of the event stream until it ends; healthy
// reports that the server said hello.
func (a *Agent) stream(ctx context.Context) (healthy bool, err error) {
	c := a.o.Client
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Stream, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := c.streamClient().Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return false, ErrCredential
	}
	if resp.StatusCode != http.StatusOK {
		return false, &APIError{Status: resp.StatusCode, Msg: "event stream refused"}
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), maxReply)
	for sc.Scan() {
		var ev Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			if !bytes.Contains(sc.Bytes(), []byte(`"match"`)) {
				continue // not an event line, or one we cannot read
			}
			// A match event we cannot read: the poll it asks for has the state.
			ev = Event{Type: "match"}
		}
		switch ev.Type {
		case "hello":
			healthy = true
			a.streamUp.Store(true)
		case "match":
			healthy = true
			a.streamUp.Store(true)
			select {
			case a.events <- received{ev, time.Now()}:
			case <-ctx.Done():
				return healthy, ctx.Err()
			}
		}
	}
	if err := sc.Err(); err != nil {
		return healthy, err
	}
	return healthy, errStreamEnded
}

// streamClient is the HTTP client without an overall timeout (the stream
// is long-lived).
func (c *Client) streamClient() *http.Client {
	h := *c.HTTP
	h.Timeout = 0
	return &h
}
