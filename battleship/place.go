package battleship

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Ship is one placed ship: its top-left cell, its length and orientation.
type Ship struct {
	X, Y, L  int
	Vertical bool
}

// End returns the ship's last cell.
func (s Ship) End() (x, y int) {
	if s.Vertical {
		return s.X, s.Y + s.L - 1
	}
	return s.X + s.L - 1, s.Y
}

// String formats the ship the way the arena reads it: "x1,y1-x2,y2", with
// canonical decimal integers.
func (s Ship) String() string {
	x2, y2 := s.End()
	b := make([]byte, 0, 16)
	b = strconv.AppendInt(b, int64(s.X), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(s.Y), 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(x2), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(y2), 10)
	return string(b)
}

// PlaceOptions tune placement. The zero value places uniformly at random
// among the positions the search visits.
type PlaceOptions struct {
	// Heat, if it has W*H entries, scores cells the opponent is known to
	// shoot early (higher = shot earlier/more often); placement prefers
	// cold cells.
	Heat []float64
	// Touch is the probability, per ship, of preferring a position that
	// touches an already placed ship (sunk results do not identify ships,
	// so touching ships confuse inference).
	Touch float64
	// Edge is the probability, per ship, of preferring a position along
	// the board's border (uniform-prior shooters expect ships inland).
	Edge float64
	// MaxNodes bounds the search; 0 means a default that is ample for every
	// board the arena offers.
	MaxNodes int
}

// Place returns a fleet placement for r: exactly the requested lengths, in
// bounds, straight and without overlap. The search is a complete randomized
// backtracking search (longest ships first), so a feasible fleet is always
// placed; an impossible fleet gets an Impossible error at once.
func Place(r Rules, rng *rand.Rand, opt PlaceOptions) ([]Ship, error) {
	if err := r.Feasible(); err != nil {
		return nil, err
	}
	p := placer{
		r:     r,
		rng:   rng,
		opt:   opt,
		occ:   make([]bool, r.Cells()),
		lens:  r.Fleet.Lengths(),
		ships: make([]Ship, 0, r.Fleet.Ships()),
	}
	if len(opt.Heat) != r.Cells() {
		p.opt.Heat = nil
	}
	budget := opt.MaxNodes
	if budget <= 0 {
		budget = 1_000_000
	}
	// First pass: free order (most random). If it gets stuck in a tight
	// packing, a second pass breaks the symmetry between ships of equal
	// length, which makes the complete search much smaller.
	p.nodes = min(budget, 50_000)
	if p.search(0, false) {
		return p.ships, nil
	}
	clear(p.occ)
	p.ships = p.ships[:0]
	p.nodes = budget
	p.aborted = false
	if p.search(0, true) {
		return p.ships, nil
	}
	if p.aborted {
		return nil, impossible("no placement found for this fleet on %dx%d within the search budget", r.W, r.H)
	}
	return nil, impossible("the fleet cannot be placed on a %dx%d board", r.W, r.H)
}

type placer struct {
	r        Rules
	rng      *rand.Rand
	opt      PlaceOptions
	occ      []bool
	lens     []int
	ships    []Ship
	nodes    int
	aborted  bool
	probeBuf []placeCand
}

type placeCand struct {
	id  int32 // cell*2 + vertical: a fixed order for symmetry breaking
	key float64
}

func (p *placer) fits(x, y, l int, vert bool) bool {
	w := p.r.W
	if vert {
		if y+l > p.r.H {
			return false
		}
		for i := range l {
			if p.occ[(y+i)*w+x] {
				return false
			}
		}
		return true
	}
	if x+l > w {
		return false
	}
	base := y*w + x
	for i := range l {
		if p.occ[base+i] {
			return false
		}
	}
	return true
}

func (p *placer) set(x, y, l int, vert bool, v bool) {
	w := p.r.W
	for i := range l {
		if vert {
			p.occ[(y+i)*w+x] = v
		} else {
			p.occ[y*w+x+i] = v
		}
	}
}

// touches reports whether the ship would touch an occupied cell.
func (p *placer) touches(x, y, l int, vert bool) bool {
	w, h := p.r.W, p.r.H
	x2, y2 := x, y
	if vert {
		y2 += l - 1
	} else {
		x2 += l - 1
	}
	for yy := max(0, y-1); yy <= min(h-1, y2+1); yy++ {
		for xx := max(0, x-1); xx <= min(w-1, x2+1); xx++ {
			inside := xx >= x && xx <= x2 && yy >= y && yy <= y2
			corner := (xx < x || xx > x2) && (yy < y || yy > y2)
			if !inside && !corner && p.occ[yy*w+xx] {
				return true
			}
		}
	}
	return false
}

func (p *placer) heat(x, y, l int, vert bool) float64 {
	if p.opt.Heat == nil {
		return 0
	}
	s := 0.0
	for i := range l {
		if vert {
			s += p.opt.Heat[(y+i)*p.r.W+x]
		} else {
			s += p.opt.Heat[y*p.r.W+x+i]
		}
	}
	return s / float64(l)
}

