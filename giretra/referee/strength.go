package referee

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/internal/stats"
)

// Campaign is giretra-strength's measurement of a player in-process: Me
// (with Partner) against two Opp, seats alternating (Me is Bottom in the
// even matches, Left in the odd ones), on the runner validate and
// benchmark use. With Duplicate, matches 2p and 2p+1 are dealt the same
// cards (deck stream and cuts) with the teams swapped.
type Campaign struct {
	Me, Partner, Opp string
	N, Target, Sweep int
	Duplicate        bool
	Concurrency      int
	Seed             uint64
	// RecordDir, when set, receives a record of every match
	// (strength-0001.jsonl …), as giretra-ref's -record writes them.
	RecordDir string
}

// CampaignResult is what a campaign measured.
type CampaignResult struct {
	Results []*giretra.MatchResult // by match index; nil: not played or failed
	// Latency is the wall-clock time of Me's decisions by kind ("cut",
	// "bid", "card"): what they cost a server with a core per match, when
	// Concurrency is at most the cores and nothing else runs.
	Latency            map[string][]time.Duration
	Wins, Played, Errs int
	Points             [2]int // match points of Me's team, of the other
	Deals              int
	Contracts          map[string]*[4]int // see countContracts
	Failed             []MatchError       // in the order they failed
	Elapsed            time.Duration
}

// MyTeam is the team of the player under test in match i.
func MyTeam(i int) giretra.Team { return giretra.Team(i % 2) }

// CampaignProgress is a campaign's state after a match.
type CampaignProgress struct {
	Done, Wins, Played int
	Elapsed            time.Duration
}

// MatchError is a match stopped by an error.
type MatchError struct {
	Match int // 0-based
	Err   error
}

// Play runs the campaign's matches, Concurrency at a time; progress
// (nil: none) is told after each match finished or failed, one at a time.
// Interrupted, it returns what finished. A spec naming no in-process
// player (players.InProcess) or a record folder it cannot make is an
// error before any match.
func (c *Campaign) Play(ctx context.Context, progress func(CampaignProgress)) (*CampaignResult, error) {
	t := &CampaignResult{Results: make([]*giretra.MatchResult, c.N), Latency: map[string][]time.Duration{}, Contracts: map[string]*[4]int{}}
	in := func(spec string) *side {
		return &side{spec: spec, name: spec, make: func(seat giretra.Position, match int, deal func() ([4]giretra.Set, bool)) giretra.Player {
			p, _ := players.New(spec, rand.New(rand.NewPCG(c.Seed+uint64(match), uint64(seat)+17)), deal) // specs checked below
			return p
		}}
	}
	for _, spec := range []string{c.Me, c.Partner, c.Opp} {
		if spec == "" {
			continue
		}
		if _, err := players.InProcess(spec); err != nil {
			return nil, err
		}
	}
	pspec := c.Partner
	if pspec == "" {
		pspec = c.Me
	}
	a, b, partner := in(c.Me), in(c.Opp), in(pspec)
	p := &plan{command: "strength", matches: c.N, target: c.Target, sweep: c.Sweep, concurrency: c.Concurrency,
		seed: int64(c.Seed), recordDir: c.RecordDir, recordPrefix: "strength"}
	if err := prepareRecordDir(c.RecordDir); err != nil {
		return nil, err
	}
	games := make([]game, c.N)
	for i := range games {
		g := game{index: i, a: a, b: b, partner: partner, aTeam: MyTeam(i), dealer: giretra.Position(i % 4), k: [nSides]int{i, i, i}}
		deck := [2]uint64{c.Seed + uint64(i), 50000}
		if c.Duplicate {
			deck[0], g.dealer = c.Seed+uint64(i/2), giretra.Position(i/2%4)
			g.cut = func(deal int) giretra.Cut { return giretra.Cut{Position: 6 + deal%21, FromTop: true} }
		}
		g.deckPCG = &deck
		games[i] = g
	}
	start := time.Now()
	playAll(ctx, p, games, func(r *matchRecord) bool {
		for k, name := range map[int]string{kindCut: "cut", kindNegotiation: "bid", kindCardPlay: "card"} {
			t.Latency[name] = append(t.Latency[name], r.Timings[sideA][k]...)
		}
		team := r.ATeam
		switch {
		case r.Err != nil && ctx.Err() != nil:
			return true // cut short by the interrupt: not a result
		case r.Err != nil:
			t.Errs++
			t.Failed = append(t.Failed, MatchError{Match: r.Index, Err: r.Err})
		default:
			t.Played++
			t.Results[r.Index] = &r.Result
			if r.Result.Winner == team {
				t.Wins++
			}
			t.Points[0] += r.Result.Final.Points[team]
			t.Points[1] += r.Result.Final.Points[team.Other()]
			t.Deals += len(r.Result.Final.Deals)
			countContracts(t.Contracts, r.Result.Final.Deals, giretra.Position(team), r.Announcers)
		}
		if progress != nil {
			progress(CampaignProgress{Done: t.Played + t.Errs, Wins: t.Wins, Played: t.Played, Elapsed: time.Since(start)})
		}
		return true
	})
	t.Elapsed = time.Since(start)
	return t, nil
}

