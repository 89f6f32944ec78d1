package referee

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/bot"
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
	Elapsed            time.Duration
}

// MyTeam is the team of the player under test in match i.
func MyTeam(i int) giretra.Team { return giretra.Team(i % 2) }

// Play runs the campaign's matches, Concurrency at a time, printing the
// matches that fail to stdout and a progress line every 50 matches to
// stderr. Interrupted, it returns what finished.
func (c *Campaign) Play(ctx context.Context, stdout, stderr io.Writer) *CampaignResult {
	t := &CampaignResult{Results: make([]*giretra.MatchResult, c.N), Latency: map[string][]time.Duration{}, Contracts: map[string]*[4]int{}}
	in := func(spec string) *side {
		return &side{spec: spec, name: spec, make: func(seat giretra.Position, match int, deal func() ([4]giretra.Set, bool)) giretra.Player {
			p, _ := NewPlayer(spec, rand.New(rand.NewPCG(c.Seed+uint64(match), uint64(seat)+17)), deal) // specs checked before
			return p
		}}
	}
	pspec := c.Partner
	if pspec == "" {
		pspec = c.Me
	}
	a, b, partner := in(c.Me), in(c.Opp), in(pspec)
	p := &plan{command: "strength", matches: c.N, target: c.Target, sweep: c.Sweep, concurrency: c.Concurrency,
		seed: int64(c.Seed), recordDir: c.RecordDir, recordPrefix: "strength"}
	if err := prepareRecordDir(c.RecordDir); err != nil {
		fmt.Fprintf(stdout, "record: %v\n", err)
		p.recordDir = ""
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
	start, progressDue := time.Now(), 50
	playAll(ctx, p, games, func(r *matchRecord) bool {
		for k, name := range map[int]string{kindCut: "cut", kindNegotiation: "bid", kindCardPlay: "card"} {
			t.Latency[name] = append(t.Latency[name], r.Timings[sideA][k]...)
		}
		team := r.ATeam
		switch {
		case r.Err != nil && ctx.Err() != nil:
			// Cut short by the interrupt: not a result.
		case r.Err != nil:
			t.Errs++
			fmt.Fprintf(stdout, "match %d: %v\n", r.Index, r.Err)
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
		if t.Played+t.Errs >= progressDue {
			progressDue += 50
			lo, hi := stats.Wilson(t.Wins, t.Played)
			fmt.Fprintf(stderr, "%s: %d/%d: %.1f%% [%.1f-%.1f] %s\n", c.Me, t.Played+t.Errs, c.N, 100*float64(t.Wins)/float64(max(t.Played, 1)), 100*lo, 100*hi, time.Since(start).Round(time.Second))
		}
		return true
	})
	t.Elapsed = time.Since(start)
	return t
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

// NewPlayer makes the in-process player a spec names: an agent of
// giretra/agents, or our bot as bot[:fast][:noinf][:dd][:models][:linear]
// [:effort=X][:budget=D][:oracle=full|partner|opponents[@bid|@play]], or one of the
// composites evabid+bot…, evaplay+bot…, evalead+bot…, evafollow+bot…
// (Eva's bidding, Eva's card play, Eva's leads or follows with the bot's
// other decisions). deal gives oracle players the hands in play.
func NewPlayer(spec string, rng *rand.Rand, deal func() ([4]giretra.Set, bool)) (giretra.Player, error) {
	if rest, ok := strings.CutPrefix(spec, "evabid+"); ok {
		cfg, _ := parseBot(rest)
		e, _ := agents.New("eva", rng)
		return agents.Hybrid{Bidder: e, Player: bot.New(cfg)}, nil
	}
	if rest, ok := strings.CutPrefix(spec, "evaplay+"); ok {
		cfg, _ := parseBot(rest)
		e, _ := agents.New("eva", rng)
		return agents.Hybrid{Bidder: bot.New(cfg), Player: e}, nil
	}
	for _, pre := range []string{"evalead+", "evafollow+"} {
		if rest, ok := strings.CutPrefix(spec, pre); ok {
			cfg, _ := parseBot(rest)
			e, _ := agents.New("eva", rng)
			return agents.Mixed{Eva: e, Other: bot.New(cfg), EvaLeads: pre == "evalead+"}, nil
		}
	}
	if cfg, ok := parseBot(spec); ok {
		if cfg.Oracle != nil {
			o := *cfg.Oracle
			o.Deal = deal
			cfg.Oracle = &o
		}
		return bot.New(cfg), nil
	}
	return agents.New(spec, rng)
}

// parseBot reads a bot[:option…] spec.
func parseBot(spec string) (bot.Config, bool) {
	if !strings.HasPrefix(spec, "bot") {
		return bot.Config{}, false
	}
	var cfg bot.Config
	for _, f := range strings.Split(spec, ":")[1:] {
		switch {
		case f == "fast":
			cfg.Fast = true
		case f == "noinf":
			cfg.NoInference = true
		case f == "dd":
			cfg.DoubleDummy = true
		case f == "models":
			cfg.PlayoutModels = true
		case f == "linear":
			cfg.LinearScore = true
		case strings.HasPrefix(f, "oracle="):
			w, phase, _ := strings.Cut(strings.TrimPrefix(f, "oracle="), "@")
			cfg.Oracle = &bot.Oracle{Partner: w == "full" || w == "partner", Opponents: w == "full" || w == "opponents",
				BidOnly: phase == "bid", PlayOnly: phase == "play"}
		case strings.HasPrefix(f, "effort="):
			fmt.Sscan(strings.TrimPrefix(f, "effort="), &cfg.Effort)
		case strings.HasPrefix(f, "budget="):
			cfg.Budget, _ = time.ParseDuration(strings.TrimPrefix(f, "budget="))
		}
	}
	return cfg, true
}
