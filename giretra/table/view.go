package table

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/giretra/words"
	tables "github.com/botarena/gamebot/internal/table"
)

// The view of one seat, as its page draws it. Cards are two-character
// codes (rank 789TJQKA, suit CDHS: "JH" is the Jack of Hearts), seats
// numbers (0 Bottom, 1 Left, 2 Top, 3 Right), teams 0 (Bottom and Top)
// and 1 (Left and Right). Texts are in the reader's language.
type view struct {
	Watch bool `json:"watch"` // the reader watches
	Bots  bool `json:"bots"`  // no person plays: every hand is open to watchers
	Host  bool `json:"host"`  // the reader may pause, step and pace the bots
	You   int  `json:"you"`   // the reader's seat, -1 watching
	// Lang is the language of the texts.
	Lang   string      `json:"lang"`
	Seats  [4]seatView `json:"seats"`
	Teams  [2]string   `json:"teams"`
	Target int         `json:"target"`
	Score  [2]int      `json:"score"`
	// Seed is shown when the person chose it, when four bots play, or
	// once the match is over: it deals every hand.
	Seed     *int64        `json:"seed,omitempty"`
	Waiting  string        `json:"waiting,omitempty"` // who the table waits for
	Cut      *cutRange     `json:"cut,omitempty"`     // the cuts allowed, when the reader cuts
	Deal     *dealView     `json:"deal,omitempty"`
	Decision *decisionView `json:"decision,omitempty"`
	Deals    []dealLine    `json:"deals"` // the finished deals
	// Detail is one of them, every hand shown: DetailN's, sent only when
	// it changed since the version the page has (the page keeps it).
	Detail  *detailView `json:"detail,omitempty"`
	DetailN int         `json:"detailN"` // the deal detailed, 0: none
	Over    bool        `json:"over"`
	Result  string      `json:"result,omitempty"`
	Won     *bool       `json:"won,omitempty"` // the reader's team won the match (seated readers, once it is over)
	Failure string      `json:"failure,omitempty"`
	Again   *Options    `json:"again,omitempty"` // play these cards again, seats rotated
	// Valid are the actions the person may send now, as Act takes them:
	// what a scripted player (cmd/loadtest -scenario play) picks from.
	Valid  []any     `json:"valid"`
	Paused bool      `json:"paused"`
	Pace   int       `json:"pace"` // ms
	Log    []logLine `json:"log"`
}

// cutRange is how many cards a cut may take.
type cutRange struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

type seatView struct {
	Seat   string     `json:"seat"` // its name for people, in the reader's language
	Name   string     `json:"name"` // who plays it
	Kind   string     `json:"kind"` // you (a person), bot, agent, url, folder
	Cards  int        `json:"cards"`
	Dealer bool       `json:"dealer"`
	Turn   bool       `json:"turn"`
	Bid    string     `json:"bid,omitempty"`  // its last bid this deal
	Hand   []cardCode `json:"hand,omitempty"` // the reader's own; every seat's to a watcher of four bots
	Led    int        `json:"led"`            // tricks this seat led this deal
}

// cardCode is a card's two-character code.
type cardCode = string

type dealView struct {
	N        int           `json:"n"`
	Dealer   int           `json:"dealer"`
	Cutter   int           `json:"cutter"`
	Cut      string        `json:"cut,omitempty"`
	Bids     []bidLine     `json:"bids"`
	Contract *contractView `json:"contract,omitempty"`
	Trick    *trickView    `json:"trick,omitempty"` // on the table: the trick in play, or the one just won
	Last     *trickView    `json:"last,omitempty"`  // the last trick won
	Points   [2]int        `json:"points"`          // card points so far
	Tricks   [2]int        `json:"tricks"`
	Values   []valuesView  `json:"values,omitempty"` // watching: our bot's values this deal
}

type bidLine struct {
	Seat int    `json:"seat"`
	Text string `json:"text"`
	Mode string `json:"mode,omitempty"`
}

type contractView struct {
	Mode       string `json:"mode"`
	Text       string `json:"text"`
	Multiplier string `json:"multiplier"`
	Announcer  int    `json:"announcer"`
	Team       int    `json:"team"`
}

type trickView struct {
	N       int          `json:"n"` // 1..8
	Leader  int          `json:"leader"`
	Cards   []playedCard `json:"cards"`
	Winning int          `json:"winning"` // the seat whose card wins so far
	Done    bool         `json:"done"`
	Points  int          `json:"points"`
}

type playedCard struct {
	Seat int      `json:"seat"`
	Card cardCode `json:"card"`
}

type decisionView struct {
	ID    int         `json:"id"` // changes with each decision asked
	Kind  string      `json:"kind"`
	Text  string      `json:"text"`
	Cards []cardCode  `json:"cards,omitempty"`
	Bids  []bidOption `json:"bids,omitempty"`
	// Why says why the bids not offered are not, one line a reason.
	Why []string `json:"why,omitempty"`
}

