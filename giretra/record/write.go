package record

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/jsonl"
)

// Writer writes one match's record as it is played. It is not safe for
// concurrent use: the referee calls it from the match's goroutine, one
// call at a time, Event with every notification of one seat (the game as
// it unfolds), Cut with the cut the deal used, Bid with each accepted
// action, Call with each HTTP exchange, Violation, and End last. Writing
// errors are kept and returned by End.
type Writer struct {
	lines *jsonl.Writer

	deck     *rand.Rand // a copy of the match's deck stream
	cur      [32]giretra.Card
	deal     int
	lastCall [4]int // line of each seat's last call
}

// Create writes the header to a new file at path. deck must be a fresh
// generator seeded exactly as the match's deck stream: the writer shuffles
// along with the match to know the hands.
func Create(path string, h Header, deck *rand.Rand) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return New(f, h, deck), nil
}

// New is Create on any writer; End closes it if it is an io.Closer.
func New(w io.Writer, h Header, deck *rand.Rand) *Writer {
	rw := &Writer{lines: jsonl.NewWriter(w), deck: deck}
	h.Type, h.Version = TypeMatch, Version
	rw.lines.Put(&h)
	return rw
}

// Event records what a notification says about the game: a deal
// starting, its contract, each trick, its result.
func (w *Writer) Event(e *giretra.Event) {
	switch e.Kind {
	case giretra.DealStarted:
		w.deal = len(e.Match.Deals) + 1
		w.cur = giretra.Shuffle(w.deck)
		w.lines.Put(&DealLine{Type: TypeDeal, Deal: w.deal, Dealer: Seat(e.Match.Dealer), Score: e.Match.Points, Target: e.Match.TargetScore})
	case giretra.NegotiationCompleted:
		st, err := e.Negotiation.State()
		if err != nil {
			return
		}
		if c, ok := st.Contract(); ok {
			w.lines.Put(&ContractLine{Type: TypeContract, Deal: w.deal, Mode: Mode(c.Mode), Multiplier: Multiplier(c.Multiplier), Announcer: Seat(c.Announcer)})
		}
	case giretra.TrickCompleted:
		t := e.Trick
		l := TrickLine{Type: TypeTrick, Deal: w.deal, Trick: len(e.Hand.Completed), Leader: Seat(t.Leader), Winner: Seat(e.Winner), Points: t.Points(e.Hand.Mode)}
		if l.Trick == 8 {
			l.Points += 10
		}
		for i := range 4 {
			l.Cards = append(l.Cards, t.Cards[i])
		}
		w.lines.Put(&l)
	case giretra.DealEnded:
		r := e.Result
		l := ResultLine{Type: TypeResult, Deal: w.deal, Mode: Mode(r.Mode), Multiplier: Multiplier(r.Multiplier), AnnouncerTeam: Team(r.AnnouncerTeam),
			CardPoints: r.CardPoints, MatchPoints: r.MatchPoints, SweepBonus: r.SweepBonus, InstantWin: r.IsInstantWin, Score: e.Match.Points}
		if r.WasSweep {
			t := Team(r.SweepingTeam)
			l.Sweep = &t
		}
		w.lines.Put(&l)
	}
}

// Cut records the cut the deal uses and the hands it deals. asked is the
// cutter's own answer when the referee replaced it, else nil.
func (w *Writer) Cut(seat giretra.Position, c giretra.Cut, asked *giretra.Cut) {
	if !c.Valid() {
		return
	}
	deck := giretra.CutDeck(w.cur, c)
	hands, next := giretra.DealFirst(&deck, w.dealerOf(seat))
	giretra.DealRest(&deck, w.dealerOf(seat), &hands, next)
	l := CutLine{Type: TypeCut, Deal: w.deal, Seat: Seat(seat), Position: c.Position, FromTop: c.FromTop}
	if asked != nil {
		l.Asked = &Cut{Position: asked.Position, FromTop: asked.FromTop}
	}
	// Dealt order is deck order: each seat gets its cards from the top.
	for p := range 4 {
		for _, card := range deck {
			if hands[p].Has(card) {
				l.Hands[p] = append(l.Hands[p], card)
			}
		}
	}
	w.lines.Put(&l)
}

// dealerOf is the dealer of a deal cut by seat (the cutter sits at the
// dealer's right).
func (w *Writer) dealerOf(cutter giretra.Position) giretra.Position { return cutter.Next() }

// Bid records an accepted negotiation action.
func (w *Writer) Bid(a giretra.Action) {
	l := BidLine{Type: TypeBid, Deal: w.deal, Seat: Seat(a.Player), Action: ActionType(a.Type)}
	if a.Type != giretra.Accept {
		m := Mode(a.Mode)
		l.Mode = &m
	}
	w.lines.Put(&l)
}

// Call records an HTTP exchange and returns its line. request and answer
// are JSON values (nil to leave out).
func (w *Writer) Call(seat giretra.Position, kind, endpoint string, request, answer any, d time.Duration, err error) int {
	l := CallLine{Type: TypeCall, Deal: w.deal, Seat: Seat(seat), Kind: kind, Endpoint: endpoint, MS: jsonl.Millis(d)}
	if request != nil {
		l.Request, _ = json.Marshal(request)
	}
	if answer != nil {
		l.Answer, _ = json.Marshal(answer)
	}
	if err != nil {
		l.Error = err.Error()
	}
	n := w.lines.Put(&l)
	w.lastCall[seat&3] = n
	return n
}

// LastCall is the line of seat's last call, 0 if none.
func (w *Writer) LastCall(seat giretra.Position) int {
	return w.lastCall[seat&3]
}

// Violation records a breach; line is its call's line (0: none).
func (w *Writer) Violation(seat giretra.Position, kind, detail string, line int) {
	w.lines.Put(&ViolationLine{Type: TypeViolation, Deal: w.deal, Seat: Seat(seat), Kind: kind, Detail: detail, Line: line})
}

// End writes the last line (the result, or err and the seat that caused
// it, if known: errSeat < 0 otherwise), flushes and closes the output.
func (w *Writer) End(res giretra.MatchResult, err error, errSeat int, interrupted bool) error {
	l := EndLine{Type: TypeEnd, Score: res.Final.Points, Deals: len(res.Final.Deals), Interrupted: interrupted}
	if err == nil && res.Winner != giretra.NoTeam {
		t := Team(res.Winner)
		l.Winner = &t
	}
	if err != nil {
		l.Error = err.Error()
		if errSeat >= 0 {
			s := Seat(errSeat)
			l.ErrorSeat = &s
			l.Line = w.lastCall[errSeat&3]
		}
	}
	w.lines.Put(&l)
	return w.lines.Close()
}

// Hand is a dealt hand's cards as a set.
func Hand(cards []giretra.Card) giretra.Set {
	var s giretra.Set
	for _, c := range cards {
		s |= c.Bit()
	}
	return s
}
