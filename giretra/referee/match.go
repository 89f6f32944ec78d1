package referee

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/wire"
)

// side is one bot: an in-process agent or a bot server (by URL or
// launched from its folder).
type side struct {
	spec  string // as given on the command line
	name  string
	agent string
	bot   *remote.Client
	proc  *botProcess
	// make, when set, makes the side's in-process players instead of the
	// agent (giretra-strength's players): for seat in the match numbered
	// match, deal giving oracle players the hands in play.
	make func(seat giretra.Position, match int, deal func() ([4]giretra.Set, bool)) giretra.Player
}

func (s *side) close() {
	if s == nil {
		return
	}
	if s.bot != nil {
		s.bot.Close()
	}
	s.proc.stop()
}

// sideOptions are the flags that shape HTTP sides.
type sideOptions struct {
	Dialect     wire.Dialect
	Notify      *[6]bool // for bots given by URL; nil = the dialect's default
	Concurrency int
	DecisionTO  time.Duration
	NotifyTO    time.Duration
	Log         func(msg string) // the launcher's messages; nil: none
}

// openSide opens a resolved bot: an agent, a URL, or a folder holding
// bot.meta.json (launched as the engine does).
func openSide(ctx context.Context, spec string, bs BotSpec, o sideOptions) (*side, error) {
	s := &side{spec: spec, name: bs.Name}
	switch {
	case bs.Agent != "":
		s.agent = bs.Agent
		return s, nil
	case bs.URL != "":
		n := AllEvents()
		switch {
		case o.Notify != nil:
			n = *o.Notify
		case o.Dialect == wire.Seed:
			n = seedDefaultNotify()
		}
		s.bot = remote.NewClient(bs.URL, o.Dialect, n, o.Concurrency)
	default:
		p, err := launchBot(ctx, bs.Dir, o.Log)
		if err != nil {
			return nil, err
		}
		s.proc, s.name = p, p.name
		n := BotEvents(p.meta)
		if o.Dialect == wire.Seed && !p.meta.Listed {
			n = seedDefaultNotify()
		}
		s.bot = remote.NewClient(p.baseURL, o.Dialect, n, o.Concurrency)
	}
	if o.DecisionTO > 0 {
		s.bot.DecisionTimeout = o.DecisionTO
	}
	if o.NotifyTO > 0 {
		s.bot.NotifyTimeout = o.NotifyTO
	}
	return s, nil
}

// seedDefaultNotify is the seed document's five notifications (it does not
// know negotiation-completed).
func seedDefaultNotify() [6]bool {
	n := AllEvents()
	n[giretra.NegotiationCompleted] = false
	return n
}