type bidOption struct {
	Type string `json:"type"`
	Mode string `json:"mode,omitempty"`
	Text string `json:"text"`
}

type dealLine struct {
	N      int    `json:"n"`
	Text   string `json:"text"`
	Points [2]int `json:"points"` // match points of the deal
	Score  [2]int `json:"score"`  // after it
}

type detailView struct {
	N        int           `json:"n"`
	Dealer   int           `json:"dealer"`
	Cut      string        `json:"cut"`
	Hands    [4][]cardCode `json:"hands"` // as dealt, all eight
	Bids     []bidLine     `json:"bids"`
	Contract *contractView `json:"contract,omitempty"`
	Tricks   []trickView   `json:"tricks"`
	Result   string        `json:"result"`
	Values   []valuesView  `json:"values"`
}

// valuesView is what our bot valued each card it could play at one
// decision.
type valuesView struct {
	Seat      int         `json:"seat"`
	Trick     int         `json:"trick"`
	Method    string      `json:"method"`
	Samples   int         `json:"samples"`
	Chosen    cardCode    `json:"chosen"`
	Heuristic cardCode    `json:"heuristic"`
	Cards     []cardValue `json:"cards"` // best first
}

type cardValue struct {
	Card  cardCode `json:"card"`
	Value float64  `json:"value"`
}

type logLine struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// logFor is the log as r reads it.
func (t *Table) logFor(r reader) []logLine {
	out := make([]logLine, len(t.logs))
	for i, e := range t.logs {
		out[i] = logLine{N: e.n, Text: e.text(r)}
	}
	return out
}

func valuesOf(cv bot.CardValues) valuesView {
	v := valuesView{Seat: int(cv.Seat), Trick: cv.Trick, Method: cv.Method, Samples: cv.Samples, Chosen: cv.Chosen.Short(), Heuristic: cv.Heuristic.Short()}
	for c := range cv.Valid.All() {
		v.Cards = append(v.Cards, cardValue{Card: c.Short(), Value: math.Round(cv.Value[c]*100) / 100})
	}
	slices.SortStableFunc(v.Cards, func(a, b cardValue) int { return cmp.Compare(b.Value, a.Value) })
	return v
}

// viewLocked builds the view of tv's seat, in tv's language.
func (t *Table) viewLocked(tv tables.Viewer) *view {
	r := reader{Words: words.Words{P: tv.P}, seat: int(tv.Seat)}
	if tv.Seat.Watching() {
		r.seat = -1
	}
	v := &view{Watch: r.seat < 0, Bots: t.bots, Host: t.bots && tv.Seat == tables.Host, You: r.seat, Lang: string(tv.P.Lang()),
		Target: t.match.TargetScore, Score: t.match.Points, Over: t.over, Failure: t.failure, Paused: t.paused,
		Pace: int(t.pace.Milliseconds()), Log: t.logFor(r), Deals: []dealLine{}}
	if v.Target == 0 {
		v.Target = t.opts.target
	}
	if t.seedShownLocked() {
		seed := t.opts.seed
		v.Seed = &seed
	}
	v.Teams = [2]string{t.team(r, giretra.Team1), t.team(r, giretra.Team2)}
	d := t.cur
	v.Seats = t.seatsLocked(r, d)
	if d != nil {
		v.Deal = t.dealViewLocked(r, d)
	}
	if !t.over {
		v.Waiting = t.waiting(r)
	}
	if p := t.pending; p != nil && int(p.seat) == r.seat {
		v.Decision = t.decisionLocked(r, p, d)
		if p.kind == decideCut {
			v.Cut = &cutRange{Min: 6, Max: 26}
		}
	}
	for _, fd := range t.deals {
		v.Deals = append(v.Deals, dealLine{N: fd.n, Text: t.dealResult(r, fd), Points: fd.result.MatchPoints, Score: fd.after})
	}
	if n := len(t.deals); n > 0 {
		i := n - 1
		if s := t.shown[tv.Seat]; s > 0 && s <= n {
			i = s - 1
		}
		v.DetailN = t.deals[i].n
		if max(t.dealtAt, t.shownAt[tv.Seat]) > tv.Since {
			v.Detail = t.detailLocked(r, t.deals[i])
		}
	}
	if t.over {
		if t.failure == "" {
			v.Result = t.result(r)
			if r.seat >= 0 && t.outcome.Winner != giretra.NoTeam {
				won := giretra.Position(r.seat).Team() == t.outcome.Winner
				v.Won = &won
			}
		}
		v.Again = t.opts.again(t.cuts)
	}
	return v
}

