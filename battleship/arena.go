package battleship

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// Arena is one hidden fleet refereed the way botsArena's act.php does it: a
// shot's target is compared as text with the ships' "x,y" cells, a ship is
// sunk when every cell is among the shooter's targets, sunk ships leave the
// list (re-shooting them answers ""), and the result of the last sinking
// shot is "hit sunk and win".
type Arena struct {
	r       Rules
	ships   [][]string // remaining ships, cells as "x,y"
	targets map[string]bool
	Shots   int
}

// Result texts exactly as the arena sends them.
const (
	ResultMiss = ""
	ResultHit  = "hit"
	ResultSunk = "hit and sunk"
	ResultWin  = "hit sunk and win"
)

// NewArena hides ships (which must satisfy CheckPlacement).
func NewArena(r Rules, ships []Ship) *Arena {
	a := &Arena{r: r, targets: make(map[string]bool)}
	for _, s := range ships {
		cells := make([]string, s.L)
		for i := range s.L {
			if s.Vertical {
				cells[i] = FormatTarget(s.X, s.Y+i)
			} else {
				cells[i] = FormatTarget(s.X+i, s.Y)
			}
		}
		a.ships = append(a.ships, cells)
	}
	return a
}

// Remaining returns the number of ships afloat.
func (a *Arena) Remaining() int { return len(a.ships) }

// ValidShot is ValidShot on the arena's rules.
func (a *Arena) ValidShot(play string) (string, bool) { return ValidShot(a.r, play) }

