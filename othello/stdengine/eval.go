package stdengine

import (
	"bufio"
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

// Model is a fitted evaluation: NumStages × Layout.StageLen weights in
// EvalScale units, indexed for black to move, plus the same tables
// indexed for white to move (built on load). A model belongs to one game:
// std, or its misère twin anti, where the player with fewer discs wins.
type Model struct {
	Misere bool
	lay    *Layout
	// mobility: some stage weighs the mobility difference, so the search
	// must generate the opponent's moves at every leaf; a model without it
	// is evaluated from the patterns and potential mobility alone.
	mobility bool
	w        []int16   // NumStages × StageLen, black to move
	white    [][]int16 // per stage: the tables for white to move
	sc       [NumStages][NumScalars]int32
}

// NewModel builds a model of layout l for the std game (misere false) or
// anti from weights laid out as NumStages × l.StageLen() (black to move).
func NewModel(l *Layout, w []int16, misere bool) (*Model, error) {
	n := l.StageLen()
	if len(w) != NumStages*n {
		return nil, fmt.Errorf("evaluation model (layout %s): %d weights, want %d", l.name, len(w), NumStages*n)
	}
	m := &Model{Misere: misere, lay: l, w: w, white: make([][]int16, NumStages)}
	for s := range NumStages {
		b := w[s*n:][:n]
		wt := make([]int16, l.tables)
		for i, j := range l.swap {
			wt[i] = b[j]
		}
		m.white[s] = wt
		for i := range NumScalars {
			m.sc[s][i] = int32(b[l.tables+i])
		}
		m.mobility = m.mobility || m.sc[s][ScalarMobility] != 0
	}
	return m, nil
}

// Weights returns the model's weights (NumStages × StageLen, black to
// move); the caller must not change them.
func (m *Model) Weights() []int16 { return m.w }

// Layout is the pattern set the model reads.
func (m *Model) Layout() *Layout { return m.lay }

// eval is the model's score (EvalScale units) for the side to move: f
// the position's features, white whether white is to move, discs the
// mover's discs, mob the mover's moves minus the opponent's, potM and
// potO the potential mobilities.
func (m *Model) eval(f *Features, white bool, empties, discs, mob, potM, potO int) int {
	var w []int16
	s := StageOf(empties)
	l := m.lay
	if white {
		w = m.white[s]
	} else {
		w = m.w[s*l.StageLen():][:l.tables]
	}
	sc := &m.sc[s]
	v := sc[ScalarBias] + sc[ScalarMobility]*int32(mob) + sc[ScalarPotMover]*int32(potM) + sc[ScalarPotOpp]*int32(potO)
	for _, i := range f[:len(l.inst)] {
		v += int32(w[i])
	}
	if l.count {
		v += int32(w[l.countAt()+discs])
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
	f := m.lay.featuresOf(b, w)
	empty := ^(p | o)
	mob := bits.OnesCount64(bitboard.Moves(p, o)) - bits.OnesCount64(bitboard.Moves(o, p))
	return float64(m.eval(&f, white, bits.OnesCount64(empty), bits.OnesCount64(p), mob, bitboard.Potential(o, empty), bitboard.Potential(p, empty))) / EvalScale
}

// Inputs describes a position as the layout reads it, for fitting: the
// stage, the index within the stage of each table weight read
// (black-to-move tables: the colours are exchanged when white is to
// move; NumInputs of them), and the scalar features.
func (l *Layout) Inputs(p, o uint64, white bool, idx []int32, scalars *[NumScalars]int32) (stage int) {
	b, w := p, o
	if white {
		b, w = o, p
	}
	f := l.featuresOf(b, w)
	for i := range l.inst {
		j := int32(f[i])
		if white {
			j = l.swap[j]
		}
		idx[i] = j
	}
	if l.count {
		idx[len(l.inst)] = int32(l.countAt() + bits.OnesCount64(p))
	}
	empty := ^(p | o)
	scalars[ScalarBias] = 1
	scalars[ScalarMobility] = int32(bits.OnesCount64(bitboard.Moves(p, o)) - bits.OnesCount64(bitboard.Moves(o, p)))
	scalars[ScalarPotMover] = int32(bitboard.Potential(o, empty))
	scalars[ScalarPotOpp] = int32(bitboard.Potential(p, empty))
	return StageOf(bits.OnesCount64(empty))
}

// A model file is gzip'd: a magic header naming its layout, a flags byte
// (flagAnti: the anti game; flagPacked: packed weights), then the
// weights. Packed weights are written by Encode; the unpacked form,
// little-endian int16 compressed at the default level, is still read.
//
// Packed: each weight a zigzag uvarint, except that a zero is a 0 byte
// followed by a uvarint of how many more zeros follow it. Three quarters
// of a fitted model's weights are zero (configurations no game reached)
// and most of the rest fit in one byte, so the packed weights take about
// a quarter of the int16s' bytes; they are stored in the gzip
// uncompressed, because a process decodes its model before its first
// move and inflating is most of that: the embedded std model decodes in
// a third of the time of the compressed int16s (BenchmarkDecodeModel)
// for a file 13% larger.
const (
	flagAnti   = 1
	flagPacked = 2
)

// Encode writes the model (packed).
func (m *Model) Encode(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.NoCompression)
	if err != nil {
		return err
	}
	flags := byte(flagPacked)
	if m.Misere {
		flags |= flagAnti
	}
	bw := bufio.NewWriterSize(zw, 1<<16)
	bw.WriteString(m.lay.magic)
	bw.WriteByte(flags)
	var buf [2 * binary.MaxVarintLen64]byte
	for i := 0; i < len(m.w); {
		if m.w[i] == 0 {
			j := i + 1
			for j < len(m.w) && m.w[j] == 0 {
				j++
			}
			buf[0] = 0
			n := binary.PutUvarint(buf[1:], uint64(j-i-1))
			bw.Write(buf[:1+n])
			i = j
			continue
		}
		x := int64(m.w[i])
		n := binary.PutUvarint(buf[:], uint64(x<<1^x>>63))
		bw.Write(buf[:n])
		i++
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// DecodeModel reads a model written by Encode, packed or not.
func DecodeModel(b []byte) (*Model, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	magic := make([]byte, len(LayoutV3.magic)+1)
	if _, err := io.ReadFull(zr, magic); err != nil {
		return nil, errors.New("evaluation model: bad header")
	}
	var l *Layout
	for _, c := range Layouts {
		if string(magic[:len(c.magic)]) == c.magic {
			l = c
		}
	}
	flags := magic[len(magic)-1]
	if l == nil || flags&^(flagAnti|flagPacked) != 0 {
		return nil, errors.New("evaluation model: bad header")
	}
	n := NumStages * l.StageLen()
	limit := 2 * n // int16s; a packed weight takes at most 3 bytes
	if flags&flagPacked != 0 {
		limit = 3 * n
	}
	raw, err := io.ReadAll(io.LimitReader(zr, int64(limit+1)))
	if err != nil {
		return nil, err
	}
	var w []int16
	if flags&flagPacked != 0 {
		if w, err = unpackWeights(raw, n); err != nil {
			return nil, fmt.Errorf("evaluation model (layout %s): %w", l.name, err)
		}
	} else {
		if len(raw) != 2*n {
			return nil, fmt.Errorf("evaluation model (layout %s): %d bytes of weights, want %d", l.name, len(raw), 2*n)
		}
		w = make([]int16, n)
		for i := range w {
			w[i] = int16(binary.LittleEndian.Uint16(raw[2*i:]))
		}
	}
	return NewModel(l, w, flags&flagAnti != 0)
}

// unpackWeights decodes n packed weights that are all of b.
func unpackWeights(b []byte, n int) ([]int16, error) {
	w := make([]int16, n)
	i := 0
	for k := 0; k < len(b); {
		if i == n {
			return nil, fmt.Errorf("more than %d packed weights", n)
		}
		v, m := binary.Uvarint(b[k:])
		if m <= 0 {
			return nil, errors.New("packed weights: a truncated or overlong number")
		}
		k += m
		if v == 0 {
			run, m := binary.Uvarint(b[k:])
			if m <= 0 || run >= uint64(n-i) {
				return nil, errors.New("packed weights: a run of zeros truncated or past the end")
			}
			k += m
			i += int(run) + 1 // w is zeroed
			continue
		}
		x := int64(v>>1) ^ -int64(v&1)
		if x < -1<<15 || x >= 1<<15 {
			return nil, fmt.Errorf("packed weights: %d out of range", x)
		}
		w[i] = int16(x)
		i++
	}
	if i != n {
		return nil, fmt.Errorf("%d packed weights, want %d", i, n)
	}
	return w, nil
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
