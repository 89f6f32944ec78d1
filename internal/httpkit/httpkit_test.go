package httpkit

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/problem"
)

func TestWriteProblem(t *testing.T) {
	var logged bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logged, nil))
	r := httptest.NewRequest("POST", "/x", nil)
	for _, tc := range []struct {
		err    error
		status int
		body   string
	}{
		{problem.Malformedf("bad %s", "seat"), 400, `{"error":"bad seat"}`},
		{problem.New(problem.Forbidden, "no"), 403, `{"error":"no"}`},
		{problem.Wrap(problem.New(problem.Stale, "old"), "act"), 409, `{"error":"act: old"}`},
		{&problem.Problem{Kind: problem.Impossible, Msg: "m", Body: map[string]int{"v": 1}}, 422, `{"v":1}`},
		{errors.New("open /secret/path: denied"), 500, `{"error":"internal error"}`},
	} {
		w := httptest.NewRecorder()
		if got := WriteProblem(w, r, logger, tc.err); got != tc.status || w.Code != tc.status || strings.TrimSpace(w.Body.String()) != tc.body {
			t.Errorf("%v: %d/%d %s, want %d %s", tc.err, got, w.Code, w.Body, tc.status, tc.body)
		}
	}
	if !strings.Contains(logged.String(), "/secret/path") {
		t.Fatalf("the internal error's cause was not logged: %s", logged.String())
	}
}

func TestReadBody(t *testing.T) {
	for _, tc := range []struct {
		body  string
		limit int64
		kind  problem.Kind
	}{
		{"hello", 5, problem.Internal},
		{"hello!", 5, problem.TooLarge},
		{"", 5, problem.Internal},
	} {
		r := httptest.NewRequest("POST", "/", strings.NewReader(tc.body))
		b, err := ReadBody(r, tc.limit, nil)
		if err == nil && (tc.kind != problem.Internal || string(b) != tc.body) || err != nil && problem.KindOf(err) != tc.kind {
			t.Errorf("%q limit %d: %q %v", tc.body, tc.limit, b, err)
		}
	}
	r := httptest.NewRequest("POST", "/", strings.NewReader("x"))
	r.ContentLength = 1 << 30
	if _, err := ReadBody(r, 10, nil); problem.KindOf(err) != problem.TooLarge {
		t.Errorf("a declared length over the limit: %v", err)
	}
}
