package battleship

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRevealSunk(t *testing.T) {
	r := Rules{W: 5, H: 5, Fleet: Fleet{0, 0, 1, 1}}
	// A 3-ship on row 0 and a 2-ship touching it below.
	hidden := []Ship{{X: 0, Y: 0, L: 3}, {X: 0, Y: 1, L: 2}}
	st := func(x, y int, res Result) Strike { return Strike{X: x, Y: y, OK: true, Result: res} }
	tests := []struct {
		name  string
		shots []Strike
		fleet Fleet
		want  []Result
	}{
		{"nothing shot", nil, r.Fleet, nil},
		{"hits only", []Strike{st(0, 0, Hit), st(0, 1, Hit), st(4, 4, Miss)}, r.Fleet, []Result{Hit, Hit, Miss}},
		{
			"2-ship sunk, 3-ship hit",
			[]Strike{st(0, 0, Hit), st(0, 1, Hit), st(1, 1, Sunk), st(1, 1, Miss), st(2, 2, Miss)},
			Fleet{0, 0, 0, 1}, []Result{Hit, Miss, Miss, Miss, Miss},
		},
		{
			"both sunk",
			[]Strike{st(0, 1, Hit), st(1, 1, Sunk), st(0, 0, Hit), st(1, 0, Hit), st(2, 0, Sunk)},
			Fleet{}, []Result{Miss, Miss, Miss, Miss, Miss},
		},
		{
			// A non-canonical target hits nothing and completes no ship.
			"non-canonical strike",
			[]Strike{st(0, 1, Hit), {X: 1, Y: 1, OK: false}},
			r.Fleet, []Result{Hit, Miss},
		},
	}
	for _, tt := range tests {
		orig := slices.Clone(tt.shots)
		rr, out := RevealSunk(r, hidden, tt.shots)
		if rr.W != r.W || rr.H != r.H || rr.Fleet != tt.fleet {
			t.Errorf("%s: rules %+v, want fleet %v", tt.name, rr, tt.fleet)
		}
		if len(out) != len(tt.want) {
			t.Fatalf("%s: %d strikes, want %d", tt.name, len(out), len(tt.want))
		}
		for i, s := range out {
			if s.Result != tt.want[i] || s.X != orig[i].X || s.Y != orig[i].Y || s.OK != orig[i].OK {
				t.Errorf("%s: strike %d = %+v, want result %d", tt.name, i, s, tt.want[i])
			}
		}
		if !slices.Equal(tt.shots, orig) {
			t.Errorf("%s: input history modified", tt.name)
		}
	}
}

// TestRevealSunkGames: along real games the revealed fleet is exactly the
// arena's ships afloat, no sunk result survives, and NextShot finishes
// every game on the revealed view.
func TestRevealSunkGames(t *testing.T) {
	r := Rules{W: 10, H: 10, Fleet: Fleet{0, 0, 1, 2, 1, 1}}
	for g := range 10 {
		rng := rand.New(rand.NewPCG(uint64(g), 3))
		hidden := RandomFleet(r, rng)
		a := NewArena(r, hidden)
		var hist []Strike
		for a.Remaining() > 0 {
			if len(hist) >= r.Cells() {
				t.Fatalf("game %d: not finished after %d shots", g, len(hist))
			}
			rr, view := RevealSunk(r, hidden, hist)
			if rr.Fleet.Ships() != a.Remaining() {
				t.Fatalf("game %d shot %d: revealed fleet %v, arena has %d afloat", g, len(hist), rr.Fleet, a.Remaining())
			}
			for _, s := range view {
				if s.Result == Sunk {
					t.Fatalf("game %d: sunk result left in %v", g, view)
				}
			}
			x, y := NextShot(rr, view, rng, TargetOptions{})
			res := a.Shoot(FormatTarget(x, y))
			hist = append(hist, Strike{X: x, Y: y, OK: true, Result: ParseResult(res)})
		}
		if rr, _ := RevealSunk(r, hidden, hist); rr.Fleet.Ships() != 0 {
			t.Errorf("game %d over but fleet %v left", g, rr.Fleet)
		}
	}
}
