package flipsight_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/botarena/gamebot/othello/flipsight"
	"github.com/botarena/gamebot/othello/flipsight/fakeserver"
)

// TestPollReplyFromDocs decodes the documentation's agent_poll example
// verbatim and checks every field the connector relies on.
func TestPollReplyFromDocs(t *testing.T) {
	var r flipsight.PollReply
	if err := json.Unmarshal(fakeserver.Doc("agent_poll.json"), &r); err != nil {
		t.Fatal(err)
	}
	if !r.OK || r.Me != "example" || r.Bot.ID != 2 || r.Bot.Name != "MyBot" || r.ServerNowMs != 1800000000000 {
		t.Errorf("reply: ok %v me %q bot %+v now %v", r.OK, r.Me, r.Bot, r.ServerNowMs)
	}
	if !slices.Equal(r.Bot.SupportedGames, []string{"std", "anti"}) || len(r.Bots) != 2 || r.Bots[0].Name != "Opponent" {
		t.Errorf("bots %+v, bot %+v", r.Bots, r.Bot)
	}
	if len(r.Matches) != 1 {
		t.Fatalf("%d matches", len(r.Matches))
	}
	m := r.Matches[0]
	if m.ID != 123 || m.BotA != 1 || m.BotB != 2 || m.GameMode != "std" || m.Status != "running" || m.IsHuman() || m.ExpiresMs != 1800000080000 {
		t.Errorf("match %+v", m)
	}
	st := m.State
	if st == nil || st.Status != "active" || st.BoardSize != 8 || len(st.BlockedSquares) != 0 || st.Winner != nil || st.FinishReason != "" || !slices.Equal(st.Totals, flipsight.Ints{14, 11}) {
		t.Fatalf("state %+v", st)
	}
	if len(st.Legs) != 2 {
		t.Fatalf("%d legs", len(st.Legs))
	}
	l := st.Legs[0]
	if len(l.Board) != 64 || l.Board[11] != 2 || l.Board[26] != 1 || l.Turn != 2 || l.BlackParticipant != 0 ||
		l.Placed != (flipsight.Placed{Black: 5, White: 4}) || !slices.Equal(l.ClocksMs, []flipsight.Float{55800, 60000}) ||
		l.TurnStartedMs != 1799999984200 || l.Revision != 1 || l.Status != "active" || !slices.Equal(l.Discs, flipsight.Ints{5, 8}) ||
		!slices.Equal(l.LegalMoves, flipsight.Ints{18, 21, 22, 25, 30, 33, 38, 42, 50, 51, 52}) || l.ResultDiscs != nil {
		t.Errorf("leg 0 %+v", l)
	}
	var hist []map[string]any
	if err := json.Unmarshal(l.History, &hist); err != nil || len(hist) != 1 || hist[0]["move"] != 44.0 {
		t.Errorf("history %s", l.History)
	}
	l = st.Legs[1]
	if l.Turn != 1 || l.BlackParticipant != 1 || l.Revision != 0 || !slices.Equal(l.LegalMoves, flipsight.Ints{2, 3, 12, 25, 42, 44, 45}) {
		t.Errorf("leg 1 %+v", l)
	}
}

