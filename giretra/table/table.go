// Package table is the Giretra table of gamebot play: persons at any
// seats (the one who sets the table up, and friends with the links of
// the seats kept for them) with or against any mix of our bot, the
// referee's agents, a bot server by URL and the bots of external-bots/,
// or four bots watched with their hands open. The match is
// giretra.RunMatch, the engine's call order; a person's seat is a
// giretra.Player whose decisions wait for that seat's page. The page
// (page.html, page.js, page.css) holds no rules: it draws the view of its
// seat and sends the actions it offers.
//
// A seat's view is the table's only disclosure: its own hand, the cards
// played, the bids, the finished deals; another seat's cards in play
// only when four bots play, or to a watcher once the match is over; the
// seed the server drew only once the match is over (it deals every
// hand). Every match is recorded in giretra/record's format (giretra-ref
// show and report read it); the review page is giretra/report's deal
// viewer.
package table

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/words"
	"github.com/botarena/gamebot/internal/i18n"
	tables "github.com/botarena/gamebot/internal/table"
)

// Table is one Giretra match at the table.
type Table struct {
	opts    setup
	specs   [4]seatSpec
	people  [4]bool     // the seats persons play
	creator tables.Seat // the seat of the person who set the table up, Watch or Host
	bots    bool        // no person plays: every hand is open, and the creator may pause
	env     tables.Env
	created time.Time
	cancel  context.CancelFunc
	done    chan struct{}
	servers []*launched
	answers chan answer // the person's decisions, to the match

	mu    sync.Mutex
	seq   int
	logN  int
	logs  []logEntry
	match giretra.MatchState
	cur   *dealState          // the deal in play, or the last one
	deals []*dealState        // finished deals
	shown map[tables.Seat]int // the finished deal each seat's page details (1-based); absent: the latest
	// shownAt is the version at which a seat's detail last changed: a
	// deal ended (dealtAt), or the seat asked for another.
	shownAt map[tables.Seat]int
	dealtAt int
	pending *decision // the person's decision the match waits for
	asked   int       // the version at which pending was asked
	cuts    []giretra.Cut
	over    bool
	outcome giretra.MatchResult
	failure string // why the match stopped before its end
	paused  bool
	steps   int
	pace    time.Duration
	wake    chan struct{} // closed when a watch control changes
	mirror  *rand.Rand    // the match's deck stream, shuffled along to know the hands
	ops     []func(*record.Writer)
	dealOps int    // ops up to the end of the last finished deal
	final   []byte // the whole record, once the match is over
}

// dealState is one deal as the table knows it (all of it: the view
// decides what the person sees).
type dealState struct {
	n        int // from 1
	dealer   giretra.Position
	before   [2]int
	deck     [32]giretra.Card
	cut      *cutDone
	full     [4]giretra.Set
	dealt    [4][]giretra.Card // dealt order: five, then three after the bidding
	hands    [4]giretra.Set    // in hand now
	bids     []giretra.Action
	bidding  giretra.Bidding
	contract *giretra.Contract
	hs       giretra.HandState
	result   *giretra.DealResult
	after    [2]int
	values   []valuesView // our bot's card values, in play order
}

type cutDone struct {
	seat  giretra.Position
	cut   giretra.Cut
	fixed bool // a replay's cut: nobody was asked
}

// Kinds of the person's decisions.
const (
	decideCut  = "cut"
	decideBid  = "bid"
	decideCard = "card"
	decideNext = "next" // the deal's summary seen: deal the next one
)

// decision is what the match asks a person, with the options offered.
type decision struct {
	seat  giretra.Position
	kind  string
	bids  []giretra.Action
	cards giretra.Set
}

// answer is the person's decision, checked.
type answer struct {
	cut  giretra.Cut
	bid  giretra.Action
	card giretra.Card
}

// deckRNG is the match's deck stream for seed (a fresh copy each call).
func deckRNG(seed int64) *rand.Rand { return rand.New(rand.NewPCG(uint64(seed), 0x676972657472)) }

// run plays the match and keeps its record.
func (t *Table) run(ctx context.Context, players [4]giretra.Player) {
	defer close(t.done)
	cfg := giretra.MatchConfig{TargetScore: t.opts.target, FirstDealer: t.opts.first, Deal: t.checkDeal}
	res, err := giretra.RunMatch(ctx, players, cfg, deckRNG(t.opts.seed), nil)
	t.finish(ctx, res, err)
}

// finish ends the match: its result, its record (kept, and written to the
// records folder).
func (t *Table) finish(ctx context.Context, res giretra.MatchResult, err error) {
	interrupted := err != nil && ctx.Err() != nil
	t.mu.Lock()
	t.outcome = res
	data, recErr := t.recordLocked(len(t.ops), true, err, interrupted)
	t.final = data
	t.mu.Unlock()
	// The file exists before any view says the match is over.
	if t.env.Records != "" && recErr == nil {
		recErr = os.WriteFile(filepath.Join(t.env.Records, t.fileName()), data, 0o644)
	}
	t.update(func() {
		t.over, t.pending = true, nil
		switch {
		case err == nil:
			t.sayLocked(t.result)
		case interrupted:
			t.failure = "the table was closed"
		default:
			t.failure = err.Error()
			t.sayLocked(func(r reader) string { return r.T("log.stopped", err.Error()) })
		}
		if recErr != nil {
			t.sayLocked(func(r reader) string { return r.T("log.noRecord", recErr.Error()) })
		}
	})
}

