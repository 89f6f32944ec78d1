package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/botarena/gamebot/internal/loadgen"
)

// playSetups are the tables the scripted persons sit at: a person and our
// bots, who play at once (pace 0), so that what is measured is the
// server, not the pace.
var playSetups = map[string]string{
	"giretra":    `{"seats": ["you", "bot", "bot", "bot"], "pace": 0}`,
	"battleship": `{"pace_ms": 0}`,
	"othello":    `{"mode": "std", "opponent": "gamebot-5", "pace": 0}`,
}

// play measures gamebot play's tables: per game, tables games played at
// once by scripted persons for the duration.
func play(ctx context.Context, o options, tables int, games []string, stdout io.Writer) error {
	var results []loadgen.PlayResult
	for _, g := range games {
		setup, ok := playSetups[g]
		if !ok {
			return fmt.Errorf("-games: unknown game %q (giretra, battleship, othello)", g)
		}
		r, err := loadgen.Play(ctx, loadgen.PlayConfig{URL: o.url, Game: g, Setup: json.RawMessage(setup), Tables: tables, Duration: o.Duration, Seed: 1})
		results = append(results, r)
		fmt.Fprintf(stdout, "%-10s tables %3d  %5d games  %7d actions (%d stale)  %4d err  ack p50 %6.2f ms  p99 %6.2f ms  max %7.2f ms  bot move → view p50 %6.2f ms  p99 %6.2f ms  max %7.2f ms (%d)\n",
			g, r.Tables, r.Games, r.Actions, r.Stale, r.Errors, r.AckP50, r.AckP99, r.AckMax, r.ReplyP50, r.ReplyP99, r.ReplyMax, r.Replies)
		if r.FirstError != "" {
			fmt.Fprintf(stdout, "           first error: %s\n", r.FirstError)
		}
		if err != nil {
			return fmt.Errorf("interrupted: %w", err)
		}
	}
	if err := saveJSON(o.jsonOut, results); err != nil {
		return err
	}
	for _, r := range results {
		if r.Errors > 0 {
			return fmt.Errorf("%s: %d errors", r.Game, r.Errors)
		}
	}
	return nil
}
