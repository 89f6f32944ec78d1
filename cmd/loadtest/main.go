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
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/gamebot/battleship"
	bswire "github.com/botarena/gamebot/battleship/wire"
	"github.com/botarena/gamebot/giretra/middeal"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/stats"
)

func main() { cli.Main("loadtest", run) }

type options struct {
	url         string
	scenario    string
	conns       int
	duration    time.Duration
	maxRequests int64
	jsonOut     string
}

// Result is one scenario's figures.
type Result struct {
	Scenario   string  `json:"scenario"`
	Endpoint   string  `json:"endpoint"`
	Conns      int     `json:"conns"`
	Requests   int64   `json:"requests"`
	Errors     int64   `json:"errors"`
	Seconds    float64 `json:"seconds"`
	PerSecond  float64 `json:"perSecond"`
	P50ms      float64 `json:"p50Ms"`
	P99ms      float64 `json:"p99Ms"`
	MaxMs      float64 `json:"maxMs"`
	PeakRSSMiB float64 `json:"peakRssMiB"`
	FirstError string  `json:"firstError,omitempty"`
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.url, "url", "http://127.0.0.1:5063", "server under test (loopback only)")
	fs.StringVar(&o.scenario, "scenario", "all", "notify, decide, battleship or all")
	fs.IntVar(&o.conns, "conns", 16, "concurrent connections (1..256)")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "time per scenario (at most 2m)")
	fs.Int64Var(&o.maxRequests, "max-requests", 5_000_000, "stop a scenario after this many requests")
	fs.StringVar(&o.jsonOut, "json", "", "also write the results as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := checkLoopback(o.url); err != nil {
		return err
	}
	if o.conns < 1 || o.conns > 256 || o.duration <= 0 || o.duration > 2*time.Minute {
		return errors.New("-conns must be 1..256 and -duration in (0, 2m]")
	}
	scenarios := []string{"notify", "decide", "battleship"}
	if o.scenario != "all" {
		if !slices.Contains(scenarios, o.scenario) {
			return fmt.Errorf("unknown scenario %q", o.scenario)
		}
		scenarios = []string{o.scenario}
	}
	tr := &http.Transport{MaxIdleConnsPerHost: o.conns, MaxConnsPerHost: o.conns, DisableCompression: true}
	client := &http.Client{Transport: tr, Timeout: 35 * time.Second}
	defer tr.CloseIdleConnections()
	base := strings.TrimRight(o.url, "/")

	// Only creates sessions: the load itself goes through client.
	engine := remote.NewClient(base, wire.Engine, [6]bool{}, o.conns)
	defer engine.Close()

	var results []Result
	for _, sc := range scenarios {
		reqs, endpoint, err := prepare(ctx, engine, client, base, sc)
		if err != nil && ctx.Err() != nil {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", sc, err)
		}
		r := hammer(ctx, client, base, reqs, o)
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
	if ctx.Err() != nil {
		fmt.Fprintf(stdout, "interrupted: %d of %d scenarios run (the last one cut short)\n", len(results), len(scenarios))
	}
	if o.jsonOut != "" {
		b, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(o.jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
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

func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("-url %q: not a URL", raw)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-url %q: only loopback addresses may be load-tested", raw)
	}
	return nil
}

// request is one prepared call: path and body.
type request struct {
	path string
	body []byte
}

// prepare creates the sessions a scenario needs, through engine as the
// Giretra engine creates them, and builds its requests.
func prepare(ctx context.Context, engine *remote.Client, c *http.Client, base, scenario string) ([]request, string, error) {
	switch scenario {
	case "notify", "decide":
		var reqs []request
		for _, st := range middeal.States(64) {
			id, err := engine.CreateSession(ctx, st.Seat, nil)
			if err != nil {
				return nil, "", err
			}
			if scenario == "notify" {
				reqs = append(reqs, request{"/api/sessions/" + id + "/notify/card-played", st.CardPlayed()})
				continue
			}
			// The bot needs the contract: send the negotiation first.
			if err := post(ctx, c, base+"/api/sessions/"+id+"/notify/negotiation-completed", st.NegotiationCompleted()); err != nil {
				return nil, "", err
			}
			reqs = append(reqs, request{"/api/sessions/" + id + "/choose-card", st.CardRequest()})
		}
		if scenario == "notify" {
			return reqs, "POST /api/sessions/{id}/notify/card-played", nil
		}
		return reqs, "POST /api/sessions/{id}/choose-card", nil
	case "battleship":
		var reqs []request
		for i := range 8 {
			reqs = append(reqs, request{"/battleship", bigBattleshipTurn(uint64(i))})
		}
		return reqs, "POST /battleship (100x100, 60 ships, long history)", nil
	}
	return nil, "", fmt.Errorf("unknown scenario")
}

func post(ctx context.Context, c *http.Client, u string, body []byte) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s %s", u, resp.Status, out)
	}
	return nil
}

// hammer sends the requests round-robin from o.conns workers for
// o.duration, sampling the server's RSS, and summarises.
func hammer(ctx context.Context, c *http.Client, base string, reqs []request, o options) Result {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var (
		count, errs atomic.Int64
		mu          sync.Mutex
		lat         []time.Duration
		firstErr    string
		wg          sync.WaitGroup
	)
	peak := make(chan float64, 1)
	go func() { peak <- samplePeakRSS(ctx, c, base) }()
	start := time.Now()
	for w := range o.conns {
		wg.Go(func() {
			local := make([]time.Duration, 0, 1<<14)
			for i := w; ; i += o.conns {
				if ctx.Err() != nil || count.Add(1) > o.maxRequests {
					break
				}
				r := reqs[i%len(reqs)]
				t0 := time.Now()
				err := post(ctx, c, base+r.path, r.body)
				if ctx.Err() != nil {
					break // cut off by the deadline: not a server error
				}
				local = append(local, time.Since(t0))
				if err != nil {
					errs.Add(1)
					mu.Lock()
					if firstErr == "" {
						firstErr = err.Error()
					}
					mu.Unlock()
				}
			}
			mu.Lock()
			lat = append(lat, local...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cancel()
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	r := Result{Conns: o.conns, Requests: int64(len(lat)), Errors: errs.Load(), Seconds: elapsed.Seconds(), FirstError: firstErr, PeakRSSMiB: <-peak}
	if n := len(lat); n > 0 {
		r.PerSecond = float64(n) / elapsed.Seconds()
		r.P50ms, r.P99ms, r.MaxMs = ms(stats.Quantile(lat, 0.5)), ms(stats.Quantile(lat, 0.99)), ms(lat[n-1])
	}
	return r
}

// samplePeakRSS reads process_resident_memory_bytes from /metrics every
// 250 ms until ctx is done and returns the peak in MiB.
func samplePeakRSS(ctx context.Context, c *http.Client, base string) float64 {
	peak := 0.0
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		if v := readRSS(c, base); v > peak {
			peak = v
		}
		select {
		case <-ctx.Done():
			return peak / (1 << 20)
		case <-t.C:
		}
	}
}

func readRSS(c *http.Client, base string) float64 {
	resp, err := c.Get(base + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "process_resident_memory_bytes "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
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
