package table

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/report"
	"github.com/botarena/gamebot/internal/browsertest"
	tables "github.com/botarena/gamebot/internal/table"
)

// TestScriptedMatch: a person played by HTTP at Left, with our bot as
// partner, against two agents, to the end of a match. Every view sent to
// the person shows only what Left may see; the record written reads with
// giretra/record and renders with giretra/report; the review page and the
// download serve it; our bot's values are those of the cards it played.
func TestScriptedMatch(t *testing.T) {
	ts := newTestServer(t)
	id := ts.create(t, `{"seats": ["Eva", "you", "Kialasoa", "bot"], "target": 60, "seed": 11, "pace": 0}`)
	var details []detailView
	last := ts.play(t, id, simple, func(vb viewBody) {
		if d := vb.View.Detail; d != nil && (len(details) == 0 || details[len(details)-1].N != d.N) {
			details = append(details, *d)
		}
	})
	if !last.View.Over || last.View.Failure != "" || !strings.Contains(last.View.Result, "won") {
		t.Fatalf("the match ended so: %+v", last.View)
	}
	ms := ts.readRecords(t)
	if len(ms) != 1 {
		t.Fatalf("%d records, want 1", len(ms))
	}
	m := ms[0]
	if m.End == nil || m.End.Winner == nil || m.Header.Players != [4]string{"Eva", "You", "Kialasoa", "gamebot"} || m.Header.Subject != "You" {
		t.Fatalf("record: %+v, end %+v", m.Header, m.End)
	}
	if got := len(last.View.Deals); got != len(m.Deals) || got == 0 {
		t.Fatalf("%d deals in the view, %d in the record", got, len(m.Deals))
	}
	checkSecrets(t, ts.viewsOf(id), m, giretra.Left, false)

	var page bytes.Buffer
	if err := report.Write(&page, ms, report.Options{}); err != nil {
		t.Fatalf("the record does not render: %v", err)
	}
	code, review := ts.call(t, "GET", "/play/tables/"+id+"/review", "")
	if code != http.StatusOK || !bytes.Contains(review, []byte("<html")) {
		t.Fatalf("review: %d %.200s", code, review)
	}
	code, data := ts.call(t, "GET", "/play/tables/"+id+"/record", "")
	if code != http.StatusOK {
		t.Fatalf("record: %d %s", code, data)
	}
	if dm, err := record.Read(bytes.NewReader(data)); err != nil || len(dm.Deals) != len(m.Deals) || dm.End == nil {
		t.Fatalf("the downloaded record: %v", err)
	}

	// Our bot's values: each decision's card is the one it played.
	explained := 0
	for _, d := range details {
		rd := m.Deals[d.N-1]
		for _, x := range d.Values {
			explained++
			if x.Seat != int(giretra.Right) {
				t.Fatalf("values of seat %d, which our bot does not play", x.Seat)
			}
			tr := rd.Tricks[x.Trick-1]
			played := giretra.Card(tr.Cards[(x.Seat-int(tr.Leader)+4)%4]).Short()
			if x.Chosen != played || len(x.Cards) < 2 || x.Samples == 0 {
				t.Fatalf("deal %d trick %d: values %+v, but it played %s", d.N, x.Trick, x, played)
			}
			found := false
			for _, cv := range x.Cards {
				found = found || cv.Card == played
			}
			if !found {
				t.Fatalf("the card played is not among the values: %+v", x)
			}
		}
	}
	if explained == 0 {
		t.Fatal("no value of our bot's cards in any deal's detail")
	}
}

