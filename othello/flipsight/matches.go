package flipsight

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/botarena/gamebot/othello/wire"
)

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
