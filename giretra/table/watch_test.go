package table

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/report"
)

// TestWatch: four bots, the table started paused: each step lets one
// decision through, every hand is open, our bot's values show as it
// plays; resumed, the match ends. Controls apply whatever the version.
func TestWatch(t *testing.T) {
	ts := newTestServer(t)
	id := ts.create(t, `{"seats": ["bot", "Eva", "Kialasoa", "Razazavavy"], "paused": true, "pace": 0, "target": 40, "seed": 5}`)
	vb, _ := ts.view(t, id, -1)
	for vb.View.Deal == nil {
		vb, _ = ts.view(t, id, vb.Seq)
	}
	if !vb.View.Watch || vb.View.You != -1 || !vb.View.Paused || vb.View.Deal.Cut != "" {
		t.Fatalf("a paused table of four bots: %+v", vb.View)
	}
	control := func(c string) {
		t.Helper()
		if code, body := ts.act(t, id, 0, `{"control": "`+c+`"}`); code != http.StatusOK {
			t.Fatalf("%s: %d %s", c, code, body)
		}
	}
	// One step: the cut, and the five cards of each hand, all shown.
	control("step")
	for vb.View.Deal.Cut == "" {
		vb, _ = ts.view(t, id, vb.Seq)
	}
	for p, s := range vb.View.Seats {
		if len(s.Hand) != 5 {
			t.Fatalf("seat %d shows %d cards after the cut: %+v", p, len(s.Hand), s)
		}
	}
	if len(vb.View.Deal.Bids) != 0 {
		t.Fatalf("a step let more than the cut through: %+v", vb.View.Deal)
	}
	// Two steps: two bids.
	control("step")
	control("step")
	for len(vb.View.Deal.Bids) < 2 {
		vb, _ = ts.view(t, id, vb.Seq)
	}
	if n := len(vb.View.Deal.Bids); n != 2 {
		t.Fatalf("two steps made %d bids", n)
	}
	control("resume")
	if code, body := ts.act(t, id, 0, `{"control": "speed", "pace": 20000}`); code != http.StatusUnprocessableEntity {
		t.Fatalf("a pace too slow: %d %s", code, body)
	}
	sawValues := false
	last := ts.play(t, id, nil, func(vb viewBody) {
		if d := vb.View.Deal; d != nil && len(d.Values) > 0 {
			sawValues = true
		}
		if vb.View.Decision != nil {
			t.Fatalf("a table of four bots asked a decision: %+v", vb.View.Decision)
		}
	})
	if last.View.Failure != "" || last.View.Result == "" || !sawValues {
		t.Fatalf("the watched match: %q %q, values shown %v", last.View.Failure, last.View.Result, sawValues)
	}
	ms := ts.readRecords(t)
	if len(ms) != 1 || ms[0].Header.Subject != "gamebot" {
		t.Fatalf("records: %d", len(ms))
	}
	if err := report.Write(&strings.Builder{}, ms, report.Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestAgain: "play these cards again" seats everyone one seat further
// clockwise and deals the same cards to the same seats, with the same
// cuts, nobody asked to cut again.
func TestAgain(t *testing.T) {
	ts := newTestServer(t)
	id := ts.create(t, `{"seats": ["you", "Eva", "bot", "Kialasoa"], "target": 40, "seed": 21, "pace": 0, "firstDealer": "Left"}`)
	first := ts.play(t, id, simple, nil)
	again, err := json.Marshal(first.View.Again)
	if err != nil || first.View.Again == nil {
		t.Fatalf("no setup to play again: %v", err)
	}
	id2 := ts.create(t, string(again))
	cuts := len(first.View.Again.Cuts)
	ts.play(t, id2, simple, func(vb viewBody) {
		if d := vb.View.Decision; d != nil && d.Kind == decideCut && vb.View.Deal.N <= cuts {
			t.Fatalf("asked to cut deal %d of a replay", vb.View.Deal.N)
		}
	})
	ms := ts.readRecords(t)
	if len(ms) != 2 {
		t.Fatalf("%d records", len(ms))
	}
	a, b := ms[0], ms[1]
	if a.Header.Match == 2 {
		a, b = b, a
	}
	for p := range 4 {
		if b.Header.Players[(p+1)%4] != a.Header.Players[p] {
			t.Fatalf("seats %v, then %v: not rotated", a.Header.Players, b.Header.Players)
		}
	}
	same := 0
	for i := range min(len(a.Deals), len(b.Deals)) {
		ca, cb := a.Deals[i].Cut, b.Deals[i].Cut
		if a.Deals[i].Dealer != b.Deals[i].Dealer || ca.Position != cb.Position || ca.FromTop != cb.FromTop || fmt.Sprint(ca.Hands) != fmt.Sprint(cb.Hands) {
			if i < cuts {
				t.Fatalf("deal %d: dealt %v, then %v", i+1, ca.Hands, cb.Hands)
			}
			continue
		}
		same++
	}
	if same == 0 {
		t.Fatal("no deal dealt the same cards")
	}
}

// fakeBot is a bot server for the tests, written from the engine's
// protocol (and sharing no type with the table): it answers the first
// playable card, Accept when offered (else the first action), and cuts
// at 10. failCards makes it fail its card decisions with a 500.
type fakeBot struct {
	failCards bool
	decisions atomic.Int64
	sessions  atomic.Int64
}

func (f *fakeBot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ValidActions []map[string]any `json:"validActions"`
		ValidPlays   []map[string]any `json:"validPlays"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	var answer any = map[string]any{}
	path := r.URL.Path
	switch {
	case path == "/api/sessions":
		answer = map[string]string{"sessionId": fmt.Sprint("s", f.sessions.Add(1))}
	case strings.HasSuffix(path, "/choose-cut"):
		f.decisions.Add(1)
		answer = map[string]any{"position": 10, "fromTop": true}
	case strings.HasSuffix(path, "/choose-negotiation-action"):
		f.decisions.Add(1)
		answer = req.ValidActions[0]
		for _, a := range req.ValidActions {
			if a["type"] == "Accept" {
				answer = a
			}
		}
	case strings.HasSuffix(path, "/choose-card"):
		f.decisions.Add(1)
		if f.failCards {
			// A reply a page must never read: a secret and markup.
			http.Error(w, `<img src=x onerror=alert(1)> SECRET-OF-THE-NETWORK`, http.StatusInternalServerError)
			return
		}
		answer = req.ValidPlays[0]
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(answer)
}

// TestBotServer: a bot server by URL plays a seat as the engine calls
// it, its calls recorded; one that fails its cards is played by the
// engine's fallback, permanently after three failures, and the match
// goes on to its end.
func TestBotServer(t *testing.T) {
	for _, failing := range []bool{false, true} {
		fb := &fakeBot{failCards: failing}
		srv := httptest.NewServer(fb)
		ts := newTestServer(t)
		id := ts.create(t, `{"seats": ["you", "Eva", "`+srv.URL+`", "Eva"], "target": 40, "seed": 4, "pace": 0}`)
		last := ts.play(t, id, simple, nil)
		srv.Close()
		if last.View.Failure != "" || fb.decisions.Load() == 0 {
			t.Fatalf("failing %v: %q, %d decisions asked", failing, last.View.Failure, fb.decisions.Load())
		}
		m := ts.readRecords(t)[0]
		if !m.Header.HTTP[2] || m.Header.HTTP[1] {
			t.Fatalf("the record's HTTP seats: %v", m.Header.HTTP)
		}
		calls, failed := 0, 0
		for _, c := range m.Calls {
			if c.Seat != 2 {
				t.Fatalf("a call of seat %v", c.Seat)
			}
			calls++
			if c.Error != "" {
				failed++
			}
		}
		switch {
		case calls == 0:
			t.Fatal("no call recorded")
		case failing && failed != failLimit:
			t.Fatalf("%d failed calls recorded, want %d (then the fallback plays without asking)", failed, failLimit)
		case !failing && failed != 0:
			t.Fatalf("%d failed calls", failed)
		}
		var b strings.Builder
		if err := report.Write(&b, []*record.Match{m}, report.Options{}); err != nil || !strings.Contains(b.String(), "CardPlay") {
			t.Fatalf("the report of a bot server's match: %v", err)
		}
		// What the bot server answered reaches no page, no record and no
		// review: only its status.
		for _, s := range ts.Sent() {
			if strings.Contains(string(s.Body), "SECRET-OF-THE-NETWORK") || strings.Contains(string(s.Body), "onerror") {
				t.Fatalf("%s sent the bot server's reply: %.300s", s.Path, s.Body)
			}
		}
		told := false
		for _, s := range ts.Sent() {
			told = told || strings.Contains(string(s.Body), "it answered HTTP 500")
		}
		if failing != told {
			t.Fatalf("failing %v: the failure told by its status: %v", failing, told)
		}
		if rec, _ := os.ReadFile(filepath.Join(ts.records, "giretra", ts.recordName(t))); strings.Contains(string(rec), "SECRET") {
			t.Fatal("the record holds the bot server's reply")
		}
	}
}
