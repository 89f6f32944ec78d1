package stdengine

import "strings"

// The evaluation reads the board through pattern instances, as Logistello,
// Edax and NTest do: each instance is a list of squares whose contents
// (empty 0, black 1, white 2) form a base-3 index into its kind's weight
// table; the symmetric instances of a kind share one table because each
// lists its squares in the same order relative to its own corner or edge.
// Indices use absolute colours so that a move changes only the instances
// through the squares it touches (Layout.update); the model keeps one
// copy of its tables for each colour to move.
//
// A Layout is one such set of patterns; a model file names its layout.
// LayoutV3 is Edax's set (eleven kinds of 4 to 10 squares); LayoutV4 has
// fourteen kinds, nine of them of ten squares, and a table of the mover's
// disc count.

// v3 pattern kinds, in table order.
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
	numKindsV3
)

// v3Instances lists every instance of LayoutV3, grouped by kind, with
// its squares in index order: square j weighs 3^j.
var v3Instances = [...]struct {
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

// v4Kinds are LayoutV4's kinds, each as its squares from its own corner
// or edge; the instances are the shape's distinct images under the
// board's eight symmetries (four for a shape that a reflection maps onto
// itself, eight for the 2×5 corner), each listing its squares in the
// order of the shape's, so that they read one table.
var v4Kinds = []string{
	"a1 b1 c1 a2 b2 c2 a3 b3 c3",    // 3×3 corner
	"a1 b1 c1 d1 e1 f1 g1 h1 b2 g2", // edge plus its X squares
	"a1 b1 c1 d1 e1 a2 b2 c2 d2 e2", // 2×5 corner
	"a1 a2 b2 c2 d2 e2 f2 g2 h2 h1", // second row plus the corners at its ends
	"a2 a3 b3 c3 d3 e3 f3 g3 h3 h2", // third row plus the C squares at its ends
	"a4 b4 c4 d4 e4 f4 g4 h4",       // fourth row
	"a1 b2 c3 d4 e5 f6 g7 h8 b1 a2", // main diagonal plus the C squares of a1
	"b1 c2 d3 e4 f5 g6 h7",          // diagonals of 7, 6 and 5 squares
	"c1 d2 e3 f4 g5 h6",
	"d1 e2 f3 g4 h5",
	"a1 b1 c1 d1 a2 b2 c2 a3 b3 a4", // corner triangle
	"a1 c1 d1 e1 f1 h1 c2 d2 e2 f2", // the edge's corners and centre, with the centre of the second row
	"a1 b2 c3 d4 b1 c2 d3 a2 b3 c4", // the corner's diagonal band
	"a1 b1 a2 b2 c2 d2 b3 c3 b4 d4", // the corner's X square and what it leads to
}

// MaxInstances bounds the pattern instances of any layout.
const MaxInstances = 64

// Features are the indices of every instance of a layout into a stage's
// tables (the kind's offset plus the base-3 index, absolute colours).
type Features [MaxInstances]uint32

// maxPerSquare bounds the instances through one square.
const maxPerSquare = 16

// sqUpdate lists, for a square, the instances through it and the weight
// 3^j of the square in each.
type sqUpdate struct {
	n    int
	inst [maxPerSquare]uint8
	pow  [maxPerSquare]uint32
}

// A Layout is a set of pattern instances, how a model reads a board.
type Layout struct {
	name  string
	magic string
	inst  [][]int8 // grouped by kind
	at    []uint32 // each instance's table offset within a stage
	kinds []kindTable
	// count: the stage has a table of the mover's discs (0–64) after the
	// patterns.
	count   bool
	tables  int // a stage's table weights (patterns and the count)
	updates [64]sqUpdate
	swap    []int32 // a table index with black and white exchanged
}

// kindTable is a kind's place in a stage: its first instance, its
// squares and where its table starts.
type kindTable struct {
	first, squares, offset int
}

var (
	// LayoutV3 reads the board as Edax does: 48 instances of 11 kinds.
	LayoutV3 = func() *Layout {
		var inst [][]int8
		var kinds []int
		for _, in := range v3Instances {
			inst = append(inst, in.sq)
			kinds = append(kinds, in.kind)
		}
		return newLayout("v3", "OTPAT8v3", inst, kinds, false)
	}()
	// LayoutV4 reads it through 60 instances of 14 larger kinds and the
	// mover's disc count.
	LayoutV4 = func() *Layout {
		var inst [][]int8
		var kinds []int
		for k, shape := range v4Kinds {
			for _, im := range images(parseSquares(shape)) {
				inst = append(inst, im)
				kinds = append(kinds, k)
			}
		}
		return newLayout("v4", "OTPAT8v4", inst, kinds, true)
	}()
	// Layouts are the layouts by name.
	Layouts = map[string]*Layout{"v3": LayoutV3, "v4": LayoutV4}
)

func parseSquares(s string) []int8 {
	var out []int8
	for _, f := range strings.Fields(s) {
		out = append(out, int8(f[0]-'a')+8*int8(f[1]-'1'))
	}
	return out
}

// images are a shape's distinct images under the board's symmetries
// (distinct as sets of squares), each in the shape's order.
func images(shape []int8) [][]int8 {
	var out [][]int8
	seen := map[uint64]bool{}
	for t := range 8 {
		im := make([]int8, len(shape))
		var set uint64
		for i, sq := range shape {
			im[i] = symmetry(sq, t)
			set |= 1 << uint(im[i])
		}
		if !seen[set] {
			seen[set] = true
			out = append(out, im)
		}
	}
	return out
}

// symmetry is square sq under symmetry t (0–7) of the board: bit 0
// reflects the files, bit 1 the ranks, bit 2 the a1–h8 diagonal, in that
// order.
func symmetry(sq int8, t int) int8 {
	x, y := sq%8, sq/8
	if t&1 != 0 {
		x = 7 - x
	}
	if t&2 != 0 {
		y = 7 - y
	}
	if t&4 != 0 {
		x, y = y, x
	}
	return x + 8*y
}

func newLayout(name, magic string, inst [][]int8, kind []int, count bool) *Layout {
	if len(inst) > MaxInstances {
		panic("stdengine: too many pattern instances")
	}
	l := &Layout{name: name, magic: magic, inst: inst, count: count, at: make([]uint32, len(inst))}
	off := 0
	for i, sq := range inst {
		if i == 0 || kind[i] != kind[i-1] {
			if len(l.kinds) != kind[i] {
				panic("stdengine: instances not grouped by kind")
			}
			if len(sq) > 10 {
				panic("stdengine: a pattern of more than 10 squares")
			}
			l.kinds = append(l.kinds, kindTable{first: i, squares: len(sq), offset: off})
			off += pow3(len(sq))
		}
		if len(sq) != l.kinds[kind[i]].squares {
			panic("stdengine: instance of the wrong size")
		}
		l.at[i] = uint32(l.kinds[kind[i]].offset)
		pow := uint32(1)
		for _, s := range sq {
			u := &l.updates[s]
			if u.n == maxPerSquare {
				panic("stdengine: too many instances through a square")
			}
			u.inst[u.n], u.pow[u.n] = uint8(i), pow
			u.n++
			pow *= 3
		}
	}
	if count {
		off += 65
	}
	l.tables = off
	l.swap = make([]int32, off)
	for i := range l.swap {
		l.swap[i] = int32(i)
	}
	for _, k := range l.kinds {
		for i := range pow3(k.squares) {
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
			l.swap[k.offset+i] = int32(k.offset + j)
		}
	}
	return l
}

func pow3(n int) int {
	p := 1
	for range n {
		p *= 3
	}
	return p
}

// Name is the layout's name (Layouts).
func (l *Layout) Name() string { return l.name }

// NumInputs is the number of table weights a position reads: one per
// instance, and the count's.
func (l *Layout) NumInputs() int {
	if l.count {
		return len(l.inst) + 1
	}
	return len(l.inst)
}

// StageLen is the number of weights of one stage: the tables, then the
// scalars.
func (l *Layout) StageLen() int { return l.tables + NumScalars }

// Tables is the number of table weights of one stage.
func (l *Layout) Tables() int { return l.tables }

// countAt is where the disc-count table starts in a stage.
func (l *Layout) countAt() int { return l.tables - 65 }

// featuresOf computes every index of a position from scratch (black and
// white discs).
func (l *Layout) featuresOf(black, white uint64) Features {
	var f Features
	for i, sq := range l.inst {
		idx, pow := uint32(0), uint32(1)
		for _, s := range sq {
			switch {
			case black>>uint(s)&1 != 0:
				idx += pow
			case white>>uint(s)&1 != 0:
				idx += 2 * pow
			}
			pow *= 3
		}
		f[i] = l.at[i] + idx
	}
	return f
}

// update changes f for a disc placed on sq by black (white false) or
// white, flipping the discs of flips: an empty square becomes 1 or 2, a
// flipped disc goes 2 → 1 for black and 1 → 2 for white.
func (l *Layout) update(f *Features, sq int, flips uint64, white bool) {
	u := &l.updates[sq]
	if white {
		for j := range u.n {
			f[u.inst[j]] += 2 * u.pow[j]
		}
		for ; flips != 0; flips &= flips - 1 {
			u := &l.updates[trailing(flips)]
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
		u := &l.updates[trailing(flips)]
		for j := range u.n {
			f[u.inst[j]] -= u.pow[j]
		}
	}
}
