package search

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

// bruteForce is plain minimax on maxTeam's points, no pruning, no table.
func bruteForce(hands *[4]giretra.Set, t giretra.Trick, m giretra.Mode, maxTeam giretra.Team) int {
	return bruteForcePolicy(hands, t, m, maxTeam, nil, true)
}

// bruteForcePolicy is bruteForce where, until the trick in progress ends
// (done false), pol may fix a seat's card (as Solver.Policy does; nil or
// an illegal card leaves it free).
func bruteForcePolicy(hands *[4]giretra.Set, t giretra.Trick, m giretra.Mode, maxTeam giretra.Team, pol func(giretra.Position, giretra.Set, *giretra.Trick) giretra.Card, done bool) int {
	if t.N == 0 && hands[0]|hands[1]|hands[2]|hands[3] == 0 {
		return 0
	}
	p := t.Next()
	moves := giretra.LegalPlays(hands[p], &t, m)
	if !done && pol != nil {
		if c := pol(p, hands[p], &t); c < 32 && moves.Has(c) {
			moves = c.Bit()
		}
	}
	best := -1
	if p.Team() != maxTeam {
		best = 1000
	}
	for c := range moves.All() {
		hands[p] &^= c.Bit()
		nt := t
		nt.Add(c)
		var v int
		if nt.N == 4 {
			w := nt.Winner(m)
			tp := nt.Points(m)
			if hands[0]|hands[1]|hands[2]|hands[3] == 0 {
				tp += 10
			}
			v = bruteForcePolicy(hands, giretra.NewTrick(w), m, maxTeam, pol, true)
			if w.Team() == maxTeam {
				v += tp
			}
		} else {
			v = bruteForcePolicy(hands, nt, m, maxTeam, pol, done)
		}
		hands[p] |= c.Bit()
		if p.Team() == maxTeam {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// moveValue is the brute-force value of playing c in tr: what
// Solver.Values gives c (pol as in bruteForcePolicy, for the rest of tr).
func moveValue(hands [4]giretra.Set, tr giretra.Trick, c giretra.Card, m giretra.Mode, team giretra.Team, pol func(giretra.Position, giretra.Set, *giretra.Trick) giretra.Card) int {
	hands[tr.Next()] &^= c.Bit()
	tr.Add(c)
	if tr.N < 4 {
		return bruteForcePolicy(&hands, tr, m, team, pol, false)
	}
	win := tr.Winner(m)
	tp := tr.Points(m)
	if hands[0]|hands[1]|hands[2]|hands[3] == 0 {
		tp += 10
	}
	w := bruteForce(&hands, giretra.NewTrick(win), m, team)
	if win.Team() == team {
		w += tp
	}
	return w
}

// randomPosition deals n cards to each seat and plays k cards of a trick.
func randomPosition(rng *rand.Rand, n, k int, m giretra.Mode) ([4]giretra.Set, giretra.Trick) {
	var d [32]giretra.Card
	for i := range d {
		d[i] = giretra.Card(i)
	}
	rng.Shuffle(32, func(i, j int) { d[i], d[j] = d[j], d[i] })
	var hands [4]giretra.Set
	for p := range 4 {
		for i := range n {
			hands[p] |= d[p*n+i].Bit()
		}
	}
	t := giretra.NewTrick(giretra.Position(rng.IntN(4)))
	for range k {
		p := t.Next()
		moves := giretra.LegalPlays(hands[p], &t, m).Cards()
		c := moves[rng.IntN(len(moves))]
		hands[p] &^= c.Bit()
		t.Add(c)
	}
	return hands, t
}

func TestSolverMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := NewSolver()
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := range n {
		m := giretra.Mode(i % 6)
		cards := 2 + i%3 // 2..4 tricks
		hands, tr := randomPosition(rng, cards, i%4, m)
		team := giretra.Team(i % 2)
		want := bruteForce(&hands, tr, m, team)
		s.Reset(m, team)
		if got := s.Solve(&hands, tr); got != want {
			t.Fatalf("case %d mode %v: solver %d, brute force %d", i, m, got, want)
		}
		// Per-move values against brute force after each move.
		p := tr.Next()
		moves := giretra.LegalPlays(hands[p], &tr, m)
		var vals [32]int
		s.Reset(m, team)
		if !s.Values(&hands, tr, moves, &vals) {
			t.Fatal("stopped without a limit")
		}
		for c := range moves.All() {
			if w := moveValue(hands, tr, c, m, team, nil); vals[c] != w {
				t.Fatalf("case %d mode %v move %v: value %d, brute force %d", i, m, c, vals[c], w)
			}
		}

		// Solver.Policy against minimax in which the same seats play the
		// same fixed cards in the trick in progress: random seats, and a
		// policy that picks a card from the hand and the trick (sometimes
		// an illegal one, or NoCard, which must leave the seat free).
		seats := uint8(rng.IntN(16))
		salt := rng.Uint64()
		pol := func(p giretra.Position, hand giretra.Set, t *giretra.Trick) giretra.Card {
			if seats&(1<<p) == 0 {
				return giretra.NoCard
			}
			h := salt
			for _, x := range []uint64{uint64(p), uint64(hand), uint64(t.N), uint64(t.Cards[0]), uint64(t.Cards[1]), uint64(t.Cards[2])} {
				h = (h ^ x) * 0x9e3779b97f4a7c15
				h ^= h >> 29
			}
			if h%7 == 0 {
				return giretra.NoCard
			}
			c := giretra.Card(h % 32) // often not in the hand: ignored
			if h%3 != 0 {
				cs := hand.Cards()
				c = cs[int(h>>8)%len(cs)]
			}
			return c
		}
		s.Reset(m, team)
		s.Policy, s.PolicySeats = pol, seats
		if !s.Values(&hands, tr, moves, &vals) {
			t.Fatal("stopped without a limit")
		}
		for c := range moves.All() {
			if w := moveValue(hands, tr, c, m, team, pol); vals[c] != w {
				t.Fatalf("case %d mode %v policy seats %04b move %v: value %d, brute force %d", i, m, seats, c, vals[c], w)
			}
		}
	}
}

func TestSolverFullDealPointsInRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := NewSolver()
	for i := range 6 {
		m := giretra.Mode(i)
		hands, tr := randomPosition(rng, 8, 0, m)
		s.Reset(m, giretra.Team1)
		v1 := s.Solve(&hands, tr)
		s.Reset(m, giretra.Team2)
		v2 := s.Solve(&hands, tr)
		if v1 < 0 || v1 > m.Total() || v1+v2 != m.Total() {
			t.Errorf("mode %v: team1 %d + team2 %d != %d", m, v1, v2, m.Total())
		}
	}
}

// benchPos is a random deal position for the solver benchmarks.
type benchPos struct {
	hands [4]giretra.Set
	m     giretra.Mode
}

// benchPositions deals 64 positions with cards left per hand, all modes.
func benchPositions(seed1, seed2 uint64, cards int) []benchPos {
	rng := rand.New(rand.NewPCG(seed1, seed2))
	ps := make([]benchPos, 0, 64)
	for i := range 64 {
		m := giretra.Mode(i % 6)
		h, _ := randomPosition(rng, cards, 0, m)
		ps = append(ps, benchPos{h, m})
	}
	return ps
}

// benchSolve runs solve over ps round robin and reports nodes/s and nodes/op.
func benchSolve(b *testing.B, ps []benchPos, solve func(s *Solver, p *benchPos)) {
	s := NewSolver()
	var nodes int64
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		p := &ps[i%len(ps)]
		i++
		s.Reset(p.m, giretra.Team1)
		solve(s, p)
		nodes += s.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(i), "nodes/op")
}

