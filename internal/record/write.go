package record

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra"
)

// Writer writes one match's record as it is played. The referee calls it
// from the match's goroutine: Event with every notification of one seat
// (the game as it unfolds), Cut with the cut the deal used, Bid with each
// accepted action, Call with each HTTP exchange, Violation, and End last.
// Writing errors are kept and returned by End.
type Writer struct {
	mu sync.Mutex
	lines

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
	rw := &Writer{lines: newLines(w), deck: deck}
	h.Type, h.Version = TypeMatch, Version
	rw.put(&h)
	return rw
}

// Event records what a notification says about the game: a deal
// starting, its contract, each trick, its result.
func (w *Writer) Event(e *giretra.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch e.Kind {
	case giretra.DealStarted:
		w.deal = len(e.Match.Deals) + 1
		w.cur = giretra.Shuffle(w.deck)
		w.put(&DealLine{Type: TypeDeal, Deal: w.deal, Dealer: Seat(e.Match.Dealer), Score: e.Match.Points, Target: e.Match.TargetScore})
	case giretra.NegotiationCompleted:
		st, err := e.Negotiation.State()
		if err != nil {
			return
		}
		if c, ok := st.Contract(); ok {
			w.put(&ContractLine{Type: TypeContract, Deal: w.deal, Mode: Mode(c.Mode), Multiplier: Multiplier(c.Multiplier), Announcer: Seat(c.Announcer)})
		}
	case giretra.TrickCompleted:
		t := e.Trick
		l := TrickLine{Type: TypeTrick, Deal: w.deal, Trick: len(e.Hand.Completed), Leader: Seat(t.Leader), Winner: Seat(e.Winner), Points: t.Points(e.Hand.Mode)}
		if l.Trick == 8 {
			l.Points += 10
		}
		for i := range 4 {
			l.Cards = append(l.Cards, Card(t.Cards[i]))
		}
		w.put(&l)
	case giretra.DealEnded:
		r := e.Result
		l := ResultLine{Type: TypeResult, Deal: w.deal, Mode: Mode(r.Mode), Multiplier: Multiplier(r.Multiplier), AnnouncerTeam: Team(r.AnnouncerTeam),
			CardPoints: r.CardPoints, MatchPoints: r.MatchPoints, SweepBonus: r.SweepBonus, InstantWin: r.IsInstantWin, Score: e.Match.Points}
		if r.WasSweep {
			t := Team(r.SweepingTeam)
			l.Sweep = &t
		}
		w.put(&l)
	}
}

// Cut records the cut the deal uses and the hands it deals. asked is the
// cutter's own answer when the referee replaced it, else nil.
func (w *Writer) Cut(seat giretra.Position, c giretra.Cut, asked *giretra.Cut) {
	w.mu.Lock()
	defer w.mu.Unlock()
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
		var hand []giretra.Card
		for _, card := range deck {
			if hands[p].Has(card) {
				hand = append(hand, card)
			}
		}
		for _, card := range hand {
			l.Hands[p] = append(l.Hands[p], Card(card))
		}
	}
	w.put(&l)
}

// dealerOf is the dealer of a deal cut by seat (the cutter sits at the
// dealer's right).
func (w *Writer) dealerOf(cutter giretra.Position) giretra.Position { return cutter.Next() }

// Bid records an accepted negotiation action.
func (w *Writer) Bid(a giretra.Action) {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := BidLine{Type: TypeBid, Deal: w.deal, Seat: Seat(a.Player), Action: ActionType(a.Type)}
	if a.Type != giretra.Accept {
		m := Mode(a.Mode)
		l.Mode = &m
	}
	w.put(&l)
}

// Call records an HTTP exchange and returns its line. request and answer
// are JSON values (nil to leave out).
func (w *Writer) Call(seat giretra.Position, kind, endpoint string, request, answer any, d time.Duration, err error) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := CallLine{Type: TypeCall, Deal: w.deal, Seat: Seat(seat), Kind: kind, Endpoint: endpoint, MS: Millis(d)}
	if request != nil {
		l.Request, _ = json.Marshal(request)
	}
	if answer != nil {
		l.Answer, _ = json.Marshal(answer)
	}
	if err != nil {
		l.Error = err.Error()
	}
	n := w.put(&l)
	w.lastCall[seat&3] = n
	return n
}

// Millis is a duration in milliseconds, to the microsecond.
func Millis(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

// LastCall is the line of seat's last call, 0 if none.
func (w *Writer) LastCall(seat giretra.Position) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastCall[seat&3]
}

// Violation records a breach; line is its call's line (0: none).
func (w *Writer) Violation(seat giretra.Position, kind, detail string, line int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.put(&ViolationLine{Type: TypeViolation, Deal: w.deal, Seat: Seat(seat), Kind: kind, Detail: detail, Line: line})
}

// End writes the last line (the result, or err and the seat that caused
// it, if known: errSeat < 0 otherwise), flushes and closes the output.
func (w *Writer) End(res giretra.MatchResult, err error, errSeat int, interrupted bool) error {
	w.mu.Lock()
	defer w.mu.Unlock()
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
	w.put(&l)
	return w.close()
}

// Hand is a dealt hand's cards as a set.
func Hand(cards []Card) giretra.Set {
	var s giretra.Set
	for _, c := range cards {
		s |= giretra.Card(c).Bit()
	}
	return s
}

// lines is a record's output, shared by every kind of record: one JSON
// object a line, lines numbered from 1, the first write error kept (later
// lines are dropped) and returned by close. Its users serialise calls.
type lines struct {
	w    *bufio.Writer
	c    io.Closer
	line int
	err  error
}

// newLines writes to w; close closes it if it is an io.Closer.
func newLines(w io.Writer) lines {
	l := lines{w: bufio.NewWriterSize(w, 64<<10)}
	if c, ok := w.(io.Closer); ok {
		l.c = c
	}
	return l
}

// put writes one line and returns its number.
func (l *lines) put(v any) int {
	if l.err != nil {
		return l.line
	}
	b, err := json.Marshal(v)
	if err == nil {
		b = append(b, '\n')
		_, err = l.w.Write(b)
	}
	if err != nil {
		l.err = err
		return l.line
	}
	l.line++
	return l.line
}

// close flushes and closes the output; it returns the first error.
func (l *lines) close() error {
	ferr := l.w.Flush()
	if l.c != nil {
		ferr = errors.Join(ferr, l.c.Close())
	}
	return errors.Join(l.err, ferr)
}
