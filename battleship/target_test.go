package battleship

import (
	"math"
	"math/rand/v2"
	"testing"
)

func strikesOf(moves ...any) []Strike {
	// moves: x, y, result triples
	var out []Strike
	for i := 0; i+2 < len(moves); i += 3 {
		out = append(out, Strike{X: moves[i].(int), Y: moves[i+1].(int), OK: true, Result: moves[i+2].(Result)})
	}
	return out
}

func TestNextShotForced(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	tests := []struct {
		name string
		r    Rules
		hist []Strike
		want [][2]int // any of these
	}{
		{"1x2 after a miss", Rules{W: 1, H: 2, Fleet: fleetOf(1)}, strikesOf(0, 0, Miss), [][2]int{{0, 1}}},
		{"2x1 after a miss", Rules{W: 2, H: 1, Fleet: fleetOf(1)}, strikesOf(1, 0, Miss), [][2]int{{0, 0}}},
		{"6x2 one 6-ship, a miss in row 0", Rules{W: 6, H: 2, Fleet: fleetOf(0, 0, 0, 0, 0, 1)}, strikesOf(3, 0, Miss),
			[][2]int{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}}},
		{"extend a horizontal pair", Rules{W: 10, H: 10, Fleet: fleetOf(0, 0, 0, 0, 1)},
			strikesOf(4, 4, Hit, 5, 4, Hit), [][2]int{{3, 4}, {6, 4}}},
		{"blocked side", Rules{W: 10, H: 10, Fleet: fleetOf(0, 0, 1)},
			strikesOf(4, 4, Hit, 3, 4, Miss, 4, 3, Miss, 4, 5, Miss), [][2]int{{5, 4}, {6, 4}}},
		// A 3 sank at (2,0) after hits at (0,0),(1,0): with a 2-ship also
		// afloat, either the 3 is 0..2 (done) or the 2 was 1..2 and (0,0)
		// belongs to the 3 going down. Both explanations leave (0,1) as
		// the only cell that can finish the second case.
		{"sunk without identity, touching", Rules{W: 10, H: 10, Fleet: fleetOf(0, 1, 1)},
			strikesOf(0, 0, Hit, 1, 0, Hit, 2, 0, Sunk), nil},
		// Two hits then sunk at the end of a line of 4 with only 2- and
		// 3-ships: the 3 ended it; the first hit is a 2 going down.
		{"line longer than any ship", Rules{W: 10, H: 10, Fleet: fleetOf(0, 1, 1)},
			strikesOf(0, 0, Hit, 1, 0, Hit, 2, 0, Hit, 3, 0, Sunk, 4, 0, Miss), [][2]int{{0, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 10 {
				x, y := NextShot(tt.r, tt.hist, rng, TargetOptions{})
				if x < 0 || y < 0 || x >= tt.r.W || y >= tt.r.H {
					t.Fatalf("off board %d,%d", x, y)
				}
				for _, s := range tt.hist {
					if s.X == x && s.Y == y {
						t.Fatalf("repeat %d,%d", x, y)
					}
				}
				if tt.want == nil {
					continue
				}
				ok := false
				for _, w := range tt.want {
					ok = ok || (w[0] == x && w[1] == y)
				}
				if !ok {
					t.Fatalf("shot %d,%d, want one of %v", x, y, tt.want)
				}
			}
		})
	}
}

