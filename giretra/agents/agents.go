// Package agents holds in-process Giretra opponents modelled on the engine's
// built-in agents (docs/giretra.md): Random ("Kialasoa"), Calculating
// ("Razazavavy"), Deterministic ("Eva") and Bad ("Sakabelou"). They are written from the
// engine's behaviour, not translated from it. Each is a giretra.Player for
// one seat of one match; randomness comes from the *rand.Rand passed in, so
// a seeded run is reproducible.
//
// Where the engine breaks ties by the order of the cards in a hand (the
// order they were dealt), these agents use ascending card order (Clubs
// first, Seven first), which is what the hand Set iterates in.
package agents

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/botarena/gamebot/giretra"
)

// Names lists the agents New knows, weakest first (bad loses on purpose;
// noisy-eva is eva playing a random offered option 10% of the time;
// bold-eva is eva with every bidding threshold moved by ShiftBold, a bidder
// no model of the bot's behaviour mixture holds).
func Names() []string {
	return []string{"bad", "random", "calculating", "eva", "noisy-eva", "bold-eva"}
}

// ShiftBold is bold-eva's shift of Eva's bidding thresholds.
const ShiftBold = -10

// New returns a fresh agent by name (case-insensitive). rng drives its
// random choices; eva makes none and ignores it.
func New(name string, rng *rand.Rand) (giretra.Player, error) {
	switch strings.ToLower(name) {
	case "random", "kialasoa":
		return NewRandom(rng), nil
	case "calculating", "razazavavy":
		return NewCalculating(rng), nil
	case "eva", "deterministic":
		return NewEva(), nil
	case "bad", "sakabelou":
		return NewBad(rng), nil
	case "noisy-eva":
		return NewNoisy(NewEva(), NoisyEps, rng), nil
	case "bold-eva":
		e := NewEva()
		e.Shift = ShiftBold
		return e, nil
	}
	return nil, fmt.Errorf("unknown agent %q (want one of %s)", name, strings.Join(Names(), ", "))
}

// str is the engine's Card.GetStrength: 1 (Seven) .. 8 within the suit's
// ranking in mode m (trump order for a Colour trump suit and every suit in
// AllTrumps, plain order otherwise), with no bonus for being a trump.
func str(c giretra.Card, m giretra.Mode) int { return giretra.Strength(c, m)&7 + 1 }

func pts(c giretra.Card, m giretra.Mode) int { return giretra.Points(c, m) }

// isMaster reports whether every card of c's suit stronger than c has been
// played or is in hand (PlayerAgentHelper.IsMasterCard).
func isMaster(c giretra.Card, m giretra.Mode, hand, played giretra.Set) bool {
	return giretra.Stronger(c, m)&^(hand|played) == 0
}

// pick returns the first card of s (in ascending card order) that no later
// card precedes under cmp: the head of a stable sort of s by cmp.
// s must not be empty.
func pick(s giretra.Set, order func(a, b giretra.Card) int) giretra.Card {
	best := giretra.NoCard
	for c := range s.All() {
		if best == giretra.NoCard || order(c, best) < 0 {
			best = c
		}
	}
	return best
}

// filter keeps the cards of s for which keep is true.
func filter(s giretra.Set, keep func(giretra.Card) bool) giretra.Set {
	var out giretra.Set
	for c := range s.All() {
		if keep(c) {
			out |= c.Bit()
		}
	}
	return out
}

// strongest is the first card of highest strength in s.
func strongest(s giretra.Set, m giretra.Mode) giretra.Card {
	return pick(s, func(a, b giretra.Card) int { return cmp.Compare(str(b, m), str(a, m)) })
}

// weakest is the first card of lowest strength in s.
func weakest(s giretra.Set, m giretra.Mode) giretra.Card {
	return pick(s, func(a, b giretra.Card) int { return cmp.Compare(str(a, m), str(b, m)) })
}

// secondStrongest is the second card of s by descending strength, or the
// only card when there is one.
func secondStrongest(s giretra.Set, m giretra.Mode) giretra.Card {
	first := strongest(s, m)
	if rest := s.Without(first); rest != 0 {
		return strongest(rest, m)
	}
	return first
}

// minWinner is the first weakest card of valid that beats the current
// winner w of a trick led in led (PlayerAgentHelper.FindMinimumWinningCard);
// NoCard if none does.
func minWinner(valid giretra.Set, w giretra.Card, led giretra.Suit, m giretra.Mode) giretra.Card {
	win := filter(valid, func(c giretra.Card) bool { return giretra.Beats(c, w, led, m) })
	if win == 0 {
		return giretra.NoCard
	}
	return weakest(win, m)
}

// trumpSuit reports the trump suit of a Colour mode.
func trumpSuit(m giretra.Mode) (giretra.Suit, bool) {
	if m.IsColour() {
		return m.Trump(), true
	}
	return 0, false
}

// isTrumpSuit reports whether s is the Colour trump suit (never in
// AllTrumps or NoTrumps, as the engine's GetTrumpSuit).
func isTrumpSuit(s giretra.Suit, m giretra.Mode) bool { return m.IsColour() && m.Trump() == s }

// doubleOffered is the first offered Redouble, else the first offered
// Double (whatever its target), as Calculating and Bad take them.
func doubleOffered(valid []giretra.Action) (giretra.Action, bool) {
	for _, t := range []giretra.ActionType{giretra.Redouble, giretra.Double} {
		for _, x := range valid {
			if x.Type == t {
				return x, true
			}
		}
	}
	return giretra.Action{}, false
}

// announcement is the first offered announcement of a mode keep accepts
// that no later one precedes under before (a stable sort's head).
func announcement(valid []giretra.Action, keep func(giretra.Mode) bool, before func(a, b giretra.Mode) bool) (giretra.Action, bool) {
	var out giretra.Action
	found := false
	for _, x := range valid {
		if x.Type == giretra.Announce && keep(x.Mode) && (!found || before(x.Mode, out.Mode)) {
			out, found = x, true
		}
	}
	return out, found
}

// acceptOffered is Accept when offered, else the first offered action.
func acceptOffered(valid []giretra.Action) giretra.Action {
	for _, x := range valid {
		if x.Type == giretra.Accept {
			return x
		}
	}
	return valid[0]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// suits is a set of suits, one bit per suit.
type suits uint8

func (s suits) has(x giretra.Suit) bool { return s&(1<<x) != 0 }
func (s *suits) add(x giretra.Suit)     { *s |= 1 << x }
func (s *suits) del(x giretra.Suit)     { *s &^= 1 << x }

// suitsOf is the set of suits present in cards.
func suitsOf(cards giretra.Set) suits {
	var s suits
	for su := range giretra.Suit(4) {
		if cards.OfSuit(su) != 0 {
			s.add(su)
		}
	}
	return s
}

// inSuits keeps the cards of s whose suit is in ss.
func inSuits(s giretra.Set, ss suits) giretra.Set {
	var out giretra.Set
	for su := range giretra.Suit(4) {
		if ss.has(su) {
			out |= s.OfSuit(su)
		}
	}
	return out
}

// lastBid is the current bid and its bidder from a negotiation history;
// ok is false before the first announcement.
func lastBid(actions []giretra.Action) (m giretra.Mode, bidder giretra.Position, ok bool) {
	for i := len(actions) - 1; i >= 0; i-- {
		if actions[i].Type == giretra.Announce {
			return actions[i].Mode, actions[i].Player, true
		}
	}
	return giretra.NoMode, 0, false
}
