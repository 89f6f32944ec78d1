package search

import (
	_ "embed"
	"math"
	"strconv"
	"strings"
	"sync"
)

// Win probabilities. A deal's match points matter only for what they do to
// the chance of winning the match: 26 points are worth little at 0–0 of a
// 500 match and everything at 140–130 of a 151 one. WinTable holds
// P(win the match | both teams' scores, target) for two equal teams, by
// dynamic programming over the deals that remain, taking each deal's
// result from the distribution of results measured in self-play
// (outcomes.txt, written by giretra-strength -outcomes). The rules are the
// engine's (MatchState.WithDeal): a team wins when it reaches the target
// and the other has not; when both reach it, the target grows by 100.
//
// A table can also be built for a team expected to outscore the other by
// an edge of E match points a deal: each deal's result is then drawn from
// the measured distribution tilted towards the team (exponentially in
// its margin) until its mean margin is E. A favourite gains from every
// deal still to play, so a gamble is worth less to it than to an equal
// team: it needs the table to weigh risk as its own future does. The bot
// plays with equal teams' tables unless told its edge (bot:edge=N):
// against Eva, whom it outscores by about 8 points a deal, edge 8 won as
// often as equal tables and gave up 2 match points a deal
// (docs/giretra-bids.md, "A favourite's chance of winning").

//go:embed outcomes.txt
var outcomesText string

type outcome struct {
	us, them int
	p        float64
}

// dealOutcomes is the distribution of one deal's match points (ours,
// theirs), from outcomes.txt.
var dealOutcomes = sync.OnceValue(func() []outcome {
	var out []outcome
	total := 0.0
	for line := range strings.Lines(outcomesText) {
		f := strings.Fields(line)
		if len(f) != 3 || strings.HasPrefix(f[0], "#") {
			continue
		}
		us, e1 := strconv.Atoi(f[0])
		them, e2 := strconv.Atoi(f[1])
		n, e3 := strconv.Atoi(f[2])
		if e1 != nil || e2 != nil || e3 != nil || us < 0 || them < 0 || n <= 0 {
			continue
		}
		out = append(out, outcome{us, them, float64(n)})
		total += float64(n)
	}
	for i := range out {
		out[i].p /= total
	}
	return out
})

// WinTable is P(win) for one target and edge, by the points each team
// still needs.
type WinTable struct {
	target int
	w      []float32 // w[(nu-1)*target + nt-1], needs 1..target
	// scale turns a win-probability difference into match points: the
	// value of one match point at the start of a match.
	scale float64
}

var winTables sync.Map // tableKey → *WinTable

type tableKey struct{ target, edge int }

// maxTableTarget bounds the targets tabled (a 1000-point target is 4 MB);
// beyond it DealValue falls back to the points themselves.
const maxTableTarget = 1000

// MaxEdge bounds the edge of a table, in match points a deal: beyond a
// few tens a deal's results could no longer be tilted that far.
const MaxEdge = 30

// WinTableFor returns the table of a target for equal teams (computed
// once per target, about a millisecond per 10,000 states), or nil when
// target is out of range.
func WinTableFor(target int) *WinTable { return WinTableWithEdge(target, 0) }

// WinTableWithEdge returns the table of a target for a team expected to
// outscore the other by edge match points a deal (clamped to ±MaxEdge),
// or nil when target is out of range.
func WinTableWithEdge(target, edge int) *WinTable {
	if target < 2 || target > maxTableTarget {
		return nil
	}
	edge = max(-MaxEdge, min(edge, MaxEdge))
	k := tableKey{target, edge}
	if t, ok := winTables.Load(k); ok {
		return t.(*WinTable)
	}
	t, _ := winTables.LoadOrStore(k, newWinTable(target, edge))
	return t.(*WinTable)
}