// player makes the seat's player for the side's k-th match. slot is the
// order of creation within the side in that match (the engine's factory
// seed counter), base the side's seed base.
func (s *side) player(seat giretra.Position, k, slot int, base int64, seeded bool, deal func() ([4]giretra.Set, bool)) giretra.Player {
	if s.make != nil {
		return s.make(seat, k, deal)
	}
	if s.bot != nil {
		var seed *int64
		if seeded {
			v := base + int64(2*k+slot)
			seed = &v
		}
		return remote.NewSeat(s.bot, seat, seed)
	}
	p, _ := agents.New(s.agent, rand.New(rand.NewPCG(uint64(base), uint64(4*k+int(seat)))))
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

var kindNames = [nKinds]string{record.KindCut, record.KindNegotiation, record.KindCardPlay, record.KindNotification}

// Violation is a rule or time-limit breach by the bot under test.
type Violation struct {
	Kind   string `json:"kind"`
	Match  int    `json:"match"`
	Deal   int    `json:"deal"`
	Detail string `json:"detail"`
}

// Sides of a match: the first bot, the second, the first bot's partner.
const (
	sideA = iota
	sideB
	sidePartner
	nSides
)

// matchRecord is everything observed in one match.
type matchRecord struct {
	Index   int // 0-based
	Game    *game
	ATeam   giretra.Team
	Dealer  giretra.Position
	Result  giretra.MatchResult
	Err     error
	ErrSide int // side whose seat failed (sideA, sideB, sidePartner), -1 if none/unknown

	mu         sync.Mutex
	Violations []Violation
	Timings    [nSides][nKinds][]time.Duration
	Warnings   [nSides][]string // notification failures
	Decisions  []string         // side a's decisions, when kept
	RecordErr  error            // writing the record failed
	// Announcers are the seats that won each deal's bidding, in deal order
	// (a deal without a contract adds none).
	Announcers []giretra.Position
}

func (r *matchRecord) time(sideIdx, kind int, d time.Duration) {
	r.mu.Lock()
	r.Timings[sideIdx][kind] = append(r.Timings[sideIdx][kind], d)
	r.mu.Unlock()
}

// watched wraps a seat's player to time its decisions and notifications,
// as the engine's ValidatingPlayerAgent does, and to write the record.
type watched struct {
	inner   giretra.Player
	side    int
	seat    giretra.Position
	rec     *matchRecord
	limitMS int  // decision time limit for violations (validate -timeout), 0 = none
	keep    bool // keep side a's decisions (validate -d)

	w       *record.Writer // the match's record, nil when not recording
	events  bool           // this seat passes the game's events to w
	http    *remote.Seat   // the inner player, when it is a bot server's seat
	dialect wire.Dialect
	mul     giretra.Multiplier // the deal's multiplier, for the seed dialect's card requests
	fixCut  func(deal int) giretra.Cut
}

func dealNo(m *giretra.MatchState) int {
	if m == nil {
		return 0
	}
	return len(m.Deals) + 1
}

// check times a decision, records its call and its violations.
func (w *watched) check(kind int, d time.Duration, m *giretra.MatchState, decision string, endpoint string, request func() any, answer any, err error) {
	w.rec.time(w.side, kind, d)
	line := 0
	if w.w != nil && w.http != nil {
		line = w.w.Call(w.seat, kindNames[kind], endpoint, request(), answer, d, err)
	}
	if w.keep && w.side == sideA {
		w.rec.mu.Lock()
		w.rec.Decisions = append(w.rec.Decisions, kindNames[kind]+" "+decision)
		w.rec.mu.Unlock()
	}
	if w.limitMS > 0 && d > time.Duration(w.limitMS)*time.Millisecond && w.side == sideA {
		detail := fmt.Sprintf("%v: response time %.1fms exceeded the limit of %dms", w.seat, float64(d)/1e6, w.limitMS)
		w.rec.mu.Lock()
		w.rec.Violations = append(w.rec.Violations, Violation{Kind: kindNames[kind], Match: w.rec.Index + 1, Deal: dealNo(m), Detail: detail})
		w.rec.mu.Unlock()
		if w.w != nil {
			w.w.Violation(w.seat, kindNames[kind], detail, line)
		}
	}
}

func (w *watched) ChooseCut(ctx context.Context, seat giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	t := time.Now()
	c, err := w.inner.ChooseCut(ctx, seat, m)
	var answer any
	if err == nil {
		answer = wire.CutAnswer{Position: c.Position, FromTop: c.FromTop}
	}
	w.check(kindCut, time.Since(t), m, fmt.Sprintf("(%d, %v)", c.Position, c.FromTop),
		"choose-cut", func() any { return wire.EncodeCut(w.dialect, m) }, answer, err)
	if err != nil || !c.Valid() {
		return c, err // the match stops on it, as in the engine
	}
	applied, asked := c, (*giretra.Cut)(nil)
	if w.fixCut != nil {
		applied, asked = w.fixCut(len(m.Deals)), &c
	}
	if w.w != nil {
		w.w.Cut(seat, applied, asked)
	}
	return applied, nil
}

func (w *watched) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	t := time.Now()
	a, err := w.inner.ChooseAction(ctx, v)
	var answer any
	if err == nil {
		answer = wire.FromValidAction(a)
	}
	w.check(kindNegotiation, time.Since(t), v.Match, a.String(),
		"choose-negotiation-action", func() any { return wire.EncodeBid(w.dialect, v) }, answer, err)
	if w.w != nil && err == nil {
		for _, o := range v.Valid {
			if o.SameChoice(a) {
				w.w.Bid(o)
				break
			}
		}
	}
	return a, err
}

