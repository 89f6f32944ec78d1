package stdengine

// The evaluation reads the board through pattern instances, as Logistello,
// Edax and NTest do: each instance is a list of squares whose contents
// (empty 0, black 1, white 2) form a base-3 index into its kind's weight
// table; the symmetric instances of a kind share one table because each
// lists its squares in the same order relative to its own corner or edge.
// Indices use absolute colours so that a move changes only the instances
// through the squares it touches (updateFeatures); the model keeps one
// copy of its tables for each colour to move.

// Pattern kinds.
const (
	kC33 = iota // 3×3 corner
	kE2X        // edge row plus its two X squares
	kC25        // 2×5 corner rectangle
	kL2         // second row
	kL3         // third row
	kL4         // fourth row
	kD8         // main diagonal
	kD7         // diagonals of 7, 6, 5 and 4 squares
	kD6
	kD5
	kD4
	numKinds
)

// kindSquares is the number of squares of each kind.
var kindSquares = [numKinds]int{9, 10, 10, 8, 8, 8, 8, 7, 6, 5, 4}

// instances lists every pattern instance, grouped by kind (kindStart),
// with its squares in index order: square j weighs 3^j.
var instances = [...]struct {
	kind int
	sq   []int8
}{
	{kC33, []int8{0, 1, 2, 8, 9, 10, 16, 17, 18}},
	{kC33, []int8{7, 15, 23, 6, 14, 22, 5, 13, 21}},
	{kC33, []int8{63, 62, 61, 55, 54, 53, 47, 46, 45}},
	{kC33, []int8{56, 48, 40, 57, 49, 41, 58, 50, 42}},
	{kE2X, []int8{0, 1, 2, 3, 4, 5, 6, 7, 9, 14}},
	{kE2X, []int8{7, 15, 23, 31, 39, 47, 55, 63, 14, 54}},
	{kE2X, []int8{63, 62, 61, 60, 59, 58, 57, 56, 54, 49}},
	{kE2X, []int8{56, 48, 40, 32, 24, 16, 8, 0, 49, 9}},
	{kC25, []int8{0, 1, 2, 3, 4, 8, 9, 10, 11, 12}},
	{kC25, []int8{7, 15, 23, 31, 39, 6, 14, 22, 30, 38}},
	{kC25, []int8{63, 62, 61, 60, 59, 55, 54, 53, 52, 51}},
	{kC25, []int8{56, 48, 40, 32, 24, 57, 49, 41, 33, 25}},
	{kC25, []int8{0, 8, 16, 24, 32, 1, 9, 17, 25, 33}},
	{kC25, []int8{7, 6, 5, 4, 3, 15, 14, 13, 12, 11}},
	{kC25, []int8{63, 55, 47, 39, 31, 62, 54, 46, 38, 30}},
	{kC25, []int8{56, 57, 58, 59, 60, 48, 49, 50, 51, 52}},
	{kL2, []int8{8, 9, 10, 11, 12, 13, 14, 15}},
	{kL2, []int8{6, 14, 22, 30, 38, 46, 54, 62}},
	{kL2, []int8{55, 54, 53, 52, 51, 50, 49, 48}},
	{kL2, []int8{57, 49, 41, 33, 25, 17, 9, 1}},
	{kL3, []int8{16, 17, 18, 19, 20, 21, 22, 23}},
	{kL3, []int8{5, 13, 21, 29, 37, 45, 53, 61}},
	{kL3, []int8{47, 46, 45, 44, 43, 42, 41, 40}},
	{kL3, []int8{58, 50, 42, 34, 26, 18, 10, 2}},
	{kL4, []int8{24, 25, 26, 27, 28, 29, 30, 31}},
	{kL4, []int8{4, 12, 20, 28, 36, 44, 52, 60}},
	{kL4, []int8{39, 38, 37, 36, 35, 34, 33, 32}},
	{kL4, []int8{59, 51, 43, 35, 27, 19, 11, 3}},
	// Each main diagonal is read from both ends, as the model was fitted.
	{kD8, []int8{0, 9, 18, 27, 36, 45, 54, 63}},
	{kD8, []int8{7, 14, 21, 28, 35, 42, 49, 56}},
	{kD8, []int8{63, 54, 45, 36, 27, 18, 9, 0}},
	{kD8, []int8{56, 49, 42, 35, 28, 21, 14, 7}},
	{kD7, []int8{1, 10, 19, 28, 37, 46, 55}},
	{kD7, []int8{15, 22, 29, 36, 43, 50, 57}},
	{kD7, []int8{62, 53, 44, 35, 26, 17, 8}},
	{kD7, []int8{48, 41, 34, 27, 20, 13, 6}},
	{kD6, []int8{2, 11, 20, 29, 38, 47}},
	{kD6, []int8{23, 30, 37, 44, 51, 58}},
	{kD6, []int8{61, 52, 43, 34, 25, 16}},
	{kD6, []int8{40, 33, 26, 19, 12, 5}},
	{kD5, []int8{3, 12, 21, 30, 39}},
	{kD5, []int8{31, 38, 45, 52, 59}},
	{kD5, []int8{60, 51, 42, 33, 24}},
	{kD5, []int8{32, 25, 18, 11, 4}},
	{kD4, []int8{4, 13, 22, 31}},
	{kD4, []int8{39, 46, 53, 60}},
	{kD4, []int8{59, 50, 41, 32}},
	{kD4, []int8{24, 17, 10, 3}},
}

