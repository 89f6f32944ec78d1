package bot

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

var P = giretra.MustParseCards

// view builds the play view of seat with hand, given the cards of the
// current trick (led by leader) and earlier complete tricks.
func view(seat giretra.Position, hand giretra.Set, m giretra.Mode, leader giretra.Position, trick []giretra.Card, done []giretra.Trick) *giretra.PlayView {
	hs := &giretra.HandState{Mode: m, Completed: done, Current: giretra.NewTrick(leader)}
	for _, c := range trick {
		hs.Current.Add(c)
	}
	ms := giretra.NewMatchState(151, giretra.Right)
	return &giretra.PlayView{Seat: seat, Hand: hand, State: hs, Match: &ms, Valid: giretra.LegalPlays(hand, &hs.Current, m)}
}

func card(s string) giretra.Card { return P(s).First() }

func TestHeuristicLoadsPartnersTrick(t *testing.T) {
	// NoTrumps; Left leads 7C, Top (partner of Bottom) plays AC, Right 8C;
	// Bottom, last, holds TC and 9C: the ten goes on the partner's ace.
	v := view(giretra.Bottom, P("TC 9C 7D"), giretra.NoTrumps, giretra.Left, []giretra.Card{card("7C"), card("AC"), card("8C")}, nil)
	pc := newPlayCtx(v, giretra.Contract{Mode: giretra.NoTrumps, Announcer: giretra.Top}, nil)
	if got := pc.choose(); got != card("TC") {
		t.Errorf("got %v, want TC", got)
	}
}

func TestHeuristicWinsCheaplyLast(t *testing.T) {
	// ColourHearts; Left leads KS, Top 7S, Right TS (opponent wins with
	// the ten); Bottom holds AS, 8S: the ace takes 25 points.
	v := view(giretra.Bottom, P("AS 8S QD"), giretra.ColourHearts, giretra.Left, []giretra.Card{card("KS"), card("7S"), card("TS")}, nil)
	pc := newPlayCtx(v, giretra.Contract{Mode: giretra.ColourHearts, Announcer: giretra.Left}, nil)
	if got := pc.choose(); got != card("AS") {
		t.Errorf("got %v, want AS", got)
	}
	// With only low spades it plays the cheapest.
	v = view(giretra.Bottom, P("8S 9S QD"), giretra.ColourHearts, giretra.Left, []giretra.Card{card("KS"), card("7S"), card("TS")}, nil)
	pc = newPlayCtx(v, giretra.Contract{Mode: giretra.ColourHearts, Announcer: giretra.Left}, nil)
	if got := pc.choose(); got != card("8S") && got != card("9S") {
		t.Errorf("got %v, want a low spade", got)
	}
}

func TestHeuristicDrawsTrumpsWithTheJack(t *testing.T) {
	// Bottom announced ColourSpades and leads: the JS is master.
	v := view(giretra.Bottom, P("JS 7S AD 8D 7C QH KH 9C"), giretra.ColourSpades, giretra.Bottom, nil, nil)
	pc := newPlayCtx(v, giretra.Contract{Mode: giretra.ColourSpades, Announcer: giretra.Bottom}, nil)
	if got := pc.choose(); got != card("JS") {
		t.Errorf("got %v, want JS", got)
	}
}

func TestContractFromOwnBidRequests(t *testing.T) {
	// No negotiation-completed: the bot uses what its bid requests showed.
	b := New(Config{Fast: true})
	ms := giretra.NewMatchState(151, giretra.Right)
	neg := giretra.Negotiation{Dealer: giretra.Right, Actions: []giretra.Action{
		{Type: giretra.Announce, Player: giretra.Bottom, Mode: giretra.ColourHearts},
		{Type: giretra.Double, Player: giretra.Left, Mode: giretra.ColourHearts},
		{Type: giretra.Accept, Player: giretra.Top},
	}}
	st, _ := neg.State()
	bv := &giretra.BidView{Seat: giretra.Right, Hand: P("7C 8C 9C TC JC"), Negotiation: &neg, Match: &ms, Valid: st.ValidActions(neg.Actions)}
	if _, err := b.ChooseAction(t.Context(), bv); err != nil {
		t.Fatal(err)
	}
	v := view(giretra.Right, P("7C 8C 9C TC JC QC KC AC"), giretra.ColourHearts, giretra.Left, []giretra.Card{card("7H"), card("8H")}, nil)
	b.mu.Lock()
	c, _ := b.contractFor(v)
	b.mu.Unlock()
	want := giretra.Contract{Mode: giretra.ColourHearts, Multiplier: giretra.Doubled, Announcer: giretra.Bottom}
	if c != want {
		t.Errorf("contract %+v, want %+v", c, want)
	}
	// A seat that never saw the bidding assumes an opponent announced.
	b2 := New(Config{Fast: true})
	b2.mu.Lock()
	c, _ = b2.contractFor(v)
	b2.mu.Unlock()
	if c.AnnouncerTeam() == giretra.Right.Team() {
		t.Errorf("unknown contract assumed ours: %+v", c)
	}
}

// TestDeterministic plays the same matches twice with fresh bots (search
// mode, generous budget): every decision, hence every result, is the same.
func TestDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	play := func() string {
		var ps [4]giretra.Player
		for s := range giretra.Position(4) {
			if s.Team() == giretra.Team1 {
				ps[s] = New(Config{Budget: 10e9, Effort: 0.3})
			} else {
				ps[s] = &randomPlayer{rng: rand.New(rand.NewPCG(5, uint64(s)))}
			}
		}
		res, err := giretra.RunMatch(t.Context(), ps, giretra.MatchConfig{TargetScore: 151, ColourSweepPoints: 25}, rand.New(rand.NewPCG(7, 8)), nil)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(res.Final)
	}
	if a, b := play(), play(); a != b {
		t.Errorf("same match, different outcomes:\n%s\n%s", a, b)
	}
}
