package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/internal/enginehttp"
	"github.com/botarena/gamebot/meta"
)

// side is one team's players: an in-process agent or a bot server (by URL
// or launched from its folder).
type side struct {
	spec  string // as given on the command line
	name  string
	agent string
	bot   *enginehttp.Client
	proc  *botProcess
}

func (s *side) close() {
	if s.bot != nil {
		s.bot.Close()
	}
	s.proc.stop()
}

// sideOptions are the flags that shape HTTP sides.
type sideOptions struct {
	dialect     wire.Dialect
	notify      *[6]bool // for bots given by URL; nil = the dialect's default
	concurrency int
	decisionTO  time.Duration
	notifyTO    time.Duration
}

func isAgentName(spec string) bool {
	_, err := agents.New(spec, nil)
	return err == nil
}

// openSide resolves a command-line bot: an agent name, an http(s) URL, or
// a folder holding bot.meta.json (launched as the engine does).
func openSide(ctx context.Context, spec string, o sideOptions, logw io.Writer) (*side, error) {
	s := &side{spec: spec}
	switch {
	case isAgentName(spec):
		s.agent, s.name = strings.ToLower(spec), strings.ToLower(spec)
		return s, nil
	case strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://"):
		s.name = spec
		n := meta.AllEvents()
		switch {
		case o.notify != nil:
			n = *o.notify
		case o.dialect == wire.Seed:
			n = seedDefaultNotify()
		}
		s.bot = enginehttp.NewClient(spec, o.dialect, n, o.concurrency)
	default:
		if st, err := os.Stat(spec); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%q is neither an agent (%s), an http(s) URL nor a bot folder", spec, strings.Join(agents.Names(), ", "))
		}
		p, err := launchBot(ctx, spec, logw)
		if err != nil {
			return nil, err
		}
		s.proc, s.name = p, p.name
		n := p.meta.Events()
		if o.dialect == wire.Seed && !p.meta.Listed {
			n = seedDefaultNotify()
		}
		s.bot = enginehttp.NewClient(p.baseURL, o.dialect, n, o.concurrency)
	}
	if o.decisionTO > 0 {
		s.bot.DecisionTimeout = o.decisionTO
	}
	if o.notifyTO > 0 {
		s.bot.NotifyTimeout = o.notifyTO
	}
	return s, nil
}

// seedDefaultNotify is the seed document's five notifications (it does not
// know negotiation-completed).
func seedDefaultNotify() [6]bool {
	n := meta.AllEvents()
	n[giretra.NegotiationCompleted] = false
	return n
}

// player makes the seat's player for match i. slot is the order of
// creation within the side (the engine's factory seed counter), base the
// side's seed base.
func (s *side) player(seat giretra.Position, i, slot int, base int64, seeded bool) giretra.Player {
	if s.bot != nil {
		var seed *int64
		if seeded {
			v := base + int64(2*i+slot)
			seed = &v
		}
		return enginehttp.NewSeat(s.bot, seat, seed)
	}
	p, _ := agents.New(s.agent, rand.New(rand.NewPCG(uint64(base), uint64(4*i+int(seat)))))
	return p
}

// Decision kinds, in the engine's DecisionType order.
const (
	kindCut = iota
	kindNegotiation
	kindCardPlay
	kindNotification
	nKinds
)

var kindNames = [nKinds]string{"Cut", "Negotiation", "CardPlay", "Notification"}

// violation is a rule or time-limit breach by the bot under test.
type violation struct {
	Kind   string `json:"kind"`
	Match  int    `json:"match"`
	Deal   int    `json:"deal"`
	Detail string `json:"detail"`
}

// matchRecord is everything observed in one match.
type matchRecord struct {
	Index   int // 0-based
	ATeam   giretra.Team
	Dealer  giretra.Position
	Result  giretra.MatchResult
	Err     error
	ErrSide int // side whose seat failed (0 = a, 1 = b), -1 if none/unknown

	mu         sync.Mutex
	Violations []violation
	Timings    [2][nKinds][]time.Duration // per side
	Warnings   [2][]string                // notification failures per side
	Decisions  []string                   // side a's decisions, when recorded
}

func (r *matchRecord) time(sideIdx, kind int, d time.Duration) {
	r.mu.Lock()
	r.Timings[sideIdx][kind] = append(r.Timings[sideIdx][kind], d)
	r.mu.Unlock()
}

// watched wraps a seat's player to time its decisions and notifications,
// as the engine's ValidatingPlayerAgent does.
type watched struct {
	inner   giretra.Player
	side    int
	seat    giretra.Position
	rec     *matchRecord
	limitMS int  // decision time limit for violations (validate -timeout), 0 = none
	record  bool // keep side a's decisions (validate -d)
}

func dealNo(m *giretra.MatchState) int {
	if m == nil {
		return 0
	}
	return len(m.Deals) + 1
}

func (w *watched) check(kind int, d time.Duration, m *giretra.MatchState, decision string) {
	w.rec.time(w.side, kind, d)
	if w.record && w.side == 0 {
		w.rec.mu.Lock()
		w.rec.Decisions = append(w.rec.Decisions, kindNames[kind]+" "+decision)
		w.rec.mu.Unlock()
	}
	if w.limitMS > 0 && d > time.Duration(w.limitMS)*time.Millisecond && w.side == 0 {
		w.rec.mu.Lock()
		w.rec.Violations = append(w.rec.Violations, violation{Kind: kindNames[kind], Match: w.rec.Index + 1, Deal: dealNo(m),
			Detail: fmt.Sprintf("%v: response time %.1fms exceeded the limit of %dms", w.seat, float64(d)/1e6, w.limitMS)})
		w.rec.mu.Unlock()
	}
}