// TestSetupRefused: a setup the table cannot seat is refused with a
// message naming the field, and no table is made.
func TestSetupRefused(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		name, options string
		code          int
		has           string
	}{
		{"not JSON", `{"seats": [`, 400, "malformed"},
		{"seats of the wrong type", `{"seats": "you"}`, 400, `\"seats\" must be a list`},
		{"a misspelt setting", `{"seats": ["you", "Eva", "bot", "Eva"], "targte": 500}`, 400, `unknown field \"targte\"`},
		{"three seats", `{"seats": ["you", "Eva", "bot"]}`, 400, "give 4 players"},
		{"two yous", `{"seats": ["you", "Eva", "you", "bot"]}`, 400, "2 seats say “You”"},
		{"unknown agent", `{"seats": ["you", "Eva", "Bob", "bot"]}`, 400, `seat Top: no player \"Bob\": choose you, person, bot, Eva, Razazavavy, Kialasoa, Sakabelou, or a bot URL on this machine`},
		{"empty seat", `{"seats": ["you", "", "bot", "Eva"]}`, 400, `seat Left: no player \"\"`},
		{"a path", `{"seats": ["you", "../bots/x", "bot", "Eva"]}`, 400, "seat Left: no player"},
		{"a local folder", `{"seats": ["you", "giretra", "bot", "Eva"]}`, 400, "seat Left: no player"},
		{"target 0", `{"seats": ["you", "Eva", "bot", "Eva"], "target": 0}`, 400, "Target score 0: choose 1 to 10000"},
		{"target below", `{"seats": ["you", "Eva", "bot", "Eva"], "target": -5}`, 400, "Target score"},
		{"target too high", `{"seats": ["you", "Eva", "bot", "Eva"], "target": 20000}`, 400, "Target score"},
		{"negative seed", `{"seats": ["you", "Eva", "bot", "Eva"], "seed": -1}`, 400, "Seed"},
		{"negative pace", `{"seats": ["you", "Eva", "bot", "Eva"], "pace": -1}`, 400, "pace"},
		{"paused with a person", `{"seats": ["you", "Eva", "bot", "Eva"], "paused": true}`, 400, "paused"},
		{"bad first dealer", `{"seats": ["you", "Eva", "bot", "Eva"], "firstDealer": "North"}`, 400, "choose Bottom, Left, Top or Right"},
		{"bad cut", `{"seats": ["you", "Eva", "bot", "Eva"], "cuts": [{"position": 30}]}`, 400, "The cut of deal 1"},
		{"bad URL", `{"seats": ["you", "http://", "bot", "Eva"]}`, 400, `seat Left: \"http://\" is not a bot server's URL`},
		{"a URL elsewhere", `{"seats": ["you", "http://bots.example.invalid:5063", "bot", "Eva"]}`, 403, "seat Left: bot URLs may name this machine"},
		{"a URL with a password", `{"seats": ["you", "http://u:p@127.0.0.1:5063", "bot", "Eva"]}`, 400, "no user name or password"},
	} {
		code, body := ts.call(t, "POST", "/play/api/giretra/tables", tc.options)
		if code != tc.code || !strings.Contains(string(body), tc.has) {
			t.Errorf("%s: %d %s, want %d with %q", tc.name, code, body, tc.code, tc.has)
		}
		for _, goName := range []string{"seats[", "table.", "int64"} {
			if strings.Contains(string(body), goName) {
				t.Errorf("%s: the message speaks Go (%q): %s", tc.name, goName, body)
			}
		}
	}
	if n := len(ts.Hub.Tables(tables.Client{}, nil)); n != 0 {
		t.Fatalf("%d tables made by refused setups", n)
	}
	// A refused setup says why in the person's language.
	req, _ := http.NewRequest("POST", ts.URL+"/play/api/giretra/tables", strings.NewReader(`{"seats": ["you", "Eva", "you", "bot"]}`))
	req.Header.Set("Accept-Language", "mg")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(body), "Olona hafa") {
		t.Fatalf("a refused setup in Malagasy: %d %s", resp.StatusCode, body)
	}
}

