package bidmodel

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

// situations draws bidding situations of random deals: the first seat
// holding five random cards, after a random legal start of the bidding.
func situations(n int) []giretra.BidView {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []giretra.BidView
	for len(out) < n {
		d := giretra.Shuffle(rng)
		var hand giretra.Set
		for _, c := range d[:5] {
			hand |= c.Bit()
		}
		neg := &giretra.Negotiation{Dealer: giretra.Position(rng.IntN(4))}
		st := giretra.NewBidding(neg.Dealer)
		for range rng.IntN(5) {
			valid := st.ValidActions(neg.Actions)
			if len(valid) == 0 {
				break
			}
			a := valid[rng.IntN(len(valid))]
			if st.Apply(len(neg.Actions), a) != nil {
				break
			}
			neg.Actions = append(neg.Actions, a)
		}
		valid := st.ValidActions(neg.Actions)
		if len(valid) < 2 {
			continue
		}
		m := giretra.NewMatchState(151, neg.Dealer)
		m.Points = [2]int{rng.IntN(150), rng.IntN(150)}
		out = append(out, giretra.BidView{Seat: st.CurrentPlayer, Hand: hand, Negotiation: neg, Match: &m, Valid: valid})
	}
	return out
}

func TestFeaturesBounded(t *testing.T) {
	var x [NumFeatures]float32
	for _, v := range situations(500) {
		s, ok := NewSituation(&v)
		if !ok {
			t.Fatal("a legal negotiation does not replay")
		}
		s.Context(x[:])
		for _, a := range v.Valid {
			if !s.Action(x[:], a) {
				t.Fatalf("offered %v refused", a)
			}
			for i, xi := range x {
				if math.IsNaN(float64(xi)) || xi < 0 || xi > 10 {
					t.Fatalf("feature %d = %v", i, xi)
				}
			}
		}
		if s.Action(x[:], giretra.Action{Type: giretra.Redouble, Player: v.Seat, Mode: giretra.NoTrumps}) {
			t.Fatal("a NoTrumps redouble, never legal, valued")
		}
	}
}

// examples is a target a network can learn: the value of announcing
// rises with the hand's trumps in the announced mode.
func examples() *Examples {
	ex := &Examples{}
	var x [NumFeatures]float32
	for _, v := range situations(300) {
		s, _ := NewSituation(&v)
		s.Context(x[:])
		for _, a := range v.Valid {
			if !s.Action(x[:], a) {
				continue
			}
			y := -10.0
			if a.Type == giretra.Announce && a.Mode.IsColour() {
				y = 30 * float64(v.Hand.CountSuit(a.Mode.Trump())-1)
			}
			ex.Add(x[:], y)
		}
	}
	return ex
}

func TestFitLearnsAndIsDeterministic(t *testing.T) {
	ex := examples()
	opt := FitOptions{Epochs: 30, Rate: 0.003, Batch: 32, Seed: 4}
	m1, err := Fit(ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	var base float64
	mean := 0.0
	for _, y := range ex.Y {
		mean += float64(y)
	}
	mean /= float64(ex.Len())
	for _, y := range ex.Y {
		base += (float64(y) - mean) * (float64(y) - mean)
	}
	base = math.Sqrt(base / float64(ex.Len()))
	if r := m1.RMSE(ex); r > base/3 {
		t.Errorf("RMSE %.2f, the mean alone %.2f: the fit learned little", r, base)
	}
	m2, _ := Fit(ex, opt)
	b1, _ := m1.MarshalBinary()
	b2, _ := m2.MarshalBinary()
	if !bytes.Equal(b1, b2) {
		t.Error("the same fit twice gave two models")
	}
	m3, err := Load(b1)
	if err != nil || *m3 != *m1 {
		t.Fatalf("Load(MarshalBinary) = %v", err)
	}
}

func TestLoadRefuses(t *testing.T) {
	var m Model
	good, _ := m.MarshalBinary()
	m.W2[3] = float32(math.NaN())
	nan, _ := m.MarshalBinary()
	for name, b := range map[string][]byte{
		"empty":     nil,
		"not gzip":  []byte("model"),
		"truncated": good[:len(good)-10],
		"NaN":       nan,
	} {
		if _, err := Load(b); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

func TestEmbeddedLoads(t *testing.T) {
	m := Embedded()
	v := situations(1)[0]
	s, _ := NewSituation(&v)
	vals := m.Values(&s, v.Valid, nil)
	if len(vals) != len(v.Valid) {
		t.Fatalf("%d values for %d options", len(vals), len(v.Valid))
	}
}

func FuzzLoad(f *testing.F) {
	var m Model
	b, _ := m.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Load(b)
		if err != nil {
			return
		}
		out, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if m2, err := Load(out); err != nil || *m2 != *m {
			t.Fatal("a loaded model does not round-trip")
		}
	})
}

func BenchmarkValues(b *testing.B) {
	m := Embedded()
	vs := situations(64)
	var buf []float64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		v := &vs[i%len(vs)]
		s, _ := NewSituation(v)
		buf = m.Values(&s, v.Valid, buf)
	}
}
