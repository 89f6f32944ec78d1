package stdengine

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"sync"

	"github.com/botarena/gamebot/othello/bitboard"
)

// EvalScale is the evaluation's units per disc.
const EvalScale = 100

// NumStages is the number of weight sets: one per two counts of empties
// of the same parity (StageOf), so that positions with odd and even
// empties (who gets the last move of each region) are never fitted
// together.
const NumStages = 31

// StageOf is the weight set of a position with that many empties (0–60).
func StageOf(empties int) int { return empties>>2<<1 | empties&1 }

// Scalar features, after the pattern tables of a stage.
const (
	ScalarBias     = iota // 1
	ScalarMobility        // mover's moves − opponent's moves
	ScalarPotMover        // empties next to an opponent disc (mover's potential mobility)
	ScalarPotOpp          // empties next to a mover disc
	NumScalars
)

// kindOffset is where each kind's table starts in a stage's weights.
var kindOffset = func() (off [numKinds + 1]int) {
	for k := range numKinds {
		off[k+1] = off[k] + kindSize[k]
	}
	return off
}()

// StageLen is the number of weights of one stage: the kind tables in kind
// order (3^squares each: 3⁹ + 2·3¹⁰ + 4·3⁸ + 3⁷ + 3⁶ + 3⁵ + 3⁴, which
// TestStageLen checks against kindOffset), then the scalars.
const StageLen = 167265 + NumScalars

// Model is a fitted evaluation: NumStages × StageLen weights in EvalScale
// units, indexed for black to move, plus the same tables indexed for white
// to move (built on load). A model belongs to one game: std, or its
// misère twin anti, where the player with fewer discs wins.
type Model struct {
	Misere bool
	// mobility: some stage weighs the mobility difference, so the search
	// must generate the opponent's moves at every leaf; a model without it
	// is evaluated from the patterns and potential mobility alone.
	mobility bool
	w        []int16   // NumStages × StageLen, black to move
	white    [][]int16 // per stage: the pattern tables for white to move
	sc       [NumStages][NumScalars]int32
}

// NewModel builds a model of the std game (misere false) or anti from
// weights laid out as NumStages × StageLen (black to move).
func NewModel(w []int16, misere bool) (*Model, error) {
	if len(w) != NumStages*StageLen {
		return nil, fmt.Errorf("evaluation model: %d weights, want %d", len(w), NumStages*StageLen)
	}
	m := &Model{Misere: misere, w: w, white: make([][]int16, NumStages)}
	for s := range NumStages {
		b := w[s*StageLen:][:StageLen]
		wt := make([]int16, kindOffset[numKinds])
		for k := range numKinds {
			src, dst := b[kindOffset[k]:kindOffset[k+1]], wt[kindOffset[k]:kindOffset[k+1]]
			for i, j := range swapColours[k] {
				dst[i] = src[j]
			}
		}
		m.white[s] = wt
		for i := range NumScalars {
			m.sc[s][i] = int32(b[kindOffset[numKinds]+i])
		}
		m.mobility = m.mobility || m.sc[s][ScalarMobility] != 0
	}
	return m, nil
}

// Weights returns the model's weights (NumStages × StageLen, black to
// move); the caller must not change them.
func (m *Model) Weights() []int16 { return m.w }

// eval is the model's score (EvalScale units) for the side to move: f
// the position's features, white whether white is to move, mob the
// mover's moves minus the opponent's, potM and potO the potential
// mobilities.
func (m *Model) eval(f *Features, white bool, empties, mob, potM, potO int) int {
	var w []int16
	s := StageOf(empties)
	if white {
		w = m.white[s]
	} else {
		w = m.w[s*StageLen:][:kindOffset[numKinds]]
	}
	sc := &m.sc[s]
	v := sc[ScalarBias] + sc[ScalarMobility]*int32(mob) + sc[ScalarPotMover]*int32(potM) + sc[ScalarPotOpp]*int32(potO)
	for k := range numKinds {
		t := w[kindOffset[k]:kindOffset[k+1]]
		for _, i := range f[kindStart[k]:kindStart[k+1]] {
			v += int32(t[i])
		}
	}
	return int(v)
}