// update applies f to the table under its lock, as a new version, and
// wakes the pages waiting for one.
func (t *Table) update(f func()) {
	t.mu.Lock()
	f()
	t.seq++
	t.mu.Unlock()
	t.env.Notify()
}

// logEntry is a line of the log, written for each reader when a view is
// made: "you" is whoever reads it, in their language.
type logEntry struct {
	n    int
	text func(reader) string
}

// say adds a line to the log, read aloud by the page.
func (t *Table) say(text func(reader) string) { t.update(func() { t.sayLocked(text) }) }

func (t *Table) sayLocked(text func(reader) string) {
	t.logN++
	t.logs = append(t.logs, logEntry{n: t.logN, text: text})
	if len(t.logs) > maxLog {
		t.logs = slices.Delete(t.logs, 0, len(t.logs)-maxLog)
	}
}

// maxLog is the log lines a view carries: the page keeps the lines it has
// heard, so a view needs only the latest (a reload shows these).
const maxLog = 12

// onEvent follows the game's events (as told to Bottom, the first seat
// told).
func (t *Table) onEvent(e *giretra.Event) {
	switch e.Kind {
	case giretra.CardPlayed, giretra.MatchEnded:
		if e.Kind == giretra.MatchEnded {
			t.update(func() { t.match = copyMatch(e.Match) })
		}
		return // the record has nothing to keep of them
	}
	snap := snapshot(e)
	t.update(func() {
		t.ops = append(t.ops, func(w *record.Writer) { w.Event(snap) })
		switch e.Kind {
		case giretra.DealStarted:
			t.match = copyMatch(e.Match)
			d := &dealState{n: len(e.Match.Deals) + 1, dealer: e.Match.Dealer, before: e.Match.Points}
			d.deck = giretra.Shuffle(t.mirror)
			d.bidding = giretra.NewBidding(d.dealer)
			t.cur = d
			t.sayLocked(func(r reader) string {
				return r.T("log.deal", d.n, t.who(r, d.dealer), t.who(r, d.dealer.Previous()))
			})
		case giretra.NegotiationCompleted:
			d := t.cur
			st, err := e.Negotiation.State()
			if d == nil || err != nil {
				return
			}
			c, ok := st.Contract()
			if !ok {
				return
			}
			d.contract = &c
			d.hands = d.full
			d.hs = giretra.HandState{Mode: c.Mode, Current: giretra.NewTrick(d.dealer.Next())}
			t.sayLocked(func(r reader) string {
				return r.T("log.contract", r.Contract(c), t.who(r, c.Announcer), t.who(r, d.dealer.Next()))
			})
		case giretra.DealEnded:
			d := t.cur
			if d == nil {
				return
			}
			r := *e.Result
			d.result, d.after = &r, e.Match.Points
			t.match = copyMatch(e.Match)
			t.deals = append(t.deals, d)
			t.dealOps = len(t.ops)
			clear(t.shown) // every page details the deal just over
			t.dealtAt = t.seq + 1
			t.sayLocked(func(r reader) string {
				return r.T("log.dealOver", d.n, t.dealResult(r, d), d.after[0], d.after[1])
			})
		}
	})
}

func copyMatch(m *giretra.MatchState) giretra.MatchState {
	c := *m
	c.Deals = slices.Clone(m.Deals)
	return c
}

// checkDeal compares the hands the table worked out with those the match
// dealt: they are the same cards, or the table would show wrong ones.
func (t *Table) checkDeal(_ giretra.Position, hands [4]giretra.Set) {
	t.update(func() {
		if t.cur == nil || t.cur.full != hands {
			t.failure = "internal error: the table's hands differ from the match's"
			t.sayLocked(func(r reader) string { return r.T("log.mismatch") })
		}
	})
}

// fixedCut is the cut of deal (0-based) in a replay.
func (t *Table) fixedCut(deal int) (giretra.Cut, bool) {
	if deal < len(t.opts.Cuts) {
		c := t.opts.Cuts[deal]
		return giretra.Cut{Position: c.Position, FromTop: c.FromTop}, true
	}
	return giretra.Cut{}, false
}

// applyCut deals the cards as the cut makes them fall.
func (t *Table) applyCut(cutter giretra.Position, c giretra.Cut, fixed bool) {
	t.update(func() { t.cutLocked(cutter, c, fixed) })
}