// seatsLocked are the seats as r sees them: the reader's own hand, or
// every hand to a watcher where four bots play or once the match is over.
func (t *Table) seatsLocked(r reader, d *dealState) [4]seatView {
	var out [4]seatView
	turn, turnOK := giretra.Position(0), false
	if d != nil && !t.over {
		turn, turnOK = d.turn()
	}
	open := r.seat < 0 && (t.bots || t.over)
	for p := range giretra.Position(4) {
		sv := seatView{Seat: r.Seat(p), Name: t.name(r, p), Kind: t.specs[p].kind, Turn: turnOK && turn == p}
		if d != nil {
			sv.Cards = d.hands[p].Count()
			sv.Dealer = d.dealer == p
			for _, a := range d.bids {
				if a.Player == p {
					sv.Bid = r.Bid(a)
				}
			}
			if int(p) == r.seat || open {
				sv.Hand = cardCodes(d.hands[p], d.mode())
			}
			for i := range d.hs.Completed {
				if d.contract != nil && d.hs.Completed[i].Leader == p {
					sv.Led++
				}
			}
		}
		out[p] = sv
	}
	return out
}

// decisionLocked is the decision p asks the reader, with its options.
func (t *Table) decisionLocked(r reader, p *decision, d *dealState) *decisionView {
	dv := &decisionView{ID: t.asked, Kind: p.kind, Text: r.T("prompt.yourTurn", r.prompt(p.kind))}
	switch p.kind {
	case decideBid:
		dv.Bids = bidOptions(r, p.bids)
		dv.Why = t.whyNot(r, d, p.bids)
	case decideCard:
		dv.Cards = cardCodes(p.cards, d.mode())
	}
	return dv
}

// whyNot says why the announcements and the Accept that are not offered
// now are not: the engine's rules, in the reader's words.
func (t *Table) whyNot(r reader, d *dealState, offers []giretra.Action) []string {
	b := &d.bidding
	me := b.CurrentPlayer
	var below, colours []string
	missing := false
	for m := giretra.Mode(0); m <= giretra.AllTrumps; m++ {
		if _, ok := offered(giretra.Action{Type: giretra.Announce, Mode: m}, offers); ok {
			continue
		}
		missing = true
		switch {
		case b.CurrentBid != giretra.NoMode && m <= b.CurrentBid:
			below = append(below, r.Mode(m))
		case m.IsColour() && b.TeamColour[me.Team()] != giretra.NoMode:
			colours = append(colours, r.Mode(m))
		}
	}
	var out []string
	switch {
	case !missing:
	case b.Locked:
		out = append(out, r.T("why.locked"))
	case acceptedSinceAnnounce(d.bids, me):
		out = append(out, r.T("why.accepted"))
	default:
		if len(below) > 0 {
			out = append(out, r.T("why.below", strings.Join(below, ", "), r.Mode(b.CurrentBid)))
		}
		if len(colours) > 0 {
			out = append(out, r.T("why.colour", strings.Join(colours, ", "), r.Mode(b.TeamColour[me.Team()])))
		}
	}
	if b.CurrentBid == giretra.NoMode {
		out = append(out, r.T("why.open"))
	}
	return out
}

// acceptedSinceAnnounce reports whether p accepted after the last
// announcement (the engine then lets p accept, double or redouble only).
func acceptedSinceAnnounce(bids []giretra.Action, p giretra.Position) bool {
	for i := len(bids) - 1; i >= 0; i-- {
		switch {
		case bids[i].Type == giretra.Announce:
			return false
		case bids[i].Player == p && bids[i].Type == giretra.Accept:
			return true
		}
	}
	return false
}

// turn is the seat the deal waits for.
func (d *dealState) turn() (giretra.Position, bool) {
	switch {
	case d.result != nil:
		return 0, false
	case d.cut == nil:
		return d.dealer.Previous(), true
	case d.contract == nil:
		return d.bidding.CurrentPlayer, true
	case !d.hs.Over:
		return d.hs.Current.Next(), true
	}
	return 0, false
}

// mode is the deal's contract mode, NoMode before it is known.
func (d *dealState) mode() giretra.Mode {
	if d == nil || d.contract == nil {
		return giretra.NoMode
	}
	return d.contract.Mode
}

func (t *Table) dealViewLocked(r reader, d *dealState) *dealView {
	dv := &dealView{N: d.n, Dealer: int(d.dealer), Cutter: int(d.dealer.Previous()), Bids: bidLines(r, d.bids)}
	if d.cut != nil {
		dv.Cut = r.Cut(d.cut.cut)
	}
	if d.contract != nil {
		dv.Contract = contractViewOf(r, *d.contract)
		dv.Points, dv.Tricks = d.hs.CardPoints, d.hs.TricksWon
		m := d.hs.Mode
		if n := len(d.hs.Completed); n > 0 {
			dv.Last = trickViewOf(&d.hs.Completed[n-1], m, n)
		}
		switch {
		case d.hs.Current.N > 0:
			dv.Trick = trickViewOf(&d.hs.Current, m, len(d.hs.Completed)+1)
		case dv.Last != nil:
			dv.Trick = dv.Last // stays on the table until the next card
		}
	}
	if t.bots && r.seat < 0 { // our bot's values tell its hand: only where every hand is open
		dv.Values = slices.Clone(d.values)
	}
	return dv
}

