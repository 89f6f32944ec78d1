package flipsight

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Options configure an Agent. Zero durations take the platform's values.
type Options struct {
	Client *Client
	Engine Engine
	Env    Environment
	Logger *slog.Logger

	NoStream   bool          // poll only
	OnceMatch  int64         // exit once this match is over (0: run on)
	MaxRuntime time.Duration // exit with ErrMaxRuntime after this long (0: no limit)
	MaxThink   time.Duration // budget cap per move (0: none, remaining − 750 ms)

	PollStream time.Duration // poll period while the stream is up (10 s)
	PollMatch  time.Duration // poll period during a match without stream (1 s)
	PollIdle   time.Duration // poll period when idle without stream (5 s)
	MinGap     time.Duration // never poll more often than this (1 s)
	BackoffMin time.Duration // first retry delay after errors (1 s)
	BackoffMax time.Duration // retry delay cap (30 s)
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
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// ErrMaxRuntime is returned when Options.MaxRuntime is reached.
var ErrMaxRuntime = errors.New("max runtime reached")

// connector margin: the official connector keeps 750 ms of the clock.
const clockMargin = 750 * time.Millisecond

type legKey struct {
	match int64
	leg   int
	rev   int64
}

// Agent is the connector's state machine.
type Agent struct {
	o     Options
	wake  chan struct{} // poll soon (stream event, move done, 409)
	fatal chan error

	streamUp sync.Mutex // guards up
	up       bool

	mu        sync.Mutex
	me        int64
	accepted  map[int64]bool
	active    map[int64]bool     // running matches seen
	latest    map[[2]int64]int64 // (match, leg) → latest revision seen
	inflight  map[legKey]bool    // a worker is deciding this revision
	submitted map[legKey]int     // move sent for this revision
	lost      map[legKey]int     // move whose answer was lost: resend if revision unchanged
	rejected  map[legKey][]int   // moves refused as illegal at this revision
	onceDone  bool
	wg        sync.WaitGroup
}

// NewAgent returns an agent; Run starts it.
func NewAgent(o Options) *Agent {
	o.defaults()
	return &Agent{
		o: o, wake: make(chan struct{}, 1), fatal: make(chan error, 1),
		accepted: map[int64]bool{}, active: map[int64]bool{}, latest: map[[2]int64]int64{},
		inflight: map[legKey]bool{}, submitted: map[legKey]int{}, lost: map[legKey]int{}, rejected: map[legKey][]int{},
	}
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

func (a *Agent) streamConnected() bool {
	a.streamUp.Lock()
	defer a.streamUp.Unlock()
	return a.up
}

func (a *Agent) setStream(up bool) {
	a.streamUp.Lock()
	a.up = up
	a.streamUp.Unlock()
}

// Run polls (and listens to the event stream) until ctx ends (nil), the
// token is rejected (ErrCredential), OnceMatch is over (nil) or MaxRuntime
// passes (ErrMaxRuntime).
func (a *Agent) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		a.wg.Wait()
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
	backoff := time.Duration(0)
	var lastPoll time.Time
	first := true
	for {
		wait := a.interval()
		if backoff > 0 {
			wait = backoff
		}
		if first {
			wait = 0
		}
		// A wake-up (event, move done) polls early, but never sooner than
		// MinGap after the previous poll.
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case err := <-a.fatal:
			timer.Stop()
			return err
		case <-deadline:
			timer.Stop()
			return ErrMaxRuntime
		case <-timer.C:
		case <-a.wake:
			timer.Stop()
			if backoff > 0 {
				// Errors back off; wake-ups do not shorten the delay.
				select {
				case <-time.After(backoff):
				case <-ctx.Done():
					return nil
				}
			}
		}
		first = false
		if gap := time.Since(lastPoll); gap < a.o.MinGap {
			select {
			case <-time.After(a.o.MinGap - gap):
			case <-ctx.Done():
				return nil
			}
		}
		reply, err := a.o.Client.Poll(ctx, &a.o.Env)
		lastPoll = time.Now() // gaps count from the answer: never two polls within MinGap
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, ErrCredential) {
			a.o.Logger.Error("Bot credential rejected: check FS_BOT_TOKEN", "err", err)
			return ErrCredential
		}
		if err != nil {
			backoff = nextBackoff(backoff, a.o.BackoffMin, a.o.BackoffMax)
			a.o.Logger.Warn("Connection/state error", "err", err, "retry_in", backoff)
			continue
		}
		backoff = 0
		a.handle(ctx, reply)
		if a.isOnceDone() {
			return nil
		}
	}
}

