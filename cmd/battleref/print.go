package main

import (
	"fmt"
	"io"

	"github.com/botarena/gamebot/battleship/referee"
)

// The report of a run as text.

func printReport(w io.Writer, rep *referee.Report) {
	if rep.Mode == "calibrate" {
		printCalibration(w, rep)
		return
	}
	fmt.Fprintf(w, "mode %s  bot %s", rep.Mode, rep.Bot)
	if rep.Opponent != "" {
		fmt.Fprintf(w, "  opponent %s", rep.Opponent)
	}
	if rep.Board != "" {
		fmt.Fprintf(w, "  board %s", rep.Board)
	}
	fmt.Fprintf(w, "\ngames %d  wins %d  losses %d  invalid answers %d", rep.Games, rep.Wins, rep.Losses, rep.Invalid)
	if rep.OppInvalid > 0 {
		fmt.Fprintf(w, "  (opponent invalid %d)", rep.OppInvalid)
	}
	fmt.Fprintln(w)
	if wr := rep.WinRate; wr != nil {
		fmt.Fprintf(w, "win rate %.1f%% [%.1f%% – %.1f%%] (Wilson 95%%)", 100*wr.Rate, 100*wr.Low95, 100*wr.High95)
		if g := rep.SeatGames; g[0] > 0 && g[1] > 0 {
			fmt.Fprintf(w, "  as seat 0 %.1f%% of %d, as seat 1 %.1f%% of %d", 100*float64(rep.SeatWins[0])/float64(g[0]), g[0], 100*float64(rep.SeatWins[1])/float64(g[1]), g[1])
		}
		fmt.Fprintln(w)
		if rep.Warmup > 0 {
			fmt.Fprintf(w, "after %d warm-up games (not counted)\n", rep.Warmup)
		}
	}
	if s := rep.Shots; s != nil {
		fmt.Fprintf(w, "shots mean %.2f  median %g  p90 %g  max %d  min %d\n", s.Mean, s.Median, s.P90, s.Max, s.Min)
	}
	if rep.BotShots != nil {
		b, o := rep.BotShots, rep.OppShots
		fmt.Fprintf(w, "to sink the other fleet (-full): bot mean %.2f median %g, opponent mean %.2f median %g, edge %+.2f ± %.2f shots\n",
			b.Mean, b.Median, o.Mean, o.Median, rep.ShotEdge.Mean, rep.ShotEdge.CI95)
	}
	l := rep.Latency
	fmt.Fprintf(w, "latency over %d requests: p50 %.3f ms  p99 %.3f ms  max %.3f ms  (%d over 100 ms)\n", l.Requests, l.P50ms, l.P99ms, l.Maxms, l.Slow)
	for _, c := range rep.Configs {
		status := "ok"
		if !c.OK {
			status = "FAIL"
		}
		fmt.Fprintf(w, "  %-4s %-40s shots %4d  init %.2f ms  turn p99 %.2f ms  max %.2f ms %s\n", status, c.Name, c.Shots, c.InitMs, c.P99ms, c.Maxms, c.Detail)
	}
	for _, why := range rep.InvalidWhy {
		fmt.Fprintln(w, "  invalid:", why)
	}
	printElapsed(w, rep)
}

func printCalibration(w io.Writer, rep *referee.Report) {
	fmt.Fprintf(w, "mode calibrate  board %s  hidden fleets %s  seed %d  games %d\n", rep.Board, rep.Hidden, rep.Seed, rep.Games)
	fmt.Fprintf(w, "%-13s %-26s %9s %15s %7s %5s %5s  %s\n", "shooter", "information", "finished", "mean ± 95% CI", "median", "p90", "max", "vs self (paired)")
	for _, c := range rep.Calibration {
		vs := "-"
		if c.VsSelf != nil {
			vs = fmt.Sprintf("%+.2f ± %.2f", c.VsSelf.Mean, c.VsSelf.CI95)
		}
		fmt.Fprintf(w, "%-13s %-26s %9s %15s %7g %5g %5d  %s\n", c.Shooter, c.Information,
			fmt.Sprintf("%d/%d", c.Finished, c.Games), fmt.Sprintf("%.2f ± %.2f", c.Shots.Mean, c.MeanCI95),
			c.Shots.Median, c.Shots.P90, c.Shots.Max, vs)
	}
	printElapsed(w, rep)
}

func printElapsed(w io.Writer, rep *referee.Report) {
	if rep.Interrupted {
		fmt.Fprintf(w, "INTERRUPTED: the figures cover the %d games finished\n", rep.Games)
	}
	fmt.Fprintf(w, "elapsed %.2f s\n", rep.ElapsedSecs)
}
