package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/gamebot/othello/match"
	"github.com/botarena/gamebot/othello/players"
)

// solve runs othello-match solve: each position solved by A and then by
// B, one engine at a time, each in a fresh engine, and a line a position
// with the times and their ratio; the totals at the end.
func solve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("othello-match solve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	engA := fs.String("a", "", "player A, as othello-match -a (ours: 'jsonline:othello-engine -depth 64 -threads 1', as it would play the position)")
	engB := fs.String("b", "", "player B, as -a (none: A alone)")
	depthA := fs.String("a-depth", "", "an NBoard player A's \"set depth\" by empties: D, or a list of D and E:D (\"24,25:26,26:27\": 24, but 26 at 25 empties and 27 at 26), the smallest that ends in an exact solve")
	depthB := fs.String("b-depth", "", "as -a-depth, for B")
	seed := fs.Uint64("seed", 0, "self-play positions from this seed instead of FFO #40–#49")
	emptiesFlag := fs.String("empties", "20,22,24", "with -seed: the empties of the positions (comma-separated)")
	per := fs.Int("per", 4, "with -seed: positions at each number of empties")
	budget := fs.Duration("budget", 10*time.Minute, "the longest a solve may take")
	verbose := fs.Bool("v", false, "pass the engines' stderr on")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *engA == "" {
		return errors.New("solve: name player A (-a)")
	}
	var ps []players.Player
	var depths []map[int]int
	for _, x := range []struct{ spec, depth, flag string }{{*engA, *depthA, "-a-depth"}, {*engB, *depthB, "-b-depth"}} {
		if x.spec == "" {
			continue
		}
		p, err := players.Parse(x.spec)
		if err != nil {
			return err
		}
		d, err := depthsOf(x.depth)
		if err != nil {
			return fmt.Errorf("%s %q: %w", x.flag, x.depth, err)
		}
		if d != nil && p.Kind != players.KindNBoard {
			return fmt.Errorf("%s: %s is not an NBoard engine (its depth is its own options')", x.flag, p.Name)
		}
		ps, depths = append(ps, p), append(depths, d)
	}
	positions := match.FFO40to49()
	if *seed != 0 {
		empties, err := emptiesList(*emptiesFlag, 36)
		if err != nil {
			return err
		}
		if *per < 1 {
			return errors.New("-per must be at least 1")
		}
		positions = match.SelfPlaySolvePositions(*seed, empties, *per)
	}
	var leg players.Leg
	if *verbose {
		leg.Stderr = stderr
	}
	var total [2]time.Duration
	logRatio, slower, disagree := 0.0, 0, 0
	for _, pos := range positions {
		empties := pos.State.Empties()
		line := fmt.Sprintf("%s, %d empties", pos.Name, empties)
		if pub := pos.Published(); pub != "" {
			line += " (" + pub + ")"
		}
		var got []match.Solved
		for i, p := range ps {
			if d, ok := depthAt(depths[i], empties); ok {
				p.Depth = d
			}
			s, err := match.SolveOne(ctx, p, pos, *budget, leg)
			if err != nil {
				return err
			}
			total[i] += s.Took
			got = append(got, s)
			line += fmt.Sprintf(" | %c %s %s %.2f s", 'A'+i, s.MoveName(), scoreText(s.Score), s.Took.Seconds())
			if !pos.Agrees(s) {
				line += " (not the published answer)"
				disagree++
			}
		}
		if len(got) == 2 {
			r := got[0].Took.Seconds() / got[1].Took.Seconds()
			logRatio += math.Log(r)
			if r > 1 {
				slower++
			}
			line += fmt.Sprintf(" | A/B %.2f", r)
			if a, b := got[0].Score, got[1].Score; a != nil && b != nil && *a != *b {
				line += " (the scores differ)"
				disagree++
			}
		}
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintf(stdout, "total: A %.2f s", total[0].Seconds())
	if len(ps) == 2 {
		n := float64(len(positions))
		fmt.Fprintf(stdout, ", B %.2f s, A/B %.3f; geometric mean of the ratios %.3f, A slower on %d of %d",
			total[1].Seconds(), total[0].Seconds()/total[1].Seconds(), math.Exp(logRatio/n), slower, len(positions))
	}
	fmt.Fprintln(stdout)
	if disagree > 0 {
		return fmt.Errorf("%d answers disagree (above)", disagree)
	}
	return nil
}

// depthsOf reads -a-depth: D, E:D, … (nil: none given); the plain D is
// at key 0, the default.
func depthsOf(s string) (map[int]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	m := map[int]int{}
	for _, f := range strings.Split(s, ",") {
		e, d, pinned := strings.Cut(strings.TrimSpace(f), ":")
		if !pinned {
			e, d = "0", e
		}
		ev, err1 := strconv.Atoi(e)
		dv, err2 := strconv.Atoi(d)
		if err1 != nil || err2 != nil || ev < 0 || ev > 64 || dv < 1 || dv > 64 {
			return nil, fmt.Errorf("want D or E:D, depths 1–64 and empties up to 64, not %q", f)
		}
		if _, dup := m[ev]; dup {
			return nil, fmt.Errorf("%q is given twice", f)
		}
		m[ev] = dv
	}
	return m, nil
}

// depthAt is the depth of depths at empties: its own, else the default.
func depthAt(depths map[int]int, empties int) (int, bool) {
	if d, ok := depths[empties]; ok {
		return d, true
	}
	d, ok := depths[0]
	return d, ok
}

func scoreText(v *float64) string {
	if v == nil {
		return "?"
	}
	return fmt.Sprintf("%+g", *v)
}