func nextBackoff(cur, lo, hi time.Duration) time.Duration {
	if cur <= 0 {
		return lo
	}
	return min(cur*2, hi)
}

// interval is the poll period for the current situation.
func (a *Agent) interval() time.Duration {
	if a.streamConnected() {
		return a.o.PollStream
	}
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

// handle acts on one poll reply: accept challenges, start or drop work on
// legs, forget finished matches.
func (a *Agent) handle(ctx context.Context, r *PollReply) {
	me := r.Bot.ID
	a.mu.Lock()
	a.me = me
	seen := map[int64]bool{}
	var toAccept []int64
	var toPlay []Match
	for _, m := range r.Matches {
		seen[m.ID] = true
		switch m.Status {
		case "pending":
			if m.BotB == me && !m.IsHuman() && !a.accepted[m.ID] {
				a.accepted[m.ID] = true
				toAccept = append(toAccept, m.ID)
			}
		case "running":
			a.active[m.ID] = true
			toPlay = append(toPlay, m)
		default: // finished, aborted, rejected, expired
			a.finishLocked(m.ID)
		}
	}
	// A running match that left the list is over.
	for id := range a.active {
		if !seen[id] {
			a.finishLocked(id)
		}
	}
	a.mu.Unlock()
	for _, id := range toAccept {
		if err := a.o.Client.Accept(ctx, id); err != nil {
			a.o.Logger.Warn("accept failed", "match", id, "err", err)
			if errors.Is(err, ErrCredential) {
				a.setFatal(ErrCredential)
			}
			if StatusOf(err) != 409 {
				a.mu.Lock()
				delete(a.accepted, id) // retry on the next poll
				a.mu.Unlock()
			}
			continue
		}
		a.o.Logger.Info("accepted challenge", "match", id)
		a.poke()
	}
	for i := range toPlay {
		a.play(ctx, &toPlay[i], me, r.ServerNowMs)
	}
}

// finishLocked forgets a match. a.mu is held.
func (a *Agent) finishLocked(id int64) {
	if a.o.OnceMatch != 0 && id == a.o.OnceMatch {
		a.onceDone = true
	}
	if !a.active[id] {
		return
	}
	delete(a.active, id)
	for k := range a.latest {
		if k[0] == id {
			delete(a.latest, k)
		}
	}
	for k := range a.submitted {
		if k.match == id {
			delete(a.submitted, k)
		}
	}
	for k := range a.lost {
		if k.match == id {
			delete(a.lost, k)
		}
	}
	for k := range a.rejected {
		if k.match == id {
			delete(a.rejected, k)
		}
	}
	go a.o.Engine.Done(id)
}

// play starts a worker for every leg of m where it is my turn at a revision
// not yet decided.
func (a *Agent) play(ctx context.Context, m *Match, me int64, serverNow int64) {
	if m.State == nil {
		return
	}
	participant := -1
	switch {
	case m.IsHuman():
		participant = 0
		if m.BotB == me {
			participant = 1
		}
	case m.BotA == me:
		participant = 0
	case m.BotB == me:
		participant = 1
	}
	if participant < 0 {
		return
	}
	for li := range m.State.Legs {
		leg := &m.State.Legs[li]
		if m.IsHuman() && li > 0 {
			break
		}
		color := 2
		if participant == leg.BlackParticipant {
			color = 1
		}
		a.mu.Lock()
		a.latest[[2]int64{m.ID, int64(li)}] = leg.Revision
		key := legKey{m.ID, li, leg.Revision}
		if leg.Status != "active" || leg.Turn != color || a.inflight[key] {
			a.mu.Unlock()
			continue
		}
		if _, done := a.submitted[key]; done {
			a.mu.Unlock()
			continue
		}
		if m.IsHuman() && len(leg.LegalMoves) == 0 {
			a.mu.Unlock() // the server passes for us in human games
			continue
		}
		resend, isResend := a.lost[key]
		a.inflight[key] = true
		rejected := slices.Clone(a.rejected[key])
		a.mu.Unlock()
		job := work{m: *m, li: li, leg: *leg, color: color, serverNow: serverNow, resend: resend, isResend: isResend, rejected: rejected}
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			a.decide(ctx, job)
		}()
	}
}

