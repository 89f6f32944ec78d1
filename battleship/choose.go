package battleship

import (
	"math/rand/v2"
	"sync"
)

// Fleet choice: Place draws candidates (biased towards touching ships,
// the border and the cells this opponent shoots late), and each candidate
// is played once by a model of the opponent's shooter, this engine's own
// shooter with a prior that reproduces where the opponent has been seen
// to hunt; the candidate that took it longest is kept. One simulated game
// per candidate is a noisy score, which is the point: the choice is
// randomised among the hard fleets instead of being the same hardest
// fleet every game, so it cannot be learnt.
const (
	chooseCandidates = 8
	chooseMaxCells   = 256  // larger boards take Place's first candidate
	baselineGames    = 48   // simulated games behind a board's baseline opening
	heatPseudoGames  = 3.0  // baseline games blended into a learnt opening
	baselineFloor    = 0.05 // of the mean baseline, against division by ~0
)

// chooseFleet returns the fleet to play against opponent key.
func (b *Bot) chooseFleet(key string, r Rules, rng *rand.Rand) ([]Ship, error) {
	po := PlaceOptions{Heat: b.placementHeat(key, r), Touch: b.opt.Touch, Edge: b.opt.Edge}
	cands := b.opt.Candidates
	first, err := Place(r, rng, po)
	if err != nil || r.Cells() > chooseMaxCells || cands < 2 {
		return first, err
	}
	model := b.shooterModel(key, r)
	best, bestShots := first, simulateShots(r, first, model, rng)
	for range cands - 1 {
		f, err := Place(r, rng, po)
		if err != nil {
			break
		}
		if n := simulateShots(r, f, model, rng); n > bestShots {
			best, bestShots = f, n
		}
	}
	return best, nil
}

// simulateShots is the number of shots this engine's shooter, with the
// given prior, needs to sink ships.
func simulateShots(r Rules, ships []Ship, prior []float64, rng *rand.Rand) int {
	a := NewArena(r, ships)
	hist := make([]Strike, 0, r.Cells())
	for a.Remaining() > 0 && len(hist) < 2*r.Cells() {
		x, y := NextShot(r, hist, rng, TargetOptions{Prior: prior})
		hist = append(hist, Strike{X: x, Y: y, OK: true, Result: ParseResult(a.Shoot(FormatTarget(x, y)))})
	}
	return len(hist)
}

// shooterModel is the prior that makes this engine's shooter open where
// the opponent has been seen to open: the ratio of its (learnt) opening to
// the baseline opening of an unbiased shooter, blended with the baseline
// while few games are known (nil: no data, the unbiased shooter).
func (b *Bot) shooterModel(key string, r Rules) []float64 {
	heat, games := b.mem.heatMap(key, r)
	if heat == nil || games <= 0 {
		return nil
	}
	base := baselines.get(r)
	mean := 0.0
	for _, v := range base {
		mean += v
	}
	floor := baselineFloor * mean / float64(len(base))
	out := make([]float64, len(heat))
	for c := range heat {
		est := (games*heat[c] + heatPseudoGames*base[c]) / (games + heatPseudoGames)
		out[c] = (est + floor) / (base[c] + floor)
	}
	return out
}

// baselineCache holds, per board and fleet, the opening an unbiased
// shooter makes against uniformly random fleets, recorded as memory
// records an opponent's (observeHis): hunting shots of the first third of
// the game, weighted by earliness. Bounded.
type baselineCache struct {
	mu sync.Mutex
	m  map[Rules][]float64
}

var baselines baselineCache

const baselineCacheMax = 32

func (bc *baselineCache) get(r Rules) []float64 {
	bc.mu.Lock()
	v := bc.m[r]
	bc.mu.Unlock()
	if v != nil {
		return v
	}
	v = baselineOpening(r)
	bc.mu.Lock()
	defer bc.mu.Unlock()
	if bc.m == nil || len(bc.m) >= baselineCacheMax {
		bc.m = make(map[Rules][]float64)
	}
	bc.m[r] = v
	return v
}

func baselineOpening(r Rules) []float64 {
	rng := rand.New(rand.NewPCG(uint64(r.W)<<8|uint64(r.H), fleetSeed(r.Fleet)))
	out := make([]float64, r.Cells())
	win := huntWindow(r)
	games := 0
	for range baselineGames {
		ships := RandomFleet(r, rng)
		if ships == nil {
			break
		}
		a := NewArena(r, ships)
		var hist []Strike
		for len(hist) < win && a.Remaining() > 0 {
			x, y := NextShot(r, hist, rng, TargetOptions{})
			if hunting(hist, x, y) {
				out[y*r.W+x] += float64(win-len(hist)) / float64(win)
			}
			hist = append(hist, Strike{X: x, Y: y, OK: true, Result: ParseResult(a.Shoot(FormatTarget(x, y)))})
		}
		games++
	}
	for c := range out {
		out[c] /= float64(max(games, 1))
	}
	return out
}

func fleetSeed(f Fleet) uint64 {
	s := uint64(0)
	for l := 1; l <= MaxLen; l++ {
		s = s<<4 | uint64(f[l])
	}
	return s
}

// hunting reports whether a shot at x,y after hist is a hunting shot: not
// next to an earlier hit (which it would be finishing).
func hunting(hist []Strike, x, y int) bool {
	for _, p := range hist {
		if p.OK && p.Result != Miss && iabs(p.X-x)+iabs(p.Y-y) <= 1 {
			return false
		}
	}
	return true
}
