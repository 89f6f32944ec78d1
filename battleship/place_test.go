package battleship

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/problem"
)

func fleetOf(counts ...int) Fleet {
	var f Fleet
	copy(f[1:], counts)
	return f
}

// spec9Feasible lists the tight or odd but feasible boards of
// docs/battleship.md §4.
var spec9Feasible = []struct {
	name string
	r    Rules
}{
	{"1x2 {1}", Rules{W: 1, H: 2, Fleet: fleetOf(1)}},
	{"2x1 {1}", Rules{W: 2, H: 1, Fleet: fleetOf(1)}},
	{"6x2 {6} horizontal only", Rules{W: 6, H: 2, Fleet: fleetOf(0, 0, 0, 0, 0, 1)}},
	{"2x6 {6} vertical only", Rules{W: 2, H: 6, Fleet: fleetOf(0, 0, 0, 0, 0, 1)}},
	{"3x3 {3,1} area limit", Rules{W: 3, H: 3, Fleet: fleetOf(1, 0, 1)}},
	{"4x4 {4,4}", Rules{W: 4, H: 4, Fleet: fleetOf(0, 0, 0, 2)}},
	{"5x4 {5,5}", Rules{W: 5, H: 4, Fleet: fleetOf(0, 0, 0, 0, 2)}},
	{"1x10 {5}", Rules{W: 1, H: 10, Fleet: fleetOf(0, 0, 0, 0, 1)}},
	{"100x1 eight 6-ships", Rules{W: 100, H: 1, Fleet: fleetOf(0, 0, 0, 0, 0, 8)}},
	{"21x20 all 60 ships", Rules{W: 21, H: 20, Fleet: fleetOf(10, 10, 10, 10, 10, 10)}},
	{"100x100 all 60 ships", Rules{W: 100, H: 100, Fleet: fleetOf(10, 10, 10, 10, 10, 10)}},
	{"10x10 standard", Rules{W: 10, H: 10, Fleet: fleetOf(0, 1, 2, 1, 1)}},
	{"9x9 ten 1-ships (refused by the arena, feasible)", Rules{W: 9, H: 9, Fleet: fleetOf(10)}},
	{"6x6 full board", Rules{W: 6, H: 6, Fleet: fleetOf(0, 0, 0, 0, 0, 6)}},
	{"7x7 packed 6-ships", Rules{W: 7, H: 7, Fleet: fleetOf(1, 0, 0, 0, 0, 8)}},
}

func TestPlaceSpec9(t *testing.T) {
	for _, tt := range spec9Feasible {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(tt.name))))
			for range 20 {
				// Place is bounded by nodes, not time: finding a placement
				// within the default budget is what the arena needs.
				ships, err := Place(tt.r, rng, PlaceOptions{Touch: 0.3})
				if err != nil {
					t.Fatalf("Place: %v", err)
				}
				if err := CheckPlacement(tt.r, ships); err != nil {
					t.Fatalf("invalid placement: %v", err)
				}
				for _, s := range ships {
					if _, _, ok := parseBoat(s.String()); !ok {
						t.Fatalf("boat %q is not canonical", s.String())
					}
				}
			}
		})
	}
}

// parseBoat reads "x1,y1-x2,y2" with canonical integers.
func parseBoat(s string) (Ship, Ship, bool) {
	for i := range len(s) {
		if s[i] == '-' {
			x1, y1, ok1 := ParseTarget(s[:i])
			x2, y2, ok2 := ParseTarget(s[i+1:])
			return Ship{X: x1, Y: y1}, Ship{X: x2, Y: y2}, ok1 && ok2 && (x1 == x2 || y1 == y2)
		}
	}
	return Ship{}, Ship{}, false
}

