package battleship

import (
	"fmt"
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
			boats, err := bot.Init("gamebot", r)
			if err != nil || len(boats) != 5 {
				t.Errorf("init: %v %v", boats, err)
				return
			}
			hist := gameHistory(t, r, 10+g, true, uint64(g))
			for i := range 5 {
				if x, y := bot.PlayTurn("gamebot", r, hist[:len(hist)-i], hist); x < 0 || y < 0 || x >= r.W || y >= r.H {
					t.Errorf("play %d,%d", x, y)
				}
			}
		})
	}
	wg.Wait()
}

// TestBotLearnsAndStaysBounded: the opponent's early shots are recorded
// once per game (at one history length), placement then avoids them, and
// the number of opponents kept is capped.
func TestBotLearnsAndStaysBounded(t *testing.T) {
	bot := NewBot(Options{MaxOpponents: 4})
	r := std10
	k := learnDepth(r)
	// The opponent always opens on the left half.
	var his []Strike
	for i := range k {
		his = append(his, Strike{X: i % 5, Y: (i / 5) % 10, OK: true})
	}
	for range 10 {
		bot.PlayTurn("lefty", r, nil, his)
		// Other lengths of the same game do not count again.
		bot.PlayTurn("lefty", r, nil, his[:k-1])
	}
	heat := bot.stats.heat(statsKey("lefty", r))
	if heat == nil {
		t.Fatal("no statistics after 10 games")
	}
	e := bot.stats.entries[statsKey("lefty", r)]
	if e.games != 10 {
		t.Errorf("recorded %d games, want 10", e.games)
	}
	left, right := 0, 0
	for range 100 {
		boats, err := bot.Init("lefty", r)
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
		bot.PlayTurn(fmt.Sprintf("opp%d", i), r, nil, his)
	}
	if n := bot.Len(); n > 4 {
		t.Errorf("%d opponents kept, cap is 4", n)
	}
}

func TestBotErrors(t *testing.T) {
	bot := NewBot(Options{})
	if _, err := bot.Init("x", Rules{W: 5, H: 5, Fleet: fleetOf(0, 0, 0, 0, 0, 1)}); problem.KindOf(err) != problem.Impossible {
		t.Errorf("impossible fleet: %v", err)
	}
	if _, err := bot.Init("x", Rules{W: 0, H: 5}); problem.KindOf(err) != problem.Impossible {
		t.Errorf("no board: %v", err)
	}
	if x, y := bot.PlayTurn("x", Rules{W: 101, H: 5}, nil, nil); x != 0 || y != 0 {
		t.Errorf("unplayable rules: %d,%d, want 0,0", x, y)
	}
}
