package referee

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"text/tabwriter"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/stats"
)

func interpretP(p float64) string {
	switch {
	case p < 0.001:
		return "highly significant (p < 0.001)"
	case p < 0.01:
		return "very significant (p < 0.01)"
	case p < 0.05:
		return "significant (p < 0.05)"
	case p < 0.1:
		return "marginally significant (p < 0.1)"
	}
	return "not significant (p >= 0.1)"
}

// announcerRow is the announcer win rate of one side in one mode family
// (a deal is won by the announcer when it scores more match points, or
// wins the match outright: the engine's DealResult.AnnouncerWon).
type announcerRow struct {
	Mode      string  `json:"mode"`
	Side      string  `json:"side"`
	Announced int     `json:"announced"`
	Won       int     `json:"won"`
	Rate      float64 `json:"winRate"`
}

// sideTiming is a bot server's response times in a benchmark.
type sideTiming struct {
	Side  string        `json:"side"`
	Stats []timingStats `json:"stats"`
}

type BenchReport struct {
	A               string         `json:"a"`
	B               string         `json:"b"`
	Partner         string         `json:"partner,omitempty"`
	Duplicate       *Paired        `json:"duplicate,omitempty"`
	Matches         int            `json:"matches"`
	Played          int            `json:"played"`
	Target          int            `json:"targetScore"`
	Sweep           int            `json:"colourSweepPoints"`
	Seed            int64          `json:"seed"`
	Seats           string         `json:"seats"`
	Dialect         string         `json:"dialect"`
	AWins           int            `json:"aWins"`
	BWins           int            `json:"bWins"`
	WinRate         float64        `json:"aWinRate"`
	CILow           float64        `json:"aWinRateLow95"`
	CIHigh          float64        `json:"aWinRateHigh95"`
	PValue          float64        `json:"pValue"`
	Significance    string         `json:"significance"`
	K               float64        `json:"eloK"`
	EloAInit        float64        `json:"eloAInitial"`
	EloBInit        float64        `json:"eloBInitial"`
	EloA            float64        `json:"eloA"`
	EloB            float64        `json:"eloB"`
	EloAMin         float64        `json:"eloAMin"`
	EloAMax         float64        `json:"eloAMax"`
	AdjustedEloA    *float64       `json:"adjustedEloA,omitempty"`
	AdjustedEloB    *float64       `json:"adjustedEloB,omitempty"`
	Deals           int            `json:"deals"`
	APointsPerDeal  float64        `json:"aMatchPointsPerDeal"`
	BPointsPerDeal  float64        `json:"bMatchPointsPerDeal"`
	AWinsAsTeam1    int            `json:"aWinsAsTeam1"`
	AMatchesAsTeam1 int            `json:"aMatchesAsTeam1"`
	Announcer       []announcerRow `json:"announcer"`
	NotifyFailures  int            `json:"notificationFailures"`
	Timing          []sideTiming   `json:"timing,omitempty"`
	Aborted         string         `json:"aborted,omitempty"`
	Interrupted     bool           `json:"interrupted,omitempty"` // stopped by a signal: the figures cover the matches played
	DurationSeconds float64        `json:"durationSeconds"`
}

