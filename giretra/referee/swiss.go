package referee

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/stats"
)

// The Swiss tournament of giretra-manage (src/Giretra.Manage/Swiss and
// SWISS-EVALUATION.md): every round pairs the participants by points then
// Elo, adjacent pairs play one match (the higher one at Bottom+Top, first
// dealer round % 4), and each match moves both ratings with a margin score
// and a K factor that decays with the participant's matches.

// participant is one entrant of a Swiss tournament.
type participant struct {
	side     *side
	order    int      // command-line order
	Name     string   `json:"agent"`
	Wins     int      `json:"wins"`
	Losses   int      `json:"losses"`
	Byes     int      `json:"byes"`
	Elo      float64  `json:"elo"`
	MinElo   float64  `json:"eloMin"`
	MaxElo   float64  `json:"eloMax"`
	Adjusted *float64 `json:"adjustedElo,omitempty"` // RandomPlayer = 1000
}

func (p *participant) points() int { return p.Wins + p.Byes }
func (p *participant) played() int { return p.Wins + p.Losses }
func (p *participant) winRate() float64 {
	if p.played() == 0 {
		return 0
	}
	return 100 * float64(p.Wins) / float64(p.played())
}

func (p *participant) setElo(x float64) {
	p.Elo, p.MinElo, p.MaxElo = x, min(p.MinElo, x), max(p.MaxElo, x)
}

// byStanding is points then Elo, both descending; ties keep the list's
// order (a stable sort, as LINQ's OrderBy).
func byStanding(a, b *participant) int {
	return cmp.Or(cmp.Compare(b.points(), a.points()), cmp.Compare(b.Elo, a.Elo))
}

// pairRound is SwissPairing.PairRound: sort by standing; with an odd
// count the bye goes to the fewest byes, then fewest points, then lowest
// Elo (the first such in standing order); then 1v2, 3v4, …
func pairRound(ps []*participant) (pairs [][2]*participant, bye *participant) {
	sorted := slices.Clone(ps)
	slices.SortStableFunc(sorted, byStanding)
	if len(sorted)%2 == 1 {
		cand := slices.Clone(sorted)
		slices.SortStableFunc(cand, func(a, b *participant) int {
			return cmp.Or(cmp.Compare(a.Byes, b.Byes), cmp.Compare(a.points(), b.points()), cmp.Compare(a.Elo, b.Elo))
		})
		bye = cand[0]
		sorted = slices.DeleteFunc(sorted, func(p *participant) bool { return p == bye })
	}
	for i := 0; i+1 < len(sorted); i += 2 {
		pairs = append(pairs, [2]*participant{sorted[i], sorted[i+1]})
	}
	return pairs, bye
}

// effectiveK is K_min + (K_max − K_min) / (1 + matches / halfLife).
func effectiveK(kMax, kMin float64, matches int, halfLife float64) float64 {
	return kMin + (kMax-kMin)/(1+float64(matches)/halfLife)
}

// marginScore is 0.5 + 0.5·clamp((winner − loser) / target, 0, 1): the
// winner's actual score, against the configured target.
func marginScore(winner, loser, target int) float64 {
	return 0.5 + 0.5*min(1, max(0, float64(winner-loser)/float64(target)))
}

// swissMatch is one played pairing.
type swissMatch struct {
	Round  int    `json:"round"`
	Team1  string `json:"team1"`
	Team2  string `json:"team2"`
	Score  [2]int `json:"score"`
	Winner string `json:"winner"`
	Deals  int    `json:"deals"`
}

type SwissReport struct {
	Participants []*participant `json:"participants"` // final ranking
	Rounds       int            `json:"rounds"`
	Played       int            `json:"roundsPlayed"`
	Target       int            `json:"targetScore"`
	Seed         int64          `json:"seed"`
	Shuffle      bool           `json:"shuffle"`
	InitialElo   float64        `json:"initialElo"`
	KMax         float64        `json:"kMax"`
	KMin         float64        `json:"kMin"`
	KHalfLife    float64        `json:"kHalfLife"`
	Matches      []swissMatch   `json:"matches"`
	Error        string         `json:"error,omitempty"`
	Interrupted  bool           `json:"interrupted,omitempty"`
	Seconds      float64        `json:"durationSeconds"`
}

