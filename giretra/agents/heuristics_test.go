package agents

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	g "github.com/botarena/gamebot/giretra"
)

var ctx = context.Background()

func cards(s string) g.Set { return g.MustParseCards(s) }

func card(s string) g.Card { return cards(s).First() }

// trickOf builds a trick led by leader with the given cards.
func trickOf(leader g.Position, cs ...string) g.Trick {
	t := g.NewTrick(leader)
	for _, c := range cs {
		t.Add(card(c))
	}
	return t
}

func playView(seat g.Position, hand string, m g.Mode, t g.Trick) *g.PlayView {
	h := cards(hand)
	hs := &g.HandState{Mode: m, Current: t}
	return &g.PlayView{Seat: seat, Hand: h, State: hs, Match: &g.MatchState{TargetScore: 151}, Valid: g.LegalPlays(h, &t, m)}
}

func TestStrengthIsEngineScale(t *testing.T) {
	tests := []struct {
		c    string
		m    g.Mode
		want int
	}{
		{"JH", g.ColourHearts, 8}, {"9H", g.ColourHearts, 7}, {"AH", g.ColourHearts, 6}, {"7H", g.ColourHearts, 1},
		{"AS", g.ColourHearts, 8}, {"TS", g.ColourHearts, 7}, {"JS", g.ColourHearts, 4},
		{"JS", g.AllTrumps, 8}, {"AS", g.NoTrumps, 8}, {"9S", g.NoTrumps, 3},
	}
	for _, tc := range tests {
		if got := str(card(tc.c), tc.m); got != tc.want {
			t.Errorf("str(%s, %v) = %d, want %d", tc.c, tc.m, got, tc.want)
		}
	}
}

func TestCalcStrength(t *testing.T) {
	// 59/162 points ×0.4 = 14.57; J, 9 → +5 each, A (strength 6) → +3;
	// 5 trumps ×4 + J 8 + 9 5 = 33.
	got := calcStrength(cards("JH 9H AH TH KH"), g.ColourHearts)
	if want := 59.0/162*100*0.4 + 13 + 33; math.Abs(got-want) > 1e-9 {
		t.Errorf("calcStrength = %v, want %v", got, want)
	}
	if got := calcStrength(cards("7C 8C 7D 8D 7H"), g.NoTrumps); got != 0 {
		t.Errorf("calcStrength(junk, NT) = %v, want 0", got)
	}
}

func bidView(seat, dealer g.Position, hand string, history []g.Action) *g.BidView {
	n := &g.Negotiation{Dealer: dealer, Actions: history}
	st, err := n.State()
	if err != nil {
		panic(err)
	}
	return &g.BidView{Seat: seat, Hand: cards(hand), Negotiation: n,
		Match: &g.MatchState{TargetScore: 151}, Valid: st.ValidActions(history)}
}

func TestCalculatingFirstSpeakerWeakHandBidsClubs(t *testing.T) {
	a := NewCalculating(rand.New(rand.NewPCG(1, 1)))
	got, _ := a.ChooseAction(ctx, bidView(g.Left, g.Bottom, "7C 8D 9H QS KD", nil))
	if got.Type != g.Announce || got.Mode != g.ColourClubs {
		t.Errorf("got %v, want the first offered action, ColourClubs", got)
	}
	// Later speakers with the same hand accept.
	hist := []g.Action{{Type: g.Announce, Player: g.Left, Mode: g.ColourClubs}}
	got, _ = a.ChooseAction(ctx, bidView(g.Top, g.Bottom, "7C 8D 9H QS KD", hist))
	if got.Type != g.Accept {
		t.Errorf("got %v, want Accept", got)
	}
}

func TestCalculatingDoublesWithThreeMasterSuits(t *testing.T) {
	// Jacks of three suits are the tops of those suits in AllTrumps, the
	// best mode of this hand.
	hist := []g.Action{{Type: g.Announce, Player: g.Left, Mode: g.ColourSpades}}
	a := NewCalculating(rand.New(rand.NewPCG(1, 1)))
	got, _ := a.ChooseAction(ctx, bidView(g.Top, g.Bottom, "JC JD JH 9C 7S", hist))
	if got.Type != g.Double || got.Mode != g.ColourSpades {
		t.Errorf("got %v, want Double ColourSpades", got)
	}
}