func buildBenchReport(p *plan, a, b *side, recs []*matchRecord, o *Options, took time.Duration) *BenchReport {
	rep := &BenchReport{A: a.name, B: b.name, Matches: p.matches, Target: p.target, Sweep: p.sweep, Seed: p.seed,
		Seats: p.seats, Dialect: o.DialectName, K: o.EloK, EloAInit: o.Elo1, EloBInit: o.Elo2, EloA: o.Elo1, EloB: o.Elo2,
		EloAMin: o.Elo1, EloAMax: o.Elo1, DurationSeconds: math.Round(took.Seconds()*100) / 100}
	if p.fixCuts {
		rep.Duplicate = pairedOf(pairUnits(recs))
	}
	// Announcer stats: [family][side] announced, won; families Colour, NoTrumps, AllTrumps.
	var ann, won [3][2]int
	family := func(m giretra.Mode) int {
		switch m {
		case giretra.NoTrumps:
			return 1
		case giretra.AllTrumps:
			return 2
		}
		return 0
	}
	var aPts, bPts int
	for _, r := range recs {
		if r == nil {
			continue
		}
		rep.NotifyFailures += len(r.Warnings[0]) + len(r.Warnings[1])
		if r.Err != nil {
			if rep.Aborted == "" && !errors.Is(r.Err, context.Canceled) {
				rep.Aborted = fmt.Sprintf("match %d (deal %d): %v", r.Index+1, dealNo(&r.Result.Final), r.Err)
			}
			continue
		}
		rep.Played++
		aWon := r.Result.Winner == r.ATeam
		if aWon {
			rep.AWins++
		} else {
			rep.BWins++
		}
		if r.ATeam == giretra.Team1 {
			rep.AMatchesAsTeam1++
			if aWon {
				rep.AWinsAsTeam1++
			}
		}
		score := 0.0 // binary result, as the engine's benchmark
		if aWon {
			score = 1
		}
		rep.EloA, rep.EloB = stats.EloUpdate(rep.EloA, rep.EloB, score, o.EloK)
		rep.EloAMin, rep.EloAMax = min(rep.EloAMin, rep.EloA), max(rep.EloAMax, rep.EloA)
		for _, d := range r.Result.Final.Deals {
			rep.Deals++
			at, bt := r.ATeam, r.ATeam.Other()
			aPts += d.MatchPoints[at]
			bPts += d.MatchPoints[bt]
			if d.SweepBonus > 0 {
				if d.SweepingTeam == at {
					aPts += d.SweepBonus
				} else {
					bPts += d.SweepBonus
				}
			}
			s := 0
			if d.AnnouncerTeam != at {
				s = 1
			}
			f := family(d.Mode)
			ann[f][s]++
			if d.MatchPoints[d.AnnouncerTeam] > d.MatchPoints[d.AnnouncerTeam.Other()] || d.IsInstantWin {
				won[f][s]++
			}
		}
	}
	if rep.Played > 0 {
		rep.WinRate = float64(rep.AWins) / float64(rep.Played)
	}
	rep.CILow, rep.CIHigh = stats.Wilson(rep.AWins, rep.Played)
	rep.PValue = stats.PValue(rep.AWins, rep.Played)
	rep.Significance = interpretP(rep.PValue)
	if rep.Deals > 0 {
		rep.APointsPerDeal = float64(aPts) / float64(rep.Deals)
		rep.BPointsPerDeal = float64(bPts) / float64(rep.Deals)
	}
	// Ratings normalised so that random = 1000, as the engine offers.
	if a.agent == "random" || b.agent == "random" {
		off := 1000 - rep.EloA
		if b.agent == "random" {
			off = 1000 - rep.EloB
		}
		ea, eb := rep.EloA+off, rep.EloB+off
		rep.AdjustedEloA, rep.AdjustedEloB = &ea, &eb
	}
	for si, sd := range [2]*side{a, b} {
		if sd.bot == nil {
			continue
		}
		var all [nKinds][]time.Duration
		for _, r := range recs {
			if r != nil {
				for k := range nKinds {
					all[k] = append(all[k], r.Timings[si][k]...)
				}
			}
		}
		st := sideTiming{Side: sd.name}
		for k := range nKinds {
			st.Stats = append(st.Stats, computeStats(kindNames[k], all[k]))
		}
		rep.Timing = append(rep.Timing, st)
	}
	names := [3]string{"Colour", "NoTrumps", "AllTrumps"}
	var tot, totWon [2]int
	for f := range 3 {
		for s := range 2 {
			row := announcerRow{Mode: names[f], Side: [2]string{a.name, b.name}[s], Announced: ann[f][s], Won: won[f][s]}
			if row.Announced > 0 {
				row.Rate = float64(row.Won) / float64(row.Announced)
			}
			tot[s] += ann[f][s]
			totWon[s] += won[f][s]
			rep.Announcer = append(rep.Announcer, row)
		}
	}
	for s := range 2 {
		row := announcerRow{Mode: "Total", Side: [2]string{a.name, b.name}[s], Announced: tot[s], Won: totWon[s]}
		if row.Announced > 0 {
			row.Rate = float64(row.Won) / float64(row.Announced)
		}
		rep.Announcer = append(rep.Announcer, row)
	}
	return rep
}