func (t *Table) detailLocked(r reader, d *dealState) *detailView {
	dv := &detailView{N: d.n, Dealer: int(d.dealer), Bids: bidLines(r, d.bids), Tricks: []trickView{}, Values: slices.Clone(d.values), Result: t.dealResult(r, d)}
	if dv.Values == nil {
		dv.Values = []valuesView{}
	}
	if d.cut != nil {
		dv.Cut = r.T("detail.cut", t.who(r, d.cut.seat), r.Cut(d.cut.cut))
	}
	for p := range 4 {
		dv.Hands[p] = cardCodes(d.full[p], d.mode())
	}
	if d.contract != nil {
		dv.Contract = contractViewOf(r, *d.contract)
		for i := range d.hs.Completed {
			dv.Tricks = append(dv.Tricks, *trickViewOf(&d.hs.Completed[i], d.hs.Mode, i+1))
		}
	}
	return dv
}

func trickViewOf(tr *giretra.Trick, m giretra.Mode, n int) *trickView {
	tv := &trickView{N: n, Leader: int(tr.Leader), Done: tr.Complete(), Points: tr.Points(m)}
	if n == 8 && tr.Complete() {
		tv.Points += 10
	}
	for i := range int(tr.N) {
		tv.Cards = append(tv.Cards, playedCard{Seat: int(tr.PlayerAt(i)), Card: tr.Cards[i].Short()})
	}
	if tr.N > 0 {
		tv.Winning = int(tr.Winner(m))
	}
	return tv
}

func contractViewOf(r reader, c giretra.Contract) *contractView {
	return &contractView{Mode: c.Mode.String(), Text: r.Contract(c), Multiplier: c.Multiplier.String(), Announcer: int(c.Announcer), Team: int(c.AnnouncerTeam())}
}

func bidLines(r reader, bids []giretra.Action) []bidLine {
	out := make([]bidLine, 0, len(bids))
	for _, a := range bids {
		l := bidLine{Seat: int(a.Player), Text: r.Bid(a)}
		if a.Type != giretra.Accept {
			l.Mode = a.Mode.String()
		}
		out = append(out, l)
	}
	return out
}

// bidOptions are the offered bids as the page sends them back, named
// for r (no text for the zero reader: an error's valid options).
func bidOptions(r reader, valid []giretra.Action) []bidOption {
	out := make([]bidOption, 0, len(valid))
	for _, a := range valid {
		o := bidOption{Type: a.Type.String()}
		if r.P != nil {
			o.Text = r.Bid(a)
		}
		if a.Type != giretra.Accept {
			o.Mode = a.Mode.String()
		}
		out = append(out, o)
	}
	return out
}

// handSuits is the order a hand is shown in: colours alternate.
var handSuits = [4]giretra.Suit{giretra.Spades, giretra.Hearts, giretra.Clubs, giretra.Diamonds}

// cardCodes lists s by suit, strongest first in mode m (plain order
// before the contract is known).
func cardCodes(s giretra.Set, m giretra.Mode) []cardCode {
	out := []cardCode{}
	for _, su := range handSuits {
		cs := s.OfSuit(su).Cards()
		slices.SortFunc(cs, func(a, b giretra.Card) int { return giretra.Strength(b, m) - giretra.Strength(a, m) })
		for _, c := range cs {
			out = append(out, c.Short())
		}
	}
	return out
}

// parseCard reads a two-character code.
func parseCard(s string) (giretra.Card, bool) {
	var c giretra.Card
	return c, c.UnmarshalText([]byte(s)) == nil
}

// Valid implements table.Scripted: seat's options now, as Act takes
// them.
func (t *Table) Valid(seat tables.Seat) []any {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []any{}
	p := t.pending
	if p == nil || tables.Seat(p.seat) != seat {
		return out
	}
	switch p.kind {
	case decideCut:
		for pos := 6; pos <= 26; pos++ {
			out = append(out, map[string]any{"cut": map[string]any{"position": pos, "fromTop": true}})
		}
	case decideBid:
		for _, b := range bidOptions(reader{}, p.bids) {
			out = append(out, map[string]any{"bid": map[string]string{"type": b.Type, "mode": b.Mode}})
		}
	case decideCard:
		for _, c := range cardCodes(p.cards, giretra.NoMode) {
			out = append(out, map[string]string{"card": c})
		}
	default:
		out = append(out, map[string]bool{"next": true})
	}
	return out
}