// search places p.lens[k:]. symm forbids placing a ship of the same length
// as its predecessor at a smaller id (each set of equal ships is then
// visited once).
func (p *placer) search(k int, symm bool) bool {
	if k == len(p.lens) {
		return true
	}
	if p.nodes <= 0 {
		p.aborted = true
		return false
	}
	p.nodes--
	l := p.lens[k]
	minID := int32(-1)
	if symm && k > 0 && p.lens[k-1] == l {
		last := p.ships[len(p.ships)-1]
		minID = int32((last.Y*p.r.W+last.X)*2 + b2i(last.Vertical))
	}
	touch := p.opt.Touch > 0 && len(p.ships) > 0 && p.rng.Float64() < p.opt.Touch
	edge := p.opt.Edge > 0 && p.rng.Float64() < p.opt.Edge
	// Fast path on roomy boards: draw random positions, keep the ones that
	// fit, and try the preferred one. Drawing uniformly and rejecting what
	// does not fit is uniform over the positions that fit.
	if !symm {
		probe := p.probeBuf[:0]
		for range 48 {
			vert := l > 1 && p.rng.IntN(2) == 1
			x, y := p.rng.IntN(p.r.W), p.rng.IntN(p.r.H)
			if p.fits(x, y, l, vert) {
				probe = append(probe, placeCand{id: int32((y*p.r.W+x)*2 + b2i(vert))})
				if len(probe) == 12 {
					break
				}
			}
		}
		p.probeBuf = probe[:0]
		if len(probe) > 0 {
			c := p.prefer(probe, l, touch, edge)
			if p.tryPlace(k, c, l, symm) {
				return true
			}
			if p.aborted {
				return false
			}
		}
	}
	// Complete path: every position, in random order with a preferred head.
	cands := p.candidates(l, minID)
	p.rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	head := cands[:min(len(cands), 24)]
	if p.opt.Heat != nil || touch || edge {
		p.score(head, l, touch, edge)
		slices.SortFunc(head, func(a, b placeCand) int { return cmp.Compare(a.key, b.key) })
	}
	for _, c := range cands {
		if p.tryPlace(k, c, l, symm) {
			return true
		}
		if p.aborted {
			return false
		}
	}
	return false
}

// score keys candidates: lower is preferred (cold cells, touching when
// asked), with noise so that equal cells are chosen at random.
func (p *placer) score(cands []placeCand, l int, touch, edge bool) {
	for i := range cands {
		c := &cands[i]
		x, y, vert := p.decode(c.id)
		c.key = p.heat(x, y, l, vert) + 0.15*p.rng.Float64()
		if touch && p.touches(x, y, l, vert) {
			c.key -= 0.5
		}
		if edge && p.onBorder(x, y, l, vert) {
			c.key -= 0.5
		}
	}
}

// onBorder reports whether the ship runs along or ends on the border.
func (p *placer) onBorder(x, y, l int, vert bool) bool {
	x2, y2 := x, y
	if vert {
		y2 += l - 1
	} else {
		x2 += l - 1
	}
	return x == 0 || y == 0 || x2 == p.r.W-1 || y2 == p.r.H-1
}

// prefer returns the preferred candidate.
func (p *placer) prefer(cands []placeCand, l int, touch, edge bool) placeCand {
	if p.opt.Heat == nil && !touch && !edge {
		return cands[0]
	}
	p.score(cands, l, touch, edge)
	best := cands[0]
	for _, c := range cands[1:] {
		if c.key < best.key {
			best = c
		}
	}
	return best
}

// tryPlace places candidate c as ship k if it fits and searches on.
func (p *placer) tryPlace(k int, c placeCand, l int, symm bool) bool {
	x, y, vert := p.decode(c.id)
	if !p.fits(x, y, l, vert) {
		return false
	}
	p.set(x, y, l, vert, true)
	p.ships = append(p.ships, Ship{X: x, Y: y, L: l, Vertical: vert})
	if p.search(k+1, symm) {
		return true
	}
	p.ships = p.ships[:len(p.ships)-1]
	p.set(x, y, l, vert, false)
	return false
}

func (p *placer) decode(id int32) (x, y int, vert bool) {
	cell := int(id >> 1)
	return cell % p.r.W, cell / p.r.W, id&1 == 1
}

func (p *placer) candidates(l int, minID int32) []placeCand {
	var out []placeCand
	w, h := p.r.W, p.r.H
	for y := range h {
		for x := range w {
			base := int32((y*w + x) * 2)
			if base > minID && p.fits(x, y, l, false) {
				out = append(out, placeCand{id: base})
			}
			if l > 1 && base+1 > minID && p.fits(x, y, l, true) {
				out = append(out, placeCand{id: base + 1})
			}
		}
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CheckPlacement verifies ships against r exactly as the arena does: the
// multiset of lengths matches, every ship is straight and in bounds, and no
// two ships overlap. It returns a descriptive error or nil.
func CheckPlacement(r Rules, ships []Ship) error {
	var got Fleet
	occ := make([]bool, r.Cells())
	for _, s := range ships {
		if s.L < 1 || s.L > MaxLen {
			return fmt.Errorf("ship %v: length %d out of 1..%d", s, s.L, MaxLen)
		}
		x2, y2 := s.End()
		if s.X < 0 || s.Y < 0 || x2 >= r.W || y2 >= r.H {
			return fmt.Errorf("ship %v is off the %dx%d board", s, r.W, r.H)
		}
		for i := range s.L {
			c := s.Y*r.W + s.X + i
			if s.Vertical {
				c = (s.Y+i)*r.W + s.X
			}
			if occ[c] {
				return fmt.Errorf("ship %v overlaps another ship", s)
			}
			occ[c] = true
		}
		got[s.L]++
	}
	if got != r.Fleet {
		return fmt.Errorf("fleet %v does not match the requested %v", got, r.Fleet)
	}
	return nil
}
