package table

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
)

// The view of the person's seat, as the page draws it. Cards are
// two-character codes (rank 789TJQKA, suit CDHS: "JH" is the Jack of
// Hearts), seats numbers (0 Bottom, 1 Left, 2 Top, 3 Right), teams 0
// (Bottom and Top) and 1 (Left and Right).
type view struct {
	Watch    bool          `json:"watch"` // four bots: every hand open
	You      int           `json:"you"`   // the person's seat, -1 watching
	Seats    [4]seatView   `json:"seats"`
	Teams    [2]string     `json:"teams"`
	Target   int           `json:"target"`
	Score    [2]int        `json:"score"`
	Seed     int64         `json:"seed"`
	Deal     *dealView     `json:"deal,omitempty"`
	Decision *decisionView `json:"decision,omitempty"`
	Deals    []dealLine    `json:"deals"`            // the finished deals
	Detail   *detailView   `json:"detail,omitempty"` // one of them, every hand shown
	Over     bool          `json:"over"`
	Result   string        `json:"result,omitempty"`
	Failure  string        `json:"failure,omitempty"`
	Again    *Options      `json:"again,omitempty"` // play these cards again, seats rotated
	// Valid are the actions the person may send now, as Act takes them:
	// what a scripted player (cmd/loadtest -scenario play) picks from.
	Valid  []any     `json:"valid"`
	Paused bool      `json:"paused"`
	Pace   int       `json:"pace"` // ms
	Log    []logLine `json:"log"`
}

