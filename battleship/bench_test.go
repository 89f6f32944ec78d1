package battleship

import (
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// gameHistory plays a hidden fleet with the engine itself (or, for speed
// on big boards, random unshot cells) up to shots shots and returns the
// rules and the history.
func gameHistory(tb testing.TB, r Rules, shots int, engine bool, seed uint64) []Strike {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	ships, err := Place(r, rng, PlaceOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	a := NewArena(r, ships)
	order := rng.Perm(r.Cells())
	var hist []Strike
	for i := 0; len(hist) < shots && a.Remaining() > 0 && i < len(order); i++ {
		var x, y int
		if engine {
			x, y = NextShot(r, hist, rng, TargetOptions{})
		} else {
			x, y = order[i]%r.W, order[i]/r.W
		}
		res := a.Shoot(FormatTarget(x, y))
		hist = append(hist, Strike{X: x, Y: y, OK: true, Result: ParseResult(res)})
		if a.Remaining() == 0 {
			hist = hist[:len(hist)-1] // keep the game open
		}
	}
	return hist
}

var (
	std10   = Rules{W: 10, H: 10, Fleet: Fleet{0, 0, 1, 2, 1, 1, 0}}
	big100  = Rules{W: 100, H: 100, Fleet: Fleet{0, 10, 10, 10, 10, 10, 10}}
	dense21 = Rules{W: 21, H: 20, Fleet: Fleet{0, 10, 10, 10, 10, 10, 10}}
)

func benchShot(b *testing.B, r Rules, hist []Strike) {
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		NextShot(r, hist, rng, TargetOptions{})
	}
}

func BenchmarkNextShot10x10Opening(b *testing.B) { benchShot(b, std10, nil) }

func BenchmarkNextShot10x10Midgame(b *testing.B) {
	benchShot(b, std10, gameHistory(b, std10, 30, true, 1))
}

func BenchmarkNextShot21x20All60Midgame(b *testing.B) {
	benchShot(b, dense21, gameHistory(b, dense21, 200, true, 2))
}

func BenchmarkNextShot100x100All60Half(b *testing.B) {
	benchShot(b, big100, gameHistory(b, big100, 5000, false, 3))
}

func BenchmarkNextShot100x100All60Full(b *testing.B) {
	benchShot(b, big100, gameHistory(b, big100, 9900, false, 4))
}

func BenchmarkPlace10x10(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Place(std10, rng, PlaceOptions{Touch: 0.3}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlace100x100All60(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Place(big100, rng, PlaceOptions{Touch: 0.3}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlace21x20All60(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Place(dense21, rng, PlaceOptions{Touch: 0.3}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlayTurn100x100Full is a turn of the largest game the arena
// allows, late: learning from the opponent's history and the shot.
func BenchmarkPlayTurn100x100Full(b *testing.B) {
	h := gameHistory(b, big100, 9900, false, 6)
	bot := NewBot(Options{})
	b.ReportAllocs()
	for b.Loop() {
		bot.PlayTurn("x", big100, h, h, 1)
	}
}

func BenchmarkPlayTurn10x10Midgame(b *testing.B) {
	h := gameHistory(b, std10, 30, true, 7)
	bot := NewBot(Options{})
	b.ReportAllocs()
	for b.Loop() {
		bot.PlayTurn("x", std10, h, h, 1)
	}
}

// BenchmarkNextShot100x100Adversarial: an impossible history (thousands of
// hits, never sunk) must still be answered in bounded time.
func BenchmarkNextShot100x100Adversarial(b *testing.B) {
	rng := rand.New(rand.NewPCG(8, 8))
	var hist []Strike
	for i := range 9000 {
		hist = append(hist, Strike{X: rng.IntN(100), Y: rng.IntN(100), OK: true, Result: Result(1 + i%40/39)})
	}
	benchShot(b, big100, hist)
}

// BenchmarkNextShot100x100ManyOpenHits: 200 scattered hits, few sunk: a
// consistent but hard history for the explanation search.
func BenchmarkNextShot100x100ManyOpenHits(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 9))
	var hist []Strike
	for range 200 {
		hist = append(hist, Strike{X: rng.IntN(100), Y: rng.IntN(100), OK: true, Result: Hit})
	}
	benchShot(b, big100, hist)
}

// BenchmarkNextShot10x10Worst: the slowest of 300 random (mostly
// inconsistent) 10x10 histories, to bound the per-request cost.
func BenchmarkNextShot10x10Worst(b *testing.B) {
	rng := rand.New(rand.NewPCG(10, 10))
	var worst []Strike
	var worstD time.Duration
	for range 300 {
		var hist []Strike
		for range 20 + rng.IntN(60) {
			hist = append(hist, Strike{X: rng.IntN(10), Y: rng.IntN(10), OK: true, Result: Result(rng.IntN(3) * rng.IntN(2))})
		}
		t0 := time.Now()
		NextShot(std10, hist, rng, TargetOptions{})
		if d := time.Since(t0); d > worstD {
			worst, worstD = hist, d
		}
	}
	benchShot(b, std10, worst)
}

// BenchmarkOpponentMemory is the memory of a long-running server: each op
// plays 100,000 short games (init, then two turns in which the bot sees
// twenty of the opponent's shots and the result of its own first shot)
// against 1,000 opponent names, round robin, and reports the opponent
// tables' size and the Go heap in use afterwards. Run it once:
//
//	go test -run '^$' -bench OpponentMemory -benchtime 1x ./battleship
func BenchmarkOpponentMemory(b *testing.B) {
	const games, names = 100_000, 1000
	r := std10
	for b.Loop() {
		// One candidate fleet: choosing among several reads the memory but
		// never writes it, and would only make the run 8 times longer.
		bot := NewBot(Options{Candidates: 1})
		rng := rand.New(rand.NewPCG(1, 2))
		for g := range games {
			opp := "opponent-" + strconv.Itoa(g%names)
			seed := GameSeed(strconv.Itoa(g), 0)
			if _, err := bot.Init(opp, r, seed); err != nil {
				b.Fatal(err)
			}
			his := make([]Strike, 20)
			for i := range his {
				his[i] = Strike{X: rng.IntN(r.W), Y: rng.IntN(r.H), OK: true}
			}
			x, y := bot.PlayTurn(opp, r, nil, his[:19], seed)
			yours := []Strike{{X: x, Y: y, OK: true, Result: Result(rng.IntN(2))}}
			bot.PlayTurn(opp, r, yours, his, seed)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(bot.Len()), "opponents")
		b.ReportMetric(float64(bot.MemoryBytes())/(1<<20), "table-MiB")
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
		runtime.KeepAlive(bot)
	}
}

// BenchmarkInit10x10 is an init of the standard game against an opponent
// with a history: the candidate fleets are each played by a model of its
// shooter.
func BenchmarkInit10x10(b *testing.B) {
	bot := NewBot(Options{})
	his := gameHistory(b, std10, 20, false, 5)
	for g := range 5 {
		bot.Init("x", std10, uint64(g))
		bot.PlayTurn("x", std10, nil, his, uint64(g))
	}
	b.ReportAllocs()
	g := uint64(0)
	for b.Loop() {
		g++
		if _, err := bot.Init("x", std10, g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlayTurn10x10Known is a mid-game turn against an opponent the
// bot remembers: the shooting prior is rebuilt from the memory.
func BenchmarkPlayTurn10x10Known(b *testing.B) {
	h := gameHistory(b, std10, 30, true, 7)
	bot := NewBot(Options{Candidates: 1})
	for g := range 5 {
		bot.Init("x", std10, uint64(g))
		bot.PlayTurn("x", std10, h[:1], h[:1], uint64(g))
		bot.PlayTurn("x", std10, h[:2], h[:2], uint64(g))
	}
	b.ReportAllocs()
	for b.Loop() {
		bot.PlayTurn("x", std10, h, h[:5], 1)
	}
}