// tilted is the distribution oc tilted exponentially in the margin
// (us − them) until its mean margin is edge.
func tilted(oc []outcome, edge int) []outcome {
	if edge == 0 {
		return oc
	}
	mean := func(lambda float64) float64 {
		var z, m float64
		for _, o := range oc {
			w := o.p * math.Exp(lambda*float64(o.us-o.them))
			z += w
			m += w * float64(o.us-o.them)
		}
		return m / z
	}
	// The mean is increasing in lambda: bisect.
	lo, hi := -1.0, 1.0
	for range 100 {
		mid := (lo + hi) / 2
		if mean(mid) < float64(edge) {
			lo = mid
		} else {
			hi = mid
		}
	}
	lambda := (lo + hi) / 2
	out := make([]outcome, len(oc))
	var z float64
	for i, o := range oc {
		out[i] = outcome{o.us, o.them, o.p * math.Exp(lambda*float64(o.us-o.them))}
		z += out[i].p
	}
	for i := range out {
		out[i].p /= z
	}
	return out
}

// Resets add this much to the target when both teams reach it.
const resetStep = 100

func newWinTable(target, edge int) *WinTable {
	t := &WinTable{target: target, w: make([]float32, target*target)}
	oc := tilted(dealOutcomes(), edge)
	var p00 float64 // a deal that scores nothing leaves the state as it was
	for _, o := range oc {
		if o.us == 0 && o.them == 0 {
			p00 += o.p
		}
	}
	// value of one state from the table as it stands.
	eval := func(nu, nt int) float64 {
		sum := 0.0
		for _, o := range oc {
			if o.us == 0 && o.them == 0 {
				continue
			}
			sum += o.p * t.after(nu-o.us, nt-o.them)
		}
		return sum / (1 - p00)
	}
	// The states both teams are within resetStep of the target depend on
	// each other through resets: iterate them to convergence first. Every
	// other state depends only on states with smaller needs, or on those.
	r := min(resetStep, target)
	for range 200 {
		delta := 0.0
		for s := 2; s <= 2*r; s++ {
			for nu := max(1, s-r); nu <= min(r, s-1); nu++ {
				nt := s - nu
				v := eval(nu, nt)
				delta = math.Max(delta, math.Abs(v-float64(t.w[(nu-1)*target+nt-1])))
				t.w[(nu-1)*target+nt-1] = float32(v)
			}
		}
		if delta < 1e-7 {
			break
		}
	}
	for s := 2; s <= 2*target; s++ {
		for nu := max(1, s-target); nu <= min(target, s-1); nu++ {
			nt := s - nu
			if nu <= r && nt <= r {
				continue
			}
			t.w[(nu-1)*target+nt-1] = float32(eval(nu, nt))
		}
	}
	// One match point at the start of a match, from winning a deal's worth
	// of points rather than losing them.
	d := t.after(target-16, target) - t.after(target, target-16)
	t.scale = 1
	if d > 0 {
		t.scale = 32 / d
	}
	return t
}

// after is the value of the state a deal leaves, by the points each team
// still needs: 1 when we have reached the target alone, 0 when they have,
// the table otherwise (both reached it: the target grows).
func (t *WinTable) after(nu, nt int) float64 {
	if nu <= 0 && nt <= 0 {
		nu, nt = max(nu+resetStep, 1), max(nt+resetStep, 1)
	}
	switch {
	case nu <= 0:
		return 1
	case nt <= 0:
		return 0
	}
	return float64(t.w[(min(nu, t.target)-1)*t.target+min(nt, t.target)-1])
}

// P is the chance of winning from scores ours and theirs (with this
// table's target).
func (t *WinTable) P(ours, theirs int) float64 {
	return t.after(max(t.target-ours, 1), max(t.target-theirs, 1))
}

// Value is what a deal bringing ours and theirs match points is worth from
// the scores before it, in match points at the start of a match: the
// change in the chance of winning, scaled.
func (t *WinTable) Value(before [2]int, ours, theirs int) float64 {
	nu, nt := max(t.target-before[0], 1), max(t.target-before[1], 1)
	return t.scale * (t.after(nu-ours, nt-theirs) - t.after(nu, nt))
}
