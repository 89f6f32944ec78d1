// Command loadtest drives a running gamebot server on loopback with
// concurrent traffic and reports throughput, latency per endpoint and the
// server's peak memory. It only ever targets loopback addresses and stops by
// itself (bounded duration and request count); interrupted (SIGINT,
// SIGTERM), it reports the scenarios run so far. Giretra sessions are
// created as the engine creates them (giretra/remote).
//
//	go run ./cmd/gamebot &                      # the server under test
//	go run ./cmd/loadtest -scenario notify -conns 32 -duration 10s
//	go run ./cmd/loadtest -scenario all -json report.json
//
//	go run ./cmd/gamebot play &                 # the browser tables under test
//	go run ./cmd/loadtest -scenario play -url http://127.0.0.1:8080 -tables 20 -duration 30s
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/botarena/gamebot/battleship"
	bswire "github.com/botarena/gamebot/battleship/wire"
	"github.com/botarena/gamebot/giretra/middeal"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/loadgen"
)

func main() { cli.Main("loadtest", run) }

type options struct {
	loadgen.Options
	url, scenario, jsonOut string
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.url, "url", "http://127.0.0.1:5063", "server under test (loopback only)")
	fs.StringVar(&o.scenario, "scenario", "all", "notify, decide, battleship or all (the bot server); play (gamebot play's tables)")
	tables := fs.Int("tables", 20, "play: tables played at once by scripted persons, per game")
	games := fs.String("games", "giretra,battleship,othello", "play: the games, one after the other")
	fs.IntVar(&o.Conns, "conns", 16, "concurrent connections (1..256)")
	fs.DurationVar(&o.Duration, "duration", 10*time.Second, "time per scenario (at most 2m)")
	fs.Int64Var(&o.MaxRequests, "max-requests", 5_000_000, "stop a scenario after this many requests")
	fs.StringVar(&o.jsonOut, "json", "", "also write the results as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := loadgen.CheckLoopback(o.url); err != nil {
		return err
	}
	if o.Conns < 1 || o.Conns > 256 || o.Duration <= 0 || o.Duration > 2*time.Minute {
		return errors.New("-conns must be 1..256 and -duration in (0, 2m]")
	}
	if o.scenario == "play" {
		return play(ctx, o, *tables, strings.Split(*games, ","), stdout)
	}
	scenarios := []string{"notify", "decide", "battleship"}
	if o.scenario != "all" {
		if !slices.Contains(scenarios, o.scenario) {
			return fmt.Errorf("unknown scenario %q", o.scenario)
		}
		scenarios = []string{o.scenario}
	}
	results, err := server(ctx, o, scenarios, stdout)
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stdout, "interrupted: %d of %d scenarios run (the last one cut short)\n", len(results), len(scenarios))
	}
	if err := saveJSON(o.jsonOut, results); err != nil {
		return err
	}
	for _, r := range results {
		if r.Errors > 0 {
			return fmt.Errorf("%s: %d errors", r.Scenario, r.Errors)
		}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted: %w", err)
	}
	return nil
}

// saveJSON writes results as indented JSON to path ("": nowhere).
func saveJSON(path string, results any) error {
	if path == "" {
		return nil
	}
	b, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// server runs the bot server's scenarios one after the other and prints
// each one's line.
func server(ctx context.Context, o options, scenarios []string, stdout io.Writer) ([]loadgen.Result, error) {
	tr := &http.Transport{MaxIdleConnsPerHost: o.Conns, MaxConnsPerHost: o.Conns, DisableCompression: true}
	client := &http.Client{Transport: tr, Timeout: 35 * time.Second}
	defer tr.CloseIdleConnections()
	base := strings.TrimRight(o.url, "/")

	// Only creates sessions: the load itself goes through client.
	engine := remote.NewClient(base, wire.Engine, [6]bool{}, o.Conns)
	defer engine.Close()

	var results []loadgen.Result
	for _, sc := range scenarios {
		reqs, endpoint, err := prepare(ctx, engine, client, base, sc)
		if err != nil && ctx.Err() != nil {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sc, err)
		}
		r := loadgen.Run(ctx, client, base, reqs, o.Options)
		r.Scenario, r.Endpoint = sc, endpoint
		results = append(results, r)
		fmt.Fprintf(stdout, "%-10s %-44s conns %3d  %8d req  %6d err  %9.0f req/s  p50 %7.2f ms  p99 %7.2f ms  max %8.2f ms  peak RSS %6.1f MiB\n",
			r.Scenario, r.Endpoint, r.Conns, r.Requests, r.Errors, r.PerSecond, r.P50ms, r.P99ms, r.MaxMs, r.PeakRSSMiB)
		if r.FirstError != "" {
			fmt.Fprintf(stdout, "           first error: %s\n", r.FirstError)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return results, nil
}

// prepare creates the sessions a scenario needs, through engine as the
// Giretra engine creates them, and builds its requests.
func prepare(ctx context.Context, engine *remote.Client, c *http.Client, base, scenario string) ([]loadgen.Request, string, error) {
	switch scenario {
	case "notify", "decide":
		var reqs []loadgen.Request
		for _, st := range middeal.States(64) {
			id, err := engine.CreateSession(ctx, st.Seat, nil)
			if err != nil {
				return nil, "", err
			}
			if scenario == "notify" {
				reqs = append(reqs, loadgen.Request{Path: "/api/sessions/" + id + "/notify/card-played", Body: st.CardPlayed()})
				continue
			}
			// The bot needs the contract: send the negotiation first.
			if err := loadgen.Post(ctx, c, base+"/api/sessions/"+id+"/notify/negotiation-completed", st.NegotiationCompleted()); err != nil {
				return nil, "", err
			}
			reqs = append(reqs, loadgen.Request{Path: "/api/sessions/" + id + "/choose-card", Body: st.CardRequest()})
		}
		if scenario == "notify" {
			return reqs, "POST /api/sessions/{id}/notify/card-played", nil
		}
		return reqs, "POST /api/sessions/{id}/choose-card", nil
	case "battleship":
		var reqs []loadgen.Request
		for i := range 8 {
			reqs = append(reqs, loadgen.Request{Path: "/battleship", Body: bigBattleshipTurn(uint64(i))})
		}
		return reqs, "POST /battleship (100x100, 60 ships, long history)", nil
	}
	return nil, "", fmt.Errorf("unknown scenario")
}

// bigBattleshipTurn is a botsarena play-turn on a 100x100 board with the
// full fleet of 60 ships and a long history of shots on both sides.
func bigBattleshipTurn(seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 5))
	strikes := func(n int) []bswire.Strike {
		out := make([]bswire.Strike, 0, n)
		seen := map[int]bool{}
		for len(out) < n {
			c := rng.IntN(10000)
			if seen[c] {
				continue
			}
			seen[c] = true
			out = append(out, bswire.Strike{Target: fmt.Sprintf("%d,%d", c%100, c/100)})
		}
		return out
	}
	r := battleship.Rules{W: 100, H: 100, Fleet: battleship.Fleet{0, 10, 10, 10, 10, 10, 10}}
	b, _ := json.Marshal(bswire.NewTurn(1000+int(seed), 0, r, "loadtest", strikes(3000), strikes(3000)))
	return b
}