// TestActionsRefused: a stale action (409), an illegal one (422, with the
// valid options), a malformed one (400) and one for an unknown table
// (404) change nothing.
func TestActionsRefused(t *testing.T) {
	ts := newTestServer(t)
	// Right deals, Top cuts: Bottom, the person, bids first.
	id := ts.create(t, `{"seats": ["you", "Eva", "Eva", "Eva"], "seed": 3, "pace": 0, "firstDealer": "Right"}`)
	vb := waitDecision(t, ts, id)
	if vb.View.Decision.Kind != decideBid {
		t.Fatalf("first decision %+v, want a bid", vb.View.Decision)
	}
	_, before := ts.view(t, id, -1)
	for _, tc := range []struct {
		name   string
		seq    int
		action string
		code   int
		has    string
	}{
		{"stale", vb.Seq - 1, `{"bid": {"type": "Accept"}}`, 409, "stale"},
		{"stale, ahead", vb.Seq + 1, `{"bid": {"type": "Announcement", "mode": "AllTrumps"}}`, 409, "stale"},
		{"not offered", vb.Seq, `{"bid": {"type": "Accept"}}`, 422, `"valid":[{"type":"Announcement","mode":"ColourClubs"`},
		{"unknown mode", vb.Seq, `{"bid": {"type": "Announcement", "mode": "Clovers"}}`, 422, "valid"},
		{"a card when bidding", vb.Seq, `{"card": "JH"}`, 422, "Now you are to bid"},
		{"a cut when bidding", vb.Seq, `{"cut": {"position": 10}}`, 422, "Now you are to bid"},
		{"two actions", vb.Seq, `{"card": "JH", "next": true}`, 400, "exactly one"},
		{"none", vb.Seq, `{}`, 400, "exactly one"},
		{"wrong type", vb.Seq, `{"card": 7}`, 400, "card"},
		{"a misspelt action", vb.Seq, `{"bid": {"type": "Accept", "mdoe": "x"}}`, 400, `unknown field \"mdoe\"`},
		{"watch control at a person's table", vb.Seq, `{"control": "pause"}`, 403, "four bots"},
		{"show an unfinished deal", vb.Seq, `{"show": 1}`, 422, "has not finished"},
	} {
		code, body := ts.act(t, id, tc.seq, tc.action)
		if code != tc.code || !strings.Contains(string(body), tc.has) {
			t.Errorf("%s: %d %s, want %d with %q", tc.name, code, body, tc.code, tc.has)
		}
	}
	if code, body := ts.act(t, "NOPE", vb.Seq, `{"next": true}`); code != 404 {
		t.Errorf("unknown table: %d %s", code, body)
	}
	if _, after := ts.view(t, id, -1); !bytes.Equal(before, after) {
		t.Fatalf("refused actions changed the view:\n%s\n%s", before, after)
	}

	// The first bid taken; the same action again is stale.
	a := `{"bid": {"type": "Announcement", "mode": "AllTrumps"}}`
	if code, body := ts.act(t, id, vb.Seq, a); code != 200 || !strings.Contains(string(body), "All trumps") {
		t.Fatalf("a valid bid: %d %s", code, body)
	}
	if code, _ := ts.act(t, id, vb.Seq, a); code != 409 {
		t.Fatalf("the bid sent twice: %d", code)
	}
	// Cards are refused until the person's turn to play.
	vb = waitDecision(t, ts, id)
	for vb.View.Decision.Kind != decideCard {
		ts.act(t, id, vb.Seq, simple(&vb.View))
		vb = waitDecision(t, ts, id)
	}
	hand := vb.View.Seats[0].Hand
	valid := map[string]bool{}
	for _, c := range vb.View.Decision.Cards {
		valid[c] = true
	}
	notMine := ""
	for c := range giretra.FullDeck.All() {
		if !strings.Contains(strings.Join(hand, " "), c.Short()) {
			notMine = c.Short()
			break
		}
	}
	_, before = ts.view(t, id, -1)
	if code, body := ts.act(t, id, vb.Seq, `{"card": "`+notMine+`"}`); code != 422 || !strings.Contains(string(body), `"valid":["`) {
		t.Fatalf("a card not in hand: %d %s", code, body)
	}
	for _, c := range hand {
		if !valid[c] {
			if code, body := ts.act(t, id, vb.Seq, `{"card": "`+c+`"}`); code != 422 {
				t.Fatalf("a card of the hand the rules refuse: %d %s", code, body)
			}
			break
		}
	}
	if _, after := ts.view(t, id, -1); !bytes.Equal(before, after) {
		t.Fatalf("refused cards changed the view:\n%s\n%s", before, after)
	}
}

// waitDecision waits for the person's next decision.
func waitDecision(t *testing.T, ts *testServer, id string) viewBody {
	t.Helper()
	seq := -1
	for range 1000 {
		vb, _ := ts.view(t, id, seq)
		if vb.View.Decision != nil {
			return vb
		}
		if vb.View.Over {
			t.Fatalf("the match ended: %+v", vb.View)
		}
		seq = vb.Seq
	}
	t.Fatal("no decision came")
	return viewBody{}
}

