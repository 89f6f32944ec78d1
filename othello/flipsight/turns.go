package flipsight

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/wire"
)

// connector margin: the official connector keeps 750 ms of the clock.
const clockMargin = 750 * time.Millisecond

// work is one decision of a leg at a revision: a move to choose among
// legal, or the move sent, to send again.
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
	participant := participantOf(m, me)
	if participant < 0 {
		return
	}
	for li := range m.State.Legs {
		if m.IsHuman() && li > 0 {
			break
		}
		a.playLeg(m, li, participant, at)
	}
}

// participantOf is our side of m (0: bot A, 1: bot B; in a human game the
// bot's), −1 when m is not ours.
func participantOf(m *Match, me int64) int {
	switch {
	case m.IsHuman() && m.BotB == Int(me):
		return 1
	case m.IsHuman():
		return 0
	case m.BotA == Int(me):
		return 0
	case m.BotB == Int(me):
		return 1
	}
	return -1
}

// playLeg starts the decision of leg li of m when it is our turn at a
// revision not yet decided (or a resend is due).
func (a *Agent) playLeg(m *Match, li, participant int, at seenAt) {
	leg := &m.State.Legs[li]
	color := othello.White
	if participant == int(leg.BlackParticipant) {
		color = othello.Black
	}
	k := legID{int64(m.ID), li}
	a.mu.Lock()
	tr, ok := a.trackLocked(k, int64(leg.Revision))
	if !ok || leg.Status != "active" || int(leg.Turn) != color || tr.cancel != nil || tr.refused {
		a.mu.Unlock()
		return
	}
	job, ok := a.jobLocked(tr, m, li, color, at)
	if !ok {
		a.mu.Unlock()
		return
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

// trackLocked is leg k's track at revision rev: a newer revision drops
// what was decided for the older one; ok is false for a view older than
// one already acted on. a.mu is held.
func (a *Agent) trackLocked(k legID, rev int64) (*legTrack, bool) {
	tr := a.legs[k]
	if tr == nil {
		tr = &legTrack{}
		a.legs[k] = tr
	}
	if tr.seen && rev < tr.rev {
		return tr, false
	}
	if !tr.seen || rev > tr.rev {
		if tr.cancel != nil {
			tr.cancel() // stale work: the leg has moved on
			a.o.Logger.Debug("dropping stale decision", "match", k.match, "leg", k.leg, "revision", tr.rev)
		}
		*tr = legTrack{rev: rev, seen: true}
	}
	return tr, true
}

// jobLocked is the work of our turn on leg li: a move to decide among the
// legal ones, or the move sent to send again once its resend is due; ok
// is false when there is nothing to do yet. a.mu is held.
func (a *Agent) jobLocked(tr *legTrack, m *Match, li, color int, at seenAt) (work, bool) {
	leg := &m.State.Legs[li]
	job := work{m: m, li: li, rev: tr.rev, leg: leg, color: color, at: at}
	redecide := false
	if tr.sent {
		if !(tr.lost || tr.illegal) || time.Now().Before(tr.retryAt) {
			return job, false // sent and answered, or a resend not yet due
		}
		job.move, job.resend = tr.sentMove, true
		if tr.illegal && leg.LegalMoves != nil && !slices.Contains([]int(leg.LegalMoves), tr.sentMove) {
			// The server does not list the refused move: choose again
			// among the moves it does list.
			redecide = true
			tr.sent, job.resend = false, false
		}
	}
	if job.resend {
		return job, true
	}
	job.legal = []int(leg.LegalMoves)
	if leg.LegalMoves == nil {
		job.legal = legalFromBoard(m.State, leg, color)
	}
	if redecide {
		job.legal = slices.DeleteFunc(slices.Clone(job.legal), func(mv int) bool { return mv == tr.sentMove })
	}
	if m.IsHuman() && len(job.legal) == 0 {
		return job, false // the server passes for us in human games
	}
	if !tr.turnKnown {
		tr.turnKnown = true
		s := a.statsLocked(int64(m.ID))
		s.Waiting += max(turnAge(leg, at), 0)
		if at.byStream {
			s.ByStream++
		} else {
			s.ByPoll++
		}
	}
	return job, true
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
