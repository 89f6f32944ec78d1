package othello

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// slowRot turns a board a quarter turn square by square: rot8's contract.
func slowRot(b uint64) uint64 {
	var out uint64
	for r := range 8 {
		for c := range 8 {
			if b>>uint(8*r+c)&1 == 1 {
				// rot8 = flipVert8(transpose8(b)): (r,c) → (c,r) → (7−c,r).
				out |= 1 << uint(8*(7-c)+r)
			}
		}
	}
	return out
}

func slowTranspose(b uint64) uint64 {
	var out uint64
	for r := range 8 {
		for c := range 8 {
			if b>>uint(8*r+c)&1 == 1 {
				out |= 1 << uint(8*c+r)
			}
		}
	}
	return out
}

// slowIndex reads squares (row, col) of mover a / opponent b in order.
func slowIndex(a, b uint64, sq [][2]int) int32 {
	v, p := int32(0), int32(1)
	for _, q := range sq {
		bit := uint(8*q[0] + q[1])
		switch {
		case a>>bit&1 == 1:
			v += p
		case b>>bit&1 == 1:
			v += 2 * p
		}
		p *= 3
	}
	return v
}

func rect(r0, r1, c0, c1 int) [][2]int {
	var out [][2]int
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			out = append(out, [2]int{r, c})
		}
	}
	return out
}

func diagSq(k int) [][2]int {
	var out [][2]int
	for r := 0; r+k < 8; r++ {
		out = append(out, [2]int{r, r + k})
	}
	return out
}

// slowPatIndices is patIndices written square by square.
func slowPatIndices(p, o uint64) []int32 {
	var rp, ro [8]uint64
	rp[0], ro[0] = p, o
	for i := 1; i < 4; i++ {
		rp[i], ro[i] = slowRot(rp[i-1]), slowRot(ro[i-1])
	}
	for i := range 4 {
		rp[4+i], ro[4+i] = slowTranspose(rp[i]), slowTranspose(ro[i])
	}
	e2x := append(rect(0, 0, 0, 7), [2]int{1, 1}, [2]int{1, 6})
	var out []int32
	for i := range 4 {
		a, b := rp[i], ro[i]
		out = append(out,
			int32(patOffset[patC33])+slowIndex(a, b, rect(0, 2, 0, 2)),
			int32(patOffset[patE2X])+slowIndex(a, b, e2x),
			int32(patOffset[patL2])+slowIndex(a, b, rect(1, 1, 0, 7)),
			int32(patOffset[patL3])+slowIndex(a, b, rect(2, 2, 0, 7)),
			int32(patOffset[patL4])+slowIndex(a, b, rect(3, 3, 0, 7)),
			int32(patOffset[patD7])+slowIndex(a, b, diagSq(1)),
			int32(patOffset[patD6])+slowIndex(a, b, diagSq(2)),
			int32(patOffset[patD5])+slowIndex(a, b, diagSq(3)),
			int32(patOffset[patD4])+slowIndex(a, b, diagSq(4)),
		)
	}
	for i := range 8 {
		out = append(out, int32(patOffset[patC25])+slowIndex(rp[i], ro[i], rect(0, 1, 0, 4)))
	}
	for i := range 4 {
		out = append(out, int32(patOffset[patD8])+slowIndex(rp[i], ro[i], diagSq(0)))
	}
	return out
}

func randomBoard(rng *rand.Rand) (p, o uint64) {
	for sq := range 64 {
		switch rng.IntN(3) {
		case 1:
			p |= 1 << uint(sq)
		case 2:
			o |= 1 << uint(sq)
		}
	}
	return p, o
}

func TestPatIndicesMatchSlowReading(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		p, o := randomBoard(rng)
		if rot8(p) != slowRot(p) || transpose8(p) != slowTranspose(p) {
			t.Fatalf("board transforms disagree for %#x", p)
		}
		var idx [numPatInst]int32
		patIndices(p, o, &idx)
		if want := slowPatIndices(p, o); !slices.Equal(idx[:], want) {
			t.Fatalf("p=%#x o=%#x:\n got %v\nwant %v", p, o, idx, want)
		}
		for k, i := range idx {
			if i < 0 || int(i) >= patOffset[numPatKinds] {
				t.Fatalf("instance %d index %d out of the tables", k, i)
			}
		}
	}
}

// A quarter turn of the board permutes the pattern instances: the model is
// exactly invariant under rotations.
func TestPatIndicesRotationInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		p, o := randomBoard(rng)
		var a, b [numPatInst]int32
		patIndices(p, o, &a)
		patIndices(rot8(p), rot8(o), &b)
		slices.Sort(a[:])
		slices.Sort(b[:])
		if a != b {
			t.Fatalf("rotation changed the instances of p=%#x o=%#x", p, o)
		}
	}
}

func TestPatModelRoundTrip(t *testing.T) {
	w := make([]int16, patStages*patStageLen)
	for i := range w {
		w[i] = int16(i*7919%2001 - 1000)
	}
	var buf bytes.Buffer
	if err := encodePatModel(&buf, w); err != nil {
		t.Fatal(err)
	}
	m, err := decodePatModel(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.w, w) {
		t.Fatal("weights changed in the round trip")
	}
	if _, err := decodePatModel(buf.Bytes()[:buf.Len()/2]); err == nil {
		t.Fatal("a truncated model decoded")
	}
	if err := encodePatModel(&buf, w[:10]); err == nil {
		t.Fatal("a short weight vector encoded")
	}
}

func BenchmarkPatternEval(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	p, o := randomBoard(rng)
	m := &patModel{w: make([]int16, patStages*patStageLen)}
	b.ReportAllocs()
	for b.Loop() {
		_ = m.eval(p, o, 30, 3)
	}
}

func TestEmbeddedModelLoads(t *testing.T) {
	m := stdModel()
	if m == nil {
		t.Fatal("the embedded std pattern model does not decode")
	}
	if len(m.w) != patStages*patStageLen {
		t.Fatalf("model has %d weights", len(m.w))
	}
	if s := newSearcher8(Std, 10); !s.usePattern {
		t.Fatal("std searcher does not use the model")
	}
	if s := newSearcher8(Anti, 10); s.usePattern {
		t.Fatal("anti searcher uses the std model")
	}
}