// TestValidJSON: the view's JSON is the view type's (the page reads these
// names).
func TestViewNames(t *testing.T) {
	ts := newTestServer(t)
	id := ts.create(t, `{"seats": ["you", "Eva", "Eva", "Eva"], "seed": 3, "pace": 0, "firstDealer": "Right"}`)
	waitDecision(t, ts, id)
	_, raw := ts.view(t, id, -1)
	var v struct {
		View map[string]json.RawMessage `json:"view"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"watch", "you", "lang", "seats", "teams", "target", "score", "seed", "deal", "decision", "deals", "log", "waiting"} {
		if _, ok := v.View[k]; !ok {
			t.Errorf("the view has no %q: %s", k, raw)
		}
	}
}

// TestReviewDuringMatch: during a match, the review and the record hold
// the finished deals only (a deal in play would show every hand); before
// any deal has finished there is no review.
func TestReviewDuringMatch(t *testing.T) {
	ts := newTestServer(t)
	id := ts.create(t, `{"seats": ["you", "Eva", "Eva", "Eva"], "target": 1000, "seed": 8, "pace": 0}`)
	vb := waitDecision(t, ts, id)
	if code, body := ts.call(t, "GET", "/play/tables/"+id+"/review", ""); code != http.StatusNotFound || !strings.Contains(string(body), "no deal has finished") {
		t.Fatalf("a review before any deal ended: %d %s", code, body)
	}
	for vb.View.Deal == nil || vb.View.Deal.N < 2 || vb.View.Decision.Kind != decideCard {
		if code, body := ts.act(t, id, vb.Seq, simple(&vb.View)); code != http.StatusOK {
			t.Fatalf("%d %s", code, body)
		}
		vb = waitDecision(t, ts, id)
	}
	m, err := record.Read(bytes.NewReader(mustGet(t, ts, "/play/tables/"+id+"/record")))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Deals) != 1 || m.Deals[0].Result == nil || m.End != nil {
		t.Fatalf("the record during deal 2 holds %d deals (end %v)", len(m.Deals), m.End)
	}
	review := mustGet(t, ts, "/play/tables/"+id+"/review")
	if !bytes.Contains(review, []byte("match 1")) {
		t.Fatalf("the review: %.300s", review)
	}
}

// TestReviewReadsAsOneMatch: the review of a table's match is the review
// of one match, in the reader's language: its result, each deal's
// contract in words, the deal viewer; no win-rate interval, no latency,
// no list of matches.
func TestReviewReadsAsOneMatch(t *testing.T) {
	ts := newTestServer(t)
	id := ts.create(t, `{"seats": ["you", "Eva", "bot", "Kialasoa"], "target": 60, "seed": 14, "pace": 0}`)
	ts.play(t, id, simple, nil)
	for lang, want := range map[string][]string{
		"en": {`<html lang="en">`, "Deal viewer", "You &#43; gamebot", "announced by", "won"},
		"fr": {`<html lang="fr">`, "Visionneuse de donnes", "Vous &#43; gamebot", "annoncé par", "gagne"},
		"mg": {`<html lang="mg">`, "Mpijery fizarana", "Ianao &#43; gamebot", "nilazain"},
	} {
		req, _ := http.NewRequest("GET", ts.URL+"/play/tables/"+id+"/review", nil)
		req.AddCookie(&http.Cookie{Name: "gamebot_lang", Value: lang})
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, w := range want {
			if !bytes.Contains(page, []byte(w)) {
				t.Errorf("%s: the review lacks %q", lang, w)
			}
		}
		for _, not := range []string{"Wilson", "interval", "Latency", "'s team", "histogram", "ColourClubs", "Normal by"} {
			if bytes.Contains(page, []byte(not)) {
				t.Errorf("%s: the review of one match holds %q", lang, not)
			}
		}
	}
	// The viewer steps through a deal in the reader's language.
	p := browsertest.OpenURLWith(t, ts.URL+"/play/tables/"+id+"/review", "next", browsertest.Options{Lang: "fr"})
	p.Click("next")
	if got := p.Text("step-label"); !strings.Contains(got, "étape 1/") || !strings.Contains(got, "enchère 1 sur") {
		t.Errorf("the French viewer's step: %q", got)
	}
	p.Check()
}
