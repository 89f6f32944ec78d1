// Command giretra-strength measures the bot's playing strength in-process:
// it plays matches of the bot (one team) against an agent from
// giretra/agents or another bot configuration (the other team), seats
// alternating, and reports the win rate with a Wilson 95% interval, the
// Elo difference it implies, and the bot's decision latency. Interrupted
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
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/stats"
)

func main() { cli.Main("giretra-strength", run) }

// timed records the wall-clock time of each decision: what it costs a
// server with a core per match, when -concurrency is at most the cores
// and nothing else runs. (It also read each decision's thread CPU time,
// with every match locked to a thread; the bot's searches then yielded
// every ~100 µs, and a locked goroutine's yield hands its thread over
// through the kernel: that doubled the run time and inflated the figure.)
type timed struct {
	giretra.Player
	mu  *sync.Mutex
	lat map[string][]time.Duration
	// announcers gets each deal's announcer, in deal order, so that the
	// contract statistics can tell the player under test from its partner.
	announcers *[]giretra.Position
}

func (t timed) Notify(ctx context.Context, s giretra.Position, e *giretra.Event) error {
	if e.Kind == giretra.NegotiationCompleted && e.Negotiation != nil {
		// A deal without a contract would misalign the list: countContracts
		// then falls back to whole teams.
		if st, err := e.Negotiation.State(); err == nil {
			if c, ok := st.Contract(); ok {
				*t.announcers = append(*t.announcers, c.Announcer)
			}
		}
	}
	return t.Player.Notify(ctx, s, e)
}

func (t timed) record(kind string, wall time.Duration) {
	t.mu.Lock()
	t.lat[kind] = append(t.lat[kind], wall)
	t.mu.Unlock()
}

func (t timed) ChooseCut(ctx context.Context, s giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	st := time.Now()
	c, err := t.Player.ChooseCut(ctx, s, m)
	t.record("cut", time.Since(st))
	return c, err
}

func (t timed) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	st := time.Now()
	a, err := t.Player.ChooseAction(ctx, v)
	t.record("bid", time.Since(st))
	return a, err
}

func (t timed) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	st := time.Now()
	c, err := t.Player.ChooseCard(ctx, v)
	t.record("card", time.Since(st))
	return c, err
}

func parseBot(spec string) (bot.Config, bool) {
	// bot[:fast][:noinf][:dd][:linear][:effort=X][:budget=D][:oracle=full|partner|opponents]
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
		case f == "linear":
			cfg.LinearScore = true
		case strings.HasPrefix(f, "oracle="):
			w := strings.TrimPrefix(f, "oracle=")
			cfg.Oracle = &bot.Oracle{Partner: w == "full" || w == "partner", Opponents: w == "full" || w == "opponents"}
		case strings.HasPrefix(f, "effort="):
			fmt.Sscan(strings.TrimPrefix(f, "effort="), &cfg.Effort)
		case strings.HasPrefix(f, "budget="):
			cfg.Budget, _ = time.ParseDuration(strings.TrimPrefix(f, "budget="))
		}
	}
	return cfg, true
}

// campaign is one measurement: who plays whom, on which deals.
type campaign struct {
	me, partner, opp string
	n, target, sweep int
	duplicate        bool
	concurrency      int
	seed             uint64
}

// tally is what a campaign measured.
type tally struct {
	results   []*giretra.MatchResult // by match index; nil: not played or failed
	lat       map[string][]time.Duration
	wins      int
	played    int
	errs      int
	pts       [2]int
	deals     int
	contracts map[string]*[4]int // team/mode -> count, made, points for, points against
	elapsed   time.Duration
}

// myTeam is the team of the player under test in match i: seats
// alternate (in duplicate pairs, the second match swaps them).
func myTeam(i int) giretra.Team { return giretra.Team(i % 2) }