func (w *watched) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	t := time.Now()
	c, err := w.inner.ChooseCard(ctx, v)
	var answer any
	if c <= 31 { // a card not offered is an error with the card
		answer = wire.FromCard(c)
	}
	w.check(kindCardPlay, time.Since(t), v.Match, c.String(),
		"choose-card", func() any { return wire.EncodeCard(w.dialect, v, w.mul) }, answer, err)
	return c, err
}

// Notify times the notifications that really go out (a bot server's
// disabled or pre-session ones are not counted) and records failures as
// warnings; they never stop the match.
func (w *watched) Notify(ctx context.Context, seat giretra.Position, e *giretra.Event) error {
	if w.events {
		if w.w != nil {
			w.w.Event(e)
		}
		if e.Kind == giretra.NegotiationCompleted && e.Negotiation != nil {
			if st, err := e.Negotiation.State(); err == nil {
				if c, ok := st.Contract(); ok {
					w.rec.mu.Lock()
					w.rec.Announcers = append(w.rec.Announcers, c.Announcer)
					w.rec.mu.Unlock()
				}
			}
		}
	}
	switch e.Kind { // as remote.Seat tracks it, for the recorded card requests
	case giretra.DealStarted:
		w.mul = giretra.Normal
	case giretra.NegotiationCompleted:
		if st, err := e.Negotiation.State(); err == nil {
			if c, ok := st.Contract(); ok {
				w.mul = c.Multiplier
			}
		}
	}
	if w.http != nil && !w.http.WillSend(e.Kind) {
		return w.inner.Notify(ctx, seat, e)
	}
	t := time.Now()
	err := w.inner.Notify(ctx, seat, e)
	d := time.Since(t)
	w.rec.time(w.side, kindNotification, d)
	if w.w != nil && w.http != nil {
		w.w.Call(seat, record.KindNotification, "notify/"+e.Kind.String(), nil, nil, d, err)
	}
	if err != nil && ctx.Err() == nil {
		w.rec.mu.Lock()
		w.rec.Warnings[w.side] = append(w.rec.Warnings[w.side],
			fmt.Sprintf("match %d deal %d %v %s: %v", w.rec.Index+1, dealNo(e.Match), seat, e.Kind, err))
		w.rec.mu.Unlock()
	}
	return nil
}

// plan is the run-wide rules of the matches.
type plan struct {
	command      string // for the records
	matches      int
	target       int
	sweep        int // ColourSweepPoints: 0 = a Colour sweep wins the match
	seed         int64
	seeded       bool
	deckSeed     int64  // the deck streams' seed: seed+50000, or drawn (--shuffle false)
	seats        string // team1, team2, alternate
	concurrency  int
	limitMS      int  // validate -timeout
	abortOnErr   bool // benchmark: the engine aborts the whole run on any error
	keep         bool // keep side a's decisions (validate -d)
	aSeedShift   int64
	bSeed        *int64 // side b's seed base if not seed+10000
	recordDir    string
	recordPrefix string // file names: <prefix>-0001.jsonl ("match" by default)
	fixCuts      bool   // benchmark -duplicate
	dialect      wire.Dialect
}

// game is one match to play: who, where, with which decks.
type game struct {
	index   int // 0-based, in the run
	a, b    *side
	partner *side // nil: side a plays both seats of its team
	aTeam   giretra.Team
	dealer  giretra.Position
	deck    uint64 // deck stream
	fixCuts bool   // duplicate: the referee's cuts, the same for every table of the stream
	// seeds are the seed bases of sides a, b and partner; k their match
	// counters (session seeds base+2k+slot, agents' random streams).
	seeds   [nSides]int64
	k       [nSides]int
	round   int // swiss round, for the record
	dealSeq int // duplicate deal sequence, for the record
	// deckPCG, when set, seeds the deck stream instead of the plan's deck
	// seed and deck (giretra-strength's streams).
	deckPCG *[2]uint64
	// cut, when set, is every deal's cut, asked of no player
	// (giretra-strength -duplicate).
	cut func(deal int) giretra.Cut
}