// PairedWith compares the campaign's results with those of another
// player in Me's place on the same matches (same deals, seats, opponents):
// the paired difference, match by match or, in duplicate, pair by pair.
// A unit with a match missing on either side is left out.
func (c *Campaign) PairedWith(ra, rb []*giretra.MatchResult) *Paired {
	step := 1
	if c.Duplicate {
		step = 2
	}
	var ds []pairDiff
unit:
	for i := 0; i+step <= len(ra) && i+step <= len(rb); i += step {
		var x, y tally
		for j := i; j < i+step; j++ {
			if ra[j] == nil || rb[j] == nil {
				continue unit
			}
			x.addResult(ra[j], MyTeam(j))
			y.addResult(rb[j], MyTeam(j))
		}
		ds = append(ds, diffOf(x, y))
	}
	return pairedOf(ds)
}

// Pairs sums up a duplicate campaign's pairs: matches 2p (Me in Team1)
// and 2p+1 (Me in Team2) were dealt the same cards. A pair is won, split
// or lost; Score is the share of a pair's matches won; Margin Me's margin
// per deal (match points for minus against) over the deals both matches
// played, over both matches, so the cards' luck cancels. The two matches
// of a pair are not independent: the intervals are over pairs.
type Pairs struct {
	Won, Split, Lost int
	Score, Margin    stats.Mean
}

// DuplicatePairs is the Pairs of a duplicate campaign's results.
func DuplicatePairs(results []*giretra.MatchResult) Pairs {
	var ps Pairs
	var scores, margins []float64
	for p := 0; p+1 < len(results); p += 2 {
		a, b := results[p], results[p+1]
		if a == nil || b == nil {
			continue
		}
		n := 0
		if a.Winner == giretra.Team1 {
			n++
		}
		if b.Winner == giretra.Team2 {
			n++
		}
		switch n {
		case 2:
			ps.Won++
		case 1:
			ps.Split++
		default:
			ps.Lost++
		}
		scores = append(scores, float64(n)/2)
		common := min(len(a.Final.Deals), len(b.Final.Deals))
		if common == 0 {
			continue
		}
		sum := 0
		for d := range common {
			sum += DealMargin(a.Final.Deals[d], giretra.Team1) + DealMargin(b.Final.Deals[d], giretra.Team2)
		}
		margins = append(margins, float64(sum)/float64(2*common))
	}
	ps.Score, ps.Margin = stats.MeanCI(scores), stats.MeanCI(margins)
	return ps
}

// DealMargin is team's match points minus the other team's in a deal (a
// Colour sweep's bonus included).
func DealMargin(d giretra.DealResult, team giretra.Team) int {
	ours, theirs := d.MatchPoints[team], d.MatchPoints[team.Other()]
	if d.SweepBonus > 0 {
		if d.SweepingTeam == team {
			ours += d.SweepBonus
		} else {
			theirs += d.SweepBonus
		}
	}
	return ours - theirs
}

// countContracts adds a match's deals to the tally keyed by announcer (me:
// the player under test, seated at me; ptnr: its partner; opp; team when
// announcers, each deal's announcer in order, does not match the deals),
// mode family and multiplier: count, made, announcer's points, defenders'
// points.
func countContracts(tally map[string]*[4]int, deals []giretra.DealResult, me giretra.Position, announcers []giretra.Position) {
	for i, d := range deals {
		who := "opp"
		if d.AnnouncerTeam == me.Team() {
			who = "team"
			if len(announcers) == len(deals) {
				who = "me"
				if announcers[i] != me {
					who = "ptnr"
				}
			}
		}
		cat := "colour"
		switch {
		case d.Mode == giretra.ColourClubs:
			cat = "clubs"
		case d.Mode == giretra.NoTrumps:
			cat = "notrumps"
		case d.Mode == giretra.AllTrumps:
			cat = "alltrumps"
		}
		key := fmt.Sprintf("%-4s %s x%d", who, cat, d.Multiplier.Factor())
		st := tally[key]
		if st == nil {
			st = new([4]int)
			tally[key] = st
		}
		st[0]++
		a, o := d.MatchPoints[d.AnnouncerTeam], d.MatchPoints[d.AnnouncerTeam.Other()]
		if d.SweepBonus > 0 {
			if d.SweepingTeam == d.AnnouncerTeam {
				a += d.SweepBonus
			} else {
				o += d.SweepBonus
			}
		}
		if a > o {
			st[1]++
		}
		st[2] += a
		st[3] += o
	}
}
