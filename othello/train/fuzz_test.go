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
	f.Add([]byte(samplesMagic))
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

// FuzzReadGames: any bytes are read without a panic; a chunk that reads
// writes back to a chunk that reads as the same games, and replaying its
// games (legal or not) never panics.
func FuzzReadGames(f *testing.F) {
	g := GameRecord{Moves: []Ply{{Square: 19, Random: true}, {Square: 18, Score: -2}, {Square: 17, Score: 64, Exact: true}}}
	var valid bytes.Buffer
	if err := WriteGames(&valid, ChunkHeader{Seed: 1, Games: 1, Options: GenOptions{Depth: 1}}, []GameRecord{g}); err != nil {
		f.Fatal(err)
	}
	f.Add(valid.Bytes())
	f.Add(valid.Bytes()[:valid.Len()-5])
	f.Add([]byte("not a chunk"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, games, err := ReadGames(bytes.NewReader(b))
		if err != nil {
			return
		}
		for i := range games {
			games[i].Samples(h.Misere, nil)
		}
		var out bytes.Buffer
		if err := WriteGames(&out, h, games); err != nil {
			t.Fatal(err)
		}
		h2, again, err := ReadGames(&out)
		if err != nil || h2 != h || !slices.EqualFunc(again, games, func(a, b GameRecord) bool { return slices.Equal(a.Moves, b.Moves) }) {
			t.Fatalf("%d games do not survive a round trip: %v", len(games), err)
		}
	})
}