// layout is the validate and benchmark game i between a and b. With
// alternate seats, matches 2k and 2k+1 share the first dealer and the
// decks, with the teams swapped.
func (p *plan) layout(i int, a, b, partner *side) game {
	g := game{index: i, a: a, b: b, partner: partner, aTeam: giretra.Team1, dealer: giretra.Position(i % 4), deck: uint64(i)}
	switch p.seats {
	case "team2":
		g.aTeam = giretra.Team2
	case "alternate":
		g.aTeam, g.dealer, g.deck = giretra.Team(i%2), giretra.Position((i/2)%4), uint64(i/2)
		if p.fixCuts { // benchmark -duplicate
			g.fixCuts, g.dealSeq = true, i/2+1
		}
	}
	g.seeds = [nSides]int64{p.seed + p.aSeedShift, p.seed + 10000, p.seed + 20000}
	if p.bSeed != nil {
		g.seeds[sideB] = *p.bSeed
	}
	g.k = [nSides]int{i, i, i}
	return g
}

// fixedCut is the referee's cut of a deal of a duplicate deal sequence:
// any cut of a random deck is as good as another, and every table of the
// sequence gets the same one.
func (p *plan) fixedCut(deck uint64, deal int) giretra.Cut {
	r := rand.New(rand.NewPCG(uint64(p.deckSeed)^0x6375747321, deck<<16|uint64(deal)))
	return giretra.Cut{Position: 6 + r.IntN(21), FromTop: r.IntN(2) == 0}
}

// seatSide is the side that plays seat in game g.
func (g *game) seatSide(seat giretra.Position) int {
	switch {
	case seat.Team() != g.aTeam:
		return sideB
	case g.partner != nil && seat >= giretra.Top:
		return sidePartner // Top or Right: the partner's seat
	}
	return sideA
}

func (g *game) sides() [nSides]*side { return [nSides]*side{g.a, g.b, g.partner} }

// header is the record's first line for game g.
func (p *plan) header(g *game) record.Header {
	h := record.Header{Command: p.command, Match: g.index + 1, Round: g.round, Deals: g.dealSeq, Seed: p.seed,
		Target: p.target, Sweep: p.sweep, FirstDealer: record.Seat(g.dealer), Subject: g.a.name, SubjectTeam: record.Team(g.aTeam)}
	for seat := range giretra.Position(4) {
		s := g.sides()[g.seatSide(seat)]
		h.Players[seat], h.HTTP[seat] = s.name, s.bot != nil
	}
	return h
}

// deckRNG is game g's deck stream (a fresh copy on each call).
func (p *plan) deckRNG(g *game) *rand.Rand {
	if g.deckPCG != nil {
		return rand.New(rand.NewPCG(g.deckPCG[0], g.deckPCG[1]))
	}
	return rand.New(rand.NewPCG(uint64(p.deckSeed), g.deck))
}

