package battleship

import (
	"fmt"
	"sync"
	"testing"
)

func turnReq(r Rules, opponent string, yours, his []Strike) *Request {
	return &Request{Action: "play-turn", Opponent: opponent, Rules: r, Yours: yours, HisTargets: his}
}

// TestBotConcurrent: many games at once on one Bot (run with -race),
// including both seats of one game-id, always get valid answers.
func TestBotConcurrent(t *testing.T) {
	bot := NewBot(Options{})
	r := std10
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			init, err := bot.Init(&Request{Action: "init", Opponent: "gamebot", Rules: r})
			if err != nil || len(init.Boats) != 5 {
				t.Errorf("init: %v %v", init, err)
				return
			}
			hist := gameHistory(t, r, 10+g, true, uint64(g))
			for i := range 5 {
				ans, err := bot.PlayTurn(turnReq(r, "gamebot", hist[:len(hist)-i], hist))
				if err != nil {
					t.Error(err)
					return
				}
				if x, y, ok := ParseTarget(ans.Play); !ok || x >= r.W || y >= r.H {
					t.Errorf("play %q", ans.Play)
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
		if _, err := bot.PlayTurn(turnReq(r, "lefty", nil, his)); err != nil {
			t.Fatal(err)
		}
		// Other lengths of the same game do not count again.
		if _, err := bot.PlayTurn(turnReq(r, "lefty", nil, his[:k-1])); err != nil {
			t.Fatal(err)
		}
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
		ans, err := bot.Init(&Request{Action: "init", Opponent: "lefty", Rules: r})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range ans.Boats {
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
		if _, err := bot.PlayTurn(turnReq(r, fmt.Sprintf("opp%d", i), nil, his)); err != nil {
			t.Fatal(err)
		}
	}
	if n := bot.Len(); n > 4 {
		t.Errorf("%d opponents kept, cap is 4", n)
	}
}

func TestBotErrors(t *testing.T) {
	bot := NewBot(Options{})
	if _, err := bot.Init(&Request{Rules: Rules{W: 5, H: 5, Fleet: fleetOf(0, 0, 0, 0, 0, 1)}}); KindOf(err) != Impossible {
		t.Errorf("impossible fleet: %v", err)
	}
	ans, err := bot.PlayTurn(&Request{BoardErr: malformed("missing width")})
	if KindOf(err) != Malformed || ans.Play != "0,0" {
		t.Errorf("unreadable board: %q, %v", ans.Play, err)
	}
	if _, err := bot.Init(&Request{BoardErr: malformed("x")}); KindOf(err) != Malformed {
		t.Errorf("init with unreadable board: %v", err)
	}
}