func TestPlaceImpossibleIsImmediate(t *testing.T) {
	tests := []Rules{
		{W: 5, H: 5, Fleet: fleetOf(0, 0, 0, 0, 0, 1)}, // accepted by the arena, longest > both sides
		{W: 3, H: 3, Fleet: fleetOf(0, 0, 0, 1)},
		{W: 1, H: 1, Fleet: fleetOf(2)},
		{W: 2, H: 2, Fleet: fleetOf(0, 3)}, // area 6 > 4
	}
	for _, r := range tests {
		// At once: rejected before any search, so a one-node budget
		// gives the same answer.
		_, err := Place(r, rand.New(rand.NewPCG(1, 1)), PlaceOptions{MaxNodes: 1})
		if problem.KindOf(err) != problem.Impossible || strings.Contains(err.Error(), "budget") {
			t.Errorf("%+v: err = %v, want Impossible before any search", r, err)
		}
	}
	// Full boards that only a complete search packs.
	for _, r := range []Rules{
		{W: 3, H: 3, Fleet: fleetOf(0, 0, 3)},
		{W: 3, H: 3, Fleet: fleetOf(0, 3, 1)},
		{W: 5, H: 3, Fleet: fleetOf(0, 0, 1, 3)},
		{W: 4, H: 4, Fleet: fleetOf(0, 2, 0, 3)},
	} {
		ships, err := Place(r, rand.New(rand.NewPCG(1, 1)), PlaceOptions{})
		if err != nil {
			t.Errorf("%+v: %v", r, err)
		} else if err := CheckPlacement(r, ships); err != nil {
			t.Errorf("%+v: %v", r, err)
		}
	}
}

func TestPlaceEmptyFleet(t *testing.T) {
	ships, err := Place(Rules{W: 3, H: 3}, rand.New(rand.NewPCG(1, 1)), PlaceOptions{})
	if err != nil || len(ships) != 0 {
		t.Fatalf("empty fleet: %v, %v", ships, err)
	}
}

// TestPlaceUnpredictable: placements vary, and every cell of a small board
// is used by some placement.
func TestPlaceUnpredictable(t *testing.T) {
	r := Rules{W: 10, H: 10, Fleet: fleetOf(0, 1, 2, 1, 1)}
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	used := make([]int, r.Cells())
	for range 300 {
		ships, err := Place(r, rng, PlaceOptions{Touch: 0.3})
		if err != nil {
			t.Fatal(err)
		}
		key := ""
		for _, s := range ships {
			key += s.String() + " "
			for i := range s.L {
				c := s.Y*r.W + s.X + i
				if s.Vertical {
					c = (s.Y+i)*r.W + s.X
				}
				used[c]++
			}
		}
		seen[key] = true
	}
	if len(seen) < 295 {
		t.Errorf("only %d distinct placements out of 300", len(seen))
	}
	for c, n := range used {
		if n == 0 {
			t.Errorf("cell %d never used", c)
		}
	}
}

// TestPlaceAvoidsHeat: with a heat map hot on the left half, ships go to
// the right half far more often.
func TestPlaceAvoidsHeat(t *testing.T) {
	r := Rules{W: 10, H: 10, Fleet: fleetOf(0, 1, 2, 1, 1)}
	heat := make([]float64, r.Cells())
	for c := range heat {
		if c%r.W < 5 {
			heat[c] = 1
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	left, right := 0, 0
	for range 200 {
		ships, err := Place(r, rng, PlaceOptions{Heat: heat})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ships {
			if s.X < 5 {
				left++
			} else {
				right++
			}
		}
	}
	if right < 3*left {
		t.Errorf("heat ignored: %d ships left, %d right", left, right)
	}
}

func TestCheckPlacementRejects(t *testing.T) {
	r := Rules{W: 4, H: 4, Fleet: fleetOf(0, 1, 1)}
	tests := map[string][]Ship{
		"overlap":   {{X: 0, Y: 0, L: 2}, {X: 1, Y: 0, L: 3}},
		"off board": {{X: 3, Y: 0, L: 2}, {X: 0, Y: 1, L: 3}},
		"wrong set": {{X: 0, Y: 0, L: 2}, {X: 0, Y: 1, L: 2}},
		"missing":   {{X: 0, Y: 0, L: 2}},
	}
	for name, ships := range tests {
		if CheckPlacement(r, ships) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := CheckPlacement(r, []Ship{{X: 0, Y: 0, L: 2}, {X: 3, Y: 1, L: 3, Vertical: true}}); err != nil {
		t.Errorf("valid placement rejected: %v", err)
	}
}