type work struct {
	m         Match
	li        int
	leg       Leg
	color     int
	serverNow int64
	resend    int
	isResend  bool
	rejected  []int
}

// decide computes and submits one move.
func (a *Agent) decide(ctx context.Context, w work) {
	key := legKey{w.m.ID, w.li, w.leg.Revision}
	defer func() {
		a.mu.Lock()
		delete(a.inflight, key)
		a.mu.Unlock()
		a.poke()
	}()
	legal := slices.DeleteFunc(slices.Clone(w.leg.LegalMoves), func(x int) bool { return slices.Contains(w.rejected, x) })
	move := -1
	switch {
	case w.isResend:
		move = w.resend
	case len(w.leg.LegalMoves) == 0:
		move = -1 // bot pairs: we must pass ourselves
	case len(legal) == 0:
		a.o.Logger.Error("every legal move was refused", "match", w.m.ID, "leg", w.li, "revision", w.leg.Revision)
		return
	default:
		move = a.think(ctx, w, legal)
	}
	if ctx.Err() != nil {
		return
	}
	a.mu.Lock()
	if a.latest[[2]int64{w.m.ID, int64(w.li)}] != w.leg.Revision {
		a.mu.Unlock() // stale: the leg moved on while we thought
		a.o.Logger.Info("dropping stale move", "match", w.m.ID, "leg", w.li, "revision", w.leg.Revision)
		return
	}
	if _, done := a.submitted[key]; done {
		a.mu.Unlock()
		return
	}
	a.submitted[key] = move
	delete(a.lost, key)
	a.mu.Unlock()
	p := MoveParams{MatchID: w.m.ID, Leg: w.li, Revision: w.leg.Revision, Move: move}
	if w.m.IsHuman() {
		p.RoundNo, p.RoomCreatedAt = w.m.RoundNo, w.m.RoomCreatedAt
	}
	err := a.o.Client.Move(ctx, p)
	if err == nil {
		a.o.Logger.Debug("moved", "match", w.m.ID, "leg", w.li, "revision", w.leg.Revision, "move", move)
		return
	}
	var ae *APIError
	switch {
	case errors.Is(err, ErrCredential):
		a.setFatal(ErrCredential)
	case errors.As(err, &ae) && ae.Status == http.StatusConflict:
		a.o.Logger.Warn("move refused", "match", w.m.ID, "leg", w.li, "revision", w.leg.Revision, "move", move, "err", ae.Msg)
		if ae.Msg == "illegal_move" || ae.Msg == "invalid move coordinate" || ae.Msg == "move outside board" {
			// Never resend an illegal move: the next poll decides again
			// from the fresh state without it.
			a.mu.Lock()
			a.rejected[key] = append(a.rejected[key], move)
			delete(a.submitted, key)
			a.mu.Unlock()
		}
	case errors.As(err, &ae) && ae.Status >= 400 && ae.Status < 500 && ae.Status != http.StatusTooManyRequests && ae.Status != http.StatusRequestTimeout:
		a.o.Logger.Warn("move refused", "match", w.m.ID, "leg", w.li, "status", ae.Status, "err", ae.Msg)
	default:
		// Lost answer (network error, 5xx, 429): the move may or may not
		// have arrived. Poll; resend the same move only if the revision is
		// still the same.
		a.o.Logger.Warn("Connection/state error", "match", w.m.ID, "leg", w.li, "err", err)
		a.mu.Lock()
		delete(a.submitted, key)
		a.lost[key] = move
		a.mu.Unlock()
	}
}

