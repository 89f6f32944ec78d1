package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/botarena/gamebot/giretra/referee"
	"github.com/botarena/gamebot/internal/stats"
)

// The text form of the referee's reports, for giretra-ref (whose -json
// prints them as they are).

// printTiming writes a response-time table.
func printTiming(w io.Writer, stats []referee.TimingStats) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\tcount\tmin\tavg\tp50\tp95\tp99\tmax\t")
	for _, s := range stats {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n", s.Kind, s.Count, s.Min, s.Avg, s.P50, s.P95, s.P99, s.Max)
	}
	tw.Flush()
}

// ValidateText writes validate's report; verbose lists every violation,
// crash and warning.
func ValidateText(w io.Writer, rep *referee.ValidateReport, verbose bool) {
	fmt.Fprintf(w, "Validation of %s against %s\n", rep.Bot, rep.Opponent)
	if rep.Partner != "" {
		fmt.Fprintf(w, "  partnered with %s (the bot plays one seat of its team)\n", rep.Partner)
	}
	fmt.Fprintf(w, "  %d matches, target %d, seed %d, seats %s, dialect %s, %.1fs\n\n",
		rep.Matches, rep.Target, rep.Seed, rep.Seats, rep.Dialect, rep.DurationSeconds)
	fmt.Fprintf(w, "Matches    %d completed, %d crashed, %d deals\n", rep.Completed, rep.Crashed, rep.Deals)
	fmt.Fprintf(w, "Wins       bot %d, opponent %d\n", rep.BotWins, rep.OpponentWins)
	fmt.Fprintf(w, "Violations %d\n", len(rep.Violations))
	show := func(items []string, limit int) {
		for i, s := range items {
			if !verbose && i == limit {
				fmt.Fprintf(w, "  … %d more (-v lists all)\n", len(items)-limit)
				break
			}
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	var vs []string
	for _, v := range rep.Violations {
		vs = append(vs, fmt.Sprintf("match %d deal %d %s: %s", v.Match, v.Deal, v.Kind, v.Detail))
	}
	show(vs, 10)
	fmt.Fprintf(w, "Crashes    %d\n", len(rep.Crashes))
	show(rep.Crashes, 10)

	fmt.Fprintf(w, "\nResponse times (ms)\n")
	printTiming(w, rep.Timing)

	fmt.Fprintf(w, "\nGame modes covered %d/6: %s\n", len(rep.ModesCovered), strings.Join(rep.ModesCovered, ", "))
	if len(rep.ModesMissing) > 0 {
		fmt.Fprintf(w, "  never played: %s\n", strings.Join(rep.ModesMissing, ", "))
	}
	fmt.Fprintf(w, "Notification warnings %d\n", len(rep.NotificationWarnings))
	show(rep.NotificationWarnings, 5)
	if rep.DeterminismChecked {
		fmt.Fprintf(w, "Determinism mismatches %d\n", len(rep.DeterminismMismatch))
		show(rep.DeterminismMismatch, 5)
	}
	if len(rep.Trend) > 0 {
		fmt.Fprintf(w, "\nPerformance trend (median ms, first half → second half)\n")
		for _, t := range rep.Trend {
			flag := "stable"
			if t.Degradation {
				flag = "DEGRADATION"
			}
			fmt.Fprintf(w, "  %-13s %8.3f → %8.3f  %s\n", t.Kind, t.FirstHalf, t.SecondHalf, flag)
		}
	}
	if rep.Interrupted {
		fmt.Fprintf(w, "\nINTERRUPTED after %d of %d matches\n", rep.Completed+rep.Crashed, rep.Matches)
	}
	switch {
	case rep.Pass:
		fmt.Fprintf(w, "\nPASS\n")
	case rep.Failed():
		fmt.Fprintf(w, "\nFAIL: %d violations, %d crashed matches, %d determinism mismatches\n",
			len(rep.Violations), rep.Crashed, len(rep.DeterminismMismatch))
	default:
		fmt.Fprintf(w, "\nno verdict\n")
	}
}

// BenchmarkText writes benchmark's report.
func BenchmarkText(w io.Writer, rep *referee.BenchReport) {
	fmt.Fprintf(w, "Benchmark %s vs %s\n", rep.A, rep.B)
	if rep.Partner != "" {
		fmt.Fprintf(w, "  %s partnered with %s\n", rep.A, rep.Partner)
	}
	fmt.Fprintf(w, "  %d/%d matches, target %d, Colour sweep %s, seed %d, seats %s, dialect %s, %.1fs\n\n",
		rep.Played, rep.Matches, rep.Target, SweepText(rep.Sweep), rep.Seed, rep.Seats, rep.Dialect, rep.DurationSeconds)
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

// SwissRoundText writes a tournament's news as it comes: the entrants,
// then a line per round.
func SwissRoundText(w io.Writer, c *referee.SwissConfig, r referee.SwissRound) {
	if r.Round == 0 {
		fmt.Fprintf(w, "Swiss tournament: %s\n  %d rounds, target %d, initial Elo %g, K %g → %g (half-life %g), margin scoring, seed %d, shuffle %v\n\n",
			strings.Join(r.Entrants, ", "), c.Rounds, c.Target, c.Elo, c.KMax, c.KMin, c.KHalfLife, c.Seed, c.Shuffle)
		return
	}
	var line []string
	for _, m := range r.Matches {
		line = append(line, fmt.Sprintf("%s > %s (%d-%d)", m.Winner, m.Loser(), m.Score[0], m.Score[1]))
	}
	if r.Bye != "" {
		line = append(line, "Bye: "+r.Bye)
	}
	if len(line) > 0 {
		fmt.Fprintf(w, "Round %3d: %s\n", r.Round, strings.Join(line, " | "))
	}
}

// SwissText writes swiss's results.
func SwissText(w io.Writer, rep *referee.SwissReport) {
	if rep.Interrupted {
		fmt.Fprintf(w, "\nINTERRUPTED after %d of %d rounds\n", rep.Played, rep.Rounds)
	}
	fmt.Fprintf(w, "\nSwiss tournament results (%d rounds, %d matches, %.1fs)\n", rep.Played, len(rep.Matches), rep.Seconds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Rank\tAgent\tPts\tW-L-B\tWin%\tElo\tElo range\t")
	for i, p := range rep.Participants {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d-%d-%d\t%.1f%%\t%.0f\t%.0f-%.0f\t\n", i+1, p.Name, p.Points(), p.Wins, p.Losses, p.Byes, p.WinRate(), p.Elo, p.MinElo, p.MaxElo)
	}
	tw.Flush()
	fmt.Fprintf(w, "(Elo range: the lowest and highest rating held during the tournament, the initial one included)\n")
	if len(rep.Participants) > 0 && rep.Participants[0].Adjusted != nil {
		fmt.Fprintf(w, "\nAdjusted Elo (RandomPlayer = 1000)\n")
		byElo := slices.Clone(rep.Participants)
		slices.SortStableFunc(byElo, func(a, b *referee.Participant) int { return cmp.Compare(b.Elo, a.Elo) })
		for _, p := range byElo {
			fmt.Fprintf(w, "  %-24s %6.0f\n", p.Name, *p.Adjusted)
		}
	}
}

// CompareText writes compare's report.
func CompareText(w io.Writer, rep *referee.CompareReport) {
	against := "head-to-head"
	if len(rep.Opponents) > 0 {
		against = "against " + strings.Join(rep.Opponents, ", ")
	}
	fmt.Fprintf(w, "Compare %s (candidate) with %s (baseline), %s\n", rep.Candidate, rep.Baseline, against)
	if rep.Partner != "" {
		fmt.Fprintf(w, "  each version partnered with %s\n", rep.Partner)
	}
	fmt.Fprintf(w, "  duplicate: each deal sequence is played by both versions in both seatings, same decks and cuts\n")
	fmt.Fprintf(w, "  target %d, Colour sweep %s, seed %d, margin %.3g, alpha = beta = %.3g, %.1fs\n\n",
		rep.Target, SweepText(rep.Sweep), rep.Seed, rep.Margin, rep.Alpha, rep.Seconds)
	if rep.Aborted != "" {
		fmt.Fprintf(w, "ABORTED: %s\n\n", rep.Aborted)
	}
	if rep.Interrupted {
		fmt.Fprintf(w, "INTERRUPTED: the figures cover the deal sequences finished\n\n")
	}
	d := rep.Paired
	fmt.Fprintf(w, "Played       %d deal sequences, %d matches (at most %d sequences)\n", d.Pairs, rep.Matches, rep.MaxPairs)
	cl, ch := stats.Wilson(rep.CandidateWins, rep.CandidateOf)
	bl, bh := stats.Wilson(rep.BaselineWins, rep.BaselineOf)
	fmt.Fprintf(w, "Win rate     candidate %d/%d = %.1f%% [%.1f%% – %.1f%%], baseline %d/%d = %.1f%% [%.1f%% – %.1f%%] (Wilson 95%%)\n",
		rep.CandidateWins, rep.CandidateOf, pct(rep.CandidateWins, rep.CandidateOf), 100*cl, 100*ch,
		rep.BaselineWins, rep.BaselineOf, pct(rep.BaselineWins, rep.BaselineOf), 100*bl, 100*bh)
	fmt.Fprintf(w, "Difference   win rate %+.3f [%+.3f, %+.3f], margin per deal (match points scored − conceded) %+.2f [%+.2f, %+.2f] (paired by deal sequence, 95%%)\n",
		d.WinDiff.Mean, d.WinDiff.Lo, d.WinDiff.Hi, d.PointsDiff.Mean, d.PointsDiff.Lo, d.PointsDiff.Hi)
	fmt.Fprintf(w, "Sequential   log LR better (0 vs +%.3g) %+.2f, worse (0 vs −%.3g) %+.2f; bounds ±%.2f\n\n",
		rep.Margin, rep.LLRBetter, rep.Margin, rep.LLRWorse, rep.Bound)
	switch rep.Verdict {
	case referee.VerdictBetter:
		fmt.Fprintf(w, "BETTER: the candidate's win rate is higher than the baseline's (by %.3g or more)\n", rep.Margin)
	case referee.VerdictWorse:
		fmt.Fprintf(w, "WORSE: the candidate's win rate is lower than the baseline's\n")
	case referee.VerdictSame:
		fmt.Fprintf(w, "SAME: no difference of %.3g or more either way\n", rep.Margin)
	default:
		fmt.Fprintf(w, "INCONCLUSIVE: no verdict within %d deal sequences (raise -n, or -margin)\n", rep.MaxPairs)
	}
}

func pct(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(k) / float64(n)
}

// LossesText writes the losses as a table, then the bid class's
// costliest pairs of bids and of contracts (top of each).
func LossesText(w io.Writer, r *referee.LossReport, top int) {
	fmt.Fprintf(w, "%d matches, %d deals dealt the same (%d played identically; %d paired deals dealt differently, left out)\n", r.Matches, r.Deals, r.Same, r.Different)
	if r.Wins.N > 0 {
		fmt.Fprintf(w, "paired subject − reference over %d units (duplicate pairs, or matches): match wins %+.1f%% [%+.1f, %+.1f], margin per deal %+.2f [%+.2f, %+.2f] match points (95%%)\n",
			r.Wins.N, 100*r.Wins.Mean, 100*r.Wins.Lo, 100*r.Wins.Hi, r.Margin.Mean, r.Margin.Lo, r.Margin.Hi)
	}
	fmt.Fprintf(w, "%-9s %7s %7s %8s %9s %8s %8s\n", "class", "worse", "flips", "lost", "better", "gained", "net")
	var tot referee.LossTally
	for _, c := range referee.LossClasses() {
		t := r.Classes[c]
		fmt.Fprintf(w, "%-9s %7d %7d %8d %9d %8d %+8d\n", c, t.Deals, t.Flips, t.Points, t.GainedDeals, t.Gained, t.Gained-t.Points)
		tot.Deals += t.Deals
		tot.Flips += t.Flips
		tot.Points += t.Points
		tot.GainedDeals += t.GainedDeals
		tot.Gained += t.Gained
	}
	fmt.Fprintf(w, "%-9s %7d %7d %8d %9d %8d %+8d\n", "all", tot.Deals, tot.Flips, tot.Points, tot.GainedDeals, tot.Gained, tot.Gained-tot.Points)
	for _, c := range referee.LossClasses() {
		bt := r.ByTrick[c]
		if bt == nil {
			continue
		}
		fmt.Fprintf(w, "%s by trick (deals, match points lost):", c)
		for i, x := range bt {
			if x[0] > 0 {
				fmt.Fprintf(w, "  %d: %d %d", i+1, x[0], x[1])
			}
		}
		fmt.Fprintln(w)
	}
	printPairs(w, "the bid class by the first differing bids, the subject's → the reference's", r.Actions, top)
	printPairs(w, "the bid class by contract, the subject's → the reference's", r.Contracts, top)
}

// printPairs lists a tally's top entries by points lost.
func printPairs(w io.Writer, title string, m map[string]*[2]int, top int) {
	if len(m) == 0 || top <= 0 {
		return
	}
	fmt.Fprintf(w, "%s (deals, match points lost):\n", title)
	keys := slices.SortedFunc(maps.Keys(m), func(a, b string) int {
		if m[a][1] != m[b][1] {
			return m[b][1] - m[a][1]
		}
		return strings.Compare(a, b)
	})
	for _, k := range keys[:min(top, len(keys))] {
		fmt.Fprintf(w, "  %5d %7d  %s\n", m[k][0], m[k][1], k)
	}
}
