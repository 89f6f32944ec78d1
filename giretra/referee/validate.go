package referee

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/internal/jsonl"
	"github.com/botarena/gamebot/internal/stats"
)

// TimingStats is the engine's DecisionTimingStats, in milliseconds.
type TimingStats struct {
	Kind  string  `json:"kind"`
	Count int     `json:"count"`
	Min   float64 `json:"minMs"`
	Avg   float64 `json:"avgMs"`
	P50   float64 `json:"p50Ms"`
	P95   float64 `json:"p95Ms"`
	P99   float64 `json:"p99Ms"`
	Max   float64 `json:"maxMs"`
}

func computeStats(kind string, ds []time.Duration) TimingStats {
	st := TimingStats{Kind: kind, Count: len(ds)}
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

// TrendEntry compares the median time of the first and second halves of
// the run; a second half over twice the first is "DEGRADATION".
type TrendEntry struct {
	Kind        string  `json:"kind"`
	FirstHalf   float64 `json:"firstHalfMedianMs"`
	SecondHalf  float64 `json:"secondHalfMedianMs"`
	Degradation bool    `json:"degradation"`
}

func computeTrend(recs []*matchRecord, matches, sideIdx int) []TrendEntry {
	var out []TrendEntry
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
		out = append(out, TrendEntry{Kind: kindNames[k], FirstHalf: jsonl.Millis(f), SecondHalf: jsonl.Millis(s), Degradation: f > 0 && s > 2*f})
	}
	return out
}

// ValidateReport is validate's result.
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
	Violations           []Violation   `json:"violations"`
	Crashes              []string      `json:"crashes"`
	Timing               []TimingStats `json:"timing"`
	ModesCovered         []string      `json:"gameModesCovered"`
	ModesMissing         []string      `json:"gameModesMissing"`
	NotificationWarnings []string      `json:"notificationWarnings"`
	Trend                []TrendEntry  `json:"performanceTrend"`
	DeterminismChecked   bool          `json:"determinismChecked"`
	DeterminismMismatch  []string      `json:"determinismMismatches"`
	DurationSeconds      float64       `json:"durationSeconds"`
	// Interrupted is a run stopped by a signal: the report covers the
	// matches played so far; it cannot PASS, but what failed so far FAILs.
	Interrupted bool `json:"interrupted,omitempty"`
	Pass        bool `json:"pass"`
}

func buildValidateReport(p *plan, a, b *side, recs []*matchRecord, dialect string, took time.Duration) *ValidateReport {
	rep := &ValidateReport{Bot: a.name, Opponent: b.name, Matches: p.matches, Target: p.target, Seed: p.seed,
		Seats: p.seats, Dialect: dialect, Violations: []Violation{}, Crashes: []string{}, NotificationWarnings: []string{},
		DeterminismMismatch: []string{},
		DurationSeconds:     roundSeconds(took)}
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
	rep.Pass = !rep.Failed()
	return rep
}

// determinism is validate -d: the run is replayed twice against a fresh
// random opponent (seeded seed+99999, the same in both replays) on the same
// decks, and the bot's decisions are compared. As in the engine the bot's
// session seeds keep counting (S+2N…, then S+4N…), so a bot whose choices
// depend on the seed value fails, one that is a function of the game passes.
func determinism(ctx context.Context, p *plan, a, partner *side) []string {
	opp := &side{entry: players.Entry{Name: "random", Agent: "random"}, name: "random"}
	var runs [2][]string
	for k := range runs {
		q := *p
		q.keep, q.maxTime, q.abortOnErr, q.recordDir = true, 0, false, ""
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

// Failed reports whether anything the bot did fails the validation.
func (rep *ValidateReport) Failed() bool {
	return len(rep.Violations) > 0 || rep.Crashed > 0 || len(rep.DeterminismMismatch) > 0
}

// ValidateConfig is a validation: the bot against Opponent, as the
// engine's validate command plays it.
type ValidateConfig struct {
	Setup
	Bot, Opponent string
	Matches       int
	// MaxDecisionTime, when positive, makes a decision of the bot slower
	// than this a violation.
	MaxDecisionTime time.Duration
	// Determinism replays the run twice against a fresh seeded random
	// opponent and compares the bot's decisions.
	Determinism bool
}

// Validate plays the validation and returns its report. Interrupted (ctx
// done), it reports the matches played so far, marked Interrupted. A
// failure to write a record comes back with the report, as an
// *InfraError.
func Validate(ctx context.Context, c ValidateConfig) (*ValidateReport, error) {
	if err := prepareRecordDir(c.RecordDir); err != nil {
		return nil, err
	}
	a, b, partner, err := c.openSides(ctx, c.Bot, c.Opponent)
	if err != nil {
		return nil, err
	}
	defer a.close()
	defer b.close()
	defer partner.close()
	p := c.plan("validate", c.Matches)
	p.maxTime = c.MaxDecisionTime
	start := time.Now()
	recs := playAll(ctx, p, p.layoutAll(a, b, partner), newTracker(c.Progress, p.matches).done)
	rep := buildValidateReport(p, a, b, recs, DialectName(c.Dialect), time.Since(start))
	if partner != nil {
		rep.Partner = partner.name
	}
	if c.Determinism && ctx.Err() == nil {
		if m := determinism(ctx, p, a, partner); ctx.Err() == nil {
			// An interrupted replay would compare runs of unequal length.
			rep.DeterminismChecked, rep.DeterminismMismatch = true, m
		}
		rep.DurationSeconds = roundSeconds(time.Since(start))
	}
	rep.Interrupted = ctx.Err() != nil
	rep.Pass = !rep.Failed() && !rep.Interrupted
	return rep, recordError(recs)
}