type seatView struct {
	Seat   string     `json:"seat"`
	Name   string     `json:"name"`
	Kind   string     `json:"kind"` // you, bot, agent, url, folder
	Cards  int        `json:"cards"`
	Dealer bool       `json:"dealer"`
	Turn   bool       `json:"turn"`
	Bid    string     `json:"bid,omitempty"`  // its last bid this deal
	Hand   []cardCode `json:"hand,omitempty"` // the person's own; every seat's when watching
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

func valuesOf(cv bot.CardValues) valuesView {
	v := valuesView{Seat: int(cv.Seat), Trick: cv.Trick, Method: cv.Method, Samples: cv.Samples, Chosen: cv.Chosen.Short(), Heuristic: cv.Heuristic.Short()}
	for c := range cv.Valid.All() {
		v.Cards = append(v.Cards, cardValue{Card: c.Short(), Value: math.Round(cv.Value[c]*100) / 100})
	}
	slices.SortStableFunc(v.Cards, func(a, b cardValue) int { return cmp.Compare(b.Value, a.Value) })
	return v
}

// viewLocked builds the view of the person's seat: their hand only, or
// every hand when four bots play.
func (t *Table) viewLocked() *view {
	v := &view{Watch: t.you < 0, You: t.you, Target: t.match.TargetScore, Score: t.match.Points, Seed: t.opts.seed(),
		Over: t.over, Failure: t.failure, Paused: t.paused, Pace: int(t.pace.Milliseconds()), Log: slices.Clone(t.logs), Deals: []dealLine{}}
	if v.Target == 0 {
		v.Target = t.opts.Target
	}
	v.Teams = [2]string{t.teamLocked(giretra.Team1), t.teamLocked(giretra.Team2)}
	d := t.cur
	turn, turnOK := giretra.Position(0), false
	if d != nil && !t.over {
		turn, turnOK = d.turn()
	}
	for p := range giretra.Position(4) {
		sv := seatView{Seat: p.String(), Name: t.specs[p].name, Kind: t.specs[p].kind, Turn: turnOK && turn == p}
		if d != nil {
			sv.Cards = d.hands[p].Count()
			sv.Dealer = d.dealer == p
			for _, a := range d.bids {
				if a.Player == p {
					sv.Bid = bidText(a)
				}
			}
			if int(p) == t.you || t.you < 0 {
				sv.Hand = cardCodes(d.hands[p], d.mode())
			}
		}
		v.Seats[p] = sv
	}
	if d != nil {
		v.Deal = t.dealViewLocked(d)
	}
	if p := t.pending; p != nil {
		dv := &decisionView{ID: t.asked, Kind: p.kind, Text: "Your turn: " + promptOf(p.kind)}
		switch p.kind {
		case decideBid:
			dv.Bids = bidOptions(p.bids)
		case decideCard:
			dv.Cards = cardCodes(p.cards, d.mode())
		}
		v.Decision = dv
	}
	for _, fd := range t.deals {
		v.Deals = append(v.Deals, dealLine{N: fd.n, Text: t.dealResultText(fd), Points: fd.result.MatchPoints, Score: fd.after})
	}
	if n := len(t.deals); n > 0 {
		i := n - 1
		if t.shown > 0 && t.shown <= n {
			i = t.shown - 1
		}
		v.Detail = t.detailLocked(t.deals[i])
	}
	if t.over {
		if t.failure == "" {
			v.Result = t.resultText()
		}
		v.Again = t.opts.again(t.cuts)
	}
	return v
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

func (t *Table) dealViewLocked(d *dealState) *dealView {
	dv := &dealView{N: d.n, Dealer: int(d.dealer), Cutter: int(d.dealer.Previous()), Bids: bidLines(d.bids)}
	if d.cut != nil {
		dv.Cut = cutText(d.cut.cut)
	}
	if d.contract != nil {
		dv.Contract = contractViewOf(*d.contract)
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
	if t.you < 0 {
		dv.Values = slices.Clone(d.values)
	}
	return dv
}

func (t *Table) detailLocked(d *dealState) *detailView {
	dv := &detailView{N: d.n, Dealer: int(d.dealer), Bids: bidLines(d.bids), Tricks: []trickView{}, Values: slices.Clone(d.values), Result: t.dealResultText(d)}
	if dv.Values == nil {
		dv.Values = []valuesView{}
	}
	if d.cut != nil {
		dv.Cut = fmt.Sprintf("%s %s %s", t.whoLocked(d.cut.seat), t.verb(d.cut.seat, "cut", "cut"), cutText(d.cut.cut))
	}
	for p := range 4 {
		dv.Hands[p] = cardCodes(d.full[p], d.mode())
	}
	if d.contract != nil {
		dv.Contract = contractViewOf(*d.contract)
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

func contractViewOf(c giretra.Contract) *contractView {
	return &contractView{Mode: c.Mode.String(), Text: contractText(c), Multiplier: c.Multiplier.String(), Announcer: int(c.Announcer), Team: int(c.AnnouncerTeam())}
}

func bidLines(bids []giretra.Action) []bidLine {
	out := make([]bidLine, 0, len(bids))
	for _, a := range bids {
		l := bidLine{Seat: int(a.Player), Text: bidText(a)}
		if a.Type != giretra.Accept {
			l.Mode = a.Mode.String()
		}
		out = append(out, l)
	}
	return out
}

func bidOptions(valid []giretra.Action) []bidOption {
	out := make([]bidOption, 0, len(valid))
	for _, a := range valid {
		o := bidOption{Type: a.Type.String(), Text: bidText(a)}
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

// Words for people (and for screen readers: no suit symbols).

var modeWords = [6]string{"Clubs", "Diamonds", "Hearts", "Spades", "No trumps", "All trumps"}

func modeText(m giretra.Mode) string {
	if m <= giretra.AllTrumps {
		return modeWords[m]
	}
	return "no contract"
}

func contractText(c giretra.Contract) string {
	s := modeText(c.Mode)
	if c.Multiplier != giretra.Normal {
		s += fmt.Sprintf(" ×%d", c.Multiplier.Factor())
	}
	return s
}

func bidText(a giretra.Action) string {
	switch a.Type {
	case giretra.Accept:
		return "Accept"
	case giretra.Announce:
		return modeText(a.Mode)
	}
	return a.Type.String() + " " + modeText(a.Mode)
}

func cutText(c giretra.Cut) string {
	from := "bottom"
	if c.FromTop {
		from = "top"
	}
	return fmt.Sprintf("at %d from the %s", c.Position, from)
}

func promptOf(kind string) string {
	switch kind {
	case decideCut:
		return "cut the deck"
	case decideBid:
		return "bid"
	case decideCard:
		return "play a card"
	}
	return "see the deal, then deal the next"
}

// whoLocked names a seat for the log: "You", or "Left (Eva)".
func (t *Table) whoLocked(p giretra.Position) string {
	if int(p) == t.you {
		return "You"
	}
	return fmt.Sprintf("%v (%s)", p, t.specs[p].name)
}

// seatName is whoLocked for callers without the lock (the names never
// change once the table is set).
func (t *Table) seatName(p giretra.Position) string { return t.whoLocked(p) }

// verb agrees with the seat: "You play", "Left (Eva) plays".
func (t *Table) verb(p giretra.Position, third, second string) string {
	if int(p) == t.you {
		return second
	}
	return third
}

// teamLocked names a team: "You + gamebot", "Eva + Kialasoa".
func (t *Table) teamLocked(team giretra.Team) string {
	a, b := giretra.Position(team), giretra.Position(team)+2
	return t.specs[a].name + " + " + t.specs[b].name
}

// resultText is the match's result: "You + gamebot won 160–48".
func (t *Table) resultText() string {
	r := t.result
	if r.Winner == giretra.NoTeam {
		return fmt.Sprintf("no winner, %d–%d", r.Final.Points[0], r.Final.Points[1])
	}
	w, l := r.Final.Points[r.Winner], r.Final.Points[r.Winner.Other()]
	verb := "won"
	if t.you >= 0 {
		if giretra.Position(t.you).Team() == r.Winner {
			verb = "won — you win"
		} else {
			verb = "won — you lose"
		}
	}
	return fmt.Sprintf("%s %s %d–%d.", t.teamLocked(r.Winner), verb, w, l)
}

// dealResultText says how a finished deal went.
func (t *Table) dealResultText(d *dealState) string {
	r := d.result
	if r == nil || d.contract == nil {
		return ""
	}
	at := r.AnnouncerTeam
	made := "failed"
	if r.MatchPoints[at] > r.MatchPoints[at.Other()] || r.IsInstantWin && r.SweepingTeam == at {
		made = "made"
	}
	s := fmt.Sprintf("%s by %s %s: card points %d–%d, match points %d–%d.", contractText(*d.contract), t.whoLocked(d.contract.Announcer),
		made, r.CardPoints[0], r.CardPoints[1], r.MatchPoints[0], r.MatchPoints[1])
	if r.WasSweep {
		s += fmt.Sprintf(" %s took every trick.", t.teamLocked(r.SweepingTeam))
		if r.IsInstantWin {
			s += " A Colour sweep wins the match."
		}
	}
	return s
}

// waitingLocked says who the match waits for.
func (t *Table) waitingLocked() string {
	switch {
	case t.over:
		return "the match is over"
	case t.cur == nil:
		return "the match is starting"
	}
	if p, ok := t.cur.turn(); ok {
		return fmt.Sprintf("the table waits for %s", t.whoLocked(p))
	}
	return "the deal is over"
}

// Valid implements table.Scripted: the person's options now, as Act
// takes them.
func (t *Table) Valid() []any {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []any{}
	p := t.pending
	if p == nil {
		return out
	}
	switch p.kind {
	case decideCut:
		for pos := 6; pos <= 26; pos++ {
			out = append(out, map[string]any{"cut": map[string]any{"position": pos, "fromTop": true}})
		}
	case decideBid:
		for _, b := range bidOptions(p.bids) {
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
