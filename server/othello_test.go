package server

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/gamebot/othello"
	"github.com/prometheus/client_golang/prometheus"
)

func othelloTestHandler() http.Handler {
	return New(slog.New(slog.NewTextHandler(io.Discard, nil)), Config{}, prometheus.NewRegistry(), Deps{Othello: othello.NewEngine(othello.EngineOptions{TTBits: 14, MaxDepth: 4})})
}

func postOthello(t *testing.T, h http.Handler, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/othello/move", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestOthelloMoveSpecExamples posts every example request of the FlipSight
// documents and expects a move from its legal_moves.
func TestOthelloMoveSpecExamples(t *testing.T) {
	h := othelloTestHandler()
	for _, mode := range []string{"std", "anti", "grand", "octagon", "reversi"} {
		b, err := os.ReadFile("../othello/wire/testdata/spec_" + mode + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var in struct {
			LegalMoves []int `json:"legal_moves"`
		}
		if err := json.Unmarshal(b, &in); err != nil {
			t.Fatal(err)
		}
		rec := postOthello(t, h, string(b))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: status %d %s", mode, rec.Code, rec.Body)
		}
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		mv, ok := out["move"].(float64)
		if !ok || len(out) != 1 || !slices.Contains(in.LegalMoves, int(mv)) {
			t.Errorf("%s: answer %s not a move from %v", mode, rec.Body, in.LegalMoves)
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s: content type %q", mode, ct)
		}
	}
}

func TestOthelloMoveErrors(t *testing.T) {
	h := othelloTestHandler()
	std, err := os.ReadFile("../othello/wire/testdata/spec_std.json")
	if err != nil {
		t.Fatal(err)
	}
	valid := strings.TrimSpace(string(std))
	tests := []struct {
		name string
		body string
		code int
		move *int
	}{
		{"empty body", "", 400, nil},
		{"not json", "{", 400, nil},
		{"trailing", valid + "{}", 400, nil},
		{"wrong type", strings.Replace(valid, `"color": 1`, `"color": "black"`, 1), 400, nil},
		{"missing legal_moves", strings.Replace(valid, `"legal_moves": [19, 26, 37, 44], `, "", 1), 400, nil},
		{"unknown mode", strings.Replace(valid, `"game_mode": "std"`, `"game_mode": "go"`, 1), 422, nil},
		{"bad color", strings.Replace(valid, `"color": 1`, `"color": 0`, 1), 422, nil},
		{"move off board", strings.Replace(valid, `[19, 26, 37, 44]`, `[19, 64]`, 1), 422, nil},
		{"move occupied", strings.Replace(valid, `[19, 26, 37, 44]`, `[27]`, 1), 422, nil},
		{"size mismatch", strings.Replace(valid, `"board_size": 8`, `"board_size": 10`, 1), 422, nil},
		{"pass", strings.Replace(valid, `[19, 26, 37, 44]`, `[]`, 1), 200, othelloIntPtr(-1)},
		{"single move", strings.Replace(valid, `[19, 26, 37, 44]`, `[37]`, 1), 200, othelloIntPtr(37)},
		{"unknown fields ok", strings.Replace(valid, `"color": 1`, `"color": 1, "extra": {"x": [1]}`, 1), 200, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := postOthello(t, h, tc.body)
			if rec.Code != tc.code {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.code, rec.Body)
			}
			var out map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
				t.Fatalf("body %q is not JSON: %v", rec.Body, err)
			}
			if tc.code != 200 {
				if msg, _ := out["error"].(string); msg == "" {
					t.Fatalf("error body %s has no message", rec.Body)
				}
				return
			}
			if tc.move != nil && out["move"] != float64(*tc.move) {
				t.Fatalf("move %v, want %d", out["move"], *tc.move)
			}
		})
	}
}

func othelloIntPtr(n int) *int { return &n }

// FuzzOthelloMove: any body gets 200 with a listed move (or −1 for an empty
// list), or a JSON error with 400/413/422 — never a panic or a 500.
func FuzzOthelloMove(f *testing.F) {
	for _, mode := range []string{"std", "grand", "octagon", "reversi", "anti"} {
		if b, err := os.ReadFile("../othello/wire/testdata/spec_" + mode + ".json"); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"board":[],"legal_moves":[]}`))
	f.Add([]byte(`[]`))
	h := othelloTestHandler()
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/othello/move", strings.NewReader(string(body)))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("status %d, body %q is not JSON", rec.Code, rec.Body)
		}
		switch rec.Code {
		case http.StatusOK:
			var in struct {
				LegalMoves []int `json:"legal_moves"`
			}
			_ = json.Unmarshal(body, &in)
			mv, ok := out["move"].(float64)
			if !ok || (len(in.LegalMoves) == 0 && mv != -1) || (len(in.LegalMoves) > 0 && !slices.Contains(in.LegalMoves, int(mv))) {
				t.Fatalf("answer %s for legal %v", rec.Body, in.LegalMoves)
			}
		case http.StatusBadRequest, http.StatusUnprocessableEntity, http.StatusRequestEntityTooLarge:
			if _, ok := out["error"].(string); !ok {
				t.Fatalf("error body %s", rec.Body)
			}
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}
