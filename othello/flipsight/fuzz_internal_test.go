package flipsight

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/wire"
)

// FuzzPollReply feeds arbitrary agent_poll answers to the connector: it
// must never panic, and every move it sends for a bot leg must come from
// that leg's legal_moves (or be −1 when they are empty).
func FuzzPollReply(f *testing.F) {
	f.Add([]byte(`{"ok":true,"bot":{"id":7},"matches":[{"id":5,"bot_a":3,"bot_b":7,"status":"running","state":{"game_mode":"std","board_size":8,"legs":[{"board":[0],"turn":2,"black_participant":0,"clocks_ms":[1000],"legal_moves":[1,2],"status":"active","revision":3}]}}]}`))
	f.Add([]byte(`{"ok":true,"bot":{"id":7},"matches":[{"id":-45,"kind":"human","bot_a":7,"status":"running","round_no":3,"room_created_at":"x","state":{"game_mode":"grand","legs":[{"turn":1,"black_participant":0,"legal_moves":[],"status":"active"}]}}]}`))
	f.Add([]byte(`{"ok":true,"bot":{"id":7},"matches":[{"id":9,"bot_a":3,"bot_b":7,"status":"pending"}]}`))
	type sent struct {
		MatchID int64 `json:"match_id"`
		Leg     int   `json:"leg"`
		Move    int   `json:"move"`
	}
	moves := make(chan sent, 64)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var s sent
		_ = json.NewDecoder(r.Body).Decode(&s)
		select {
		case moves <- s:
		default:
		}
		_, _ = w.Write([]byte(`{"ok":true,"server_now_ms":1}`))
	}))
	defer ts.Close()
	f.Fuzz(func(t *testing.T, b []byte) {
		var r PollReply
		if json.Unmarshal(b, &r) != nil {
			return
		}
		for len(moves) > 0 {
			<-moves
		}
		a := NewAgent(Options{
			Client: &Client{HTTP: ts.Client(), API: ts.URL, Token: "fsbm_x"},
			NewEngine: func() wire.Engine {
				return wire.InProcess{E: othello.NewEngine(othello.EngineOptions{TTBits: 10, MaxDepth: 1})}
			},
			MaxThink: 20 * time.Millisecond,
		})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		a.runCtx = ctx
		a.handlePoll(ctx, &r, time.Now())
		a.wg.Wait()
		cancel()
		for len(moves) > 0 {
			s := <-moves
			for _, m := range r.Matches {
				if int64(m.ID) != s.MatchID || m.State == nil || s.Leg >= len(m.State.Legs) || s.Leg < 0 {
					continue
				}
				leg := &m.State.Legs[s.Leg]
				legal := []int(leg.LegalMoves)
				if legal == nil { // absent: the connector computes them from the board
					legal = legalFromBoard(m.State, leg, int(leg.Turn))
				}
				ok := len(legal) == 0 && s.Move == -1
				for _, l := range legal {
					ok = ok || l == s.Move
				}
				if !ok {
					t.Fatalf("sent move %d for leg %d, legal %v", s.Move, s.Leg, legal)
				}
			}
		}
	})
}
