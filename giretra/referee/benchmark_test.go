package referee

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/referee/refereetest"
)

// benchmark is giretra-ref benchmark's defaults: target 500, a Colour
// sweep worth 25 × the multiplier, K 24 from 1200 each.
func benchmark(t *testing.T, a, b string, matches int, seed int64) BenchmarkConfig {
	c := BenchmarkConfig{Setup: setup(t), A: a, B: b, Matches: matches, K: 24, EloA: 1200, EloB: 1200}
	c.Target, c.Sweep, c.Seed, c.Seeded = 500, 25, seed, true
	return c
}

func TestBenchmarkAgents(t *testing.T) {
	c := benchmark(t, "eva", "random", 20, 2)
	c.Seats = "alternate"
	rep, err := Benchmark(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Played != 20 || rep.AWins+rep.BWins != 20 || rep.Target != 500 || rep.Sweep != 25 {
		t.Errorf("report %+v", rep)
	}
	if rep.AWins < 15 {
		t.Errorf("eva won %d/20 against random", rep.AWins)
	}
	if rep.AdjustedEloB == nil || math.Abs(*rep.AdjustedEloB-1000) > 1e-9 {
		t.Errorf("adjusted Elo of random: %v", rep.AdjustedEloB)
	}
	if rep.AMatchesAsTeam1 != 10 {
		t.Errorf("alternate seats: %d matches as Team1", rep.AMatchesAsTeam1)
	}
	// The engine's defaults: DeterministicPlayer against CalculatingPlayer.
	if rep, err := Benchmark(t.Context(), benchmark(t, "", "", 1, 2)); err != nil || rep.A != "DeterministicPlayer" || rep.B != "CalculatingPlayer" {
		t.Errorf("defaults: %v, %s vs %s", err, rep.A, rep.B)
	}
}

func TestBenchmarkBotVsBotAborts(t *testing.T) {
	good := refereetest.NewBot("eva")
	bad := refereetest.NewBot("random")
	bad.Fault = func(e string, s *refereetest.Session, n int) (int, string, bool) {
		if e == "choose-card" && n > 40 {
			return 200, `{"rank":"Jack"}`, true
		}
		return 0, "", false
	}
	u1, u2 := serve(t, good), serve(t, bad)
	c := benchmark(t, u1, u2, 3, 1)
	c.Target, c.Concurrency = 151, 2
	rep, err := Benchmark(t.Context(), c)
	if err != nil || rep.Aborted == "" {
		t.Errorf("err %v, aborted %q", err, rep.Aborted)
	}
	// Healthy bot vs bot. The aborted run may leave a request in flight.
	bad.Lock()
	bad.Fault = nil
	bad.Unlock()
	c = benchmark(t, u1, u2, 2, 1)
	c.Target = 151
	if rep, err := Benchmark(t.Context(), c); err != nil || rep.Aborted != "" || rep.Played != 2 {
		t.Fatalf("%v: %+v", err, rep)
	}
}

// Duplicate benchmark: pairs share decks and cuts, so the hands of the
// first deal of both matches of a pair are the same seat by seat.
func TestBenchmarkDuplicate(t *testing.T) {
	dir := t.TempDir()
	c := benchmark(t, "eva", "calculating", 7, 3)
	c.Duplicate, c.RecordDir = true, dir
	rep, err := Benchmark(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Played != 8 || rep.Seats != "alternate" || rep.Duplicate == nil || rep.Duplicate.Pairs != 4 {
		t.Fatalf("report %+v, duplicate %+v", rep, rep.Duplicate)
	}
	d := rep.Duplicate
	if d.WinDiff.Lo > d.WinDiff.Mean || d.WinDiff.Hi < d.WinDiff.Mean || math.Abs(d.WinDiff.Mean-(float64(rep.AWins-rep.BWins)/8)) > 1e-9 {
		t.Errorf("win difference %+v for %d-%d", d.WinDiff, rep.AWins, rep.BWins)
	}
	ms, err := record.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < len(ms); j += 2 {
		a, b := ms[j], ms[j+1]
		if a.Header.Deals != j/2+1 || b.Header.Deals != j/2+1 {
			t.Errorf("deal sequences %d, %d", a.Header.Deals, b.Header.Deals)
		}
		n := min(len(a.Deals), len(b.Deals))
		for k := range n {
			if fmt.Sprint(a.Deals[k].Cut.Hands) != fmt.Sprint(b.Deals[k].Cut.Hands) || a.Deals[k].Cut.Asked == nil {
				t.Fatalf("pair %d deal %d: different hands", j/2, k+1)
			}
		}
	}
}

// -partner: the bot holds one seat of its team, the partner the other.
func TestPartner(t *testing.T) {
	bot := refereetest.NewBot("eva")
	c := validation(t, serve(t, bot), 2, 4)
	c.Seats, c.Partner = "alternate", "calculating"
	rep, err := Validate(t.Context(), c)
	if err != nil || !rep.Pass || rep.Partner != "calculating" {
		t.Fatalf("err %v, %+v", err, rep)
	}
	seats := map[string]int{}
	for _, id := range bot.Order {
		seats[bot.Sessions[id].Seat.String()]++
	}
	if seats["Bottom"] != 1 || seats["Left"] != 1 || len(bot.Order) != 2 {
		t.Errorf("sessions by seat %v: want one Bottom (Team1) and one Left (Team2)", seats)
	}
	b := benchmark(t, "eva", "eva", 2, 4)
	b.Partner = "random"
	br, err := Benchmark(t.Context(), b)
	if err != nil || br.Partner != "random" || br.Played != 2 {
		t.Errorf("benchmark with a partner: %v %+v", err, br)
	}
}

// The same seed writes the same records (agents only: calls carry latencies).
func TestRecordsReproducible(t *testing.T) {
	var files [2][]byte
	for i := range files {
		c := benchmark(t, "eva", "noisy-eva", 4, 12)
		c.Target, c.Concurrency, c.Duplicate, c.RecordDir = 151, 2, true, t.TempDir()
		if _, err := Benchmark(t.Context(), c); err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 4; n++ {
			b, err := os.ReadFile(filepath.Join(c.RecordDir, fmt.Sprintf("match-%04d.jsonl", n)))
			if err != nil {
				t.Fatal(err)
			}
			files[i] = append(files[i], b...)
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("two runs with the same seed wrote different records")
	}
}