// playOne plays game g.
func playOne(ctx context.Context, p *plan, g game) *matchRecord {
	rec := &matchRecord{Index: g.index, Game: &g, ATeam: g.aTeam, Dealer: g.dealer, ErrSide: -1}
	var w *record.Writer
	if p.recordDir != "" {
		prefix := p.recordPrefix
		if prefix == "" {
			prefix = "match"
		}
		var err error
		w, err = record.Create(filepath.Join(p.recordDir, fmt.Sprintf("%s-%04d.jsonl", prefix, g.index+1)), p.header(&g), p.deckRNG(&g))
		if err != nil {
			rec.Err, rec.RecordErr = err, err
			return rec
		}
	}
	var ps [4]giretra.Player
	var slots [nSides]int
	var tab table
	for seat := range giretra.Position(4) {
		which := g.seatSide(seat)
		sd := g.sides()[which]
		inner := sd.player(seat, g.k[which], slots[which], g.seeds[which], p.seeded, tab.get)
		slots[which]++
		wp := &watched{inner: inner, side: which, seat: seat, rec: rec, limitMS: p.limitMS, keep: p.keep,
			w: w, events: seat == giretra.Bottom, dialect: p.dialect}
		wp.http, _ = inner.(*remote.Seat)
		switch {
		case g.fixCuts:
			wp.fixCut = func(deal int) giretra.Cut { return p.fixedCut(g.deck, deal) }
		case g.cut != nil:
			wp.fixCut = g.cut // the record shows the cut the match applies
		}
		ps[seat] = wp
	}
	cfg := giretra.MatchConfig{TargetScore: p.target, FirstDealer: g.dealer, ColourSweepPoints: p.sweep, Cut: g.cut}
	for _, sd := range g.sides() {
		if sd != nil && sd.make != nil {
			cfg.Deal = tab.set // for oracle players
		}
	}
	rec.Result, rec.Err = giretra.RunMatch(ctx, ps, cfg, p.deckRNG(&g), nil)
	errSeat := -1
	if rec.Err != nil {
		var ie *giretra.IllegalError
		var de *giretra.DecisionError
		switch {
		case ctx.Err() != nil && !errors.As(rec.Err, &ie):
			// Cut short by an interrupt or the benchmark's abort: the
			// request failed because it was cancelled, not by the bot's fault.
			rec.Err = ctx.Err()
		case errors.As(rec.Err, &ie):
			rec.ErrSide, errSeat = g.seatSide(ie.Seat), int(ie.Seat)
			if rec.ErrSide == sideA {
				rec.Violations = append(rec.Violations, Violation{Kind: ie.Kind, Match: g.index + 1, Deal: dealNo(&rec.Result.Final), Detail: ie.Error()})
				if w != nil {
					w.Violation(ie.Seat, ie.Kind, ie.Error(), w.LastCall(ie.Seat))
				}
			}
		case errors.As(rec.Err, &de):
			rec.ErrSide, errSeat = g.seatSide(de.Seat), int(de.Seat)
		}
	}
	if w != nil {
		if err := w.End(rec.Result, rec.Err, errSeat, errors.Is(rec.Err, context.Canceled)); err != nil {
			rec.RecordErr = err
		}
	}
	return rec
}

// playAll plays the games, concurrency at a time, calling done after each
// (from one goroutine at a time). Records come back in the games' order;
// a nil entry is a match never played (run aborted or interrupted).
// done returns false to stop the run (compare's sequential test).
func playAll(ctx context.Context, p *plan, games []game, done func(*matchRecord) bool) []*matchRecord {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	recs := make([]*matchRecord, len(games))
	jobs := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(1, p.concurrency) {
		wg.Go(func() {
			for i := range jobs {
				r := playOne(ctx, p, games[i])
				mu.Lock()
				recs[i] = r
				if r.Err != nil && p.abortOnErr && ctx.Err() == nil {
					cancel()
				}
				if done != nil && !done(r) {
					cancel()
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i := range games {
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

// layoutAll is the validate and benchmark games.
func (p *plan) layoutAll(a, b, partner *side) []game {
	games := make([]game, p.matches)
	for i := range games {
		games[i] = p.layout(i, a, b, partner)
	}
	return games
}

// prepareRecordDir creates the -record folder.
func prepareRecordDir(dir string) error {
	if dir == "" {
		return nil
	}
	return os.MkdirAll(dir, 0o755)
}

// table holds the deal in play of one match, for oracle players.
type table struct {
	mu    sync.Mutex
	hands [4]giretra.Set
	ok    bool
}

func (t *table) set(_ giretra.Position, hands [4]giretra.Set) {
	t.mu.Lock()
	t.hands, t.ok = hands, true
	t.mu.Unlock()
}

func (t *table) get() ([4]giretra.Set, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.hands, t.ok
}
