package othello

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"sync"
)

// The trained evaluation of 8×8 Othello (std mode): a sum of pattern
// weights, as in Logistello, Edax or NTest. Each pattern is a set of
// squares whose contents (empty, mover, opponent) index a weight table; a
// pattern is read in each of its symmetric positions on the board, all
// sharing one table. The tables depend on the game stage (number of
// empties). The weights are fitted to game results by cmd/othello-train and
// embedded from pattern8.bin.gz.
//
// Every pattern instance is read off one of the eight symmetric images of
// the board as a few row segments or one diagonal, so an evaluation costs a
// few hundred cheap operations and allocates nothing.

// Pattern kinds and their table sizes (3^squares).
const (
	patC33 = iota // 3×3 corner
	patE2X        // edge row plus its two X squares
	patC25        // 2×5 corner rectangle
	patL2         // second row
	patL3         // third row
	patL4         // fourth row
	patD8         // main diagonal
	patD7         // diagonals of 7, 6, 5 and 4 squares
	patD6
	patD5
	patD4
	numPatKinds
)

var patSize = [numPatKinds]int{19683, 59049, 59049, 6561, 6561, 6561, 6561, 2187, 729, 243, 81}

// patOffset is where each kind's table starts in a stage's weights; after
// the tables come the scalar weights.
var patOffset [numPatKinds + 1]int

const (
	patStages  = 12 // stage = (60 − empties) / 5, clamped
	scalarBias = 0  // scalar weight indices after the tables
	scalarMob  = 1  // mover's moves − opponent's moves
	numScalars = 2
	numPatInst = 48
)

// patStageLen is the number of weights of one stage.
var patStageLen int

func init() {
	off := 0
	for k := range numPatKinds {
		patOffset[k] = off
		off += patSize[k]
	}
	patOffset[numPatKinds] = off
	patStageLen = off + numScalars
}

// pow3 of a bit mask: t3[m] = Σ 3^i over the set bits i of m.
var t3 [1 << 10]int32

func init() {
	for m := range len(t3) {
		v, p := int32(0), int32(1)
		for i := range 10 {
			if m>>i&1 == 1 {
				v += p
			}
			p *= 3
		}
		t3[m] = v
	}
}

// patStage maps empties to a stage.
func patStage(empties int) int {
	return min(max((60-empties)/5, 0), patStages-1)
}

// flipVert8 mirrors rows (rank 1 ↔ rank 8).
func flipVert8(b uint64) uint64 { return bits.ReverseBytes64(b) }

// transpose8 mirrors along the a1–h8 diagonal.
func transpose8(b uint64) uint64 {
	const k1, k2, k4 = 0x5500550055005500, 0x3333000033330000, 0x0f0f0f0f00000000
	t := k4 & (b ^ (b << 28))
	b ^= t ^ (t >> 28)
	t = k2 & (b ^ (b << 14))
	b ^= t ^ (t >> 14)
	t = k1 & (b ^ (b << 7))
	b ^= t ^ (t >> 7)
	return b
}

// rot8 rotates the board a quarter turn.
func rot8(b uint64) uint64 { return flipVert8(transpose8(b)) }

// diagMask[k] is the diagonal parallel to a1–h8 that starts at file k of
// rank 1 (8−k squares, one per file k..7).
var diagMask [8]uint64

func init() {
	for k := range 8 {
		for r := 0; r+k < 8; r++ {
			diagMask[k] |= 1 << uint(8*r+r+k)
		}
	}
}

// diagByte gathers the squares of b on the diagonal mask m (one square per
// file) into a byte indexed by file.
func diagByte(b, m uint64) uint64 { return (b & m) * 0x0101010101010101 >> 56 }