// think asks the engine, with a budget from the leg's clock, and falls back
// to a legal move when the engine fails or answers outside legal.
func (a *Agent) think(ctx context.Context, w work, legal []int) int {
	remaining := time.Duration(0)
	if c := w.color - 1; c < len(w.leg.ClocksMs) {
		remaining = time.Duration(w.leg.ClocksMs[c]-(w.serverNow-w.leg.TurnStartedMs)) * time.Millisecond
	}
	budget := remaining - clockMargin
	if a.o.MaxThink > 0 {
		budget = min(budget, a.o.MaxThink)
	}
	if budget < 20*time.Millisecond {
		budget = 20 * time.Millisecond
	}
	st := w.m.State
	blocked := st.BlockedSquares
	if blocked == nil {
		blocked = []int{}
	}
	size := st.BoardSize
	if size == 0 {
		size = 8
		if st.GameMode == "grand" || st.GameMode == "octagon" {
			size = 10
		}
	}
	req := &EngineRequest{
		Board: w.leg.Board, Color: w.color, LegalMoves: legal, GameMode: st.GameMode, BoardSize: size,
		BlockedSquares: blocked, Placed: w.leg.Placed, RemainingMs: remaining.Milliseconds(),
		MatchID: w.m.ID, Leg: w.li, Revision: w.leg.Revision, History: w.leg.History, BudgetMs: budget.Milliseconds(),
	}
	if req.History == nil {
		req.History = []HistoryEntry{}
	}
	if req.Placed == nil {
		req.Placed = Placed{"1": 0, "2": 0}
	}
	if w.m.IsHuman() {
		req.RoundNo, req.RoomCreatedAt = w.m.RoundNo, w.m.RoomCreatedAt
	}
	move, err := a.o.Engine.Move(ctx, req, budget)
	if err != nil {
		a.o.Logger.Error("Engine failed for match", "match", w.m.ID, "leg", w.li, "err", err)
		return legal[0]
	}
	if !slices.Contains(legal, move) {
		a.o.Logger.Error("engine answered a move outside legal_moves", "match", w.m.ID, "leg", w.li, "move", move, "legal", legal)
		return legal[0]
	}
	return move
}

// streamLoop keeps the event stream connected, poking the poll loop on
// match events and reconnecting with a delay growing from BackoffMin to
// BackoffMax.
func (a *Agent) streamLoop(ctx context.Context) {
	backoff := time.Duration(0)
	for ctx.Err() == nil {
		err := a.stream(ctx)
		a.setStream(false)
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, ErrCredential) {
			a.setFatal(ErrCredential)
			return
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

func (a *Agent) stream(ctx context.Context) error {
	c := a.o.Client
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Stream, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := c.streamClient().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return ErrCredential
	}
	if resp.StatusCode != http.StatusOK {
		return &APIError{Status: resp.StatusCode, Msg: "event stream refused"}
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), maxReply)
	for sc.Scan() {
		var ev struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			continue // not an event line
		}
		switch ev.Type {
		case "hello":
			a.setStream(true)
		case "match":
			a.setStream(true)
			a.poke()
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errStreamEnded
}

// streamClient is the HTTP client without an overall timeout (the stream
// is long-lived).
func (c *Client) streamClient() *http.Client {
	h := *c.HTTP
	h.Timeout = 0
	return &h
}
