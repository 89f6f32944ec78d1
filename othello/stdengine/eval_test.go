package stdengine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestEvalMatchesInputs checks the search's evaluation, which reads the
// tables for white to move from a copy made on load, against the weights
// the fitting tools read for the same position (Inputs, whose indices
// for white to move come from the layout's colour swap), with random
// weights so that a wrong index cannot go unseen.
func TestEvalMatchesInputs(t *testing.T) {
	for _, l := range Layouts {
		rng := rand.New(rand.NewPCG(3, 4))
		w := make([]int16, NumStages*l.StageLen())
		for i := range w {
			w[i] = int16(rng.IntN(2001) - 1000)
		}
		m, err := NewModel(l, w, false)
		if err != nil {
			t.Fatal(err)
		}
		idx := make([]int32, l.NumInputs())
		for range 2000 {
			p := rng.Uint64() & rng.Uint64()
			o := rng.Uint64() &^ p
			white := rng.IntN(2) == 0
			var sc [NumScalars]int32
			st := l.Inputs(p, o, white, idx, &sc)
			stage := w[st*l.StageLen():][:l.StageLen()]
			want := 0
			for _, j := range idx {
				want += int(stage[j])
			}
			for i, x := range sc {
				want += int(x) * int(stage[l.Tables()+i])
			}
			if got := m.Eval(p, o, white); math.Abs(got*EvalScale-float64(want)) > 1e-6 {
				t.Fatalf("layout %s, %#x %#x white %v: Eval %v, the inputs' weights sum to %d", l.Name(), p, o, white, got*EvalScale, want)
			}
		}
	}
}
