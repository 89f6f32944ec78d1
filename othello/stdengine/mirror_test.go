package stdengine

import (
	"math/rand/v2"
	"testing"
)

// TestMirrorIndex: the map is an involution within each kind, and a
// position and its mirror image (for a reflection that maps an instance
// onto itself) give that instance mirrored indices.
func TestMirrorIndex(t *testing.T) {
	l := LayoutV3
	m := l.MirrorIndex()
	self := 0
	for i, j := range m {
		if m[j] != int32(i) {
			t.Fatalf("index %d → %d → %d", i, j, m[j])
		}
		if j == int32(i) {
			self++
		}
	}
	if self == len(m) {
		t.Fatal("no kind has a mirror")
	}
	// The a1 3×3 corner is its own image in the a1–h8 diagonal: a
	// position and its transpose read it through mirrored entries.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		black := rng.Uint64() & rng.Uint64()
		white := rng.Uint64() &^ black
		f := l.featuresOf(black, white)
		g := l.featuresOf(transpose(black), transpose(white))
		i, j := int(f[0]), int(g[0])
		if m[i] != int32(j) {
			t.Fatalf("corner %d: mirror %d, the transposed board reads %d", i, m[i], j)
		}
		// A row read left to right is its own image in a left–right flip.
		h := l.featuresOf(flipLR(black), flipLR(white))
		r := l.kinds[kL2].first
		if m[f[r]] != int32(h[r]) {
			t.Fatal("the second row's mirror is not the flipped board's row")
		}
	}
}

func transpose(x uint64) uint64 {
	var y uint64
	for sq := range 64 {
		if x>>sq&1 != 0 {
			y |= 1 << (sq%8*8 + sq/8)
		}
	}
	return y
}

func flipLR(x uint64) uint64 {
	var y uint64
	for sq := range 64 {
		if x>>sq&1 != 0 {
			y |= 1 << (sq/8*8 + 7 - sq%8)
		}
	}
	return y
}
