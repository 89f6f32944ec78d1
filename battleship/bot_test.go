package battleship

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/botarena/gamebot/internal/problem"
)

// TestBotConcurrent: many games at once on one Bot (run with -race),
// including both seats of one game-id, always get valid answers.
func TestBotConcurrent(t *testing.T) {
	bot := NewBot(Options{})
	r := std10
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			boats, err := bot.Init("gamebot", r, uint64(g))
			if err != nil || len(boats) != 5 {
				t.Errorf("init: %v %v", boats, err)
				return
			}
			hist := gameHistory(t, r, 10+g, true, uint64(g))
			for i := range 5 {
				if x, y := bot.PlayTurn("gamebot", r, hist[:len(hist)-i], hist, uint64(g)); x < 0 || y < 0 || x >= r.W || y >= r.H {
					t.Errorf("play %d,%d", x, y)
				}
			}
		})
	}
	wg.Wait()
}

// openingShots is an opponent that always opens on the left half of the
// board (rows 0..3 of columns 0..4), missing.
func openingShots(r Rules, k int) []Strike {
	var his []Strike
	for i := range k {
		his = append(his, Strike{X: i % 5, Y: (i / 5) % 4, OK: true})
	}
	return his
}

// playHis shows the bot one game of the opponent's shots, as the arena
// does: init, then one play-turn per shot of his (the newest is the one
// the bot has not seen).
func playHis(bot *Bot, opp string, r Rules, his []Strike) {
	bot.Init(opp, r, 1)
	for n := 1; n <= len(his); n++ {
		bot.PlayTurn(opp, r, nil, his[:n], 1)
	}
}

// TestBotLearnsOpening: the opponent's opening shots are recorded once
// each (every play-turn shows one new shot) and placement then avoids
// them; the number of opponents kept is capped.
func TestBotLearnsOpening(t *testing.T) {
	bot := NewBot(Options{MaxOpponents: 4})
	r := std10
	his := openingShots(r, 20)
	for range 10 {
		playHis(bot, "lefty", r, his)
	}
	heat, games := bot.mem.heatMap(statsKey("lefty", r), r)
	if heat == nil || games < 5 {
		t.Fatalf("no statistics after 10 games (%v games)", games)
	}
	// Each shot k of a game adds (window-k)/window once per game.
	win := huntWindow(r)
	want := 0.0
	for g := range 10 {
		want = want*heatFade + float64(win)/float64(win)
		_ = g
	}
	if got := heat[0] * games; math.Abs(got-want) > 1e-3 {
		t.Errorf("cell 0,0 heat %.4f, want %.4f (each shot counted once per game)", got, want)
	}
	left, right := 0, 0
	for g := range 100 {
		boats, err := bot.Init("lefty", r, uint64(g))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range boats {
			s, _, _ := parseBoat(b)
			if s.X < 5 && s.Y < 4 {
				left++
			} else {
				right++
			}
		}
	}
	if left*3 > right {
		t.Errorf("placement ignores the opponent's habits: %d ships in its hot zone, %d elsewhere", left, right)
	}
	for i := range 20 {
		bot.PlayTurn(fmt.Sprintf("opp%d", i), r, nil, his[:1], 1)
	}
	if n := bot.Len(); n > 4 {
		t.Errorf("%d opponents kept, cap is 4", n)
	}
}

// TestBotMemoryBytesBound: the tables never exceed MaxMemoryBytes, even
// on the largest boards.
func TestBotMemoryBytesBound(t *testing.T) {
	bot := NewBot(Options{MaxMemoryBytes: 3 * 100 * 100 * bytesPerCell})
	r := Rules{W: 100, H: 100, Fleet: fleetOf(0, 1)}
	for i := range 10 {
		bot.PlayTurn(fmt.Sprintf("opp%d", i), r, nil, []Strike{{X: 1, Y: 1, OK: true}}, 1)
		if got := bot.MemoryBytes(); got > 3*100*100*bytesPerCell {
			t.Fatalf("%d bytes held, bound %d", got, 3*100*100*bytesPerCell)
		}
	}
	if n := bot.Len(); n != 3 {
		t.Errorf("%d opponents kept, want 3 (the byte bound)", n)
	}
}

