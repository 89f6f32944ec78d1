package match

import (
	"context"
	"fmt"
	"sync"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/stdengine"
)

// Where a std match is won and lost: each leg of a recorded match is
// solved exactly at the first position with at most E empties, so that
// the match's result as played compares with its result had both sides
// played perfectly from E on. What changes between the two is what the
// players' endgames gave away (net of each other), stage by stage.

// LossStage is the matches' result against perfect play from Empties.
type LossStage struct {
	Empties int
	Matches int
	// PlayedA and SolvedA are A's match points (a match's winner has more
	// discs over its two legs; draws half): as played, and had both sides
	// played perfectly from Empties on.
	PlayedA, SolvedA float64
	// DiscsA is the discs A's legs lost after Empties (its final disc
	// difference below the solved one), net of B's, summed over the legs.
	DiscsA int
	// WorseA and BetterA count the legs A ended below and above the
	// solved value.
	WorseA, BetterA int
}

// PairLegs groups the legs of a folder of records (record.ReadPaths) by
// match: the two legs of each, leg 0 first. A match with a leg missing, a
// third leg, or legs whose players are not A and B swapped is an error.
func PairLegs(legs []record.Leg) ([][2]record.Leg, error) {
	type pair struct {
		legs [2]record.Leg
		have [2]bool
	}
	byMatch := map[string]*pair{}
	var order []string
	for _, l := range legs {
		if l.LegNo < 0 || l.LegNo > 1 {
			return nil, fmt.Errorf("match %q: leg %d", l.Match, l.LegNo)
		}
		p := byMatch[l.Match]
		if p == nil {
			p = &pair{}
			byMatch[l.Match] = p
			order = append(order, l.Match)
		}
		if p.have[l.LegNo] {
			return nil, fmt.Errorf("match %q: leg %d twice", l.Match, l.LegNo)
		}
		p.legs[l.LegNo], p.have[l.LegNo] = l, true
	}
	out := make([][2]record.Leg, 0, len(order))
	for _, m := range order {
		p := byMatch[m]
		if !p.have[0] || !p.have[1] {
			return nil, fmt.Errorf("match %q: a leg is missing", m)
		}
		if p.legs[0].Players[0] != p.legs[1].Players[1] || p.legs[0].Players[1] != p.legs[1].Players[0] {
			return nil, fmt.Errorf("match %q: the legs' players are not swapped", m)
		}
		out = append(out, p.legs)
	}
	return out, nil
}

// Losses solves the legs of finished std matches (A is black in leg 0)
// at each of empties, with the embedded std model and workers searchers
// of tables of 2^ttBits entries, and returns a LossStage for each. A
// leg that ended before a stage counts its final result there. Solves of
// more than 22 empties take seconds each.
func Losses(ctx context.Context, matches [][2]record.Leg, empties []int, workers int, ttBits uint) ([]LossStage, error) {
	type legInfo struct {
		final  int   // A's disc difference, empties to the winner
		solved []int // A's solved difference at each stage
		states []*othello.State
		aBlack bool
	}
	info := make([]legInfo, 2*len(matches))
	type job struct{ leg, stage int }
	var jobs []job
	for i, m := range matches {
		for k, l := range m {
			if l.Mode != othello.Std.String() {
				return nil, fmt.Errorf("match %q: mode %s: only std legs are solved", l.Match, l.Mode)
			}
			if l.Result == nil {
				return nil, fmt.Errorf("match %q leg %d: not finished", l.Match, k)
			}
			rp, err := l.Check()
			if err != nil {
				return nil, fmt.Errorf("match %q leg %d: %w", l.Match, k, err)
			}
			li := &info[2*i+k]
			li.states, li.aBlack = rp.States, k == 0
			b, w := rp.States[len(rp.States)-1].Discs()
			li.final = solvedFinal(b, w)
			if !li.aBlack {
				li.final = -li.final
			}
			li.solved = make([]int, len(empties))
			for s := range empties {
				li.solved[s] = li.final
				jobs = append(jobs, job{2*i + k, s})
			}
		}
	}
	model := stdengine.Embedded()
	var wg sync.WaitGroup
	next := make(chan job)
	for range max(workers, 1) {
		wg.Go(func() {
			s := stdengine.NewSearcher(model, ttBits)
			for j := range next {
				li := &info[j.leg]
				for _, st := range li.states {
					if st.Empties() > empties[j.stage] {
						continue
					}
					moves := st.LegalMoves()
					if len(moves) == 0 {
						continue // a pass, or the end: the next position, or the final result
					}
					pl, op := st.Bitboards()
					s.Clear()
					v := s.Search(ctx, pl, op, st.Turn == othello.White, moves, stdengine.Limits{MaxDepth: 64}).Score
					if (st.Turn == othello.Black) != li.aBlack {
						v = -v
					}
					li.solved[j.stage] = v
					break
				}
			}
		})
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]LossStage, len(empties))
	for s, e := range empties {
		st := &out[s]
		st.Empties, st.Matches = e, len(matches)
		for i := range matches {
			played, solved := 0, 0
			for k := range 2 {
				li := &info[2*i+k]
				played += li.final
				solved += li.solved[s]
				st.DiscsA += li.solved[s] - li.final
				switch {
				case li.final < li.solved[s]:
					st.WorseA++
				case li.final > li.solved[s]:
					st.BetterA++
				}
			}
			st.PlayedA += points(played)
			st.SolvedA += points(solved)
		}
	}
	return out, nil
}

// solvedFinal is black's final disc difference as a solve counts it: the
// empty squares of a finished game go to its winner.
func solvedFinal(black, white int) int {
	d, e := black-white, 64-black-white
	switch {
	case d > 0:
		return d + e
	case d < 0:
		return d - e
	}
	return 0
}

// points is a match's points for the side with disc difference d.
func points(d int) float64 {
	switch {
	case d > 0:
		return 1
	case d < 0:
		return 0
	}
	return 0.5
}
