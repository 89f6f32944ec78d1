package search

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

// randomDeal deals 8 cards to each seat.
func randomDeal(rng *rand.Rand) [4]giretra.Set {
	var d [32]giretra.Card
	for i := range d {
		d[i] = giretra.Card(i)
	}
	rng.Shuffle(32, func(i, j int) { d[i], d[j] = d[j], d[i] })
	var hands [4]giretra.Set
	for i, c := range d {
		hands[i/8] |= c.Bit()
	}
	return hands
}

// TestInferenceNeverExcludesAHeldCard plays random legal deals and checks,
// before every card, that what each seat infers never rules out a card
// another seat really holds, and that the sampler deals exactly the unseen
// cards with the right counts and within the inferred constraints.
func TestInferenceNeverExcludesAHeldCard(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	deals := 200
	if testing.Short() {
		deals = 40
	}
	for d := range deals {
		m := giretra.Mode(d % 6)
		hands := randomDeal(rng)
		hs := giretra.HandState{Mode: m, Current: giretra.NewTrick(giretra.Position(d % 4))}
		for !hs.Over {
			p := hs.Current.Next()
			for seat := range giretra.Position(4) {
				k := Infer(seat, hands[seat], &hs)
				for q := range giretra.Position(4) {
					if x := k.Excl[q] & hands[q]; x != 0 {
						t.Fatalf("deal %d mode %v: %v infers %v cannot hold %v, which it holds", d, m, seat, q, x)
					}
					if k.Count[q] != hands[q].Count() {
						t.Fatalf("deal %d: %v counts %d cards for %v, has %d", d, seat, k.Count[q], q, hands[q].Count())
					}
				}
				var s [4]giretra.Set
				if !k.Sample(rng, &s) {
					t.Fatalf("deal %d: sample failed", d)
				}
				if s[0]|s[1]|s[2]|s[3] != hands[0]|hands[1]|hands[2]|hands[3] {
					t.Fatalf("deal %d: sampled cards %v, want %v", d, s[0]|s[1]|s[2]|s[3], hands[0]|hands[1]|hands[2]|hands[3])
				}
				for q := range giretra.Position(4) {
					if s[q].Count() != hands[q].Count() || s[q]&k.Excl[q] != 0 && q != seat {
						t.Fatalf("deal %d: sampled hand %v of %v breaks count or constraints", d, s[q], q)
					}
				}
				if s[seat] != hands[seat] {
					t.Fatalf("own hand changed")
				}
			}
			moves := giretra.LegalPlays(hands[p], &hs.Current, m).Cards()
			c := moves[rng.IntN(len(moves))]
			hands[p] &^= c.Bit()
			hs.Play(c)
		}
	}
}

func TestRevealsVoidAndOvertrump(t *testing.T) {
	m := giretra.ColourHearts
	JH := giretra.NewCard(giretra.Jack, giretra.Hearts)
	AS := giretra.NewCard(giretra.Ace, giretra.Spades)
	SevenH := giretra.NewCard(giretra.Seven, giretra.Hearts)
	EightC := giretra.NewCard(giretra.Eight, giretra.Clubs)
	NineH := giretra.NewCard(giretra.Nine, giretra.Hearts)

	// Bottom leads AS, Left discards a club: void in spades and no trump.
	tr := giretra.NewTrick(giretra.Bottom)
	tr.Add(AS)
	got := Reveals(&tr, EightC, m)
	if got != giretra.SuitMask(giretra.Spades)|giretra.SuitMask(giretra.Hearts) {
		t.Errorf("discard on an opponent's winner: got %v", got)
	}
	// Left ruffs with the 9H, Top (partner of Bottom) must over-trump: its
	// 7H shows it has no JH (the only trump above the 9).
	tr.Add(NineH)
	got = Reveals(&tr, SevenH, m)
	if !got.Has(JH) || got.Has(NineH) || !got.Has(giretra.NewCard(giretra.Seven, giretra.Spades)) {
		t.Errorf("under-trump: got %v", got)
	}
	// Partner winning with a side card: a discard reveals only the void.
	tr2 := giretra.NewTrick(giretra.Bottom)
	tr2.Add(AS)
	tr2.Add(giretra.NewCard(giretra.Seven, giretra.Spades))
	got = Reveals(&tr2, EightC, m)
	if got != giretra.SuitMask(giretra.Spades) {
		t.Errorf("discard on partner's winner: got %v", got)
	}
	// AllTrumps: following low under a higher card reveals no higher card.
	tr3 := giretra.NewTrick(giretra.Bottom)
	tr3.Add(giretra.NewCard(giretra.Ace, giretra.Clubs))
	got = Reveals(&tr3, giretra.NewCard(giretra.Seven, giretra.Clubs), giretra.AllTrumps)
	want := giretra.Stronger(giretra.NewCard(giretra.Ace, giretra.Clubs), giretra.AllTrumps)
	if got != want {
		t.Errorf("AllTrumps follow: got %v want %v", got, want)
	}
}

func BenchmarkSample(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	k, _ := position(rng, 1, giretra.ColourSpades)
	var hands [4]giretra.Set
	b.ReportAllocs()
	for b.Loop() {
		k.Sample(rng, &hands)
	}
}
