package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/botarena/gamebot/battleship"
	"github.com/prometheus/client_golang/prometheus"
)

func battleshipServe(t *testing.T, h http.Handler, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/battleship", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("answer is not a JSON object: %q (%v)", rec.Body.String(), err)
	}
	return rec.Code, out
}

func newBattleshipHandler() http.Handler {
	return New(slog.New(slog.DiscardHandler), Config{}, prometheus.NewRegistry(), Deps{Battleship: battleship.NewBot(battleship.Options{})})
}

const bsBoard10 = `"opponent":"hunt","width":"10","height":"10","ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0"`

func TestBattleshipHandler(t *testing.T) {
	h := newBattleshipHandler()
	tests := []struct {
		name     string
		body     string
		status   int
		wantKey  string // key the answer must carry
		checkFit *battleship.Rules
	}{
		{name: "init from the spec", status: 200, wantKey: "boats",
			body:     `{"game-id":1853,"game":"battleship","action":"init","players":2,"player-index":0,"board":{` + bsBoard10 + `}}`,
			checkFit: &battleship.Rules{W: 10, H: 10, Fleet: battleship.Fleet{0, 0, 1, 2, 1, 1, 0}}},
		{name: "init numbers", status: 200, wantKey: "boats",
			body:     `{"action":"init","board":{"width":6,"height":2,"ship1":0,"ship2":0,"ship3":0,"ship4":0,"ship5":0,"ship6":1}}`,
			checkFit: &battleship.Rules{W: 6, H: 2, Fleet: battleship.Fleet{0, 0, 0, 0, 0, 0, 1}}},
		{name: "play-turn from the spec", status: 200, wantKey: "play",
			body: `{"game":"Battleship","game-id":1853,"action":"play-turn","player-index":0,"board":{` + bsBoard10 +
				`,"your_strikes":[{"target":"2,1","result":""},{"target":"9,5","result":"hit"}],"his_strikes":[{"target":"4,3","result":""}]}}`},
		{name: "play-turn first move, players absent", status: 200, wantKey: "play",
			body: `{"game":"Battleship","game-id":7,"action":"play-turn","player-index":1,"board":{` + bsBoard10 + `,"your_strikes":[],"his_strikes":[]}}`},
		{name: "impossible fleet is 422", status: 422, wantKey: "error",
			body: `{"action":"init","board":{"width":"5","height":"5","ship1":"0","ship2":"0","ship3":"0","ship4":"0","ship5":"0","ship6":"1"}}`},
		{name: "unreadable width on init is 400", status: 400, wantKey: "error",
			body: `{"action":"init","board":{"width":"wide","height":"5","ship1":"1","ship2":"0","ship3":"0","ship4":"0","ship5":"0","ship6":"0"}}`},
		{name: "unreadable turn still carries a legal play", status: 400, wantKey: "play",
			body: `{"action":"play-turn","board":{"height":"5"}}`},
		{name: "malformed JSON is 400", status: 400, wantKey: "error", body: `{"action":`},
		{name: "not an object is 400", status: 400, wantKey: "error", body: `[]`},
		{name: "empty body is 400", status: 400, wantKey: "error", body: ``},
		{name: "unknown action is harmless", status: 200, wantKey: "status", body: `{"action":"end-game","game":"battleship"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := battleshipServe(t, h, tt.body)
			if status != tt.status {
				t.Errorf("status %d, want %d (%v)", status, tt.status, out)
			}
			if _, ok := out[tt.wantKey]; !ok {
				t.Fatalf("answer %v lacks %q", out, tt.wantKey)
			}
			if play, ok := out["play"].(string); ok {
				if _, _, ok := battleship.ParseTarget(play); !ok {
					t.Errorf("play %q is not canonical", play)
				}
			}
			if tt.checkFit != nil {
				checkBoatsAnswer(t, *tt.checkFit, out["boats"])
			}
		})
	}
}

func checkBoatsAnswer(t *testing.T, r battleship.Rules, v any) {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("boats is %T", v)
	}
	var ships []battleship.Ship
	for _, b := range list {
		s, _ := b.(string)
		a, z, ok := strings.Cut(s, "-")
		x1, y1, ok1 := battleship.ParseTarget(a)
		x2, y2, ok2 := battleship.ParseTarget(z)
		if !ok || !ok1 || !ok2 || (x1 != x2 && y1 != y2) {
			t.Fatalf("boat %q malformed", s)
		}
		sh := battleship.Ship{X: min(x1, x2), Y: min(y1, y2), L: max(x2-x1, x1-x2, y2-y1, y1-y2) + 1, Vertical: x1 == x2 && y1 != y2}
		ships = append(ships, sh)
	}
	if err := battleship.CheckPlacement(r, ships); err != nil {
		t.Fatalf("boats %v: %v", list, err)
	}
}

// TestBattleshipHandlerGame plays whole games end to end through a real
// HTTP server, both seats of one game-id at once (self-play): every answer
// is valid for the arena, shots never repeat, and each seat sinks its
// hidden fleet.
func TestBattleshipHandlerGame(t *testing.T) {
	srv := httptest.NewServer(newBattleshipHandler())
	defer srv.Close()
	r := battleship.Rules{W: 10, H: 10, Fleet: battleship.Fleet{0, 0, 1, 2, 1, 1, 0}}
	post := func(body string) ([]byte, error) {
		resp, err := http.Post(srv.URL+"/battleship", "application/json", strings.NewReader(body))
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	type strike struct {
		Target string `json:"target"`
		Result string `json:"result"`
	}
	var wg sync.WaitGroup
	for seat := range 2 {
		wg.Go(func() {
			idx := strconv.Itoa(seat)
			raw, err := post(`{"game-id":42,"game":"battleship","action":"init","players":2,"player-index":` + idx + `,"board":{` + bsBoard10 + `}}`)
			if err != nil {
				t.Error(err)
				return
			}
			var ans struct{ Boats []string }
			if err := json.Unmarshal(raw, &ans); err != nil || len(ans.Boats) != 5 {
				t.Errorf("seat %d: init answer %q", seat, raw)
				return
			}
			hidden := battleship.RandomFleet(r, rand.New(rand.NewPCG(uint64(seat), 5)))
			arena := battleship.NewArena(r, hidden)
			var mine []strike
			seen := map[string]bool{}
			for arena.Remaining() > 0 {
				if len(mine) >= 100 {
					t.Errorf("seat %d: no win after 100 shots", seat)
					return
				}
				hist, _ := json.Marshal(mine)
				raw, err := post(`{"game":"Battleship","game-id":42,"action":"play-turn","player-index":` + idx +
					`,"board":{` + bsBoard10 + `,"your_strikes":` + string(hist) + `,"his_strikes":[]}}`)
				if err != nil {
					t.Error(err)
					return
				}
				var turn struct{ Play string }
				if err := json.Unmarshal(raw, &turn); err != nil {
					t.Errorf("seat %d: answer %q", seat, raw)
					return
				}
				target, ok := arena.ValidShot(turn.Play)
				if !ok || seen[target] {
					t.Errorf("seat %d: shot %q invalid or repeated", seat, turn.Play)
					return
				}
				seen[target] = true
				mine = append(mine, strike{Target: target, Result: arena.Shoot(target)})
			}
		})
	}
	wg.Wait()
}

// TestBattleshipHandlerBigBoard: 100x100 with all 60 ships, init and a
// late turn with long histories both answer validly.
func TestBattleshipHandlerBigBoard(t *testing.T) {
	h := newBattleshipHandler()
	board := `"opponent":"x","width":"100","height":"100","ship1":"10","ship2":"10","ship3":"10","ship4":"10","ship5":"10","ship6":"10"`
	status, out := battleshipServe(t, h, `{"action":"init","board":{`+board+`}}`)
	if status != 200 {
		t.Fatalf("init status %d: %v", status, out)
	}
	var b strings.Builder
	b.WriteString(`{"action":"play-turn","board":{` + board + `,"your_strikes":[`)
	for i := range 5000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"target":"` + strconv.Itoa(i%100) + `,` + strconv.Itoa(i/100) + `","result":""}`)
	}
	b.WriteString(`],"his_strikes":[]}}`)
	status, out = battleshipServe(t, h, b.String())
	play, _ := out["play"].(string)
	x, y, ok := battleship.ParseTarget(play)
	if status != 200 || !ok || y < 50 || x >= 100 || y >= 100 {
		t.Fatalf("status %d play %q: want a canonical unshot cell (rows 50..99)", status, play)
	}
}

// FuzzBattleshipHandler: any body gets a JSON object answer with a 200,
// 400 or 422 status, never a panic; a play-turn answer always carries a
// canonical shot.
func FuzzBattleshipHandler(f *testing.F) {
	f.Add([]byte(`{"game-id":1853,"game":"battleship","action":"init","players":2,"player-index":0,"board":{` + bsBoard10 + `}}`))
	f.Add([]byte(`{"game":"Battleship","game-id":1853,"action":"play-turn","player-index":0,"board":{` + bsBoard10 +
		`,"your_strikes":[{"target":"2,1","result":""},{"target":"9,5","result":"hit"}],"his_strikes":[{"target":"4,3","result":""}]}}`))
	f.Add([]byte(`{"action":"play-turn","board":{"width":"3","height":"1e0","ship1":1,"ship2":"0","ship3":"0","ship4":"0","ship5":"0","ship6":"0","your_strikes":"[]"}}`))
	f.Add([]byte(`{"action":"init","board":{"width":"5","height":"5","ship1":"0","ship2":"0","ship3":"0","ship4":"0","ship5":"0","ship6":"1"}}`))
	h := newBattleshipHandler()
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/battleship", bytes.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case 200, 400, 422:
		default:
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body.String())
		}
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("answer is not a JSON object: %q", rec.Body.String())
		}
		if play, ok := out["play"]; ok {
			s, _ := play.(string)
			if _, _, ok := battleship.ParseTarget(s); !ok {
				t.Fatalf("play %v is not a canonical cell", play)
			}
		}
	})
}