// Eval is the model's score of a position in discs for the side to move p
// (black to move when white is false): for training tools and tests; the
// search evaluates incrementally.
func (m *Model) Eval(p, o uint64, white bool) float64 {
	b, w := p, o
	if white {
		b, w = o, p
	}
	f := featuresOf(b, w)
	empty := ^(p | o)
	mob := bits.OnesCount64(bitboard.Moves(p, o)) - bits.OnesCount64(bitboard.Moves(o, p))
	return float64(m.eval(&f, white, bits.OnesCount64(empty), mob, bitboard.Potential(o, empty), bitboard.Potential(p, empty))) / EvalScale
}

// Inputs describes a position as the model reads it, for fitting: the
// stage, each instance's weight index within the stage (black-to-move
// tables: the colours are exchanged when white is to move), and the
// scalar features.
func Inputs(p, o uint64, white bool, idx *[NumInstances]int32, scalars *[NumScalars]int32) (stage int) {
	b, w := p, o
	if white {
		b, w = o, p
	}
	f := featuresOf(b, w)
	for i := range NumInstances {
		k := instances[i].kind
		j := f[i]
		if white {
			j = swapColours[k][j]
		}
		idx[i] = int32(kindOffset[k] + int(j))
	}
	empty := ^(p | o)
	scalars[ScalarBias] = 1
	scalars[ScalarMobility] = int32(bits.OnesCount64(bitboard.Moves(p, o)) - bits.OnesCount64(bitboard.Moves(o, p)))
	scalars[ScalarPotMover] = int32(bitboard.Potential(o, empty))
	scalars[ScalarPotOpp] = int32(bitboard.Potential(p, empty))
	return StageOf(bits.OnesCount64(empty))
}

const modelMagic = "OTPAT8v3"

// Encode writes the model: a magic header, the game (0 std, 1 anti), then
// the weights as little-endian int16, gzip'd at the default level (the
// best level takes eight times as long, 7.8 s against 0.9 s for the 5.2 M
// weights, for a file 2% smaller).
func (m *Model) Encode(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	if err != nil {
		return err
	}
	game := byte(0)
	if m.Misere {
		game = 1
	}
	if _, err := zw.Write(append([]byte(modelMagic), game)); err != nil {
		return err
	}
	if err := binary.Write(zw, binary.LittleEndian, m.w); err != nil {
		return err
	}
	return zw.Close()
}

// DecodeModel reads a model written by Encode.
func DecodeModel(b []byte) (*Model, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	n := NumStages * StageLen
	head := len(modelMagic) + 1
	raw, err := io.ReadAll(io.LimitReader(zr, int64(head+2*n+1)))
	if err != nil {
		return nil, err
	}
	if len(raw) != head+2*n || string(raw[:len(modelMagic)]) != modelMagic || raw[head-1] > 1 {
		return nil, errors.New("evaluation model: bad header or size")
	}
	w := make([]int16, n)
	for i := range w {
		w[i] = int16(binary.LittleEndian.Uint16(raw[head+2*i:]))
	}
	return NewModel(w, raw[head-1] == 1)
}

//go:embed eval.bin.gz
var embedded []byte

//go:embed anti.bin.gz
var embeddedAntiBytes []byte

// embeddedModel and embeddedAnti decode the embedded models once, on
// first use.
var (
	embeddedModel = sync.OnceValue(func() *Model { return mustDecode(embedded, false) })
	embeddedAnti  = sync.OnceValue(func() *Model { return mustDecode(embeddedAntiBytes, true) })
)

// ReadModel is a model from a file, or the embedded std model when name
// is "embedded".
func ReadModel(name string) (*Model, error) {
	if name == "embedded" {
		return Embedded(), nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return DecodeModel(b)
}

func mustDecode(b []byte, misere bool) *Model {
	m, err := DecodeModel(b)
	if err == nil && m.Misere != misere {
		err = errors.New("a model of the other game")
	}
	if err != nil {
		panic("stdengine: an embedded evaluation does not decode: " + err.Error())
	}
	return m
}

// Embedded is the std evaluation built into the binary. Its bytes are part
// of the build, so it cannot fail to decode in a binary whose tests pass
// (TestEmbedded decodes it); a build that broke it panics at the first
// std move rather than playing std with anything else.
func Embedded() *Model { return embeddedModel() }

// EmbeddedAnti is the anti evaluation built into the binary, checked as
// Embedded is.
func EmbeddedAnti() *Model { return embeddedAnti() }

func trailing(b uint64) int { return bits.TrailingZeros64(b) }
