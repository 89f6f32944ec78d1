package referee

import (
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

	"github.com/botarena/gamebot/internal/jsonl"
	"github.com/botarena/gamebot/internal/stats"
)

// timingStats is the engine's DecisionTimingStats, in milliseconds.
type timingStats struct {
	Kind  string  `json:"kind"`
	Count int     `json:"count"`
	Min   float64 `json:"minMs"`
	Avg   float64 `json:"avgMs"`
	P50   float64 `json:"p50Ms"`
	P95   float64 `json:"p95Ms"`
	P99   float64 `json:"p99Ms"`
	Max   float64 `json:"maxMs"`
}

func computeStats(kind string, ds []time.Duration) timingStats {
	st := timingStats{Kind: kind, Count: len(ds)}
	if len(ds) == 0 {
		return st
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	st.Min, st.Max, st.Avg = jsonl.Millis(s[0]), jsonl.Millis(s[len(s)-1]), jsonl.Millis(sum/time.Duration(len(s)))
	st.P50, st.P95, st.P99 = jsonl.Millis(stats.Quantile(s, 0.5)), jsonl.Millis(stats.Quantile(s, 0.95)), jsonl.Millis(stats.Quantile(s, 0.99))
	return st
}

// trendEntry compares the median time of the first and second halves of
// the run; a second half over twice the first is "DEGRADATION".
type trendEntry struct {
	Kind        string  `json:"kind"`
	FirstHalf   float64 `json:"firstHalfMedianMs"`
	SecondHalf  float64 `json:"secondHalfMedianMs"`
	Degradation bool    `json:"degradation"`
}

func computeTrend(recs []*matchRecord, matches, sideIdx int) []trendEntry {
	var out []trendEntry
	if matches < 2 {
		return out
	}
	half := matches / 2
	for k := range nKinds {
		var first, second []time.Duration
		for _, r := range recs {
			if r == nil {
				continue
			}
			if r.Index+1 <= half {
				first = append(first, r.Timings[sideIdx][k]...)
			} else {
				second = append(second, r.Timings[sideIdx][k]...)
			}
		}
		if len(first) == 0 || len(second) == 0 {
			continue
		}
		slices.Sort(first)
		slices.Sort(second)
		f, s := stats.Quantile(first, 0.5), stats.Quantile(second, 0.5)
		out = append(out, trendEntry{Kind: kindNames[k], FirstHalf: jsonl.Millis(f), SecondHalf: jsonl.Millis(s), Degradation: f > 0 && s > 2*f})
	}
	return out
}

// ValidateReport is validate's result; -json prints it as is.
type ValidateReport struct {
	Bot                  string        `json:"bot"`
	Opponent             string        `json:"opponent"`
	Partner              string        `json:"partner,omitempty"`
	Matches              int           `json:"matches"`
	Target               int           `json:"targetScore"`
	Seed                 int64         `json:"seed"`
	Seats                string        `json:"seats"`
	Dialect              string        `json:"dialect"`
	Completed            int           `json:"matchesCompleted"`
	Crashed              int           `json:"matchesCrashed"`
	Deals                int           `json:"totalDeals"`
	BotWins              int           `json:"botWins"`
	OpponentWins         int           `json:"opponentWins"`
	Violations           []violation   `json:"violations"`
	Crashes              []string      `json:"crashes"`
	Timing               []timingStats `json:"timing"`
	ModesCovered         []string      `json:"gameModesCovered"`
	ModesMissing         []string      `json:"gameModesMissing"`
	NotificationWarnings []string      `json:"notificationWarnings"`
	Trend                []trendEntry  `json:"performanceTrend"`
	DeterminismChecked   bool          `json:"determinismChecked"`
	DeterminismMismatch  []string      `json:"determinismMismatches"`
	DurationSeconds      float64       `json:"durationSeconds"`
	// Interrupted is a run stopped by a signal: the report covers the
	// matches played so far; it cannot PASS, but what failed so far FAILs.
	Interrupted bool `json:"interrupted,omitempty"`
	Pass        bool `json:"pass"`
}

// ErrFailed makes the command exit with status 1 (validation FAIL).
var ErrFailed = errors.New("FAIL")

func buildValidateReport(p *plan, a, b *side, recs []*matchRecord, dialect string, took time.Duration) *ValidateReport {
	rep := &ValidateReport{Bot: a.name, Opponent: b.name, Matches: p.matches, Target: p.target, Seed: p.seed,
		Seats: p.seats, Dialect: dialect, Violations: []violation{}, Crashes: []string{}, NotificationWarnings: []string{},
		DeterminismMismatch: []string{},
		DurationSeconds:     math.Round(took.Seconds()*100) / 100}
	var covered [6]bool
	var all [nKinds][]time.Duration
	for _, r := range recs {
		if r == nil {
			continue
		}
		rep.Violations = append(rep.Violations, r.Violations...)
		rep.NotificationWarnings = append(rep.NotificationWarnings, r.Warnings[0]...)
		for k := range nKinds {
			all[k] = append(all[k], r.Timings[0][k]...)
		}
		if errors.Is(r.Err, context.Canceled) {
			continue // interrupted: neither completed nor crashed
		}
		if r.Err != nil {
			rep.Crashed++
			rep.Crashes = append(rep.Crashes, fmt.Sprintf("match %d (deal %d): %v", r.Index+1, dealNo(&r.Result.Final), r.Err))
			continue
		}
		rep.Completed++
		rep.Deals += len(r.Result.Final.Deals)
		if r.Result.Winner == r.ATeam {
			rep.BotWins++
		} else {
			rep.OpponentWins++
		}
		for _, d := range r.Result.Final.Deals {
			covered[d.Mode] = true
		}
	}
	for k := range nKinds {
		rep.Timing = append(rep.Timing, computeStats(kindNames[k], all[k]))
	}
	for m := giretra.ColourClubs; m <= giretra.AllTrumps; m++ {
		if covered[m] {
			rep.ModesCovered = append(rep.ModesCovered, m.String())
		} else {
			rep.ModesMissing = append(rep.ModesMissing, m.String())
		}
	}
	rep.Trend = computeTrend(recs, p.matches, 0)
	rep.Pass = !rep.failed()
	return rep
}

// determinism is validate -d: the run is replayed twice against a fresh
// random opponent (seeded seed+99999, the same in both replays) on the same
// decks, and the bot's decisions are compared. As in the engine the bot's
// session seeds keep counting (S+2N…, then S+4N…), so a bot whose choices
// depend on the seed value fails, one that is a function of the game passes.
func determinism(ctx context.Context, p *plan, a, partner *side) []string {
	opp := &side{agent: "random", name: "random"}
	var runs [2][]string
	for k := range runs {
		q := *p
		q.keep, q.limitMS, q.abortOnErr, q.recordDir = true, 0, false, ""
		q.deckSeed = p.seed + 50000 // seeded even with --shuffle false, as the engine's check
		q.aSeedShift = int64(2 * p.matches * (k + 1))
		bs := p.seed + 99999
		q.bSeed = &bs
		for _, r := range playAll(ctx, &q, q.layoutAll(a, opp, partner), nil) {
			if r != nil {
				runs[k] = append(runs[k], r.Decisions...)
			}
		}
	}
	var out []string
	n := min(len(runs[0]), len(runs[1]))
	for i := range n {
		if runs[0][i] != runs[1][i] {
			out = append(out, fmt.Sprintf("decision %d: run 1 %s, run 2 %s", i, runs[0][i], runs[1][i]))
		}
	}
	if len(runs[0]) != len(runs[1]) {
		out = append(out, fmt.Sprintf("run 1 had %d decisions, run 2 had %d", len(runs[0]), len(runs[1])))
	}
	return out
}

// printTiming prints a response-time table.
func printTiming(w io.Writer, stats []timingStats) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\tcount\tmin\tavg\tp50\tp95\tp99\tmax\t")
	for _, s := range stats {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n", s.Kind, s.Count, s.Min, s.Avg, s.P50, s.P95, s.P99, s.Max)
	}
	tw.Flush()
}

