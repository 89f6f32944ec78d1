// Command giretra-strength measures the bot's playing strength in-process
// (giretra/referee's Campaign): it plays matches of the bot (one team)
// against an agent from giretra/agents or another bot configuration (the
// other team), seats alternating, and reports the win rate with a Wilson
// 95% interval, the Elo difference it implies, and the bot's decision
// latency. Interrupted
// (SIGINT, SIGTERM), it reports the matches finished so far.
//
//	giretra-strength -opp eva -n 400 -target 151 -sweep 25 -concurrency 2
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/giretra/referee"
	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/stats"
)

func main() { cli.Main("giretra-strength", run) }

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("giretra-strength", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c referee.Campaign
	baseline, outcomes, cpuprofile := campaignFlags(fs, &c)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkCampaign(fs, &c, *baseline, stderr); err != nil {
		return err
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		// Stopped before the file is closed (defers run last first).
		defer pprof.StopCPUProfile()
	}
	t, err := play(ctx, &c, stdout, stderr)
	if err != nil {
		return err
	}
	report(stdout, &c, t)
	if *outcomes != "" {
		if err := writeOutcomes(*outcomes, t.Results, args); err != nil {
			return err
		}
	}
	if *baseline != "" && ctx.Err() == nil {
		b := c
		b.Me = *baseline
		if c.Partner == c.Me {
			b.Partner = *baseline
		}
		bt, err := play(ctx, &b, stdout, stderr)
		if err != nil {
			return err
		}
		report(stdout, &b, bt)
		reportPaired(stdout, &c, b.Me, t.Results, bt.Results)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted: %w", err)
	}
	return nil
}

// campaignFlags defines the flags of the campaign c, and returns those of
// the run: -baseline, -outcomes and -cpuprofile.
func campaignFlags(fs *flag.FlagSet, c *referee.Campaign) (baseline, outcomes, cpuprofile *string) {
	fs.StringVar(&c.Me, "me", "bot", "player under test: our bot as bot[:OPTIONS] (OPTIONS separated by commas: "+players.BotOptions+"; oracle: told those hands, in the bids and the card play or only one of them), Eva sharing the decisions with it as evabid, evaplay, evalead or evafollow[:OPTIONS], or an agent name")
	fs.StringVar(&c.Partner, "partner", "", "the player in the partner seat (default: -me): an agent name or bot[:OPTIONS]")
	fs.StringVar(&c.Opp, "opp", "eva", "opponents: an agent name ("+strings.Join(agents.Names(), ", ")+", or the engine's names) or bot[:OPTIONS]")
	baseline = fs.String("baseline", "", "also play this player in -me's place on the same deals and seats, and report the paired difference")
	fs.IntVar(&c.N, "n", 400, "matches (with -duplicate: played in pairs on the same deals)")
	fs.IntVar(&c.Target, "target", 151, "target score")
	fs.IntVar(&c.Sweep, "sweep", 25, "Colour sweep points (0: instant win)")
	fs.BoolVar(&c.Duplicate, "duplicate", false, "play each deal sequence twice, seats swapped, and report the pairs")
	outcomes = fs.String("outcomes", "", "write the deals' results to this file as a histogram of (match points of one team, of the other), both teams' views: the input of giretra/search's win-probability tables")
	fs.IntVar(&c.Concurrency, "concurrency", 2, "matches played at once")
	fs.StringVar(&c.RecordDir, "record", "", "write every match's record to this folder (giretra-ref show, report and losses read them)")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the decks and the agents (0: a random seed, printed)")
	cpuprofile = fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof), to see where the bot's decisions spend their time")
	return baseline, outcomes, cpuprofile
}

