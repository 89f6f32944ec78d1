package battleship

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/internal/problem"
)

// FuzzNextShot: whatever the board and history, the shot is on the board,
// and not a repeat while an unshot cell remains.
func FuzzNextShot(f *testing.F) {
	f.Add(uint8(10), uint8(10), []byte{1, 2, 3, 4, 5}, []byte{0, 1, 2, 1, 1, 0})
	f.Add(uint8(1), uint8(2), []byte{0, 0}, []byte{1, 0, 0, 0, 0, 0})
	f.Add(uint8(6), uint8(2), []byte{9, 9, 9}, []byte{0, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, w, h uint8, moves, counts []byte) {
		r := Rules{W: int(w%24) + 1, H: int(h%24) + 1}
		for l := 1; l <= MaxLen && l-1 < len(counts); l++ {
			r.Fleet[l] = int(counts[l-1] % 4)
		}
		var hist []Strike
		shot := make([]bool, r.Cells())
		for i := 0; i+1 < len(moves); i += 2 {
			c := int(moves[i]) % r.Cells()
			hist = append(hist, Strike{X: c % r.W, Y: c / r.W, OK: moves[i+1]&8 == 0, Result: Result(moves[i+1] % 3)})
			if moves[i+1]&8 == 0 {
				shot[c] = true
			}
		}
		rng := rand.New(rand.NewPCG(uint64(len(moves)), 1))
		x, y := NextShot(r, hist, rng, TargetOptions{MaxNodes: 3000, MaxWork: 300_000})
		if x < 0 || y < 0 || x >= r.W || y >= r.H {
			t.Fatalf("off-board %d,%d on %dx%d", x, y, r.W, r.H)
		}
		unshot := false
		for _, s := range shot {
			unshot = unshot || !s
		}
		if unshot && shot[y*r.W+x] {
			t.Fatalf("repeat %d,%d while cells remain", x, y)
		}
	})
}

// FuzzPlace: Place either returns a valid fleet or an error, quickly, for
// any small board and fleet.
func FuzzPlace(f *testing.F) {
	f.Add(uint8(10), uint8(10), []byte{0, 1, 2, 1, 1, 0}, uint64(1))
	f.Add(uint8(3), uint8(3), []byte{1, 0, 1, 0, 0, 0}, uint64(2))
	f.Add(uint8(5), uint8(5), []byte{0, 0, 0, 0, 0, 1}, uint64(3))
	f.Fuzz(func(t *testing.T, w, h uint8, counts []byte, seed uint64) {
		r := Rules{W: int(w%12) + 1, H: int(h%12) + 1}
		for l := 1; l <= MaxLen && l-1 < len(counts); l++ {
			r.Fleet[l] = int(counts[l-1] % 11)
		}
		ships, err := Place(r, rand.New(rand.NewPCG(seed, 0)), PlaceOptions{Touch: 0.3, MaxNodes: 200_000})
		if err != nil {
			if problem.KindOf(err) != problem.Impossible {
				t.Fatalf("error of kind %v: %v", problem.KindOf(err), err)
			}
			return
		}
		if err := CheckPlacement(r, ships); err != nil {
			t.Fatal(err)
		}
	})
}
