package referee

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/internal/jsonl"
	"github.com/botarena/gamebot/internal/stats"
)

// Report is the -json output (and the source of the text output).
type Report struct {
	Mode       string         `json:"mode"`
	Bot        string         `json:"bot,omitempty"`
	Opponent   string         `json:"opponent,omitempty"`
	Board      string         `json:"board,omitempty"`
	Hidden     string         `json:"hidden_fleets,omitempty"`
	Games      int            `json:"games"`
	Wins       int            `json:"wins"`
	Losses     int            `json:"losses"`
	WinRate    *WinRate       `json:"win_rate,omitempty"`
	Invalid    int            `json:"invalid_answers"`
	OppInvalid int            `json:"opponent_invalid_answers,omitempty"`
	InvalidWhy []string       `json:"invalid_examples,omitempty"`
	Shots      *ShotStats     `json:"shots,omitempty"`
	Latency    LatencyStats   `json:"latency,omitzero"`
	Configs    []ConfigResult `json:"configs,omitempty"`
	Seed       uint64         `json:"seed,omitempty"`
	// Warmup is the number of games played before counting (duel-inproc).
	Warmup int `json:"warmup_games,omitempty"`
	// SeatWins and SeatGames split a duel by the bot's seat (index 0
	// shoots first and wins ties).
	SeatWins  [2]int `json:"seat_wins,omitzero"`
	SeatGames [2]int `json:"seat_games,omitzero"`
	// BotShots and OppShots (-full) are the shots each side needed to sink
	// the other's fleet; ShotEdge is the opponent's minus the bot's.
	BotShots    *ShotStats    `json:"bot_shots,omitempty"`
	OppShots    *ShotStats    `json:"opponent_shots,omitempty"`
	ShotEdge    *PairedDiff   `json:"shot_edge,omitempty"`
	Calibration []CalibResult `json:"calibration,omitempty"`
	ElapsedSecs float64       `json:"elapsed_seconds"`
	// Interrupted is a run stopped by a signal: the figures cover the
	// games finished (Games).
	Interrupted bool `json:"interrupted,omitempty"`
}

// WinRate is a duel's win rate with its Wilson 95% interval.
type WinRate struct {
	Rate   float64 `json:"rate"`
	Low95  float64 `json:"low95"`
	High95 float64 `json:"high95"`
}

type ShotStats struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	Max    int     `json:"max"`
	Min    int     `json:"min"`
}

type LatencyStats struct {
	Requests int     `json:"requests"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
	Maxms    float64 `json:"max_ms"`
	// Slow counts requests over 100 ms (scheduler stalls on a loaded
	// machine show up here rather than in p99).
	Slow int `json:"over_100ms"`
	// SlowestAt is the index of the slowest request.
	SlowestAt int `json:"slowest_at"`
}

type ConfigResult struct {
	Name    string  `json:"name"`
	OK      bool    `json:"ok"`
	Detail  string  `json:"detail,omitempty"`
	Shots   int     `json:"shots,omitempty"`
	P99ms   float64 `json:"p99_ms"`
	InitMs  float64 `json:"init_ms"`
	Maxms   float64 `json:"max_ms"`
	Invalid bool    `json:"invalid"`
}

// finish stamps a run's report: who it was about, how long it took, and
// whether ctx cut it short.
func (rep *Report) finish(ctx context.Context, bot string, start time.Time) *Report {
	rep.Bot = bot
	rep.ElapsedSecs = math.Round(time.Since(start).Seconds()*100) / 100
	rep.Interrupted = ctx.Err() != nil
	return rep
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func boardName(r battleship.Rules) string {
	f := r.Fleet
	return fmt.Sprintf("%dx%d ships %d,%d,%d,%d,%d,%d", r.W, r.H, f[1], f[2], f[3], f[4], f[5], f[6])
}

// summarizeShots is nil for no games.
func summarizeShots(v []int) *ShotStats {
	if len(v) == 0 {
		return nil
	}
	s := slices.Clone(v)
	slices.Sort(s)
	sum := 0
	for _, x := range s {
		sum += x
	}
	n := len(s)
	return &ShotStats{
		Mean:   math.Round(float64(sum)/float64(n)*100) / 100,
		Median: float64(stats.Quantile(s, 0.5)),
		P90:    float64(stats.Quantile(s, 0.9)),
		Max:    s[n-1],
		Min:    s[0],
	}
}

func fillCalls(rep *Report, st *callStats) {
	rep.Invalid = len(st.invalid)
	rep.InvalidWhy = st.invalid[:min(5, len(st.invalid))]
	rep.Latency = latency(st.latencies)
}

func latency(d []time.Duration) LatencyStats {
	if len(d) == 0 {
		return LatencyStats{}
	}
	slow, at := 0, 0
	for i, v := range d {
		if v > 100*time.Millisecond {
			slow++
		}
		if v > d[at] {
			at = i
		}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return LatencyStats{Requests: len(s), P50ms: jsonl.Millis(stats.Quantile(s, 0.5)), P99ms: jsonl.Millis(stats.Quantile(s, 0.99)), Maxms: jsonl.Millis(s[len(s)-1]), Slow: slow, SlowestAt: at}
}