// TestLenientFields: what a real server may vary within the documented
// types decodes to the same values.
func TestLenientFields(t *testing.T) {
	tests := []struct {
		name, in string
		check    func(m flipsight.Match) bool
	}{
		{"float clocks", `{"id":5,"state":{"legs":[{"clocks_ms":[59638.25,60000],"turn_started_ms":1799999984200.5}]}}`, func(m flipsight.Match) bool {
			l := m.State.Legs[0]
			return l.ClocksMs[0] == 59638.25 && l.ClocksMs[1] == 60000 && l.TurnStartedMs == 1799999984200.5
		}},
		{"string ids", `{"id":"123","bot_a":"1","bot_b":"2","state":{"legs":[{"revision":"7","turn":"2","black_participant":"1","legal_moves":["3",4]}]}}`, func(m flipsight.Match) bool {
			l := m.State.Legs[0]
			return m.ID == 123 && m.BotA == 1 && m.BotB == 2 && l.Revision == 7 && l.Turn == 2 && l.BlackParticipant == 1 && slices.Equal(l.LegalMoves, flipsight.Ints{3, 4})
		}},
		{"whole numbers written as reals", `{"id":123.0,"state":{"legs":[{"revision":3.0,"board":[0.0,1,2]}]}}`, func(m flipsight.Match) bool {
			return m.ID == 123 && m.State.Legs[0].Revision == 3 && slices.Equal(m.State.Legs[0].Board, flipsight.Ints{0, 1, 2})
		}},
		{"nulls where the docs allow them", `{"id":-45,"kind":"human","bot_b":null,"round_no":null,"room_created_at":null,"state":{"winner":null,"finish_reason":null,"legs":[{"finished_ms":null,"legal_moves":null,"history":null}]}}`, func(m flipsight.Match) bool {
			return m.IsHuman() && m.State.Winner == nil && m.State.Legs[0].LegalMoves == nil
		}},
		{"placed as a list", `{"id":1,"state":{"legs":[{"placed":[6,6]}]}}`, func(m flipsight.Match) bool {
			return m.State.Legs[0].Placed == flipsight.Placed{Black: 6, White: 6}
		}},
		{"unknown fields", `{"id":1,"shiny_new_field":{"a":[1,2]},"state":{"legs":[{"extra":true}],"more":null}}`, func(m flipsight.Match) bool {
			return m.ID == 1 && len(m.State.Legs) == 1
		}},
		{"human round echoed raw", `{"id":-45,"kind":"human","round_no":3,"room_created_at":"2026-11-30 12:00:00"}`, func(m flipsight.Match) bool {
			return string(m.RoundNo) == "3" && string(m.RoomCreatedAt) == `"2026-11-30 12:00:00"`
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m flipsight.Match
			if err := json.Unmarshal([]byte(tc.in), &m); err != nil {
				t.Fatal(err)
			}
			if !tc.check(m) {
				t.Errorf("decoded %+v", m)
			}
		})
	}
	// Me as the documentation types it (a string) or as a number.
	for _, in := range []string{`{"ok":true,"me":"example"}`, `{"ok":true,"me":42}`, `{"ok":true,"me":null}`} {
		var r flipsight.PollReply
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// TestStreamEventsFromDocs decodes the documentation's event lines. The
// second one is printed with "state":{...}, which is not JSON: the
// connector must treat it as a match event it cannot read (and poll).
func TestStreamEventsFromDocs(t *testing.T) {
	sc := bufio.NewScanner(bytes.NewReader(fakeserver.Doc("bot-stream.ndjson")))
	var evs []flipsight.Event
	var bad int
	for sc.Scan() {
		var ev flipsight.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			bad++
			continue
		}
		evs = append(evs, ev)
	}
	if bad != 1 || len(evs) != 3 {
		t.Fatalf("%d events, %d unreadable", len(evs), bad)
	}
	if evs[0].Type != "hello" || evs[0].BotID != 1 || evs[0].ServerNowMs != 1800000000000 {
		t.Errorf("hello %+v", evs[0])
	}
	if m := evs[1].Match; evs[1].Type != "match" || m == nil || m.ID != -45 || !m.IsHuman() || m.RoomID != 45 || m.State != nil {
		t.Errorf("human event %+v", evs[1])
	}
	if evs[2].Type != "ping" {
		t.Errorf("ping %+v", evs[2])
	}
}

// TestActionRepliesFromDocs: each action's documented reply, served
// verbatim, is read as success; the documented error example as a 409
// with its error string.
func TestActionRepliesFromDocs(t *testing.T) {
	var status = http.StatusOK
	var body []byte
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	defer ts.Close()
	c := &flipsight.Client{HTTP: ts.Client(), API: ts.URL, Token: "fsbm_x"}
	ctx := t.Context()
	body = fakeserver.Doc("agent_challenge.json")
	if id, err := c.Challenge(ctx, "Opponent", "anti"); err != nil || id != 123 {
		t.Errorf("challenge: %d, %v", id, err)
	}
	body = fakeserver.Doc("agent_accept.json")
	if err := c.Accept(ctx, 123); err != nil {
		t.Errorf("accept: %v", err)
	}
	body = fakeserver.Doc("agent_reject.json")
	if err := c.Reject(ctx, 123); err != nil {
		t.Errorf("reject: %v", err)
	}
	body = fakeserver.Doc("agent_move.json")
	if err := c.Move(ctx, flipsight.MoveParams{MatchID: 123, Leg: 1, Move: 2}); err != nil {
		t.Errorf("move: %v", err)
	}
	body = fakeserver.Doc("agent_poll.json")
	if r, err := c.Poll(ctx, nil); err != nil || len(r.Matches) != 1 || r.Bot.ID != 2 {
		t.Errorf("poll: %+v, %v", r, err)
	}
	status, body = http.StatusConflict, fakeserver.Doc("error.json")
	var ae *flipsight.APIError
	if err := c.Move(ctx, flipsight.MoveParams{MatchID: 123}); !errors.As(err, &ae) || ae.Status != 409 || ae.Msg != "stale_revision" {
		t.Errorf("error: %v", err)
	}
	// One unreadable match object does not hide the others.
	status, body = http.StatusOK, []byte(`{"ok":true,"bot":{"id":2},"matches":[{"id":{}},{"id":7,"status":"pending","bot_b":2}]}`)
	if r, err := c.Poll(ctx, nil); err != nil || len(r.Matches) != 1 || r.Matches[0].ID != 7 || len(r.Skipped) != 1 {
		t.Errorf("poll with a broken match: %+v, %v", r, err)
	}
}
