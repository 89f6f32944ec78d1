// Package battleship is the engine of the botsArena battleship bot: the
// rules and the arena's judging (Rules, Arena, CheckPlacement), fleet
// placement, shot selection, the memory of opponents (Bot), and the one
// game loop (Play) by which battleref's games and gamebot play's tables
// are played. The arena's messages are battleship/wire's; the engine
// makes and serves no HTTP call: the server package serves it, and
// battleship/remote calls bot servers.
package battleship

import "github.com/botarena/gamebot/internal/problem"

// Requests that cannot be served (a board too large, a fleet that cannot
// fit) are reported as problem.Impossible; the engine reads no input, so
// it has nothing malformed to report.
var impossible = problem.Impossiblef

// MaxSide is the largest board side the arena offers (1..100).
const MaxSide = 100

// MaxLen is the longest ship kind (ship1..ship6).
const MaxLen = 6

// MaxPerKind is the largest count of one ship kind the arena offers.
const MaxPerKind = 10

// Fleet counts ships by length: Fleet[l] is the number of ships of length l
// (index 0 is unused).
type Fleet [MaxLen + 1]int

// Ships returns the number of ships.
func (f Fleet) Ships() int {
	n := 0
	for l := 1; l <= MaxLen; l++ {
		n += f[l]
	}
	return n
}

// Area returns the number of cells the fleet covers.
func (f Fleet) Area() int {
	a := 0
	for l := 1; l <= MaxLen; l++ {
		a += l * f[l]
	}
	return a
}

// Longest returns the longest ship length, 0 for an empty fleet.
func (f Fleet) Longest() int {
	for l := MaxLen; l >= 1; l-- {
		if f[l] > 0 {
			return l
		}
	}
	return 0
}

// Lengths lists ship lengths, longest first.
func (f Fleet) Lengths() []int {
	out := make([]int, 0, f.Ships())
	for l := MaxLen; l >= 1; l-- {
		for range f[l] {
			out = append(out, l)
		}
	}
	return out
}

// Rules are one game's board and fleet. W is the number of columns (x), H
// the number of rows (y).
type Rules struct {
	W, H  int
	Fleet Fleet
}

// Cells returns W*H.
func (r Rules) Cells() int { return r.W * r.H }

// Check validates the board size and the fleet counts. It does not decide
// whether the fleet fits; Place does that with a complete search.
func (r Rules) Check() error {
	if r.W < 1 || r.W > MaxSide || r.H < 1 || r.H > MaxSide {
		return impossible("board %dx%d: width and height must be in 1..%d", r.W, r.H, MaxSide)
	}
	for l := 1; l <= MaxLen; l++ {
		if r.Fleet[l] < 0 || r.Fleet[l] > MaxPerKind {
			return impossible("ship%d = %d: counts must be in 0..%d", l, r.Fleet[l], MaxPerKind)
		}
	}
	return nil
}

// Feasible reports the cheap necessary conditions for a placement to exist:
// the longest ship fits along one side and the area fits the board.
func (r Rules) Feasible() error {
	if err := r.Check(); err != nil {
		return err
	}
	if lg := r.Fleet.Longest(); lg > max(r.W, r.H) {
		return impossible("a ship of length %d does not fit on a %dx%d board", lg, r.W, r.H)
	}
	if a := r.Fleet.Area(); a > r.Cells() {
		return impossible("the fleet covers %d cells, more than the %dx%d board", a, r.W, r.H)
	}
	return nil
}
