package stdengine

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"slices"
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

// TestModelEncoding: a model written by Encode (packed) reads back with
// the same weights and game, as does the same model in the unpacked
// encoding of older files; weights that end early or go on too long, a
// run of zeros past the end, a truncated number, a weight out of int16's
// range and unknown flags are refused.
func TestModelEncoding(t *testing.T) {
	l := LayoutV3
	n := NumStages * l.StageLen()
	rng := rand.New(rand.NewPCG(5, 6))
	w := make([]int16, n)
	for i := range w {
		switch r := rng.IntN(10); {
		case r < 7: // zeros, in runs
		case r < 9:
			w[i] = int16(rng.IntN(127) - 63)
		default:
			w[i] = int16(rng.IntN(65536) - 32768)
		}
	}
	w[0], w[n-1] = 0, 0 // runs at both ends
	w[1], w[2] = -32768, 32767
	for _, misere := range []bool{false, true} {
		m, err := NewModel(l, w, misere)
		if err != nil {
			t.Fatal(err)
		}
		var packed bytes.Buffer
		if err := m.Encode(&packed); err != nil {
			t.Fatal(err)
		}
		head := []byte(l.magic)
		if misere {
			head = append(head, flagAnti)
		} else {
			head = append(head, 0)
		}
		unpacked := head
		for _, x := range w {
			unpacked = binary.LittleEndian.AppendUint16(unpacked, uint16(x))
		}
		for name, b := range map[string][]byte{"packed": packed.Bytes(), "unpacked": gzipped(unpacked)} {
			got, err := DecodeModel(b)
			if err != nil {
				t.Fatalf("%s, misere %v: %v", name, misere, err)
			}
			if got.Misere != misere || got.Layout() != l || !slices.Equal(got.Weights(), w) {
				t.Fatalf("%s, misere %v: the model read back differs", name, misere)
			}
		}
	}
	zeros := func(k int) []byte { return binary.AppendUvarint([]byte{0}, uint64(k-1)) }
	for name, body := range map[string][]byte{
		"short":     zeros(n - 1),
		"long":      append(zeros(n), 2),
		"run past":  zeros(n + 1),
		"truncated": append(zeros(n-1), 0x80),
		"too large": append(binary.AppendUvarint(nil, 1<<16), zeros(n-1)...),
	} {
		b := gzipped(append(append([]byte(l.magic), flagPacked), body...))
		if _, err := DecodeModel(b); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	if _, err := DecodeModel(gzipped(append(append([]byte(l.magic), flagPacked), zeros(n)...))); err != nil {
		t.Errorf("all zeros: %v", err)
	}
	if _, err := DecodeModel(gzipped(append([]byte(l.magic), 4))); err == nil {
		t.Error("unknown flag: decoded")
	}
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// BenchmarkDecodeModel decodes the embedded std model, or the model file
// OTHELLO_MODEL (to compare encodings): the time a process spends before
// its first std move.
func BenchmarkDecodeModel(b *testing.B) {
	data := embedded
	if name := os.Getenv("OTHELLO_MODEL"); name != "" {
		var err error
		if data, err = os.ReadFile(name); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if _, err := DecodeModel(data); err != nil {
			b.Fatal(err)
		}
	}
}