// play runs the campaign's matches, concurrency at a time.
func (c *campaign) play(ctx context.Context, stdout, stderr io.Writer) *tally {
	t := &tally{results: make([]*giretra.MatchResult, c.n), lat: map[string][]time.Duration{}, contracts: map[string]*[4]int{}}
	var (
		mu          sync.Mutex
		next        int
		wg          sync.WaitGroup
		start       = time.Now()
		progressDue = 50
	)
	for range c.concurrency {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= c.n || ctx.Err() != nil {
					return
				}
				team := myTeam(i)
				// With -duplicate, the two matches of a pair share the deck
				// seed and the cuts, so the same hands go to the other team
				// the second time.
				deckSeed := c.seed + uint64(i)
				dealer := giretra.Position(i % 4)
				cfg := giretra.MatchConfig{TargetScore: c.target, ColourSweepPoints: c.sweep}
				if c.duplicate {
					deckSeed, dealer = c.seed+uint64(i/2), giretra.Position(i/2%4)
					cfg.Cut = func(deal int) giretra.Cut { return giretra.Cut{Position: 6 + deal%21, FromTop: true} }
				}
				cfg.FirstDealer = dealer
				var tab table
				cfg.Deal = tab.set
				var ps [4]giretra.Player
				var announcers []giretra.Position
				for s := range giretra.Position(4) {
					rng := rand.New(rand.NewPCG(c.seed+uint64(i), uint64(s)+17))
					spec := c.opp
					switch {
					case s.Team() != team:
					case s == giretra.Position(team): // Bottom or Left: the seat under test
						spec = c.me
					default:
						spec = c.partner
					}
					p, _ := newPlayer(spec, rng, tab.get) // the specs were checked before
					if s == giretra.Position(team) {
						p = timed{Player: p, mu: &mu, lat: t.lat, announcers: &announcers}
					}
					ps[s] = p
				}
				res, err := giretra.RunMatch(ctx, ps, cfg, rand.New(rand.NewPCG(deckSeed, 50000)), nil)
				mu.Lock()
				switch {
				case err != nil && ctx.Err() != nil:
					// Cut short by the interrupt: not a result.
				case err != nil:
					t.errs++
					fmt.Fprintf(stdout, "match %d: %v\n", i, err)
				default:
					t.played++
					t.results[i] = &res
					if res.Winner == team {
						t.wins++
					}
					t.pts[0] += res.Final.Points[team]
					t.pts[1] += res.Final.Points[team.Other()]
					t.deals += len(res.Final.Deals)
					countContracts(t.contracts, res.Final.Deals, giretra.Position(team), announcers)
				}
				if t.played+t.errs >= progressDue {
					progressDue += 50
					lo, hi := stats.Wilson(t.wins, t.played)
					fmt.Fprintf(stderr, "%s: %d/%d: %.1f%% [%.1f-%.1f] %s\n", c.me, t.played+t.errs, c.n, 100*float64(t.wins)/float64(max(t.played, 1)), 100*lo, 100*hi, time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.elapsed = time.Since(start)
	return t
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("giretra-strength", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c campaign
	fs.StringVar(&c.me, "me", "bot", "player under test: bot[:fast][:noinf][:dd][:effort=X][:budget=D][:oracle=full|partner|opponents] or an agent name")
	fs.StringVar(&c.partner, "partner", "", "the player in the partner seat (default: -me): an agent name or bot[:...]")
	fs.StringVar(&c.opp, "opp", "eva", "opponents: an agent name ("+strings.Join(agents.Names(), ", ")+") or bot[:...]")
	baseline := fs.String("baseline", "", "also play this player in -me's place on the same deals and seats, and report the paired difference")
	fs.IntVar(&c.n, "n", 400, "matches (with -duplicate: played in pairs on the same deals)")
	fs.IntVar(&c.target, "target", 151, "target score")
	fs.IntVar(&c.sweep, "sweep", 25, "Colour sweep points (0: instant win)")
	fs.BoolVar(&c.duplicate, "duplicate", false, "play each deal sequence twice, seats swapped, and report the pairs")
	outcomes := fs.String("outcomes", "", "write the deals' results to this file as a histogram of (match points of one team, of the other), both teams' views: the input of giretra/search's win-probability tables")
	fs.IntVar(&c.concurrency, "concurrency", 2, "matches played at once")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the decks and the agents (0: a random seed, printed)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof), to see where the bot's decisions spend their time")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if c.n < 1 || c.concurrency < 1 {
		return errors.New("-n and -concurrency must be at least 1")
	}
	if c.duplicate && c.n%2 == 1 {
		c.n++ // pairs
	}
	if c.partner == "" {
		c.partner = c.me
	}
	if c.seed == 0 {
		c.seed = rand.Uint64N(1_000_000_000) + 1
		fmt.Fprintf(stderr, "giretra-strength: seed %d\n", c.seed)
	}
	for _, spec := range []string{c.me, c.partner, c.opp, *baseline} {
		if spec == "" {
			continue
		}
		if _, err := newPlayer(spec, rand.New(rand.NewPCG(1, 1)), nil); err != nil {
			return err
		}
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
	t := c.play(ctx, stdout, stderr)
	c.report(stdout, t)
	if *outcomes != "" {
		if err := writeOutcomes(*outcomes, t.results, args); err != nil {
			return err
		}
	}
	if *baseline != "" && ctx.Err() == nil {
		b := c
		b.me = *baseline
		if c.partner == c.me {
			b.partner = *baseline
		}
		bt := b.play(ctx, stdout, stderr)
		b.report(stdout, bt)
		reportPaired(stdout, c.me, b.me, c.duplicate, t.results, bt.results)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted: %w", err)
	}
	return nil
}

// report prints a campaign's results.
func (c *campaign) report(stdout io.Writer, t *tally) {
	if t.played+t.errs < c.n {
		fmt.Fprintf(stdout, "interrupted: %d of %d matches finished\n", t.played+t.errs, c.n)
	}
	who := c.me
	if c.partner != c.me {
		who += " with " + c.partner
	}
	lo, hi := stats.Wilson(t.wins, t.played)
	elo, eloLo, eloHi := stats.EloInterval(t.wins, t.played)
	fmt.Fprintf(stdout, "%s vs %s, target %d, sweep %d, seed %d, %d matches (%d errors): %d wins = %.1f%% [%.1f-%.1f] Wilson 95%%, Elo %+.0f [%+.0f, %+.0f]\n",
		who, c.opp, c.target, c.sweep, c.seed, t.played+t.errs, t.errs, t.wins, 100*float64(t.wins)/float64(max(t.played, 1)), 100*lo, 100*hi, elo, eloLo, eloHi)
	fmt.Fprintf(stdout, "match points per deal: %.2f for, %.2f against (%d deals); %s\n",
		float64(t.pts[0])/float64(max(t.deals, 1)), float64(t.pts[1])/float64(max(t.deals, 1)), t.deals, t.elapsed.Round(time.Second))
	if c.duplicate {
		reportPairs(stdout, t.results)
	}
	keys := make([]string, 0, len(t.contracts))
	for k := range t.contracts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		st := t.contracts[k]
		fmt.Fprintf(stdout, "contracts %-22s n=%5d made=%5.1f%% announcer avg %+6.2f\n", k, st[0], 100*float64(st[1])/float64(st[0]), float64(st[2]-st[3])/float64(st[0]))
	}
	for _, k := range []string{"cut", "bid", "card"} {
		d := t.lat[k]
		if len(d) == 0 {
			continue
		}
		slices.Sort(d)
		fmt.Fprintf(stdout, "latency %-8s n=%d p50=%v p90=%v p99=%v max=%v\n", k, len(d), stats.Quantile(d, 0.5), stats.Quantile(d, 0.9), stats.Quantile(d, 0.99), d[len(d)-1])
	}
}

// reportPaired compares two players who played the same matches (same
// deals, seats, opponents): the difference of their results, match by
// match or, in duplicate, pair by pair, with its 95% interval.
func reportPaired(w io.Writer, a, b string, duplicate bool, ra, rb []*giretra.MatchResult) {
	var dWin, dMargin []float64
	step := 1
	if duplicate {
		step = 2
	}
	for i := 0; i+step <= len(ra) && i+step <= len(rb); i += step {
		wa, ma, oka := unitScore(ra[i:i+step], i)
		wb, mb, okb := unitScore(rb[i:i+step], i)
		if !oka || !okb {
			continue
		}
		dWin = append(dWin, wa-wb)
		dMargin = append(dMargin, ma-mb)
	}
	mw, mm := stats.MeanCI(dWin), stats.MeanCI(dMargin)
	unit := "matches"
	if duplicate {
		unit = "pairs"
	}
	fmt.Fprintf(w, "paired %s − %s over %d %s on the same deals: wins %+.1f%% [%+.1f, %+.1f], margin per deal %+.2f [%+.2f, %+.2f] match points (95%%)\n",
		a, b, mw.N, unit, 100*mw.Mean, 100*mw.Lo, 100*mw.Hi, mm.Mean, mm.Lo, mm.Hi)
}

// unitScore is the share of matches won by the player under test in rs
// (the matches from index i on) and its margin per deal.
func unitScore(rs []*giretra.MatchResult, i int) (win, margin float64, ok bool) {
	deals, sum := 0, 0
	for j, r := range rs {
		if r == nil {
			return 0, 0, false
		}
		team := myTeam(i + j)
		if r.Winner == team {
			win++
		}
		for _, d := range r.Final.Deals {
			sum += dealMargin(d, team)
			deals++
		}
	}
	return win / float64(len(rs)), float64(sum) / float64(max(deals, 1)), true
}

// reportPairs prints the duplicate pairs: matches 2p (our team 1) and
// 2p+1 (our team 2) were dealt the same cards. A pair is won, split or
// lost; its points per deal are our margin (match points for minus
// against) averaged over the deals both matches played, over both
// matches, so the cards' luck cancels.
func reportPairs(w io.Writer, results []*giretra.MatchResult) {
	var won, split, lost int
	var scores, margins []float64
	for p := 0; p+1 < len(results); p += 2 {
		a, b := results[p], results[p+1]
		if a == nil || b == nil {
			continue
		}
		n := b2i(a.Winner == giretra.Team1) + b2i(b.Winner == giretra.Team2)
		switch n {
		case 2:
			won++
		case 1:
			split++
		default:
			lost++
		}
		scores = append(scores, float64(n)/2)
		common := min(len(a.Final.Deals), len(b.Final.Deals))
		if common == 0 {
			continue
		}
		sum := 0
		for d := range common {
			sum += dealMargin(a.Final.Deals[d], giretra.Team1) + dealMargin(b.Final.Deals[d], giretra.Team2)
		}
		margins = append(margins, float64(sum)/float64(2*common))
	}
	// The two matches of a pair are not independent: intervals are over
	// pairs (a pair scores 1, ½ or 0).
	sc, m := stats.MeanCI(scores), stats.MeanCI(margins)
	fmt.Fprintf(w, "duplicate: %d pairs: %d won, %d split, %d lost; %.1f%% of matches [%.1f-%.1f]; margin per deal %+.2f [%+.2f, %+.2f] match points (95%%, over pairs)\n",
		won+split+lost, won, split, lost, 100*sc.Mean, 100*sc.Lo, 100*sc.Hi, m.Mean, m.Lo, m.Hi)
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

// dealMargin is team's match points minus the other team's in a deal (a
// Colour sweep's bonus included).
func dealMargin(d giretra.DealResult, team giretra.Team) int {
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// newPlayer makes the player a -me or -opp spec names.
func newPlayer(spec string, rng *rand.Rand, deal func() ([4]giretra.Set, bool)) (giretra.Player, error) {
	if rest, ok := strings.CutPrefix(spec, "evabid+"); ok {
		// Eva's bidding with the bot's card play (diagnostics).
		cfg, _ := parseBot(rest)
		e, _ := agents.New("eva", rng)
		return hybrid{bidder: e, player: bot.New(cfg)}, nil
	}
	if rest, ok := strings.CutPrefix(spec, "evaplay+"); ok {
		// The bot's bidding with Eva's card play (diagnostics).
		cfg, _ := parseBot(rest)
		e, _ := agents.New("eva", rng)
		return hybrid{bidder: bot.New(cfg), player: e}, nil
	}
	for _, pre := range []string{"evalead+", "evafollow+"} {
		if rest, ok := strings.CutPrefix(spec, pre); ok {
			// Eva's leads (or follows) with the bot's other cards and
			// Eva's bidding (diagnostics).
			cfg, _ := parseBot(rest)
			e, _ := agents.New("eva", rng)
			return mixed{eva: e, bot: bot.New(cfg), evaLeads: pre == "evalead+"}, nil
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

// table holds the deal in play of one match, for oracle players.
type table struct {
	mu    sync.Mutex
	hands [4]giretra.Set
	ok    bool
}

func (t *table) set(_ giretra.Position, hands [4]giretra.Set) {
	t.mu.Lock()
	t.hands, t.ok = hands, true
	t.mu.Unlock()
}

func (t *table) get() ([4]giretra.Set, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.hands, t.ok
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

// hybrid bids like one player and plays cards like another.
type hybrid struct{ bidder, player giretra.Player }

func (h hybrid) ChooseCut(ctx context.Context, s giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	return h.player.ChooseCut(ctx, s, m)
}

func (h hybrid) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	// Both see the request (the player learns the negotiation from it).
	_, _ = h.player.ChooseAction(ctx, v)
	return h.bidder.ChooseAction(ctx, v)
}

func (h hybrid) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	return h.player.ChooseCard(ctx, v)
}

func (h hybrid) Notify(ctx context.Context, s giretra.Position, e *giretra.Event) error {
	_ = h.bidder.Notify(ctx, s, e)
	return h.player.Notify(ctx, s, e)
}

// mixed bids like Eva and takes Eva's card either on leads or on follows.
type mixed struct {
	eva, bot giretra.Player
	evaLeads bool
}

func (m mixed) ChooseCut(ctx context.Context, s giretra.Position, ms *giretra.MatchState) (giretra.Cut, error) {
	return m.eva.ChooseCut(ctx, s, ms)
}

func (m mixed) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	_, _ = m.bot.ChooseAction(ctx, v)
	return m.eva.ChooseAction(ctx, v)
}

func (m mixed) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	e, err := m.eva.ChooseCard(ctx, v)
	b, err2 := m.bot.ChooseCard(ctx, v)
	if (v.State.Current.N == 0) == m.evaLeads {
		return e, err
	}
	return b, err2
}

func (m mixed) Notify(ctx context.Context, s giretra.Position, e *giretra.Event) error {
	_ = m.eva.Notify(ctx, s, e)
	return m.bot.Notify(ctx, s, e)
}