// TestNextShotSunkConstraint: after a sunk result that can only be the
// 2-ship (hit then sunk, adjacent), with the 3-ship left, the bot hunts
// and never wastes a shot next to the dead ship's ends... it just must not
// shoot inside its cells. Then, after a single hit, it must shoot a
// neighbour of the hit.
func TestNextShotTargetsNeighbours(t *testing.T) {
	r := Rules{W: 10, H: 10, Fleet: fleetOf(0, 1, 1)}
	rng := rand.New(rand.NewPCG(2, 2))
	hist := strikesOf(5, 5, Hit)
	for range 20 {
		x, y := NextShot(r, hist, rng, TargetOptions{})
		if d := abs(x-5) + abs(y-5); d != 1 {
			t.Fatalf("after one hit at 5,5 shot %d,%d", x, y)
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TestNextShotAnyHistory: arbitrary (even inconsistent) histories always
// give an in-bounds shot, and an unshot cell while one remains.
func TestNextShotAnyHistory(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	boards := []Rules{
		{W: 1, H: 2, Fleet: fleetOf(1)},
		{W: 2, H: 1, Fleet: fleetOf(1)},
		{W: 3, H: 3, Fleet: fleetOf(1, 0, 1)},
		{W: 10, H: 10, Fleet: fleetOf(0, 1, 2, 1, 1)},
		{W: 10, H: 10, Fleet: fleetOf(10)},
		{W: 7, H: 3, Fleet: fleetOf(0, 0, 0, 0, 0, 1)},
		{W: 100, H: 1, Fleet: fleetOf(0, 0, 0, 0, 0, 8)},
		{W: 10, H: 10}, // no ships at all
	}
	for _, r := range boards {
		for trial := range 60 {
			n := rng.IntN(r.Cells() + 5)
			var hist []Strike
			for range n {
				s := Strike{X: rng.IntN(r.W + 1), Y: rng.IntN(r.H + 1), OK: rng.IntN(10) > 0, Result: Result(rng.IntN(3))}
				hist = append(hist, s)
			}
			x, y := NextShot(r, hist, rng, TargetOptions{MaxNodes: 5000, MaxWork: 500_000})
			if x < 0 || y < 0 || x >= r.W || y >= r.H {
				t.Fatalf("%+v trial %d: off-board %d,%d", r, trial, x, y)
			}
			shot := make([]bool, r.Cells())
			for _, s := range hist {
				if s.OK && s.X < r.W && s.Y < r.H {
					shot[s.Y*r.W+s.X] = true
				}
			}
			unshot := false
			for _, v := range shot {
				unshot = unshot || !v
			}
			if unshot && shot[y*r.W+x] {
				t.Fatalf("%+v trial %d: repeated %d,%d while cells remain", r, trial, x, y)
			}
		}
	}
}

// TestFullGamesSpec9: the engine sinks hidden fleets on every feasible odd
// board (docs/battleship.md §4) against the arena's own rules, without repeats or off-board shots.
func TestFullGamesSpec9(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for _, tt := range spec9Feasible {
		if tt.r.Cells() > 500 {
			continue // 100x100 is covered by the benchmark and cmd/battleref
		}
		t.Run(tt.name, func(t *testing.T) {
			games := 3
			if tt.r.Fleet.Ships() > 20 {
				games = 1
			}
			for range games {
				ships, err := Place(tt.r, rng, PlaceOptions{Touch: 0.5})
				if err != nil {
					t.Fatal(err)
				}
				opt := TargetOptions{}
				if tt.r.Fleet.Ships() > 20 {
					// Dense boards: the default budgets make each shot take
					// tens of ms (fine in production, slow under -race).
					opt = TargetOptions{MaxNodes: 1500, MaxWork: 60_000}
				}
				n := playOutNoRepeat(t, tt.r, ships, rng, opt)
				if n > tt.r.Cells() {
					t.Fatalf("%d shots on %d cells", n, tt.r.Cells())
				}
			}
		})
	}
}

func playOutNoRepeat(t *testing.T, r Rules, ships []Ship, rng *rand.Rand, opt TargetOptions) int {
	t.Helper()
	a := NewArena(r, ships)
	var hist []Strike
	shot := make([]bool, r.Cells())
	for a.Remaining() > 0 {
		x, y := NextShot(r, hist, rng, opt)
		if x < 0 || y < 0 || x >= r.W || y >= r.H {
			t.Fatalf("off-board %d,%d", x, y)
		}
		if shot[y*r.W+x] {
			t.Fatalf("repeat %d,%d after %d shots", x, y, len(hist))
		}
		shot[y*r.W+x] = true
		res := a.Shoot(FormatTarget(x, y))
		hist = append(hist, Strike{X: x, Y: y, OK: true, Result: ParseResult(res)})
	}
	return len(hist)
}

// TestArenaSemantics pins the referee model used by tests and battleref.
func TestArenaSemantics(t *testing.T) {
	r := Rules{W: 5, H: 5, Fleet: fleetOf(0, 1, 1)}
	a := NewArena(r, []Ship{{X: 0, Y: 0, L: 2}, {X: 0, Y: 1, L: 3}})
	steps := []struct{ target, want string }{
		{"0,0", ResultHit}, {"0,0", ResultHit}, {"04,1", ResultMiss}, {"1,0", ResultSunk},
		{"1,0", ResultMiss}, {"0,1", ResultHit}, {"1,1", ResultHit}, {"2,1", ResultWin},
	}
	for _, s := range steps {
		if got := a.Shoot(s.target); got != s.want {
			t.Fatalf("shoot %q = %q, want %q", s.target, got, s.want)
		}
	}
	for play, ok := range map[string]bool{"4,4": true, "5,0": false, "0,5": false, "3,4\n": true, "a,1": false, "1,": false, "-1,2": false, "04,2": true} {
		if _, got := a.ValidShot(play); got != ok {
			t.Errorf("ValidShot(%q) = %v, want %v", play, got, ok)
		}
	}
}

func TestRandomFleetValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 3))
	for _, r := range []Rules{{W: 10, H: 10, Fleet: fleetOf(0, 1, 2, 1, 1)}, {W: 3, H: 3, Fleet: fleetOf(1, 0, 1)}} {
		for range 50 {
			if err := CheckPlacement(r, RandomFleet(r, rng)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestIncrementalMatchesScan: the incremental counting of free placements
// (kill, leaf, finish) gives the same cell probabilities as evaluating
// every explanation by a full scan of the board, on real game histories
// of several boards (touching ships, 1-ships, unnamed sunk ships).
func TestIncrementalMatchesScan(t *testing.T) {
	boards := []Rules{
		std10,
		{W: 7, H: 6, Fleet: fleetOf(2, 1, 1, 1)},
		{W: 9, H: 9, Fleet: fleetOf(0, 1, 2, 1, 1)},
		{W: 12, H: 5, Fleet: fleetOf(1, 2, 0, 0, 1, 1)},
	}
	rng := rand.New(rand.NewPCG(31, 7))
	positions := 0
	for _, r := range boards {
		for game := range 6 {
			ships, err := Place(r, rng, PlaceOptions{Touch: 0.8})
			if err != nil {
				t.Fatal(err)
			}
			a := NewArena(r, ships)
			var hist []Strike
			for a.Remaining() > 0 {
				inc, scan := new(targeter), new(targeter)
				scan.scan = true
				all := TargetOptions{MaxNodes: 1 << 30, MaxWork: 1 << 40} // no abort
				inc.analyze(r, hist, rng, all)
				scan.analyze(r, hist, rng, all)
				if inc.covers != scan.covers || inc.aborted != scan.aborted {
					t.Fatalf("%+v game %d after %v: %d explanations (aborted %v), scan %d (%v)",
						r, game, hist, inc.covers, inc.aborted, scan.covers, scan.aborted)
				}
				for _, c := range inc.free {
					p, q := inc.acc[c]/inc.sumW, scan.acc[c]/scan.sumW
					if math.Abs(p-q) > 1e-9*max(1, q) {
						t.Fatalf("%+v game %d after %v: cell %d,%d incremental %.12f scan %.12f",
							r, game, hist, int(c)%r.W, int(c)/r.W, p, q)
					}
				}
				positions++
				x, y := NextShot(r, hist, rng, TargetOptions{})
				hist = append(hist, Strike{X: x, Y: y, OK: true, Result: ParseResult(a.Shoot(FormatTarget(x, y)))})
			}
		}
	}
	t.Logf("%d positions compared", positions)
}