func TestCalculatingFollow(t *testing.T) {
	a := NewCalculating(rand.New(rand.NewPCG(1, 1)))
	// Partner (Left) winning: play the most points.
	v := playView(g.Right, "AS 7S KS", g.NoTrumps, trickOf(g.Bottom, "8S", "TS", "7D"))
	if c, _ := a.ChooseCard(ctx, v); c != card("AS") {
		t.Errorf("partner winning: got %v, want AS", c)
	}
	// Opponent winning with TS: the cheapest winner is AS; with KS only, the
	// cheapest card.
	v = playView(g.Right, "AS 7S KS", g.NoTrumps, trickOf(g.Top, "TS"))
	if c, _ := a.ChooseCard(ctx, v); c != card("AS") {
		t.Errorf("opponent winning: got %v, want AS", c)
	}
	v = playView(g.Right, "QS 7S KS", g.NoTrumps, trickOf(g.Top, "TS"))
	if c, _ := a.ChooseCard(ctx, v); c != card("7S") {
		t.Errorf("cannot win: got %v, want 7S", c)
	}
}

func TestCalculatingLeadsMiddleTrump(t *testing.T) {
	a := NewCalculating(rand.New(rand.NewPCG(1, 1)))
	// No masters (JH and 9H are out), three trumps 7H QH AH: the middle is QH.
	v := playView(g.Bottom, "7H QH AH 8C 9D", g.ColourHearts, g.NewTrick(g.Bottom))
	if c, _ := a.ChooseCard(ctx, v); c != card("QH") {
		t.Errorf("got %v, want QH (middle trump)", c)
	}
}

func TestEvaluate(t *testing.T) {
	// Trump J+9+A: 3 guaranteed; side AS+TS guaranteed; 5 trumps → +1 g;
	// two void side suits with ≥ 2 trumps → 2 probable.
	e := evaluate(cards("JH 9H AH 7H 8H AS TS"), g.ColourHearts, false)
	if e.g != 5 || e.p != 2 {
		t.Errorf("colour eval = %+v, want g=5 p=2", e)
	}
	// NoTrumps: A+10+K of spades gives 3 guaranteed only to the starter.
	h := cards("AS TS KS 7D")
	if e := evaluate(h, g.NoTrumps, true); e.g != 3 || e.p != 1 {
		t.Errorf("NT starter eval = %+v", e)
	}
	if e := evaluate(h, g.NoTrumps, false); e.g != 2 {
		t.Errorf("NT non-starter eval = %+v", e)
	}
	// AllTrumps: J+9 of clubs (2 g), J+A of hearts (1 g, 1 p), 9D (1 p).
	if e := evaluate(cards("JC 9C JH AH 9D"), g.AllTrumps, false); e.g != 3 || e.p != 2 {
		t.Errorf("AT eval = %+v", e)
	}
}

func TestAggressiveness(t *testing.T) {
	tests := []struct {
		ours, theirs int
		want         float64
	}{
		{0, 0, 0.3}, {0, 130, 0.9}, {40, 100, 0.7}, {125, 0, 0}, {95, 0, 0.1}, {80, 130, 0.3},
	}
	for _, tc := range tests {
		if got := Aggressiveness(tc.ours, tc.theirs, 151); got != tc.want {
			t.Errorf("Aggressiveness(%d, %d) = %v, want %v", tc.ours, tc.theirs, got, tc.want)
		}
	}
}