func (rep *BenchReport) print(w io.Writer) {
	fmt.Fprintf(w, "Benchmark %s vs %s\n", rep.A, rep.B)
	if rep.Partner != "" {
		fmt.Fprintf(w, "  %s partnered with %s\n", rep.A, rep.Partner)
	}
	fmt.Fprintf(w, "  %d/%d matches, target %d, Colour sweep %s, seed %d, seats %s, dialect %s, %.1fs\n\n",
		rep.Played, rep.Matches, rep.Target, sweepText(rep.Sweep), rep.Seed, rep.Seats, rep.Dialect, rep.DurationSeconds)
	if rep.Aborted != "" {
		fmt.Fprintf(w, "ABORTED (the engine aborts a benchmark on any error): %s\n\n", rep.Aborted)
	}
	if rep.Interrupted {
		fmt.Fprintf(w, "INTERRUPTED: the figures cover the %d matches played\n\n", rep.Played)
	}
	fmt.Fprintf(w, "Wins       %s %d, %s %d\n", rep.A, rep.AWins, rep.B, rep.BWins)
	fmt.Fprintf(w, "Win rate   %s %.1f%% [%.1f%% – %.1f%%] (Wilson 95%%)\n", rep.A, 100*rep.WinRate, 100*rep.CILow, 100*rep.CIHigh)
	fmt.Fprintf(w, "p-value    %.3g vs 50%%, %s\n", rep.PValue, rep.Significance)
	if d := rep.Duplicate; d != nil {
		fmt.Fprintf(w, "Duplicate  %d deal sequences, each played twice with seats swapped and the same cuts (paired 95%% intervals)\n", d.Pairs)
		fmt.Fprintf(w, "           %s − %s: win rate %+.3f [%+.3f, %+.3f]; margin per deal (match points scored − conceded) %+.2f [%+.2f, %+.2f]\n",
			rep.A, rep.B, d.WinDiff.Mean, d.WinDiff.Lo, d.WinDiff.Hi, d.PointsDiff.Mean, d.PointsDiff.Lo, d.PointsDiff.Hi)
	}
	if rep.AMatchesAsTeam1 > 0 && rep.AMatchesAsTeam1 < rep.Played {
		fmt.Fprintf(w, "By seat    %s as Team1 %d/%d, as Team2 %d/%d\n", rep.A, rep.AWinsAsTeam1, rep.AMatchesAsTeam1,
			rep.AWins-rep.AWinsAsTeam1, rep.Played-rep.AMatchesAsTeam1)
	}
	fmt.Fprintf(w, "Elo        %s %.0f (min %.0f, max %.0f), %s %.0f  (K=%g, from %.0f and %.0f)\n", rep.A, rep.EloA, rep.EloAMin, rep.EloAMax, rep.B, rep.EloB, rep.K, rep.EloAInit, rep.EloBInit)
	if rep.AdjustedEloA != nil {
		fmt.Fprintf(w, "Adjusted   %s %.0f, %s %.0f  (random = 1000)\n", rep.A, *rep.AdjustedEloA, rep.B, *rep.AdjustedEloB)
	}
	if rep.Played > 0 {
		fmt.Fprintf(w, "Deals      %d (%.1f per match); match points per deal %s %+.1f, %s %+.1f\n", rep.Deals,
			float64(rep.Deals)/float64(rep.Played), rep.A, rep.APointsPerDeal, rep.B, rep.BPointsPerDeal)
	}
	fmt.Fprintf(w, "\nAnnouncer win rate\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "mode\tannouncer\tdeals\twin rate")
	for _, r := range rep.Announcer {
		rate := "-"
		if r.Announced > 0 {
			rate = fmt.Sprintf("%.1f%%", 100*r.Rate)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", r.Mode, r.Side, r.Announced, rate)
	}
	tw.Flush()
	for _, st := range rep.Timing {
		fmt.Fprintf(w, "\nResponse times of %s (ms)\n", st.Side)
		printTiming(w, st.Stats)
	}
	if rep.NotifyFailures > 0 {
		fmt.Fprintf(w, "\nNotification failures (ignored, as the engine does): %d\n", rep.NotifyFailures)
	}
}

func sweepText(n int) string {
	if n == 0 {
		return "wins the match"
	}
	return fmt.Sprintf("= %d×multiplier", n)
}

func Benchmark(ctx context.Context, o *Options, env *Env) error {
	if len(o.Args) > 2 {
		return UsageErr("benchmark takes at most two bots (URL, folder or agent name each)")
	}
	// giretra-manage's defaults: DeterministicPlayer vs CalculatingPlayer.
	specs := []string{"DeterministicPlayer", "CalculatingPlayer"}
	copy(specs, o.Args)
	if err := prepareRecordDir(o.RecordDir); err != nil {
		return err
	}
	a, b, partner, err := o.openSides(ctx, specs[0], specs[1], env.Stderr)
	if err != nil {
		return err
	}
	defer a.close()
	defer b.close()
	defer partner.close()
	p := o.plan("benchmark")
	p.abortOnErr = true
	p.fixCuts = o.Duplicate
	start := time.Now()
	bar := newProgress(env, o, p.matches)
	recs := playAll(ctx, p, p.layoutAll(a, b, partner), bar.update)
	bar.finish()
	rep := buildBenchReport(p, a, b, recs, o, time.Since(start))
	if partner != nil {
		rep.Partner = partner.name
	}
	rep.Interrupted = ctx.Err() != nil
	if err := emit(o, env, rep, rep.print); err != nil {
		return err
	}
	if err := ending(ctx, rep.Aborted != ""); err != nil {
		return err
	}
	return recordError(recs)
}