func Swiss(ctx context.Context, o *Options, env *Env) error {
	names := o.Args
	if len(names) == 0 {
		names = o.Registry.All()
	}
	if len(names) < 2 {
		fmt.Fprintf(env.Stdout, "Error: At least 2 agent factories are required for a Swiss tournament.\nAvailable: %s\n", o.Registry.available())
		return ErrFailed
	}
	if err := prepareRecordDir(o.RecordDir); err != nil {
		return err
	}
	var ps []*participant
	defer func() {
		for _, p := range ps {
			p.side.close()
		}
	}()
	seen := map[string]int{}
	for i, spec := range names {
		s, err := o.open(ctx, spec, env.Stderr)
		if err != nil {
			return err
		}
		if seen[s.name]++; seen[s.name] > 1 {
			s.name = fmt.Sprintf("%s (%d)", s.name, seen[s.name])
		}
		ps = append(ps, &participant{side: s, order: i, Name: s.name, Elo: o.EloInit, MinElo: o.EloInit, MaxElo: o.EloInit})
	}
	p := o.plan("swiss")
	p.recordPrefix = "swiss"
	rep := &SwissReport{Rounds: o.Rounds, Target: p.target, Seed: p.seed, Shuffle: o.Shuffle, InitialElo: o.EloInit,
		KMax: o.KMax, KMin: o.KMin, KHalfLife: o.KHalfLife, Matches: []swissMatch{}}
	if !o.JSON {
		var l []string
		for _, q := range ps {
			l = append(l, q.Name)
		}
		fmt.Fprintf(env.Stdout, "Swiss tournament: %s\n  %d rounds, target %d, initial Elo %g, K %g → %g (half-life %g), margin scoring, seed %d, shuffle %v\n\n",
			strings.Join(l, ", "), o.Rounds, p.target, o.EloInit, o.KMax, o.KMin, o.KHalfLife, p.seed, o.Shuffle)
	}
	start := time.Now()
	matchNo := 0
	for round := 1; round <= o.Rounds && rep.Error == "" && ctx.Err() == nil; round++ {
		pairs, bye := pairRound(ps)
		if bye != nil {
			bye.Byes++
		}
		games := make([]game, len(pairs))
		for i, pr := range pairs {
			games[i] = game{index: matchNo, a: pr[0].side, b: pr[1].side, aTeam: giretra.Team1, dealer: giretra.Position(round % 4),
				deck: uint64(matchNo), round: round,
				seeds: [nSides]int64{p.seed + int64(pr[0].order)*10000, p.seed + int64(pr[1].order)*10000},
				k:     [nSides]int{pr[0].played(), pr[1].played()}}
			matchNo++
		}
		// The pairs of a round are disjoint: playing them at once and
		// rating them in pairing order is the engine's sequential result.
		recs := playAll(ctx, p, games, nil)
		var line []string
		for i, r := range recs {
			p1, p2 := pairs[i][0], pairs[i][1]
			if r == nil || r.Err != nil {
				if r != nil && !errors.Is(r.Err, context.Canceled) && rep.Error == "" {
					rep.Error = fmt.Sprintf("Round %d: match between '%s' and '%s' failed: %v", round, p1.Name, p2.Name, r.Err)
				}
				continue
			}
			team1Won := r.Result.Winner == giretra.Team1
			s1, s2 := r.Result.Final.Points[0], r.Result.Final.Points[1]
			k1 := effectiveK(o.KMax, o.KMin, p1.played(), o.KHalfLife)
			k2 := effectiveK(o.KMax, o.KMin, p2.played(), o.KHalfLife)
			w, l := s1, s2
			if !team1Won {
				w, l = s2, s1
			}
			margin := marginScore(w, l, p.target)
			a1 := margin
			if !team1Won {
				a1 = 1 - margin
			}
			e1, e2 := stats.EloExpected(p1.Elo, p2.Elo), stats.EloExpected(p2.Elo, p1.Elo)
			n1, n2 := p1.Elo+k1*(a1-e1), p2.Elo+k2*((1-a1)-e2)
			p1.setElo(n1)
			p2.setElo(n2)
			winner, loser := p1, p2
			if !team1Won {
				winner, loser = p2, p1
			}
			winner.Wins++
			loser.Losses++
			rep.Matches = append(rep.Matches, swissMatch{Round: round, Team1: p1.Name, Team2: p2.Name, Score: [2]int{s1, s2}, Winner: winner.Name, Deals: len(r.Result.Final.Deals)})
			line = append(line, fmt.Sprintf("%s > %s (%d-%d)", winner.Name, loser.Name, s1, s2))
		}
		if err := recordError(recs); err != nil {
			return err
		}
		if rep.Error == "" && ctx.Err() == nil {
			rep.Played = round
		}
		if bye != nil {
			line = append(line, "Bye: "+bye.Name)
		}
		if !o.JSON && len(line) > 0 {
			fmt.Fprintf(env.Stdout, "Round %3d: %s\n", round, strings.Join(line, " | "))
		}
	}
	rep.Seconds = math.Round(time.Since(start).Seconds()*100) / 100
	rep.Interrupted = ctx.Err() != nil
	ranked := slices.Clone(ps)
	slices.SortStableFunc(ranked, byStanding)
	for _, q := range ranked {
		if q.side.agent == "random" {
			for _, r := range ranked {
				adj := 1000 + (r.Elo - q.Elo)
				r.Adjusted = &adj
			}
			break
		}
	}
	rep.Participants = ranked
	if err := emit(o, env, rep, rep.print); err != nil {
		return err
	}
	if rep.Error != "" {
		fmt.Fprintf(env.Stderr, "Error: %s\n", rep.Error)
	}
	return ending(ctx, rep.Error != "")
}

func (rep *SwissReport) print(w io.Writer) {
	if rep.Interrupted {
		fmt.Fprintf(w, "\nINTERRUPTED after %d of %d rounds\n", rep.Played, rep.Rounds)
	}
	fmt.Fprintf(w, "\nSwiss tournament results (%d rounds, %d matches, %.1fs)\n", rep.Played, len(rep.Matches), rep.Seconds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Rank\tAgent\tPts\tW-L-B\tWin%\tElo\tElo range\t")
	for i, p := range rep.Participants {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d-%d-%d\t%.1f%%\t%.0f\t%.0f-%.0f\t\n", i+1, p.Name, p.points(), p.Wins, p.Losses, p.Byes, p.winRate(), p.Elo, p.MinElo, p.MaxElo)
	}
	tw.Flush()
	fmt.Fprintf(w, "(Elo range: the lowest and highest rating held during the tournament, the initial one included)\n")
	if len(rep.Participants) > 0 && rep.Participants[0].Adjusted != nil {
		fmt.Fprintf(w, "\nAdjusted Elo (RandomPlayer = 1000)\n")
		byElo := slices.Clone(rep.Participants)
		slices.SortStableFunc(byElo, func(a, b *participant) int { return cmp.Compare(b.Elo, a.Elo) })
		for _, p := range byElo {
			fmt.Fprintf(w, "  %-24s %6.0f\n", p.Name, *p.Adjusted)
		}
	}
}