func TestEvaBidding(t *testing.T) {
	a := NewEva()
	// First speaker announces its best mode even with a poor hand.
	got, _ := a.ChooseAction(ctx, bidView(g.Left, g.Bottom, "JH 9H 7C 8D QS", nil))
	if got.Type != g.Announce || got.Mode != g.ColourHearts {
		t.Errorf("first speaker: got %v, want ColourHearts", got)
	}
	// Against an opponent's Colour bid, a strong AllTrumps hand outbids.
	hist := []g.Action{{Type: g.Announce, Player: g.Left, Mode: g.ColourClubs}}
	got, _ = a.ChooseAction(ctx, bidView(g.Top, g.Bottom, "JC JD JH 9D 9H", hist))
	if got.Type != g.Announce || got.Mode != g.AllTrumps {
		t.Errorf("strong AT hand: got %v, want AllTrumps", got)
	}
	// A hand with many sure tricks in the opponents' mode doubles it.
	hist = []g.Action{{Type: g.Announce, Player: g.Left, Mode: g.ColourSpades}}
	got, _ = a.ChooseAction(ctx, bidView(g.Top, g.Bottom, "JS 9S AS TS 7S", hist))
	if got.Type != g.Double || got.Mode != g.ColourSpades {
		t.Errorf("sure tricks in spades: got %v, want Double ColourSpades", got)
	}
	// A weak hand accepts.
	got, _ = a.ChooseAction(ctx, bidView(g.Top, g.Bottom, "7C 8C 7D 8H 7S", hist))
	if got.Type != g.Accept {
		t.Errorf("weak hand: got %v, want Accept", got)
	}
}

func TestEvaCut(t *testing.T) {
	c, _ := NewEva().ChooseCut(ctx, g.Right, nil)
	if c != (g.Cut{Position: 16, FromTop: true}) {
		t.Errorf("cut = %+v", c)
	}
}

func TestEvaDiscardsRatherThanRuffingPartnersTrick(t *testing.T) {
	a := NewEva()
	a.seat = g.Top
	// Bottom (partner) leads AC and wins; Left plays 7C; Top is void in
	// clubs, holds trumps: it discards a side card instead of ruffing.
	v := playView(g.Top, "7H 8H 7D 8S KD", g.ColourHearts, trickOf(g.Bottom, "AC", "7C"))
	c, _ := a.ChooseCard(ctx, v)
	if c.Suit() == g.Hearts {
		t.Errorf("ruffed partner's trick with %v", c)
	}
	// With an opponent winning it ruffs with the lowest trump.
	v = playView(g.Top, "7H 8H 7D 8S KD", g.ColourHearts, trickOf(g.Bottom, "7C", "AC"))
	if c, _ := a.ChooseCard(ctx, v); c != card("7H") {
		t.Errorf("opponent winning: got %v, want 7H", c)
	}
}

func TestEvaFourthSeatEscape(t *testing.T) {
	a := NewEva()
	a.seat = g.Right
	// NoTrumps: AS led by Bottom makes TS a master: no escape, Right keeps
	// it and plays the cheap 7S.
	a.played = cards("AS 8S 9S")
	v := playView(g.Right, "TS 7S 8D", g.NoTrumps, trickOf(g.Bottom, "AS", "8S", "9S"))
	if c, _ := a.ChooseCard(ctx, v); c != card("7S") {
		t.Errorf("got %v, want 7S", c)
	}
	// ColourHearts, spades led, Top (opponent) ruffed: the non-master TS
	// "escapes" onto the opponents' trick anyway (the engine's rule).
	a.played = cards("7S 8S 7H")
	v = playView(g.Right, "TS 9S 8D", g.ColourHearts, trickOf(g.Bottom, "7S", "8S", "7H"))
	if c, _ := a.ChooseCard(ctx, v); c != card("TS") {
		t.Errorf("got %v, want TS escaped", c)
	}
}

func TestProtectable(t *testing.T) {
	// A suit is protectable when the stronger cards outside, plus one,
	// equal the cards held in it.
	if p := protectable(cards("KS 7S"), g.NoTrumps, 0); p.has(g.Spades) {
		t.Error("KS 7S with A and 10 out: 2+1 != 2, not protectable")
	}
	if p := protectable(cards("TS 7S"), g.NoTrumps, 0); !p.has(g.Spades) {
		t.Error("TS 7S with only A out: protectable")
	}
}