func (t *Table) cutLocked(cutter giretra.Position, c giretra.Cut, fixed bool) {
	d := t.cur
	if d == nil {
		return
	}
	d.cut = &cutDone{seat: cutter, cut: c, fixed: fixed}
	deck := giretra.CutDeck(d.deck, c)
	hands, next := giretra.DealFirst(&deck, d.dealer)
	full := hands
	giretra.DealRest(&deck, d.dealer, &full, next)
	d.hands, d.full = hands, full
	for p := range 4 {
		d.dealt[p] = d.dealt[p][:0]
		for _, card := range deck {
			if full[p].Has(card) {
				d.dealt[p] = append(d.dealt[p], card)
			}
		}
	}
	if len(t.cuts) == d.n-1 {
		t.cuts = append(t.cuts, c)
	}
	t.ops = append(t.ops, func(w *record.Writer) { w.Cut(cutter, c, nil) })
	if fixed {
		t.sayLocked(func(r reader) string { return r.T("log.cutReplayed", r.Cut(c)) })
	} else {
		t.sayLocked(func(r reader) string { return r.T("log.cut", t.who(r, cutter), r.Cut(c)) })
	}
}

// applyBid adds an accepted action to the deal's bidding.
func (t *Table) applyBid(a giretra.Action) { t.update(func() { t.bidLocked(a) }) }

func (t *Table) bidLocked(a giretra.Action) {
	d := t.cur
	if d == nil {
		return
	}
	_ = d.bidding.Apply(len(d.bids), a)
	d.bids = append(d.bids, a)
	t.ops = append(t.ops, func(w *record.Writer) { w.Bid(a) })
	t.sayLocked(func(r reader) string { return r.T("log.bid", t.whoCap(r, a.Player), r.Bid(a)) })
}

// applyCard plays a card to the trick.
func (t *Table) applyCard(p giretra.Position, c giretra.Card) {
	t.update(func() { t.cardLocked(p, c) })
}

func (t *Table) cardLocked(p giretra.Position, c giretra.Card) {
	d := t.cur
	if d == nil || d.contract == nil {
		return
	}
	d.hands[p] = d.hands[p].Without(c)
	done := d.hs.Play(c)
	t.sayLocked(func(r reader) string { return r.T("log.card", t.whoCap(r, p), r.Card(c)) })
	if done {
		last := &d.hs.Completed[len(d.hs.Completed)-1]
		w := last.Winner(d.hs.Mode)
		pts := last.Points(d.hs.Mode)
		n := len(d.hs.Completed)
		if n == 8 {
			pts += 10
		}
		t.sayLocked(func(r reader) string { return r.T("log.trick", n, t.who(r, w), pts) })
	}
}

// explainer keeps our bot's card values for the deal in play.
func (t *Table) explainer() func(bot.CardValues) {
	return func(cv bot.CardValues) {
		v := valuesOf(cv)
		t.mu.Lock()
		if t.cur != nil && t.cur.n == cv.Deal+1 {
			t.cur.values = append(t.cur.values, v)
		}
		t.mu.Unlock()
	}
}

// gate is where a bot waits before each decision: the pace, when a person
// is there to follow; the pause and the steps, when four bots play.
func (t *Table) gate(ctx context.Context) error {
	for {
		t.mu.Lock()
		if t.bots && t.paused {
			if t.steps > 0 {
				t.steps--
				t.mu.Unlock()
				return ctx.Err()
			}
			wake := t.wake
			t.mu.Unlock()
			select {
			case <-wake:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		pace, wake := t.pace, t.wake
		t.mu.Unlock()
		if pace <= 0 {
			return ctx.Err()
		}
		timer := time.NewTimer(pace)
		select {
		case <-timer.C:
			return nil
		case <-wake: // paused, or a new pace: it applies at once
			timer.Stop()
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		}
	}
}

// ask poses a person a decision and waits for it.
func (t *Table) ask(ctx context.Context, d decision) (answer, error) {
	t.update(func() { t.pending, t.asked = &d, t.seq+1 })
	select {
	case a := <-t.answers:
		return a, nil
	case <-ctx.Done():
		t.mu.Lock()
		t.pending = nil
		t.mu.Unlock()
		return answer{}, ctx.Err()
	}
}

// View is what v's seat may see, in v's language.
func (t *Table) View(v tables.Viewer) (int, any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seq, t.viewLocked(v)
}

// Summary is the table's line in the lobby: its creator's view.
func (t *Table) Summary(p *i18n.Printer) tables.Summary {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := reader{Words: words.Words{P: p}, seat: int(t.creator)}
	s := tables.Summary{Title: r.T("title", t.team(r, giretra.Team1), t.team(r, giretra.Team2)), Over: t.over, Created: t.created, Review: len(t.deals) > 0}
	switch {
	case t.over && t.failure != "":
		s.Status = r.T("status.stopped", t.failure)
	case t.over:
		s.Status = t.result(r)
	case t.pending != nil && tables.Seat(t.pending.seat) == t.creator:
		s.Status = r.T("status.yourTurn")
	case t.cur != nil:
		s.Status = r.T("status.deal", t.cur.n, t.match.Points[0], t.match.Points[1])
	default:
		s.Status = r.T("wait.starting")
	}
	return s
}

// Close stops the match, writes what exists of its record, and stops the
// bot servers the table launched.
func (t *Table) Close() {
	t.cancel()
	<-t.done
	t.stopServers()
}

func (t *Table) stopServers() {
	for _, l := range t.servers {
		l.client.Close()
		l.stop()
	}
}