func solveExact(s *Solver, p *benchPos) { s.Solve(&p.hands, giretra.NewTrick(giretra.Bottom)) }

func BenchmarkSolveFullDeal(b *testing.B) { benchSolve(b, benchPositions(5, 6, 8), solveExact) }

func BenchmarkSolveFromTrick4(b *testing.B) { benchSolve(b, benchPositions(7, 8, 5), solveExact) }

func BenchmarkSolveFullDealThreshold(b *testing.B) {
	benchSolve(b, benchPositions(5, 6, 8), func(s *Solver, p *benchPos) {
		th := p.m.Total() / 2
		s.SolveWindow(&p.hands, giretra.NewTrick(giretra.Bottom), th, th+1)
	})
}

func BenchmarkThresholdByCards(b *testing.B) {
	for _, n := range []int{7, 6, 5} {
		b.Run(string(rune('0'+n)), func(b *testing.B) {
			benchSolve(b, benchPositions(5, 6, n), func(s *Solver, p *benchPos) {
				th := (s.setPoints(p.hands[0]|p.hands[1]|p.hands[2]|p.hands[3]) + 10) / 2
				s.SolveWindow(&p.hands, giretra.NewTrick(giretra.Bottom), th, th+1)
			})
		})
	}
}

// The solver's beats is giretra.Beats in every mode, for every card
// against every winner of another card, whatever suit was led.
func TestBeatsMatchesRules(t *testing.T) {
	s := NewSolver()
	for m := range giretra.Mode(6) {
		s.Reset(m, giretra.Team1)
		for w := range giretra.Card(32) {
			for c := range giretra.Card(32) {
				if c == w {
					continue
				}
				if got, want := s.beats(c, w), giretra.Beats(c, w, w.Suit(), m); got != want {
					t.Errorf("mode %v: beats(%v, %v) = %v, want %v", m, c, w, got, want)
				}
			}
		}
	}
}

