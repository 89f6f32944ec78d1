// Package search is the Giretra bot's look-ahead: what a seat can infer
// about the hidden hands, a sampler of hands consistent with it, a
// perfect-information solver, and the choice of a card by determinized
// search (sample the unseen hands, solve each sample exactly, pick the card
// with the best average result for the match).
package search

import (
	"github.com/botarena/gamebot/giretra"
)

// Knowledge is what one seat knows about a deal in play: its hand, every
// card played, and the cards each other seat cannot hold, inferred from the
// rules of LegalPlays (must follow, must trump, must over-trump, must beat
// the winner in AllTrumps and in led trumps).
type Knowledge struct {
	Seat     giretra.Position
	Mode     giretra.Mode
	Hand     giretra.Set
	Played   giretra.Set    // every card played this deal, current trick included
	PlayedBy [4]giretra.Set // per seat
	// Excl[p] is the set of unplayed cards seat p cannot hold. For Seat it
	// is everything but Hand.
	Excl    [4]giretra.Set
	Count   [4]int        // cards each seat still holds
	Trick   giretra.Trick // the trick in progress
	TrickNo int           // tricks completed
	Points  [2]int        // card points per team so far
	Tricks  [2]int        // tricks per team so far
	// Hint[p] is a soft preference: cards p is likely to hold (from the
	// bidding); the sampler favours them.
	Hint [4]giretra.Set
}

// Unseen is the set of cards held by the other three seats.
func (k *Knowledge) Unseen() giretra.Set {
	return giretra.FullDeck &^ k.Hand &^ k.Played
}

// MayHold is the set of unseen cards seat p may hold (own hand for Seat).
func (k *Knowledge) MayHold(p giretra.Position) giretra.Set {
	if p == k.Seat {
		return k.Hand
	}
	return k.Unseen() &^ k.Excl[p]
}

// Infer builds the knowledge of seat from its hand and the hand state.
// Inconsistent input (a card both in hand and played) is tolerated: the
// hand wins.
func Infer(seat giretra.Position, hand giretra.Set, hs *giretra.HandState) Knowledge {
	k := Knowledge{Seat: seat, Mode: hs.Mode, Hand: hand}
	if hs.Mode > giretra.AllTrumps {
		k.Mode = giretra.AllTrumps
	}
	k.Points = hs.CardPoints
	k.Tricks = hs.TricksWon
	k.TrickNo = len(hs.Completed)
	for i := range hs.Completed {
		k.observe(&hs.Completed[i])
	}
	k.Trick = hs.Current
	if k.Trick.N > 3 {
		k.Trick.N = 3
	}
	k.observe(&k.Trick)
	k.Played &^= hand
	for p := range giretra.Position(4) {
		n := 8 - k.TrickNo
		for i := range int(k.Trick.N) {
			if k.Trick.PlayerAt(i) == p {
				n--
			}
		}
		k.Count[p] = max(n, 0)
	}
	k.Count[seat] = hand.Count()
	k.Excl[seat] = giretra.FullDeck &^ hand
	return k
}

// observe records the cards of trick t and what each card reveals.
func (k *Knowledge) observe(t *giretra.Trick) {
	m := k.Mode
	part := giretra.NewTrick(t.Leader)
	for i := range int(t.N) {
		c := t.Cards[i]
		if c > 31 {
			break
		}
		p := t.PlayerAt(i)
		if i > 0 {
			k.Excl[p] |= Reveals(&part, c, m)
		}
		k.Played |= c.Bit()
		k.PlayedBy[p] |= c.Bit()
		part.Add(c)
	}
}

// Reveals is the set of cards the player of c cannot hold, given that c was
// played to the partial trick t (N >= 1) in mode m and was legal
// (PlayValidator.cs as coded in giretra.LegalPlays).
func Reveals(t *giretra.Trick, c giretra.Card, m giretra.Mode) giretra.Set {
	led := t.Led()
	w := t.WinnerIndex(m)
	wc := t.Cards[w]
	var ex giretra.Set
	if c.Suit() == led {
		if m == giretra.AllTrumps || (m.IsColour() && led == m.Trump()) {
			if st := giretra.Stronger(wc, m); wc.Suit() == led && !st.Has(c) {
				ex |= st // could not beat the winner
			}
		}
		return ex
	}
	ex |= giretra.SuitMask(led) // did not follow
	if !m.IsColour() {
		return ex
	}
	trump := m.Trump()
	wcTrump := wc.Suit() == trump
	partnerWins := !wcTrump && t.PlayerAt(w) == t.Next().Partner()
	if partnerWins {
		return ex
	}
	if c.Suit() != trump {
		return ex | giretra.SuitMask(trump) // no trump at all
	}
	if wcTrump && !giretra.Stronger(wc, m).Has(c) {
		ex |= giretra.Stronger(wc, m) // could not over-trump
	}
	return ex
}

// AddBiddingHints marks the cards each seat's announcements and doubles
// suggest it holds: the top trumps of an announced Colour, aces for
// NoTrumps, jacks and nines for AllTrumps. The sampler favours them.
func (k *Knowledge) AddBiddingHints(neg *giretra.Negotiation) {
	if neg == nil {
		return
	}
	for _, a := range neg.Actions {
		if a.Player == k.Seat || a.Mode > giretra.AllTrumps {
			continue
		}
		switch a.Type {
		case giretra.Announce, giretra.Double, giretra.Redouble:
		default:
			continue
		}
		var h giretra.Set
		switch {
		case a.Mode.IsColour():
			su := a.Mode.Trump()
			if a.Type == giretra.Double {
				break // doubling a Colour says little about which cards
			}
			for _, r := range []giretra.Rank{giretra.Jack, giretra.Nine, giretra.Ace, giretra.Ten} {
				h |= giretra.NewCard(r, su).Bit()
			}
		case a.Mode == giretra.NoTrumps:
			for su := range giretra.Suit(4) {
				h |= giretra.NewCard(giretra.Ace, su).Bit()
			}
		default:
			for su := range giretra.Suit(4) {
				h |= giretra.NewCard(giretra.Jack, su).Bit() | giretra.NewCard(giretra.Nine, su).Bit()
			}
		}
		k.Hint[a.Player] |= h
	}
}

// Plausible reports whether the position can be searched: at most 8 cards
// per hand, counts that add up to the unseen cards, and hands that even
// out at the end of the trick in progress.
func (k *Knowledge) Plausible() bool {
	if k.Mode > giretra.AllTrumps || k.Trick.N > 3 || k.Hand.Count() != k.Count[k.Seat] {
		return false
	}
	total := 0
	for p := range giretra.Position(4) {
		n := k.Count[p]
		if n > 8 {
			return false
		}
		if p != k.Seat {
			total += n
		}
		// Seats that already played to the trick hold one card fewer.
		played := false
		for i := range int(k.Trick.N) {
			if k.Trick.PlayerAt(i) == p {
				played = true
			}
		}
		want := 8 - k.TrickNo
		if played {
			want--
		}
		if n != want {
			return false
		}
	}
	return total == k.Unseen().Count()
}
