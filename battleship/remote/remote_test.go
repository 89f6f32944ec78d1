package remote

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/wire"
)

// TestAsk: New posts the arena's message with its headers and reads
// any status; AskFleet and AskShot judge the answers as the arena does.
func TestAsk(t *testing.T) {
	r := battleship.Rules{W: 4, H: 3, Fleet: battleship.Fleet{0, 1, 1}}
	var answer string
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		got = nil
		_ = json.Unmarshal(b, &got)
		if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" || req.Header.Get("Accept") != "*/*" {
			t.Errorf("%s with Content-Type %q, Accept %q", req.Method, req.Header.Get("Content-Type"), req.Header.Get("Accept"))
		}
		if answer == "redirect" {
			http.Redirect(w, req, "/elsewhere", http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusInternalServerError) // the arena ignores the status
		_, _ = io.WriteString(w, answer)
	}))
	defer srv.Close()
	call := New(srv.URL, 0)
	for _, tt := range []struct {
		answer string
		ok     bool
	}{
		{`{"name":"x","boats":["0,0-0,0","1,2-2,2"]}`, true},
		{`{"boats":{"a":"3,1-3,1","b":"0,1-0,2"}}`, true},
		{`{"boats":["0,0-0,0"]}`, false},
		{`{"boats":["0,0-0,0","1,2-2,1"]}`, false},
		{`{"boats":null}`, false},
		{`["0,0-0,0","1,2-2,2"]`, false},
		{`redirect`, false},
	} {
		answer = tt.answer
		ships, err := AskFleet(t.Context(), call, 7, 1, r, "you")
		if (err == nil) != tt.ok || tt.ok && len(ships) != 2 {
			t.Errorf("fleet answer %s: %v, %v", tt.answer, ships, err)
		}
		if got["action"] != "init" || got["player-index"] != 1.0 || got["game-id"] != 7.0 {
			t.Errorf("init message %v", got)
		}
	}
	yours := []wire.Strike{{Target: "3,2", Result: ""}}
	for _, tt := range []struct {
		answer, target string
	}{
		{`{"play":"1,2"}`, "1,2"},
		{`{"play":"01,2"}`, "01,2"}, // the arena records it as given: it never hits
		{`{"play":"4,0"}`, ""},
		{`{"play":[1,2]}`, ""},
		{`{"play":"1;2"}`, ""},
		{`not json`, ""},
	} {
		answer = tt.answer
		target, err := AskShot(t.Context(), call, 7, 0, r, "you", yours, nil)
		var invalid *wire.InvalidAnswer
		if target != tt.target || (tt.target == "") != errors.As(err, &invalid) {
			t.Errorf("shot answer %s: %q, %v", tt.answer, target, err)
		}
		b, _ := got["board"].(map[string]any)
		if got["action"] != "play-turn" || b == nil || len(b["your_strikes"].([]any)) != 1 || len(b["his_strikes"].([]any)) != 0 {
			t.Errorf("play-turn message %v", got)
		}
	}
	srv.Close()
	if _, err := AskShot(t.Context(), call, 7, 0, r, "you", nil, nil); err == nil {
		t.Error("a bot that does not answer: no error")
	}
}