// dropEquivalentRef is dropEquivalent as a plain walk up each suit in
// strength order, the definition: a move goes when the live card just
// below it is a move worth the same points.
func dropEquivalentRef(s *Solver, moves, live giretra.Set) giretra.Set {
	out := moves
	for su := range giretra.Suit(4) {
		prevIn, prevPts := false, int8(-1)
		for _, c := range s.order[su] {
			if !live.Has(c) {
				continue
			}
			if moves.Has(c) {
				if prevIn && s.pts[c] == prevPts {
					out &^= c.Bit()
				}
				prevIn, prevPts = true, s.pts[c]
			} else {
				prevIn = false
			}
		}
	}
	return out
}

// The bitwise dropEquivalent agrees with the walk, in every mode, on
// random live sets and moves among them.
func TestDropEquivalentMatchesWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	s := NewSolver()
	for m := range giretra.Mode(6) {
		s.Reset(m, giretra.Team1)
		for range 20000 {
			live := giretra.Set(rng.Uint32())
			moves := live & giretra.Set(rng.Uint32()|rng.Uint32())
			if got, want := s.dropEquivalent(moves, live), dropEquivalentRef(s, moves, live); got != want {
				t.Fatalf("mode %v, live %08x, moves %08x: %08x, want %08x", m, live, moves, got, want)
			}
		}
	}
}

// ValuesWindow's zero-window probes give every move the value one
// full-window search gives it, on positions too big for brute force (7
// and 6 cards a hand, a trick under way or not, over the whole range of
// points, every mode); the node counts of the two are logged.
func TestProbeMatchesWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	s := NewSolver()
	n := 120
	if testing.Short() {
		n = 24
	}
	var onePass, probed [6]int64
	for i := range n {
		m := giretra.Mode(i % 6)
		hands, tr := randomPosition(rng, 6+i%2, i%4, m)
		team := giretra.Team(i % 2)
		p := tr.Next()
		moves := giretra.LegalPlays(hands[p], &tr, m)
		var got [32]int
		s.Reset(m, team)
		if !s.Values(&hands, tr, moves, &got) {
			t.Fatal("stopped without a limit")
		}
		probed[m] += s.Nodes
		s.Reset(m, team)
		s.setHands(&hands)
		st := toStrick(&tr, m)
		for c := range moves.All() {
			if want := s.play(st, p, c, -1, 1000); got[c] != want {
				t.Fatalf("case %d mode %v move %v: probed %d, one pass %d", i, m, c, got[c], want)
			}
		}
		onePass[m] += s.Nodes
	}
	for m := range giretra.Mode(6) {
		t.Logf("%v: %d nodes probed, %d in one pass", m, probed[m], onePass[m])
	}
}
