package giretra

import (
	"context"
	"math/rand/v2"
	"testing"
)

func trickOf(leader Position, cards string) Trick {
	t := NewTrick(leader)
	// Keep the written order: parse one card at a time.
	for i := 0; i+1 < len(cards); i += 3 {
		t.Add(MustParseCards(cards[i : i+2]).First())
	}
	return t
}

func TestRankTables(t *testing.T) {
	for _, m := range []Mode{ColourHearts, NoTrumps, AllTrumps} {
		sum := 0
		for c := range FullDeck.All() {
			sum += Points(c, m)
		}
		if want := m.Total() - 10; sum != want {
			t.Errorf("%v: deck points %d, want %d", m, sum, want)
		}
	}
	// Trump order J 9 A 10 K Q 8 7; plain A 10 K Q J 9 8 7.
	order := func(m Mode, s Suit) string {
		out := ""
		for n := 0; n < 8; n++ {
			for r := range Rank(8) {
				c := NewCard(r, s)
				if Stronger(c, m).CountSuit(s) == n {
					out += c.Short()[:1]
				}
			}
		}
		return out
	}
	if got := order(ColourHearts, Hearts); got != "J9ATKQ87" {
		t.Errorf("trump order %s", got)
	}
	if got := order(ColourHearts, Spades); got != "ATKQJ987" {
		t.Errorf("plain order %s", got)
	}
	if got := order(AllTrumps, Clubs); got != "J9ATKQ87" {
		t.Errorf("all-trumps order %s", got)
	}
}

func TestTrickWinner(t *testing.T) {
	tests := []struct {
		mode   Mode
		leader Position
		cards  string
		want   Position
	}{
		{ColourHearts, Bottom, "AS TS 7H KS", Top},    // a small trump beats the ace
		{ColourHearts, Bottom, "AS TS KS QS", Bottom}, // led suit, ace
		{ColourHearts, Left, "9H JH AH 7H", Top},      // jack of trumps
		{NoTrumps, Bottom, "9S AC AD 7S", Bottom},     // off-suit aces lose
		{NoTrumps, Bottom, "9S TS AD JS", Left},       // ten beats nine and jack
		{AllTrumps, Right, "AD 9D JC JD", Top},        // jack of the led suit
		{AllTrumps, Right, "AD 9D JC TD", Bottom},     // nine beats ace and ten
		{ColourSpades, Top, "8D 7S 9S JD", Bottom},    // overtrump
	}
	for _, tt := range tests {
		tr := trickOf(tt.leader, tt.cards)
		if got := tr.Winner(tt.mode); got != tt.want {
			t.Errorf("%v %v led, %s: winner %v, want %v", tt.mode, tt.leader, tt.cards, got, tt.want)
		}
	}
}

