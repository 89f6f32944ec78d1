package bot

import (
	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/search"
)

// Playouts whose seats of our kind play the end of the deal as the bot
// does. The bot plays its cards by determinized search from seven cards
// on; a heuristic playout plays them far worse, most of all in NoTrumps
// (giretra-train calib: the bot's NoTrumps end 15.8 match points better
// than the heuristic playout of the same deal). The true deal is known in
// a playout, so those seats can solve the rest of it exactly
// (double-dummy) once they hold few enough cards; the other seats keep
// their policy, and a solved seat's card is the best against perfect
// play, which the bot's search also assumes. Solving from five cards,
// with Eva's seats playing as Eva, reproduces the bot's real results in
// every class of undoubled contract; yet an evaluator fitted on labels
// played so bid worse than one fitted on heuristic playouts
// (docs/giretra-bids.md, "Playouts that play like the bot").

// endgame makes the seats in seats choose by the solver once they hold
// at most from cards.
type endgame struct {
	seats uint8
	from  int
	s     *search.Solver
}

// card is seat p's card in hs by the solver, the team of p taking the
// most points from here on; among equal cards the heuristic's (valid
// holds at least two cards). NoCard when p does not solve here.
func (eg *endgame) card(p giretra.Position, hands *[4]giretra.Set, hs *giretra.HandState, valid giretra.Set, c giretra.Contract, neg *giretra.Negotiation) giretra.Card {
	if eg == nil || eg.seats&(1<<p) == 0 || hands[p].Count() > eg.from {
		return giretra.NoCard
	}
	eg.s.Reset(hs.Mode, p.Team())
	var val [32]int
	if !eg.s.Values(hands, hs.Current, valid, &val) {
		return giretra.NoCard
	}
	v := giretra.PlayView{Seat: p, Hand: hands[p], State: hs, Valid: valid}
	best := heuristicCard(&v, c, neg)
	if !valid.Has(best) {
		best = valid.First()
	}
	for x := range valid.All() {
		if val[x] > val[best] {
			best = x
		}
	}
	return best
}
