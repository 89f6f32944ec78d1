// Package loadgen drives an HTTP server with concurrent POSTs of
// prepared requests and measures it: throughput, latency quantiles and
// the server's peak resident memory (read from its Prometheus /metrics).
// It knows no game: cmd/loadtest prepares each game's requests.
package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/gamebot/internal/jsonl"
	"github.com/botarena/gamebot/internal/stats"
)

// Options bound a run: Conns workers, for at most Duration and
// MaxRequests requests.
type Options struct {
	Conns       int
	Duration    time.Duration
	MaxRequests int64
}

// Result is one run's figures (Scenario and Endpoint are the caller's).
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

// CheckLoopback accepts only a URL of a loopback host: a load test never
// targets another machine.
func CheckLoopback(raw string) error {
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

// Request is one prepared call: path and body.
type Request struct {
	Path string
	Body []byte
}

// Post posts body as JSON to u; a status other than 2xx is an error.
func Post(ctx context.Context, c *http.Client, u string, body []byte) error {
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

// Run sends the requests round-robin from o.Conns workers for
// o.Duration (or o.MaxRequests requests), sampling the server's RSS, and
// summarises.
func Run(ctx context.Context, c *http.Client, base string, reqs []Request, o Options) Result {
	ctx, cancel := context.WithTimeout(ctx, o.Duration)
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
	for w := range o.Conns {
		wg.Go(func() {
			local := make([]time.Duration, 0, 1<<14)
			for i := w; ; i += o.Conns {
				if ctx.Err() != nil || count.Add(1) > o.MaxRequests {
					break
				}
				r := reqs[i%len(reqs)]
				t0 := time.Now()
				err := Post(ctx, c, base+r.Path, r.Body)
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
	r := Result{Conns: o.Conns, Requests: int64(len(lat)), Errors: errs.Load(), Seconds: elapsed.Seconds(), FirstError: firstErr, PeakRSSMiB: <-peak}
	if n := len(lat); n > 0 {
		r.PerSecond = float64(n) / elapsed.Seconds()
		r.P50ms, r.P99ms, r.MaxMs = jsonl.Millis(stats.Quantile(lat, 0.5)), jsonl.Millis(stats.Quantile(lat, 0.99)), jsonl.Millis(lat[n-1])
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