func TestLegalPlays(t *testing.T) {
	tests := []struct {
		name   string
		mode   Mode
		leader Position
		trick  string
		hand   string
		want   string
	}{
		{"lead anything", ColourHearts, Bottom, "", "7C JH AS", "7C JH AS"},
		{"follow side suit, any card", ColourHearts, Bottom, "KS", "7S AS JH", "7S AS"},
		{"trump led must overtrump", ColourHearts, Bottom, "9H", "7H JH AS", "JH"},
		{"trump led cannot overtrump: any trump", ColourHearts, Bottom, "JH", "7H 9H AS", "7H 9H"},
		{"AllTrumps must beat", AllTrumps, Bottom, "AD", "7D 9D JC", "9D"},
		{"AllTrumps cannot beat", AllTrumps, Bottom, "JD", "7D 9D JC", "7D 9D"},
		{"NoTrumps follow any", NoTrumps, Bottom, "TD", "7D AD JC", "7D AD"},
		{"NoTrumps void: anything", NoTrumps, Bottom, "TD", "7S JC", "7S JC"},
		{"AllTrumps void: anything", AllTrumps, Bottom, "TD", "7S JC", "7S JC"},
		{"void, must trump", ColourHearts, Bottom, "AS", "7H 9H 7C", "7H 9H"},
		{"void, partner wins with side card: anything", ColourHearts, Bottom, "AS 7S", "7H 7C", "7H 7C"},
		{"void, must overtrump opponent's ruff", ColourHearts, Bottom, "AS 8H", "7H 9H 7C", "9H"},
		{"void, cannot overtrump: must under-trump", ColourHearts, Bottom, "AS JH", "7H 9H 7C", "7H 9H"},
		{"void, partner ruffed: must overtrump partner", ColourHearts, Bottom, "AS 8H 7S", "7H 9H 7C", "9H"},
		{"void without trumps: anything", ColourHearts, Bottom, "AS", "7C 8D", "7C 8D"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := trickOf(tt.leader, tt.trick)
			got := LegalPlays(MustParseCards(tt.hand), &tr, tt.mode)
			if want := MustParseCards(tt.want); got != want {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

func TestScoreDeal(t *testing.T) {
	c := func(m Mode, mul Multiplier, a Position) Contract {
		return Contract{Mode: m, Multiplier: mul, Announcer: a}
	}
	tests := []struct {
		name     string
		contract Contract
		points   [2]int // Team1, Team2
		tricks   [2]int
		sweep    int
		want     [2]int
		instant  bool
	}{
		{"colour made", c(ColourHearts, Normal, Bottom), [2]int{82, 80}, [2]int{4, 4}, 0, [2]int{16, 0}, false},
		{"colour 81-81", c(ColourHearts, Normal, Bottom), [2]int{81, 81}, [2]int{4, 4}, 0, [2]int{0, 0}, false},
		{"colour failed", c(ColourHearts, Normal, Left), [2]int{90, 72}, [2]int{5, 3}, 0, [2]int{16, 0}, false},
		{"clubs worth 32, doubled", c(ColourClubs, Doubled, Left), [2]int{60, 102}, [2]int{3, 5}, 0, [2]int{0, 64}, false},
		{"colour redoubled failed", c(ColourSpades, Redoubled, Top), [2]int{70, 92}, [2]int{3, 5}, 0, [2]int{0, 64}, false},
		{"colour sweep wins the match", c(ColourDiamonds, Normal, Bottom), [2]int{162, 0}, [2]int{8, 0}, 0, [2]int{0, 0}, true},
		{"colour sweep as points", c(ColourDiamonds, Doubled, Bottom), [2]int{162, 0}, [2]int{8, 0}, 25, [2]int{0, 0}, false},
		{"notrumps made", c(NoTrumps, Normal, Right), [2]int{60, 70}, [2]int{4, 4}, 0, [2]int{0, 52}, false},
		{"notrumps 65-65", c(NoTrumps, Normal, Right), [2]int{65, 65}, [2]int{4, 4}, 0, [2]int{0, 0}, false},
		{"notrumps sweep", c(NoTrumps, Doubled, Right), [2]int{0, 130}, [2]int{0, 8}, 0, [2]int{0, 180}, false},
		{"alltrumps failed", c(AllTrumps, Normal, Bottom), [2]int{128, 130}, [2]int{4, 4}, 0, [2]int{0, 26}, false},
		{"alltrumps 129-129", c(AllTrumps, Normal, Bottom), [2]int{129, 129}, [2]int{4, 4}, 0, [2]int{0, 0}, false},
		{"alltrumps 131-127 rounds equal", c(AllTrumps, Normal, Bottom), [2]int{131, 127}, [2]int{4, 4}, 0, [2]int{0, 0}, false},
		{"alltrumps 132-126 half away from zero", c(AllTrumps, Normal, Bottom), [2]int{132, 126}, [2]int{4, 4}, 0, [2]int{0, 0}, false},
		{"alltrumps 134-124 sums to 25", c(AllTrumps, Normal, Bottom), [2]int{134, 124}, [2]int{4, 4}, 0, [2]int{13, 12}, false},
		{"alltrumps 150-108", c(AllTrumps, Normal, Left), [2]int{108, 150}, [2]int{3, 5}, 0, [2]int{11, 15}, false},
		{"alltrumps defenders under 6", c(AllTrumps, Normal, Bottom), [2]int{204, 54}, [2]int{7, 1}, 0, [2]int{26, 0}, false},
		{"alltrumps doubled winner takes all", c(AllTrumps, Doubled, Bottom), [2]int{130, 128}, [2]int{4, 4}, 0, [2]int{52, 0}, false},
		{"alltrumps doubled failed", c(AllTrumps, Doubled, Bottom), [2]int{128, 130}, [2]int{4, 4}, 0, [2]int{0, 52}, false},
		{"alltrumps sweep", c(AllTrumps, Normal, Left), [2]int{0, 258}, [2]int{0, 8}, 0, [2]int{0, 35}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ScoreDeal(tt.contract, tt.points, tt.tricks, tt.sweep)
			if r.MatchPoints != tt.want || r.IsInstantWin != tt.instant {
				t.Errorf("got %v instant=%v, want %v instant=%v", r.MatchPoints, r.IsInstantWin, tt.want, tt.instant)
			}
		})
	}
	r := ScoreDeal(c(ColourDiamonds, Doubled, Bottom), [2]int{162, 0}, [2]int{8, 0}, 25)
	if r.SweepBonus != 50 {
		t.Errorf("sweep bonus %d, want 50", r.SweepBonus)
	}
}

func TestMatchEnd(t *testing.T) {
	ms := NewMatchState(151, Bottom)
	ms = ms.WithDeal(DealResult{MatchPoints: [2]int{140, 0}})
	if ms.Complete || ms.Dealer != Left {
		t.Fatalf("after one deal: %+v", ms)
	}
	ms = ms.WithDeal(DealResult{MatchPoints: [2]int{0, 151}})
	if !ms.Complete || ms.Winner != Team2 {
		t.Fatalf("Team2 at 151 and ahead should win: %+v", ms)
	}
	both := NewMatchState(151, Bottom).WithDeal(DealResult{MatchPoints: [2]int{160, 0}})
	both.Complete = false
	both.Points = [2]int{100, 140}
	both = both.WithDeal(DealResult{MatchPoints: [2]int{60, 52}})
	if both.Complete || both.TargetScore != 251 {
		t.Fatalf("both over target: %+v", both)
	}
}

func TestNegotiation(t *testing.T) {
	// Dealer Bottom: Left speaks first and may only announce.
	n := Negotiation{Dealer: Bottom}
	b, _ := n.State()
	v := b.ValidActions(n.Actions)
	if len(v) != 6 || v[0].Mode != ColourClubs || v[5].Mode != AllTrumps {
		t.Fatalf("first speaker options %v", v)
	}
	play := func(a Action) {
		t.Helper()
		if err := b.Apply(len(n.Actions), a); err != nil {
			t.Fatal(err)
		}
		n.Actions = append(n.Actions, a)
	}
	play(Action{Type: Announce, Player: Left, Mode: ColourHearts})
	// Top: higher modes except... Top's team has no colour yet, so spades, NT, AT; Accept; Double hearts.
	v = b.ValidActions(n.Actions)
	want := []Action{{Announce, Top, ColourSpades}, {Announce, Top, NoTrumps}, {Announce, Top, AllTrumps}, {Accept, Top, NoMode}, {Double, Top, ColourHearts}}
	if len(v) != len(want) {
		t.Fatalf("Top options %v", v)
	}
	for i := range want {
		if !v[i].SameChoice(want[i]) {
			t.Fatalf("Top options %v, want %v", v, want)
		}
	}
	play(Action{Type: Accept, Player: Top})
	play(Action{Type: Announce, Player: Right, Mode: NoTrumps})
	// Bottom accepts NoTrumps as an opponent: announcements are locked.
	play(Action{Type: Accept, Player: Bottom})
	if !b.Locked {
		t.Fatal("opponent accepting NoTrumps should lock")
	}
	v = b.ValidActions(n.Actions)
	for _, a := range v {
		if a.Type == Announce {
			t.Fatalf("announcement offered after the lock: %v", v)
		}
	}
	// Left: Accept only (own team's bids cannot be doubled; Redouble needs a Double).
	if len(v) != 1 || v[0].Type != Accept {
		t.Fatalf("Left options %v", v)
	}
	play(Action{Type: Accept, Player: Left})
	// Top accepted before NoTrumps was announced, so Top may double it, but not hearts (implicitly passed).
	v = b.ValidActions(n.Actions)
	if len(v) != 2 || v[1].Type != Double || v[1].Mode != NoTrumps {
		t.Fatalf("Top options %v", v)
	}
	play(Action{Type: Double, Player: Top, Mode: NoTrumps})
	// Right cannot redouble NoTrumps.
	for _, a := range b.ValidActions(n.Actions) {
		if a.Type == Redouble {
			t.Fatalf("NoTrumps redouble offered: %v", a)
		}
	}
	play(Action{Type: Accept, Player: Right})
	play(Action{Type: Accept, Player: Bottom})
	play(Action{Type: Accept, Player: Left})
	if !b.Complete() {
		t.Fatal("3 accepts should end the negotiation")
	}
	c, ok := b.Contract()
	if !ok || c.Mode != NoTrumps || c.Multiplier != Doubled || c.Announcer != Right {
		t.Fatalf("contract %+v", c)
	}
	// Replaying gives the same state.
	b2, err := n.State()
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if c2, _ := b2.Contract(); c2 != c {
		t.Fatalf("replay contract %+v, want %+v", c2, c)
	}
}

func TestContractEarliestDoubled(t *testing.T) {
	n := Negotiation{Dealer: Right, Actions: []Action{
		{Announce, Bottom, ColourClubs},
		{Double, Left, ColourClubs},
		{Redouble, Top, ColourClubs},
		{Accept, Right, NoMode},
		{Accept, Bottom, NoMode},
		{Accept, Left, NoMode},
	}}
	b, err := n.State()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := b.Contract()
	if c.Mode != ColourClubs || c.Multiplier != Redoubled || c.AnnouncerTeam() != Team1 {
		t.Fatalf("contract %+v", c)
	}
	if _, err := (&Negotiation{Dealer: Right, Actions: []Action{{Accept, Bottom, NoMode}}}).State(); err == nil {
		t.Fatal("accept with no bid must fail")
	}
}

// randomPlayer picks uniformly among the offered options.
type randomPlayer struct{ rng *rand.Rand }

func (p randomPlayer) ChooseCut(context.Context, Position, *MatchState) (Cut, error) {
	return Cut{Position: 6 + p.rng.IntN(21), FromTop: p.rng.IntN(2) == 0}, nil
}
func (p randomPlayer) ChooseAction(_ context.Context, v *BidView) (Action, error) {
	return v.Valid[p.rng.IntN(len(v.Valid))], nil
}
func (p randomPlayer) ChooseCard(_ context.Context, v *PlayView) (Card, error) {
	cs := v.Valid.Cards()
	return cs[p.rng.IntN(len(cs))], nil
}
func (p randomPlayer) Notify(context.Context, Position, *Event) error { return nil }

// checker verifies, at every notification, the invariants of a deal.
type checker struct {
	randomPlayer
	t *testing.T
}

func (c checker) Notify(_ context.Context, _ Position, e *Event) error {
	if e.Kind == DealEnded {
		h := e.Hand
		if got, want := h.CardPoints[0]+h.CardPoints[1], h.Mode.Total(); got != want {
			c.t.Errorf("deal in %v: card points %d, want %d", h.Mode, got, want)
		}
		if h.TricksWon[0]+h.TricksWon[1] != 8 || h.Played() != FullDeck {
			c.t.Errorf("deal ended with %v tricks, played %v", h.TricksWon, h.Played())
		}
	}
	return nil
}

// Property: random legal play always completes matches, every deal's card
// points add up, and the simulator never offers an empty choice.
func TestRunMatchRandom(t *testing.T) {
	modes := map[Mode]int{}
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 1))
		var ps [4]Player
		for i := range ps {
			ps[i] = checker{randomPlayer{rand.New(rand.NewPCG(seed, uint64(i+2)))}, t}
		}
		cfg := MatchConfig{TargetScore: 151, FirstDealer: Position(seed % 4)}
		if seed%2 == 1 {
			cfg.ColourSweepPoints = 25
			cfg.TargetScore = 500
		}
		res, err := RunMatch(context.Background(), ps, cfg, rng, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !res.Final.Complete || res.Winner == NoTeam {
			t.Fatalf("seed %d: match not complete: %+v", seed, res.Final)
		}
		for _, d := range res.Final.Deals {
			modes[d.Mode]++
		}
	}
	if len(modes) != 6 {
		t.Errorf("random play covered only modes %v", modes)
	}
}

// An answer outside the offered options stops the match with IllegalError.
func TestRunMatchIllegal(t *testing.T) {
	var ps [4]Player
	for i := range ps {
		ps[i] = randomPlayer{rand.New(rand.NewPCG(1, uint64(i)))}
	}
	ps[Right] = badCutter{ps[Right].(randomPlayer)}
	_, err := RunMatch(context.Background(), ps, MatchConfig{TargetScore: 151, FirstDealer: Bottom}, rand.New(rand.NewPCG(3, 3)), nil)
	if _, ok := err.(*IllegalError); !ok {
		t.Fatalf("err = %v, want IllegalError", err)
	}
}

type badCutter struct{ randomPlayer }

func (badCutter) ChooseCut(context.Context, Position, *MatchState) (Cut, error) {
	return Cut{Position: 27}, nil
}

func BenchmarkLegalPlays(b *testing.B) {
	tr := trickOf(Bottom, "AS 8H")
	hand := MustParseCards("7H 9H 7C TD KS")
	var sink Set
	for b.Loop() {
		sink |= LegalPlays(hand, &tr, ColourHearts)
	}
	_ = sink
}

// TestCutAndDealHooks: with MatchConfig.Cut, two matches on the same deck
// seed deal the same hands whatever the players (a duplicate comparison),
// and Deal sees every deal's full hands before the bidding.
func TestCutAndDealHooks(t *testing.T) {
	deals := func(playerSeed uint64) [][4]Set {
		var seen [][4]Set
		var ps [4]Player
		for i := range ps {
			ps[i] = randomPlayer{rand.New(rand.NewPCG(playerSeed, uint64(i)))}
		}
		cfg := MatchConfig{TargetScore: 151, FirstDealer: Right,
			Cut:  func(deal int) Cut { return Cut{Position: 6 + deal%21, FromTop: true} },
			Deal: func(_ Position, hands [4]Set) { seen = append(seen, hands) }}
		if _, err := RunMatch(context.Background(), ps, cfg, rand.New(rand.NewPCG(42, 1)), nil); err != nil {
			t.Fatal(err)
		}
		for _, h := range seen {
			if h[0]|h[1]|h[2]|h[3] != FullDeck || h[0].Count()+h[1].Count()+h[2].Count()+h[3].Count() != 32 {
				t.Fatalf("Deal saw %v, not a full deal", h)
			}
		}
		return seen
	}
	a, b := deals(1), deals(2)
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			t.Fatalf("deal %d differs between players: %v vs %v", i, a[i], b[i])
		}
	}
}