// patIndices fills idx with the table index (kind offset + ternary index)
// of every pattern instance for mover p and opponent o.
func patIndices(p, o uint64, idx *[numPatInst]int32) {
	var rp, ro [8]uint64
	rp[0], ro[0] = p, o
	for i := 1; i < 4; i++ {
		rp[i], ro[i] = rot8(rp[i-1]), rot8(ro[i-1])
	}
	for i := range 4 {
		rp[4+i], ro[4+i] = transpose8(rp[i]), transpose8(ro[i])
	}
	n := 0
	tri := func(a, b uint64) int32 { return t3[a] + 2*t3[b] }
	for i := range 4 {
		a, b := rp[i], ro[i]
		// 3×3 corner.
		idx[n] = int32(patOffset[patC33]) + tri(a&7, b&7) + 27*tri(a>>8&7, b>>8&7) + 729*tri(a>>16&7, b>>16&7)
		// Edge with X squares (b2 = bit 9, g2 = bit 14).
		idx[n+1] = int32(patOffset[patE2X]) + tri(a&255, b&255) + 6561*tri(a>>9&1|a>>13&2, b>>9&1|b>>13&2)
		// Rows 2, 3, 4.
		idx[n+2] = int32(patOffset[patL2]) + tri(a>>8&255, b>>8&255)
		idx[n+3] = int32(patOffset[patL3]) + tri(a>>16&255, b>>16&255)
		idx[n+4] = int32(patOffset[patL4]) + tri(a>>24&255, b>>24&255)
		// Diagonals of 7, 6, 5, 4 squares above the main one.
		idx[n+5] = int32(patOffset[patD7]) + tri(diagByte(a, diagMask[1])>>1, diagByte(b, diagMask[1])>>1)
		idx[n+6] = int32(patOffset[patD6]) + tri(diagByte(a, diagMask[2])>>2, diagByte(b, diagMask[2])>>2)
		idx[n+7] = int32(patOffset[patD5]) + tri(diagByte(a, diagMask[3])>>3, diagByte(b, diagMask[3])>>3)
		idx[n+8] = int32(patOffset[patD4]) + tri(diagByte(a, diagMask[4])>>4, diagByte(b, diagMask[4])>>4)
		n += 9
	}
	for i := range 8 {
		a, b := rp[i], ro[i]
		idx[n] = int32(patOffset[patC25]) + tri(a&31, b&31) + 243*tri(a>>8&31, b>>8&31)
		n++
	}
	for i := range 4 {
		a, b := rp[i], ro[i]
		idx[n] = int32(patOffset[patD8]) + tri(diagByte(a, diagMask[0]), diagByte(b, diagMask[0]))
		n++
	}
}

// patModel is a trained set of weights: patStages × patStageLen values in
// score units (discScale per disc).
type patModel struct {
	w []int16
}

// eval returns the model's score for the mover (scaled units).
func (m *patModel) eval(p, o uint64, empties, mob int) int {
	var idx [numPatInst]int32
	patIndices(p, o, &idx)
	w := m.w[patStage(empties)*patStageLen:][:patStageLen]
	v := int(w[patOffset[numPatKinds]+scalarBias]) + mob*int(w[patOffset[numPatKinds]+scalarMob])
	for _, i := range idx {
		v += int(w[i])
	}
	return v
}

const patMagic = "OTPAT8v1"

// encodePatModel writes weights (patStages × patStageLen) as gzip'd
// little-endian int16 after a magic header.
func encodePatModel(w io.Writer, weights []int16) error {
	if len(weights) != patStages*patStageLen {
		return fmt.Errorf("pattern model: %d weights, want %d", len(weights), patStages*patStageLen)
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write([]byte(patMagic)); err != nil {
		return err
	}
	if err := binary.Write(zw, binary.LittleEndian, weights); err != nil {
		return err
	}
	return zw.Close()
}

func decodePatModel(b []byte) (*patModel, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(zr, int64(len(patMagic)+2*patStages*patStageLen+1)))
	if err != nil {
		return nil, err
	}
	if len(raw) != len(patMagic)+2*patStages*patStageLen || string(raw[:len(patMagic)]) != patMagic {
		return nil, errors.New("pattern model: bad header or size")
	}
	w := make([]int16, patStages*patStageLen)
	for i := range w {
		w[i] = int16(binary.LittleEndian.Uint16(raw[len(patMagic)+2*i:]))
	}
	return &patModel{w: w}, nil
}

//go:embed pattern8.bin.gz
var patModelData []byte

// stdModel is the embedded model, decoded once (nil if absent or broken:
// the hand-written evaluation is used then).
var stdModel = sync.OnceValue(func() *patModel {
	m, err := decodePatModel(patModelData)
	if err != nil {
		return nil
	}
	return m
})
