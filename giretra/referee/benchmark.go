package referee

import (
	"context"
	"errors"
	"fmt"
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

// AnnouncerRow is the announcer win rate of one side in one mode family
// (a deal is won by the announcer when it scores more match points, or
// wins the match outright: the engine's DealResult.AnnouncerWon).
type AnnouncerRow struct {
	Mode      string  `json:"mode"`
	Side      string  `json:"side"`
	Announced int     `json:"announced"`
	Won       int     `json:"won"`
	Rate      float64 `json:"winRate"`
}

// SideTiming is a bot server's response times in a benchmark.
type SideTiming struct {
	Side  string        `json:"side"`
	Stats []TimingStats `json:"stats"`
}

// BenchReport is benchmark's result: the engine's figures (wins, Elo,
// announcer win rates, response times) and, in the duplicate format, the
// paired comparison.
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
	Announcer       []AnnouncerRow `json:"announcer"`
	NotifyFailures  int            `json:"notificationFailures"`
	Timing          []SideTiming   `json:"timing,omitempty"`
	Aborted         string         `json:"aborted,omitempty"`
	Interrupted     bool           `json:"interrupted,omitempty"` // stopped by a signal: the figures cover the matches played
	DurationSeconds float64        `json:"durationSeconds"`
}

func buildBenchReport(p *plan, a, b *side, recs []*matchRecord, c *BenchmarkConfig, took time.Duration) *BenchReport {
	rep := &BenchReport{A: a.name, B: b.name, Matches: p.matches, Target: p.target, Sweep: p.sweep, Seed: p.seed,
		Seats: p.seats, Dialect: DialectName(c.Dialect), K: c.K, EloAInit: c.EloA, EloBInit: c.EloB, EloA: c.EloA, EloB: c.EloB,
		EloAMin: c.EloA, EloAMax: c.EloA, DurationSeconds: roundSeconds(took)}
	if p.fixCuts {
		rep.Duplicate = pairedOf(pairUnits(recs))
	}
	var ann announcers
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
		rep.EloA, rep.EloB = stats.EloUpdate(rep.EloA, rep.EloB, score, c.K)
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
			ann.add(d, at)
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
	if a.isAgent("random") || b.isAgent("random") {
		off := 1000 - rep.EloA
		if b.isAgent("random") {
			off = 1000 - rep.EloB
		}
		ea, eb := rep.EloA+off, rep.EloB+off
		rep.AdjustedEloA, rep.AdjustedEloB = &ea, &eb
	}
	rep.Timing = sideTimings(recs, a, b)
	rep.Announcer = ann.rows(a.name, b.name)
	return rep
}

// sideTimings is the response times of the bot servers among the sides.
func sideTimings(recs []*matchRecord, sides ...*side) []SideTiming {
	var out []SideTiming
	for si, sd := range sides {
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
		st := SideTiming{Side: sd.name}
		for k := range nKinds {
			st.Stats = append(st.Stats, computeStats(kindNames[k], all[k]))
		}
		out = append(out, st)
	}
	return out
}

// announcers counts the contracts announced and won, by mode family
// (Colour, NoTrumps, AllTrumps) and side (a, b).
type announcers struct{ announced, won [3][2]int }

// add counts deal d, side a being team aTeam.
func (an *announcers) add(d giretra.DealResult, aTeam giretra.Team) {
	s := 0
	if d.AnnouncerTeam != aTeam {
		s = 1
	}
	f := d.Mode.Family()
	an.announced[f][s]++
	if d.MatchPoints[d.AnnouncerTeam] > d.MatchPoints[d.AnnouncerTeam.Other()] || d.IsInstantWin {
		an.won[f][s]++
	}
}

// rows are the report's rows: each family for each side, then the
// totals.
func (an *announcers) rows(a, b string) []AnnouncerRow {
	var out []AnnouncerRow
	names := [3]string{"Colour", "NoTrumps", "AllTrumps"}
	var tot, totWon [2]int
	for f := range 3 {
		for s := range 2 {
			row := AnnouncerRow{Mode: names[f], Side: [2]string{a, b}[s], Announced: an.announced[f][s], Won: an.won[f][s]}
			if row.Announced > 0 {
				row.Rate = float64(row.Won) / float64(row.Announced)
			}
			tot[s] += an.announced[f][s]
			totWon[s] += an.won[f][s]
			out = append(out, row)
		}
	}
	for s := range 2 {
		row := AnnouncerRow{Mode: "Total", Side: [2]string{a, b}[s], Announced: tot[s], Won: totWon[s]}
		if row.Announced > 0 {
			row.Rate = float64(row.Won) / float64(row.Announced)
		}
		out = append(out, row)
	}
	return out
}

// BenchmarkConfig is a benchmark of A against B, as the engine's
// benchmark command plays it.
type BenchmarkConfig struct {
	Setup
	A, B    string // "": the engine's defaults, DeterministicPlayer and CalculatingPlayer
	Matches int
	// K is the Elo factor, EloA and EloB the initial ratings.
	K, EloA, EloB float64
	// Duplicate plays each deal sequence twice, seats swapped, with the
	// same decks and cuts: the seats alternate and the matches come in
	// whole pairs.
	Duplicate bool
}

// Benchmark plays the benchmark and returns its report. As the engine,
// it stops at the first match that fails (Aborted). Interrupted (ctx
// done), it reports the matches played so far, marked Interrupted. A
// failure to write a record comes back with the report, as an
// *InfraError.
func Benchmark(ctx context.Context, c BenchmarkConfig) (*BenchReport, error) {
	if c.A == "" {
		c.A = "DeterministicPlayer"
	}
	if c.B == "" {
		c.B = "CalculatingPlayer"
	}
	if c.Duplicate {
		c.Seats = "alternate"
		c.Matches += c.Matches % 2
	}
	if err := prepareRecordDir(c.RecordDir); err != nil {
		return nil, err
	}
	a, b, partner, err := c.openSides(ctx, c.A, c.B)
	if err != nil {
		return nil, err
	}
	defer a.close()
	defer b.close()
	defer partner.close()
	p := c.plan("benchmark", c.Matches)
	p.abortOnErr = true
	p.fixCuts = c.Duplicate
	start := time.Now()
	recs := playAll(ctx, p, p.layoutAll(a, b, partner), newTracker(c.Progress, p.matches).done)
	rep := buildBenchReport(p, a, b, recs, &c, time.Since(start))
	if partner != nil {
		rep.Partner = partner.name
	}
	rep.Interrupted = ctx.Err() != nil
	return rep, recordError(recs)
}