// TestBotPriorLearns: against an opponent whose ships always lie in the
// bottom rows, the prior learnt from the play-turns alone rises there and
// falls elsewhere, and the first shot moves there.
func TestBotPriorLearns(t *testing.T) {
	bot := NewBot(Options{})
	r := std10
	rng := rand.New(rand.NewPCG(3, 3))
	bottom := func() []Ship { // every ship horizontal in rows 5..9
		var f []Ship
		for i, l := range r.Fleet.Lengths() {
			f = append(f, Ship{X: rng.IntN(r.W - l + 1), Y: 5 + i, L: l})
		}
		return f
	}
	for g := range 30 {
		bot.Init("low", r, uint64(g))
		a := NewArena(r, bottom())
		var yours []Strike
		for a.Remaining() > 0 {
			x, y := bot.PlayTurn("low", r, yours, nil, uint64(g))
			yours = append(yours, Strike{X: x, Y: y, OK: true, Result: ParseResult(a.Shoot(FormatTarget(x, y)))})
		}
	}
	w := bot.mem.prior(statsKey("low", r), r, nil)
	if w == nil {
		t.Fatal("no prior after 30 games")
	}
	top, low := 0.0, 0.0
	for c, v := range w {
		if c/r.W < 4 {
			top += v
		} else if c/r.W >= 5 {
			low += v
		}
	}
	if top/40 > 0.8 || low/50 < 1.2 {
		t.Errorf("prior: mean %.2f in the empty top rows, %.2f in the ship rows", top/40, low/50)
	}
	lowFirst := 0
	for g := range 50 {
		if _, y := bot.PlayTurn("low", r, nil, nil, uint64(1000+g)); y >= 5 {
			lowFirst++
		}
	}
	if lowFirst < 40 {
		t.Errorf("first shot in the ship rows %d times of 50", lowFirst)
	}
	// A new opponent: no prior, the usual opening.
	if bot.mem.prior(statsKey("new", r), r, nil) != nil {
		t.Error("a prior for an opponent never seen")
	}
}

// TestBotPredictionsOnce: a play-turn learns from the result of the shot
// the previous play-turn chose, once: a repeated request learns nothing
// more.
func TestBotPredictionsOnce(t *testing.T) {
	bot := NewBot(Options{})
	r := std10
	bot.Init("o", r, 1)
	x, y := bot.PlayTurn("o", r, nil, nil, 1)
	yours := []Strike{{X: x, Y: y, OK: true, Result: Hit}}
	bot.PlayTurn("o", r, yours, nil, 1)
	e := bot.mem.entries[statsKey("o", r)]
	c := y*r.W + x
	if e.hits[c] != 1 || e.expect[c] <= 0 || e.expect[c] > 0.5 {
		t.Fatalf("after one hit at %d,%d: hits %v expect %v", x, y, e.hits[c], e.expect[c])
	}
	bot.PlayTurn("o", r, yours, nil, 1)
	if e.hits[c] != 1 {
		t.Errorf("a repeated request counted the hit again: %v", e.hits[c])
	}
	// A history the bot never chose (another shooter's) teaches nothing.
	other := []Strike{{X: (x + 1) % r.W, Y: y, OK: true, Result: Hit}}
	bot.PlayTurn("o", r, other, nil, 1)
	if e.hits[y*r.W+(x+1)%r.W] != 0 {
		t.Error("learnt from a shot it did not choose")
	}
}

func TestBotErrors(t *testing.T) {
	bot := NewBot(Options{})
	if _, err := bot.Init("x", Rules{W: 5, H: 5, Fleet: fleetOf(0, 0, 0, 0, 0, 1)}, 1); problem.KindOf(err) != problem.Impossible {
		t.Errorf("impossible fleet: %v", err)
	}
	if _, err := bot.Init("x", Rules{W: 0, H: 5}, 1); problem.KindOf(err) != problem.Impossible {
		t.Errorf("no board: %v", err)
	}
	if x, y := bot.PlayTurn("x", Rules{W: 101, H: 5}, nil, nil, 1); x != 0 || y != 0 {
		t.Errorf("unplayable rules: %d,%d, want 0,0", x, y)
	}
}

// TestBotSeeded: the same request gets the same answer (the seed is the
// game's), and different games get different fleets and openings, so a
// learning opponent has no fixed pattern to read.
func TestBotSeeded(t *testing.T) {
	r := std10
	fleets, openings := map[string]bool{}, map[[2]int]bool{}
	for g := range 40 {
		seed := GameSeed(strconv.Itoa(1000+g), g%2)
		// Fresh bots: the opponent memory must not be what differs.
		a, errA := NewBot(Options{}).Init("o", r, seed)
		b, errB := NewBot(Options{}).Init("o", r, seed)
		if errA != nil || errB != nil || !slices.Equal(a, b) {
			t.Fatalf("game %d: fleets %v and %v (%v %v) for one request", g, a, b, errA, errB)
		}
		fleets[strings.Join(a, " ")] = true
		x1, y1 := NewBot(Options{}).PlayTurn("o", r, nil, nil, seed)
		x2, y2 := NewBot(Options{}).PlayTurn("o", r, nil, nil, seed)
		if x1 != x2 || y1 != y2 {
			t.Fatalf("game %d: openings %d,%d and %d,%d for one request", g, x1, y1, x2, y2)
		}
		openings[[2]int{x1, y1}] = true
	}
	if len(fleets) < 40 || len(openings) < 5 {
		t.Errorf("40 games: %d different fleets, %d different opening shots", len(fleets), len(openings))
	}
	if GameSeed("7", 0) == GameSeed("7", 1) || GameSeed("7", 0) == GameSeed("8", 0) {
		t.Error("seats or games share a seed")
	}
}