// TestBattleshipReplay: two servers asked the same requests give the same
// answers (randomness is seeded from game-id, player-index and the
// history, never from the clock), other games get other fleets, and the
// opponent memory shows in /metrics.
func TestBattleshipReplay(t *testing.T) {
	newServer := func() *Server {
		return New(slog.New(slog.DiscardHandler), Config{}, prometheus.NewRegistry(), Deps{Battleship: battleship.NewBot(battleship.Options{})})
	}
	s1, s2 := newServer(), newServer()
	post := func(s *Server, body string) string {
		t.Helper()
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/battleship", strings.NewReader(body)))
		if rec.Code != http.StatusOK {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	fleets := map[string]bool{}
	for id := range 5 {
		init := `{"game-id":` + strconv.Itoa(id) + `,"game":"battleship","action":"init","players":2,"player-index":0,"board":{"opponent":"rival",` + bsBoard10 + `}}`
		a, b := post(s1, init), post(s2, init)
		if a != b {
			t.Errorf("game %d: init answered %s and %s", id, a, b)
		}
		fleets[a] = true
		turn := `{"game":"Battleship","game-id":` + strconv.Itoa(id) + `,"action":"play-turn","player-index":0,"board":{"opponent":"rival",` + bsBoard10 +
			`,"your_strikes":[{"target":"4,4","result":""}],"his_strikes":[{"target":"0,0","result":""}]}}`
		if a, b := post(s1, turn), post(s2, turn); a != b {
			t.Errorf("game %d: play-turn answered %s and %s", id, a, b)
		}
	}
	if len(fleets) < 5 {
		t.Errorf("5 games, %d different fleets", len(fleets))
	}
	rec := httptest.NewRecorder()
	s1.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if !strings.Contains(rec.Body.String(), "bot_battleship_opponents 1\n") || !strings.Contains(rec.Body.String(), "bot_battleship_memory_bytes 1200\n") {
		t.Errorf("metrics lack the battleship memory:\n%s", rec.Body)
	}
}
