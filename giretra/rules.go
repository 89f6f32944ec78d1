package giretra

// Rank strength (0 weakest .. 7 strongest) and points, indexed by Rank.
var (
	trumpStrength = [8]uint8{0, 1, 6, 4, 7, 2, 3, 5} // 7 8 9 10 J Q K A  => J 9 A 10 K Q 8 7
	plainStrength = [8]uint8{0, 1, 2, 6, 3, 4, 5, 7} // => A 10 K Q J 9 8 7
	trumpPoints   = [8]uint8{0, 0, 14, 10, 20, 3, 4, 11}
	plainPoints   = [8]uint8{0, 0, 0, 10, 2, 3, 4, 11}
	// strongerRanks[t][r] is the 8-bit mask of ranks stronger than r in the
	// trump (t=1) or plain (t=0) order.
	strongerRanks [2][8]uint8
)

func init() {
	for t, str := range [2][8]uint8{plainStrength, trumpStrength} {
		for r := range 8 {
			var m uint8
			for o := range 8 {
				if str[o] > str[r] {
					m |= 1 << o
				}
			}
			strongerRanks[t][r] = m
		}
	}
}

// Strength of c in mode m: 0..7 within its suit, +8 when c is a trump of a
// Colour mode so that any trump beats any side card.
func Strength(c Card, m Mode) int {
	if m.IsTrump(c.Suit()) {
		s := int(trumpStrength[c.Rank()])
		if m.IsColour() {
			s += 8
		}
		return s
	}
	return int(plainStrength[c.Rank()])
}

// Points is the card-point value of c in mode m.
func Points(c Card, m Mode) int {
	if m.IsTrump(c.Suit()) {
		return int(trumpPoints[c.Rank()])
	}
	return int(plainPoints[c.Rank()])
}

// SetPoints sums the card points of s in mode m.
func SetPoints(s Set, m Mode) int {
	n := 0
	for c := range s.All() {
		n += Points(c, m)
	}
	return n
}

// Stronger is the set of cards of c's suit that outrank c in mode m.
func Stronger(c Card, m Mode) Set {
	t := 0
	if m.IsTrump(c.Suit()) {
		t = 1
	}
	return Set(strongerRanks[t][c.Rank()]) << (8 * uint(c.Suit()))
}

// Beats reports whether card a beats card b, b being the current winner of a
// trick whose led suit is led.
func Beats(a, b Card, led Suit, m Mode) bool {
	if a.Suit() == b.Suit() {
		return Stronger(b, m).Has(a)
	}
	// Different suits: only a Colour trump can beat a non-trump.
	return m.IsColour() && a.Suit() == m.Trump()
}

// Trick is up to four cards played in turn from Leader.
type Trick struct {
	Leader Position
	Cards  [4]Card
	N      uint8 // cards played so far
}

// NewTrick is an empty trick led by leader.
func NewTrick(leader Position) Trick {
	return Trick{Leader: leader, Cards: [4]Card{NoCard, NoCard, NoCard, NoCard}}
}

// PlayerAt is the seat that plays the i-th card.
func (t *Trick) PlayerAt(i int) Position { return (t.Leader + Position(i)) & 3 }

// Next is the seat to play next.
func (t *Trick) Next() Position { return t.PlayerAt(int(t.N)) }

// Complete reports whether four cards have been played.
func (t *Trick) Complete() bool { return t.N == 4 }

// Add plays c for the next seat.
func (t *Trick) Add(c Card) {
	t.Cards[t.N] = c
	t.N++
}

// Set is the cards played so far.
func (t *Trick) Set() Set {
	var s Set
	for i := range int(t.N) {
		s |= t.Cards[i].Bit()
	}
	return s
}

// Led is the suit of the first card; only meaningful when N > 0.
func (t *Trick) Led() Suit { return t.Cards[0].Suit() }

// WinnerIndex is the index (0..N-1) of the card currently winning; N > 0.
func (t *Trick) WinnerIndex(m Mode) int {
	w := 0
	led := t.Led()
	for i := 1; i < int(t.N); i++ {
		if Beats(t.Cards[i], t.Cards[w], led, m) {
			w = i
		}
	}
	return w
}

// Winner is the seat currently winning; N > 0.
func (t *Trick) Winner(m Mode) Position { return t.PlayerAt(t.WinnerIndex(m)) }

// Points is the card points in the trick (without the last-trick bonus).
func (t *Trick) Points(m Mode) int {
	n := 0
	for i := range int(t.N) {
		n += Points(t.Cards[i], m)
	}
	return n
}

// LegalPlays is the set of cards from hand the next seat may play to t in
// mode m (PlayValidator.cs). It is never empty for a non-empty hand.
func LegalPlays(hand Set, t *Trick, m Mode) Set {
	if t.N == 0 {
		return hand
	}
	led := t.Led()
	follow := hand & SuitMask(led)
	w := t.WinnerIndex(m)
	wc := t.Cards[w]
	if follow != 0 {
		if m == AllTrumps || (m.IsColour() && led == m.Trump()) {
			if higher := follow & Stronger(wc, m); higher != 0 {
				return higher
			}
		}
		return follow
	}
	if !m.IsColour() {
		return hand
	}
	trumps := hand & SuitMask(m.Trump())
	if trumps == 0 {
		return hand
	}
	wcTrump := wc.Suit() == m.Trump()
	if !wcTrump && t.PlayerAt(w) == t.Next().Partner() {
		return hand
	}
	if wcTrump {
		if higher := trumps & Stronger(wc, m); higher != 0 {
			return higher
		}
	}
	return trumps
}
