package bidmodel

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/botarena/gamebot/giretra"
)

// Hidden is the width of the network's hidden layer.
const Hidden = 48

// valueScale is the unit of the network's output: values are fitted in
// hundreds of match points, where the weights stay near 1.
const valueScale = 100

// Model is a network of one hidden layer of rectified units: the value
// of an action, in match points at the start of a match, is
// valueScale·(W2·relu(W1·x) + b2). The first layer's bias is the weight
// of the constant input.
type Model struct {
	W1 [Hidden][NumFeatures]float32
	W2 [Hidden]float32
	B2 float32
}

// magic heads a stored model: the name and the shape, so that a model of
// another shape is refused rather than misread.
var magic = fmt.Sprintf("giretra-bidmodel %d %d\n", NumFeatures, Hidden)

// Value is the model's value of the action whose features are x.
func (m *Model) Value(x []float32) float64 {
	x = x[:NumFeatures]
	out := m.B2
	for h := range Hidden {
		w := &m.W1[h]
		var s float32
		for i, xi := range x {
			s += w[i] * xi
		}
		if s > 0 {
			out += m.W2[h] * s
		}
	}
	return float64(out) * valueScale
}

// Values values every action of valid in s, in valid's order; an action
// that is not legal gets -Inf. The first layer's sums over the context
// are made once for all the actions.
func (m *Model) Values(s *Situation, valid []giretra.Action, out []float64) []float64 {
	var x [NumFeatures]float32
	s.Context(x[:])
	var ctx [Hidden]float32
	for h := range Hidden {
		w := &m.W1[h]
		var sum float32
		for i, xi := range x[:nContext] {
			sum += w[i] * xi
		}
		ctx[h] = sum
	}
	out = out[:0]
	for _, a := range valid {
		if !s.Action(x[:], a) {
			out = append(out, math.Inf(-1))
			continue
		}
		v := m.B2
		for h := range Hidden {
			w := &m.W1[h]
			sum := ctx[h]
			for i := nContext; i < NumFeatures; i++ {
				if x[i] != 0 {
					sum += w[i] * x[i]
				}
			}
			if sum > 0 {
				v += m.W2[h] * sum
			}
		}
		out = append(out, float64(v)*valueScale)
	}
	return out
}

// Digest names the model by its weights: the first 8 bytes of the
// SHA-256 of its stored form, in hex.
func (m *Model) Digest() string {
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, m)
	sum := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(sum[:8])
}

// MarshalBinary stores the model gzipped, as little-endian float32s after
// the header.
func (m *Model) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := io.WriteString(zw, magic); err != nil {
		return nil, err
	}
	if err := binary.Write(zw, binary.LittleEndian, m); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Load reads a model written by MarshalBinary.
func Load(b []byte) (*Model, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("bid model: %w", err)
	}
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(zr, head); err != nil || string(head) != magic {
		return nil, errors.New("bid model: not a model of this shape")
	}
	m := new(Model)
	if err := binary.Read(zr, binary.LittleEndian, m); err != nil {
		return nil, fmt.Errorf("bid model: %w", err)
	}
	if _, err := zr.Read(make([]byte, 1)); err != io.EOF {
		return nil, errors.New("bid model: trailing data")
	}
	bad := func(w float32) bool { return math.IsNaN(float64(w)) || math.IsInf(float64(w), 0) }
	for h := range Hidden {
		for _, w := range m.W1[h] {
			if bad(w) {
				return nil, errors.New("bid model: a weight is not finite")
			}
		}
		if bad(m.W2[h]) {
			return nil, errors.New("bid model: a weight is not finite")
		}
	}
	if bad(m.B2) {
		return nil, errors.New("bid model: a weight is not finite")
	}
	return m, nil
}