// NumInstances is the number of pattern instances read on a board.
const NumInstances = len(instances)

// Features are the base-3 indices of every instance (absolute colours).
type Features [NumInstances]uint16

// kindSize is 3^squares of each kind; kindStart the first instance of each
// kind (instances are grouped by kind), kindStart[numKinds] the count.
var (
	kindSize = func() (s [numKinds]int) {
		for k := range numKinds {
			s[k] = 1
			for range kindSquares[k] {
				s[k] *= 3
			}
		}
		return s
	}()
	kindStart [numKinds + 1]int
)

// sqUpdate lists, for a square, the instances through it and the weight
// 3^j of the square in each.
type sqUpdate struct {
	n    int
	inst [maxPerSquare]uint8
	pow  [maxPerSquare]uint16
}

// maxPerSquare bounds the instances through one square (b2 and its
// symmetric squares lie on nine).
const maxPerSquare = 10

var updates [64]sqUpdate

// swapColours[k][i] is index i of kind k with black and white exchanged.
var swapColours [numKinds][]uint16

func init() {
	k := 0
	for i, in := range instances {
		for in.kind > k {
			k++
			kindStart[k] = i
		}
		if len(in.sq) != kindSquares[in.kind] {
			panic("std: instance of the wrong size")
		}
		pow := uint16(1)
		for _, sq := range in.sq {
			u := &updates[sq]
			u.inst[u.n], u.pow[u.n] = uint8(i), pow
			u.n++
			pow *= 3
		}
	}
	for k++; k <= numKinds; k++ {
		kindStart[k] = NumInstances
	}
	for k := range numKinds {
		sw := make([]uint16, kindSize[k])
		for i := range sw {
			j, p := 0, 1
			for x := i; x > 0; x /= 3 {
				switch x % 3 {
				case 1:
					j += 2 * p
				case 2:
					j += p
				}
				p *= 3
			}
			sw[i] = uint16(j)
		}
		swapColours[k] = sw
	}
}

// featuresOf computes every index of a position from scratch (black and
// white discs).
func featuresOf(black, white uint64) Features {
	var f Features
	for i, in := range instances {
		idx, pow := 0, 1
		for _, sq := range in.sq {
			switch {
			case black>>uint(sq)&1 != 0:
				idx += pow
			case white>>uint(sq)&1 != 0:
				idx += 2 * pow
			}
			pow *= 3
		}
		f[i] = uint16(idx)
	}
	return f
}

// updateFeatures changes f for a disc placed on sq by black (white false)
// or white, flipping the discs of flips: an empty square becomes 1 or 2,
// a flipped disc goes 2 → 1 for black and 1 → 2 for white.
func updateFeatures(f *Features, sq int, flips uint64, white bool) {
	u := &updates[sq]
	if white {
		for j := range u.n {
			f[u.inst[j]] += 2 * u.pow[j]
		}
		for ; flips != 0; flips &= flips - 1 {
			u := &updates[trailing(flips)]
			for j := range u.n {
				f[u.inst[j]] += u.pow[j]
			}
		}
		return
	}
	for j := range u.n {
		f[u.inst[j]] += u.pow[j]
	}
	for ; flips != 0; flips &= flips - 1 {
		u := &updates[trailing(flips)]
		for j := range u.n {
			f[u.inst[j]] -= u.pow[j]
		}
	}
}