func (w *watched) ChooseCut(ctx context.Context, seat giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	t := time.Now()
	c, err := w.inner.ChooseCut(ctx, seat, m)
	w.check(kindCut, time.Since(t), m, fmt.Sprintf("(%d, %v)", c.Position, c.FromTop))
	return c, err
}

func (w *watched) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	t := time.Now()
	a, err := w.inner.ChooseAction(ctx, v)
	w.check(kindNegotiation, time.Since(t), v.Match, a.String())
	return a, err
}

func (w *watched) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	t := time.Now()
	c, err := w.inner.ChooseCard(ctx, v)
	w.check(kindCardPlay, time.Since(t), v.Match, c.String())
	return c, err
}

// Notify times the notifications that really go out (a bot server's
// disabled or pre-session ones are not counted) and records failures as
// warnings; they never stop the match.
func (w *watched) Notify(ctx context.Context, seat giretra.Position, e *giretra.Event) error {
	hs, isHTTP := w.inner.(*enginehttp.Seat)
	if isHTTP && !hs.WillSend(e.Kind) {
		return w.inner.Notify(ctx, seat, e)
	}
	t := time.Now()
	err := w.inner.Notify(ctx, seat, e)
	w.rec.time(w.side, kindNotification, time.Since(t))
	if err != nil && ctx.Err() == nil {
		w.rec.mu.Lock()
		w.rec.Warnings[w.side] = append(w.rec.Warnings[w.side],
			fmt.Sprintf("match %d deal %d %v %s: %v", w.rec.Index+1, dealNo(e.Match), seat, e.Kind, err))
		w.rec.mu.Unlock()
	}
	return nil
}

// plan is how a run lays out its matches.
type plan struct {
	matches     int
	target      int
	sweep       int // ColourSweepPoints: 0 = a Colour sweep wins the match
	seed        int64
	seeded      bool
	seats       string // team1, team2, alternate
	concurrency int
	limitMS     int  // validate -timeout
	abortOnErr  bool // benchmark: the engine aborts the whole run
	record      bool // record side a's decisions (validate -d)
	aSeedShift  int64
	bSeed       *int64 // side b's seed base if not seed+10000
}

// layout gives match i's team for side a, its first dealer and its deck
// stream. With alternate seats, matches 2k and 2k+1 share the first dealer
// and the decks, with the teams swapped.
func (p *plan) layout(i int) (aTeam giretra.Team, dealer giretra.Position, deck uint64) {
	switch p.seats {
	case "team2":
		return giretra.Team2, giretra.Position(i % 4), uint64(i)
	case "alternate":
		return giretra.Team(i % 2), giretra.Position((i / 2) % 4), uint64(i / 2)
	}
	return giretra.Team1, giretra.Position(i % 4), uint64(i)
}

// playOne plays match i.
func playOne(ctx context.Context, p *plan, a, b *side, i int) *matchRecord {
	aTeam, dealer, deck := p.layout(i)
	rec := &matchRecord{Index: i, ATeam: aTeam, Dealer: dealer, ErrSide: -1}
	var ps [4]giretra.Player
	var slots [2]int
	for seat := range giretra.Position(4) {
		sd, base, which := a, p.seed+p.aSeedShift, 0
		if seat.Team() != aTeam {
			sd, base, which = b, p.seed+10000, 1
			if p.bSeed != nil {
				base = *p.bSeed
			}
		}
		ps[seat] = &watched{inner: sd.player(seat, i, slots[which], base, p.seeded), side: which, seat: seat, rec: rec,
			limitMS: p.limitMS, record: p.record}
		slots[which]++
	}
	cfg := giretra.MatchConfig{TargetScore: p.target, FirstDealer: dealer, ColourSweepPoints: p.sweep}
	rng := rand.New(rand.NewPCG(uint64(p.seed)+50000, deck))
	rec.Result, rec.Err = giretra.RunMatch(ctx, ps, cfg, rng, nil)
	if rec.Err != nil {
		var ie *giretra.IllegalError
		var de *giretra.DecisionError
		switch {
		case ctx.Err() != nil && !errors.As(rec.Err, &ie):
			// Cut short by an interrupt or the benchmark's abort: the
			// request failed because it was cancelled, not by the bot's fault.
			rec.Err = ctx.Err()
		case errors.As(rec.Err, &ie):
			rec.ErrSide = sideOf(ie.Seat, aTeam)
			if rec.ErrSide == 0 {
				rec.Violations = append(rec.Violations, violation{Kind: ie.Kind, Match: i + 1, Deal: dealNo(&rec.Result.Final), Detail: ie.Error()})
			}
		case errors.As(rec.Err, &de):
			rec.ErrSide = sideOf(de.Seat, aTeam)
		}
	}
	return rec
}

func sideOf(seat giretra.Position, aTeam giretra.Team) int {
	if seat.Team() == aTeam {
		return 0
	}
	return 1
}

// playAll plays the planned matches, concurrency at a time, calling done
// after each (from one goroutine at a time). Records come back in match
// order; a nil entry is a match never played (run aborted or interrupted).
func playAll(ctx context.Context, p *plan, a, b *side, done func(*matchRecord)) []*matchRecord {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	recs := make([]*matchRecord, p.matches)
	jobs := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(1, p.concurrency) {
		wg.Go(func() {
			for i := range jobs {
				r := playOne(ctx, p, a, b, i)
				mu.Lock()
				recs[i] = r
				if r.Err != nil && p.abortOnErr && ctx.Err() == nil {
					cancel()
				}
				if done != nil {
					done(r)
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i := range p.matches {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return recs
}
