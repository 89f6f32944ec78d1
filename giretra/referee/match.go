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
	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/wire"
)

// side is one bot: an in-process player or a bot server (by URL or
// launched from its folder).
type side struct {
	spec  string // as given on the command line
	name  string
	entry players.Entry // what spec names
	bot   *remote.Client
	proc  *players.Launched
	// make, when set, makes the side's in-process players instead of the
	// entry (giretra-strength's players): for seat in the match numbered
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
	s.proc.Stop()
}

// isAgent reports whether the side is the giretra/agents player name.
func (s *side) isAgent(name string) bool { return s.bot == nil && s.entry.Agent == name }

// needsDeal reports whether the side's players must be told the hands in
// play (oracles).
func (s *side) needsDeal() bool { return s != nil && (s.make != nil || s.entry.NeedsDeal()) }

// sideOptions are the flags that shape HTTP sides.
type sideOptions struct {
	Dialect         wire.Dialect
	Notify          *[6]bool // for bots given by URL; nil = the dialect's default
	Concurrency     int
	DecisionTimeout time.Duration
	NotifyTimeout   time.Duration
	Log             func(msg string) // the launcher's messages; nil: none
}

// openSide opens a resolved bot: an in-process player, a URL, or a folder
// holding bot.meta.json (launched as the engine does).
func openSide(ctx context.Context, spec string, e players.Entry, o sideOptions) (*side, error) {
	s := &side{spec: spec, name: e.Name, entry: e}
	switch {
	case e.InProcess():
		return s, nil
	case e.URL != "":
		n := players.AllEvents()
		switch {
		case o.Notify != nil:
			n = *o.Notify
		case o.Dialect == wire.Seed:
			n = seedDefaultNotify()
		}
		s.bot = remote.NewClient(e.URL, o.Dialect, n, o.Concurrency)
	default:
		p, err := players.Launch(ctx, e.Dir, o.Log)
		if err != nil {
			return nil, &InfraError{err}
		}
		s.proc = p
		if s.name == "" {
			s.name = p.Name
		}
		n := p.Events
		if o.Dialect == wire.Seed && !p.Meta.Listed {
			n = seedDefaultNotify()
		}
		s.bot = remote.NewClient(p.URL, o.Dialect, n, o.Concurrency)
	}
	if o.DecisionTimeout > 0 {
		s.bot.DecisionTimeout = o.DecisionTimeout
	}
	if o.NotifyTimeout > 0 {
		s.bot.NotifyTimeout = o.NotifyTimeout
	}
	return s, nil
}

// seedDefaultNotify is the seed document's five notifications (it does not
// know negotiation-completed).
func seedDefaultNotify() [6]bool {
	n := players.AllEvents()
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
	p, _ := s.entry.Player(rand.New(rand.NewPCG(uint64(base), uint64(4*k+int(seat)))), deal)
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

// watched is a seat as the referee runs it: players.Seat times each
// decision and records a bot server's calls, as the engine's
// ValidatingPlayerAgent does; watched adds the run's timings, side a's
// decisions and time limit, the cuts, bids and events of the record.
type watched struct {
	*players.Seat
	side    int
	seat    giretra.Position
	rec     *matchRecord
	maxTime time.Duration  // a slower decision of side a is a violation (validate -timeout); 0: none
	keep    bool           // keep side a's decisions (validate -d)
	w       *record.Writer // the match's record, nil when not recording
	events  bool           // this seat passes the game's events to w
	fixCut  func(deal int) giretra.Cut
}

func dealNo(m *giretra.MatchState) int {
	if m == nil {
		return 0
	}
	return len(m.Deals) + 1
}

func newWatched(inner giretra.Player, side int, seat giretra.Position, rec *matchRecord, p *plan, w *record.Writer) *watched {
	wp := &watched{Seat: players.NewSeat(seat, inner, p.dialect), side: side, seat: seat, rec: rec, maxTime: p.maxTime, keep: p.keep,
		w: w, events: seat == giretra.Bottom}
	if w != nil {
		wp.Record = w
	}
	wp.Decided = wp.decided
	wp.Notified = wp.notified
	return wp
}

// decided times a decision and checks side a's against the time limit.
func (w *watched) decided(d players.Decision) {
	kind := kindOf(d.Kind)
	w.rec.time(w.side, kind, d.Took)
	if w.keep && w.side == sideA {
		w.rec.mu.Lock()
		w.rec.Decisions = append(w.rec.Decisions, d.Kind+" "+d.Answer)
		w.rec.mu.Unlock()
	}
	if w.maxTime > 0 && d.Took > w.maxTime && w.side == sideA {
		detail := fmt.Sprintf("%v: response time %.1fms exceeded the limit of %dms", w.seat, float64(d.Took)/1e6, w.maxTime.Milliseconds())
		w.rec.mu.Lock()
		w.rec.Violations = append(w.rec.Violations, Violation{Kind: d.Kind, Match: w.rec.Index + 1, Deal: dealNo(d.Match), Detail: detail})
		w.rec.mu.Unlock()
		if w.w != nil {
			w.w.Violation(w.seat, d.Kind, detail, d.Line)
		}
	}
}

// kindOf is the index of a record kind in kindNames.
func kindOf(kind string) int {
	for k, name := range kindNames {
		if name == kind {
			return k
		}
	}
	return kindNotification
}

// notified times a notification and keeps a failed one as a warning: it
// never stops the match.
func (w *watched) notified(ctx context.Context, seat giretra.Position, e *giretra.Event, d time.Duration, err error) {
	w.rec.time(w.side, kindNotification, d)
	if err != nil && ctx.Err() == nil {
		w.rec.mu.Lock()
		w.rec.Warnings[w.side] = append(w.rec.Warnings[w.side],
			fmt.Sprintf("match %d deal %d %v %s: %v", w.rec.Index+1, dealNo(e.Match), seat, e.Kind, err))
		w.rec.mu.Unlock()
	}
}

// ChooseCut records the cut the deal uses: the player's, or the
// referee's in a duplicate (the player's then shown as asked).
func (w *watched) ChooseCut(ctx context.Context, seat giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	c, err := w.Seat.ChooseCut(ctx, seat, m)
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

// ChooseAction records an offered bid.
func (w *watched) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	a, err := w.Seat.ChooseAction(ctx, v)
	if w.w != nil && err == nil {
		if o, ok := giretra.Offered(a, v.Valid); ok {
			w.w.Bid(o)
		}
	}
	return a, err
}

// Notify records the game's events (one seat does) and the contracts'
// announcers, then passes e on. A notification that fails never stops
// the match: it is a warning (notified).
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
	_ = w.Seat.Notify(ctx, seat, e)
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
	maxTime      time.Duration // validate -timeout
	abortOnErr   bool          // benchmark: the engine aborts the whole run on any error
	keep         bool          // keep side a's decisions (validate -d)
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
		wp := newWatched(inner, which, seat, rec, p, w)
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
		if sd.needsDeal() {
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