func TestEvaTracksContractAndVoids(t *testing.T) {
	a := NewEva()
	neg := &g.Negotiation{Dealer: g.Bottom, Actions: []g.Action{
		{Type: g.Announce, Player: g.Left, Mode: g.ColourClubs},
		{Type: g.Announce, Player: g.Top, Mode: g.ColourHearts},
		{Type: g.Accept, Player: g.Right},
		{Type: g.Accept, Player: g.Bottom},
		{Type: g.Accept, Player: g.Left},
	}}
	ms := &g.MatchState{TargetScore: 151}
	_ = a.Notify(ctx, g.Bottom, &g.Event{Kind: g.DealStarted, Match: ms})
	_ = a.Notify(ctx, g.Bottom, &g.Event{Kind: g.NegotiationCompleted, Negotiation: neg, Match: ms})
	if !a.hasContract || a.contract.Mode != g.ColourHearts || a.contract.AnnouncerTeam() != g.Team1 {
		t.Fatalf("contract = %+v", a.contract)
	}
	// Partner (Top) announced hearts, the trump: not a preferred suit.
	if a.preferred.has(g.Hearts) {
		t.Error("trump of the bid marked preferred")
	}
	// Left leads spades, Top follows, Right plays a club while its partner
	// Left is not winning: void in spades and out of trumps.
	hs := &g.HandState{Mode: g.ColourHearts, Current: g.NewTrick(g.Left)}
	for _, c := range []string{"7S", "AS", "8C"} {
		p := hs.Current.Next()
		hs.Play(card(c))
		_ = a.Notify(ctx, g.Bottom, &g.Event{Kind: g.CardPlayed, Player: p, Card: card(c), Hand: hs, Match: ms})
	}
	if !a.knownVoids[g.Right].has(g.Spades) || !a.knownVoids[g.Right].has(g.Hearts) {
		t.Errorf("voids of Right = %08b", a.knownVoids[g.Right])
	}
}

// Bad bids the mode its hand is worst at, doubles without a master card,
// and plays the inverse of Calculating's cards.
func TestBad(t *testing.T) {
	a := NewBad(rand.New(rand.NewPCG(1, 1)))
	// A weak hand (no Jack, Nine or Ace; scores under 20 everywhere but
	// NoTrumps): first to speak, it announces its worst mode.
	h := cards("7C 8C 7D 8D 7H")
	v := &g.BidView{Seat: g.Bottom, Hand: h, Negotiation: &g.Negotiation{}, Match: &g.MatchState{TargetScore: 151}, Valid: []g.Action{
		{Type: g.Announce, Mode: g.ColourClubs}, {Type: g.Announce, Mode: g.ColourSpades}, {Type: g.Announce, Mode: g.NoTrumps}, {Type: g.Accept},
	}}
	// Of the modes offered, all under 50 before any bid, the lowest score.
	lowest := g.ColourClubs
	for _, m := range []g.Mode{g.ColourSpades, g.NoTrumps} {
		if calcStrength(h, m) < calcStrength(h, lowest) {
			lowest = m
		}
	}
	if x, _ := a.ChooseAction(ctx, v); x.Type != g.Announce || x.Mode != lowest {
		t.Errorf("weak hand: %v, want an announcement of %v", x, lowest)
	}
	// Partner (Left) winning: the cheapest card; an opponent winning: the
	// most valuable one.
	p := playView(g.Right, "AS 7S KS", g.NoTrumps, trickOf(g.Bottom, "8S", "TS", "7D"))
	if c, _ := a.ChooseCard(ctx, p); c != card("7S") {
		t.Errorf("partner winning: got %v, want 7S", c)
	}
	p = playView(g.Right, "AS 7S KS", g.NoTrumps, trickOf(g.Top, "TS"))
	if c, _ := a.ChooseCard(ctx, p); c != card("AS") {
		t.Errorf("opponent winning: got %v, want AS", c)
	}
	// Leading: the cheapest, weakest card that is not a master.
	p = playView(g.Bottom, "AS 7S 8D", g.NoTrumps, g.NewTrick(g.Bottom))
	if c, _ := a.ChooseCard(ctx, p); c != card("7S") {
		t.Errorf("lead: got %v, want 7S", c)
	}
}