// checkCampaign completes the parsed campaign (pairs, the partner, a
// drawn seed, the record folder) and refuses what cannot run: every spec
// is checked before any match.
func checkCampaign(fs *flag.FlagSet, c *referee.Campaign, baseline string, stderr io.Writer) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if c.N < 1 || c.Concurrency < 1 {
		return errors.New("-n and -concurrency must be at least 1")
	}
	if c.Duplicate && c.N%2 == 1 {
		c.N++ // pairs
	}
	if c.Partner == "" {
		c.Partner = c.Me
	}
	if c.Seed == 0 {
		c.Seed = rand.Uint64N(1_000_000_000) + 1
		fmt.Fprintf(stderr, "giretra-strength: seed %d\n", c.Seed)
	}
	for _, spec := range []string{c.Me, c.Partner, c.Opp, baseline} {
		if spec == "" {
			continue
		}
		if _, err := players.InProcess(spec); err != nil {
			return err
		}
	}
	if c.RecordDir != "" {
		if err := os.MkdirAll(c.RecordDir, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// play plays the campaign, printing each match that fails and a progress
// line every 50 matches.
func play(ctx context.Context, c *referee.Campaign, stdout, stderr io.Writer) (*referee.CampaignResult, error) {
	due := 50
	t, err := c.Play(ctx, func(p referee.CampaignProgress) {
		if p.Done >= due {
			due += 50
			lo, hi := stats.Wilson(p.Wins, p.Played)
			fmt.Fprintf(stderr, "%s: %d/%d: %.1f%% [%.1f-%.1f] %s\n", c.Me, p.Done, c.N, 100*float64(p.Wins)/float64(max(p.Played, 1)), 100*lo, 100*hi, p.Elapsed.Round(time.Second))
		}
	})
	if err != nil {
		return nil, err
	}
	for _, f := range t.Failed {
		fmt.Fprintf(stdout, "match %d: %v\n", f.Match, f.Err)
	}
	return t, nil
}

// report prints a campaign's results.
func report(stdout io.Writer, c *referee.Campaign, t *referee.CampaignResult) {
	if t.Played+t.Errs < c.N {
		fmt.Fprintf(stdout, "interrupted: %d of %d matches finished\n", t.Played+t.Errs, c.N)
	}
	who := c.Me
	if c.Partner != c.Me {
		who += " with " + c.Partner
	}
	lo, hi := stats.Wilson(t.Wins, t.Played)
	elo, eloLo, eloHi := stats.EloInterval(t.Wins, t.Played)
	fmt.Fprintf(stdout, "%s vs %s, target %d, sweep %d, seed %d, %d matches (%d errors): %d wins = %.1f%% [%.1f-%.1f] Wilson 95%%, Elo %+.0f [%+.0f, %+.0f]\n",
		who, c.Opp, c.Target, c.Sweep, c.Seed, t.Played+t.Errs, t.Errs, t.Wins, 100*float64(t.Wins)/float64(max(t.Played, 1)), 100*lo, 100*hi, elo, eloLo, eloHi)
	fmt.Fprintf(stdout, "match points per deal: %.2f for, %.2f against (%d deals); %s\n",
		float64(t.Points[0])/float64(max(t.Deals, 1)), float64(t.Points[1])/float64(max(t.Deals, 1)), t.Deals, t.Elapsed.Round(time.Second))
	if c.Duplicate {
		p := referee.DuplicatePairs(t.Results)
		fmt.Fprintf(stdout, "duplicate: %d pairs: %d won, %d split, %d lost; %.1f%% of matches [%.1f-%.1f]; margin per deal %+.2f [%+.2f, %+.2f] match points (95%%, over pairs)\n",
			p.Won+p.Split+p.Lost, p.Won, p.Split, p.Lost, 100*p.Score.Mean, 100*p.Score.Lo, 100*p.Score.Hi, p.Margin.Mean, p.Margin.Lo, p.Margin.Hi)
	}
	for _, k := range slices.Sorted(maps.Keys(t.Contracts)) {
		st := t.Contracts[k]
		fmt.Fprintf(stdout, "contracts %-22s n=%5d made=%5.1f%% announcer avg %+6.2f\n", k, st[0], 100*float64(st[1])/float64(st[0]), float64(st[2]-st[3])/float64(st[0]))
	}
	for _, k := range []string{"cut", "bid", "card"} {
		d := t.Latency[k]
		if len(d) == 0 {
			continue
		}
		slices.Sort(d)
		fmt.Fprintf(stdout, "latency %-8s n=%d p50=%v p90=%v p99=%v max=%v\n", k, len(d), stats.Quantile(d, 0.5), stats.Quantile(d, 0.9), stats.Quantile(d, 0.99), d[len(d)-1])
	}
}

// reportPaired prints the paired difference between the campaign's
// player and b in its place on the same matches, with its 95% interval.
func reportPaired(w io.Writer, c *referee.Campaign, b string, ra, rb []*giretra.MatchResult) {
	p := c.PairedWith(ra, rb)
	unit := "matches"
	if c.Duplicate {
		unit = "pairs"
	}
	fmt.Fprintf(w, "paired %s − %s over %d %s on the same deals: wins %+.1f%% [%+.1f, %+.1f], margin per deal %+.2f [%+.2f, %+.2f] match points (95%%)\n",
		c.Me, b, p.Pairs, unit, 100*p.WinDiff.Mean, 100*p.WinDiff.Lo, 100*p.WinDiff.Hi, p.PointsDiff.Mean, p.PointsDiff.Lo, p.PointsDiff.Hi)
}

// writeOutcomes writes the histogram of deal results, "ours theirs count"
// per line, each deal counted from both teams' side (a Colour sweep's
// bonus counts as points).
func writeOutcomes(name string, results []*giretra.MatchResult, args []string) error {
	hist := map[[2]int]int{}
	for _, r := range results {
		if r == nil {
			continue
		}
		for _, d := range r.Final.Deals {
			pts := d.MatchPoints
			if d.SweepBonus > 0 {
				pts[d.SweepingTeam] += d.SweepBonus
			}
			hist[[2]int{pts[0], pts[1]}]++
			hist[[2]int{pts[1], pts[0]}]++
		}
	}
	keys := make([][2]int, 0, len(hist))
	for k := range hist {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	var b strings.Builder
	b.WriteString("# ours theirs count: match points of a deal, from giretra-strength -outcomes\n")
	fmt.Fprintf(&b, "# giretra-strength %s\n", strings.Join(args, " "))
	for _, k := range keys {
		fmt.Fprintf(&b, "%d %d %d\n", k[0], k[1], hist[k])
	}
	return os.WriteFile(name, []byte(b.String()), 0o644)
}