func (rep *ValidateReport) print(w io.Writer, verbose bool) {
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
	case rep.failed():
		fmt.Fprintf(w, "\nFAIL: %d violations, %d crashed matches, %d determinism mismatches\n",
			len(rep.Violations), rep.Crashed, len(rep.DeterminismMismatch))
	default:
		fmt.Fprintf(w, "\nno verdict\n")
	}
}

// failed reports whether anything the bot did fails the validation.
func (rep *ValidateReport) failed() bool {
	return len(rep.Violations) > 0 || rep.Crashed > 0 || len(rep.DeterminismMismatch) > 0
}

func Validate(ctx context.Context, o *Options, env *Env) error {
	if len(o.Args) != 1 {
		return UsageErr("validate needs exactly one bot (URL, folder or agent name)")
	}
	if err := prepareRecordDir(o.RecordDir); err != nil {
		return err
	}
	a, b, partner, err := o.openSides(ctx, o.Args[0], o.Opponent, env.Stderr)
	if err != nil {
		return err
	}
	defer a.close()
	defer b.close()
	defer partner.close()
	p := o.plan("validate")
	start := time.Now()
	bar := newProgress(env, o, p.matches)
	recs := playAll(ctx, p, p.layoutAll(a, b, partner), bar.update)
	bar.finish()
	rep := buildValidateReport(p, a, b, recs, o.DialectName, time.Since(start))
	if partner != nil {
		rep.Partner = partner.name
	}
	if o.Determinism && ctx.Err() == nil {
		if m := determinism(ctx, p, a, partner); ctx.Err() == nil {
			// An interrupted replay would compare runs of unequal length.
			rep.DeterminismChecked, rep.DeterminismMismatch = true, m
		}
		rep.DurationSeconds = math.Round(time.Since(start).Seconds()*100) / 100
	}
	rep.Interrupted = ctx.Err() != nil
	rep.Pass = !rep.failed() && !rep.Interrupted
	if err := emit(o, env, rep, func(w io.Writer) { rep.print(w, o.Verbose) }); err != nil {
		return err
	}
	if err := ending(ctx, rep.failed()); err != nil {
		return err
	}
	return recordError(recs)
}
