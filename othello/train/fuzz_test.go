package train

import (
	"bytes"
	"slices"
	"testing"
)

// FuzzReadSamples: any bytes are read without a panic, and whatever is
// read back is positions that write out to the same bytes.
func FuzzReadSamples(f *testing.F) {
	var valid bytes.Buffer
	start := Sample{P: 1<<27 | 1<<36, O: 1<<28 | 1<<35, Empties: 60, Final: 4, Score: 2}
	if err := WriteSamples(&valid, []Sample{start, {P: start.O, O: start.P, Empties: 60, Final: -4, Exact: true}}); err != nil {
		f.Fatal(err)
	}
	f.Add(valid.Bytes())
	f.Add([]byte(chunkMagic))
	f.Add(valid.Bytes()[:len(valid.Bytes())-3])
	f.Add([]byte("not a chunk"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ReadSamples(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteSamples(&out, s); err != nil {
			t.Fatal(err)
		}
		again, err := ReadSamples(&out)
		if err != nil || !slices.Equal(again, s) {
			t.Fatalf("%d samples do not survive a round trip: %v", len(s), err)
		}
	})
}