// ValidShot applies the arena's checks to an answer: the regex
// /^[0-9]+,[0-9]+$/ (PCRE: a final "\n" is tolerated) and x < width,
// y < height. It returns the target text the arena records.
func ValidShot(r Rules, play string) (string, bool) {
	s := strings.TrimSuffix(play, "\n")
	xs, ys, ok := strings.Cut(s, ",")
	if !ok || !allDigits(xs) || !allDigits(ys) {
		return "", false
	}
	if !digitsLess(xs, r.W) || !digitsLess(ys, r.H) {
		return "", false
	}
	return xs + "," + play[len(xs)+1:], true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// digitsLess compares a digit string numerically with n.
func digitsLess(s string, n int) bool {
	s = strings.TrimLeft(s, "0")
	if len(s) > 6 {
		return false
	}
	v := 0
	for i := range len(s) {
		v = v*10 + int(s[i]-'0')
	}
	return v < n
}

// Shoot records a (valid) target and returns the result text.
func (a *Arena) Shoot(target string) string {
	a.Shots++
	a.targets[target] = true
	for i, ship := range a.ships {
		hit := false
		for _, c := range ship {
			if c == target {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		for _, c := range ship {
			if !a.targets[c] {
				return ResultHit
			}
		}
		a.ships = append(a.ships[:i], a.ships[i+1:]...)
		if len(a.ships) == 0 {
			return ResultWin
		}
		return ResultSunk
	}
	return ResultMiss
}

// RandomFleet draws a fleet uniformly among all valid placements (rejection
// sampling: ships are drawn independently and the whole fleet is redrawn
// on any overlap). Dense fleets, where rejection does not succeed, start
// from Place's answer and are shuffled by a Markov chain whose stationary
// law is uniform over valid fleets (see shuffleFleet). It returns nil for
// a fleet that cannot be placed.
func RandomFleet(r Rules, rng *rand.Rand) []Ship {
	lens := r.Fleet.Lengths()
	occ := make([]bool, r.Cells())
	ships := make([]Ship, 0, len(lens))
	for range 100_000 {
		clear(occ)
		ships = ships[:0]
		ok := true
		for _, l := range lens {
			s, good := randomShip(r, l, rng)
			if !good {
				ok = false
				break
			}
			for i := range l {
				c := s.Y*r.W + s.X + i
				if s.Vertical {
					c = (s.Y+i)*r.W + s.X
				}
				if occ[c] {
					ok = false
					break
				}
				occ[c] = true
			}
			if !ok {
				break
			}
			ships = append(ships, s)
		}
		if ok {
			return ships
		}
	}
	s, err := Place(r, rng, PlaceOptions{})
	if err != nil {
		return nil
	}
	shuffleFleet(r, s, rng, 200*len(s)+2000)
	return s
}

// shuffleFleet runs steps moves of a Metropolis chain on valid fleets: pick
// a ship uniformly, propose a uniformly random in-bounds position of its
// length, and move it there if it overlaps no other ship. The proposal is
// symmetric, so the chain's stationary law is uniform over valid fleets
// (labelled by ship); from any start it mixes towards it. ships is changed
// in place.
func shuffleFleet(r Rules, ships []Ship, rng *rand.Rand, steps int) {
	if len(ships) == 0 {
		return
	}
	occ := make([]bool, r.Cells())
	mark := func(s Ship, v bool) {
		for i := range s.L {
			if s.Vertical {
				occ[(s.Y+i)*r.W+s.X] = v
			} else {
				occ[s.Y*r.W+s.X+i] = v
			}
		}
	}
	for _, s := range ships {
		mark(s, true)
	}
	for range steps {
		k := rng.IntN(len(ships))
		old := ships[k]
		s, ok := randomShip(r, old.L, rng)
		if !ok {
			continue
		}
		mark(old, false)
		free := true
		for i := range s.L {
			c := s.Y*r.W + s.X + i
			if s.Vertical {
				c = (s.Y+i)*r.W + s.X
			}
			if occ[c] {
				free = false
				break
			}
		}
		if free {
			ships[k] = s
		}
		mark(ships[k], true)
	}
}

// randomShip draws one of the in-bounds placements of length l uniformly.
func randomShip(r Rules, l int, rng *rand.Rand) (Ship, bool) {
	nh := 0
	if r.W >= l {
		nh = (r.W - l + 1) * r.H
	}
	nv := 0
	if l > 1 && r.H >= l {
		nv = r.W * (r.H - l + 1)
	}
	if nh+nv == 0 {
		return Ship{}, false
	}
	k := rng.IntN(nh + nv)
	if k < nh {
		return Ship{X: k % (r.W - l + 1), Y: k / (r.W - l + 1), L: l}, true
	}
	k -= nh
	return Ship{X: k % r.W, Y: k / r.W, L: l, Vertical: true}, true
}

// RevealSunk rewrites a shooter's history as if the arena said which ship
// each "hit and sunk" sank: the cells of every ship of hidden whose cells
// were all shot become misses (they hold no ship still afloat) and those
// ships leave the fleet. The arena does not give this information; referees
// use it to measure what it would be worth. A ship is sunk when each of its
// cells is the target of a canonical in-bounds strike, as Arena decides.
// hidden must satisfy CheckPlacement for r; shots is not modified.
func RevealSunk(r Rules, hidden []Ship, shots []Strike) (Rules, []Strike) {
	shot := make([]bool, r.Cells())
	for _, s := range shots {
		if s.OK && s.X >= 0 && s.Y >= 0 && s.X < r.W && s.Y < r.H {
			shot[s.Y*r.W+s.X] = true
		}
	}
	cell := func(s Ship, i int) int {
		if s.Vertical {
			return (s.Y+i)*r.W + s.X
		}
		return s.Y*r.W + s.X + i
	}
	var sunk []bool
	for _, s := range hidden {
		all := true
		for i := range s.L {
			if !shot[cell(s, i)] {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		if sunk == nil {
			sunk = make([]bool, r.Cells())
		}
		for i := range s.L {
			sunk[cell(s, i)] = true
		}
		r.Fleet[s.L]--
	}
	out := slices.Clone(shots)
	if sunk == nil {
		return r, out
	}
	for i, s := range out {
		if s.OK && s.X >= 0 && s.Y >= 0 && s.X < r.W && s.Y < r.H && sunk[s.Y*r.W+s.X] {
			out[i].Result = Miss
		}
	}
	return r, out
}
