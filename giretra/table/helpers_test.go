package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
	tables "github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/internal/table/tabletest"
)

// testServer is a hub of the Giretra game, its records in a temporary
// folder, behind a test server that keeps every answer (tabletest).
type testServer struct {
	*tabletest.Server
	records string
}

// newTestServer serves the game as gamebot play does on this machine:
// bot URLs of this machine allowed, no bot folder.
func newTestServer(t *testing.T) *testServer {
	return newTestServerWith(t, Config{BotHosts: tables.BotHosts{Loopback: true}})
}

func newTestServerWith(t *testing.T, cfg Config) *testServer {
	t.Helper()
	records := t.TempDir()
	return &testServer{tabletest.New(t, tables.NewHub(tables.HubConfig{Records: records}, cfg.Game())), records}
}

// viewsOf are the views the server sent to the page of token: the
// answers to GET …/tables/{token} and to POST …/actions, as the page
// received them.
func (ts *testServer) viewsOf(token string) [][]byte {
	var out [][]byte
	for _, s := range ts.Sent() {
		if strings.HasPrefix(s.Path, "/play/api/tables/"+token) && s.Status == http.StatusOK {
			out = append(out, s.Body)
		}
	}
	return out
}

func (ts *testServer) call(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	return ts.Call(t, method, path, body)
}

// create sets a table up and returns its id.
func (ts *testServer) create(t *testing.T, options string) string {
	t.Helper()
	return ts.Create(t, "giretra", options)
}

type viewBody struct {
	Seq  int  `json:"seq"`
	View view `json:"view"`
}

// view is the table's view past version after (-1: the current one).
func (ts *testServer) view(t *testing.T, id string, after int) (viewBody, []byte) {
	t.Helper()
	path := "/play/api/tables/" + id
	if after >= 0 {
		path += fmt.Sprintf("?after=%d", after)
	}
	code, body := ts.call(t, "GET", path, "")
	if code != http.StatusOK {
		t.Fatalf("view: %d %s", code, body)
	}
	var vb viewBody
	if err := json.Unmarshal(body, &vb); err != nil {
		t.Fatalf("view %s: %v", body, err)
	}
	return vb, body
}

func (ts *testServer) act(t *testing.T, id string, seq int, action string) (int, []byte) {
	t.Helper()
	return ts.call(t, "POST", "/play/api/tables/"+id+"/actions", fmt.Sprintf(`{"seq": %d, "action": %s}`, seq, action))
}

// simple is a scripted person: cut 16 from the top, accept when offered
// (else the first bid), play the first playable card, see every deal.
func simple(v *view) string {
	d := v.Decision
	switch d.Kind {
	case decideCut:
		return `{"cut": {"position": 16, "fromTop": true}}`
	case decideBid:
		o := d.Bids[0]
		for _, b := range d.Bids {
			if b.Type == "Accept" {
				o = b
			}
		}
		return fmt.Sprintf(`{"bid": {"type": %q, "mode": %q}}`, o.Type, o.Mode)
	case decideCard:
		return fmt.Sprintf(`{"card": %q}`, d.Cards[0])
	}
	return `{"next": true}`
}

// play plays the table's match as the scripted person until it is over
// and returns the last view. each, when set, is called with every view.
func (ts *testServer) play(t *testing.T, id string, choose func(*view) string, each func(viewBody)) viewBody {
	t.Helper()
	seq := -1
	for range 5000 {
		vb, _ := ts.view(t, id, seq)
		seq = vb.Seq
		if each != nil {
			each(vb)
		}
		if vb.View.Over {
			return vb
		}
		if vb.View.Decision == nil || choose == nil {
			continue
		}
		if code, body := ts.act(t, id, vb.Seq, choose(&vb.View)); code != http.StatusOK {
			t.Fatalf("acting on %+v: %d %s", vb.View.Decision, code, body)
		}
	}
	t.Fatal("the match did not end")
	return viewBody{}
}

// recordName is the name of the one record of the folder.
func (ts *testServer) recordName(t *testing.T) string {
	t.Helper()
	es, err := os.ReadDir(filepath.Join(ts.records, "giretra"))
	if err != nil || len(es) != 1 {
		t.Fatalf("records: %v %v", es, err)
	}
	return es[0].Name()
}

// readRecord reads the one record of the folder.
func (ts *testServer) readRecords(t *testing.T) []*record.Match {
	t.Helper()
	ms, err := record.ReadDir(filepath.Join(ts.records, "giretra"))
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// checkSecrets fails the test when a view sent to the person at seat you
// shows what that seat may not see: another seat's card not yet played
// in the deal in play (the record holds the true hands), our bot's values
// in a deal in play, or a seed the server drew before the match is over
// (it deals every hand: in the seed field, the replay's setup or the
// log). Finished deals (the detail) show every hand.
func checkSecrets(t *testing.T, views [][]byte, m *record.Match, you giretra.Position, seedDrawn bool) {
	t.Helper()
	if len(views) == 0 {
		t.Fatal("no view captured")
	}
	for i, raw := range views {
		var vb struct {
			View map[string]any `json:"view"`
		}
		if err := json.Unmarshal(raw, &vb); err != nil {
			t.Fatalf("view %d: %v", i, err)
		}
		v := vb.View
		if v["watch"] == true {
			t.Fatalf("view %d is a watcher's, at a table with a person", i)
		}
		if v["over"] != true && seedDrawn {
			if _, ok := v["seed"]; ok {
				t.Fatalf("view %d shows the drawn seed before the match is over: %s", i, raw)
			}
			if _, ok := v["again"]; ok {
				t.Fatalf("view %d holds the replay's setup (its seed) before the match is over: %s", i, raw)
			}
			if bytes.Contains(raw, []byte(fmt.Sprint(m.Header.Seed))) && m.Header.Seed > 999 {
				t.Fatalf("view %d holds the drawn seed %d: %s", i, m.Header.Seed, raw)
			}
		}
		deal := 0
		if d, ok := v["deal"].(map[string]any); ok {
			deal = int(d["n"].(float64))
		}
		finished := map[int]bool{}
		for _, l := range v["deals"].([]any) {
			finished[int(l.(map[string]any)["n"].(float64))] = true
		}
		if det, ok := v["detail"].(map[string]any); ok && !finished[int(det["n"].(float64))] {
			t.Fatalf("view %d details deal %v, which has not finished: %s", i, det["n"], raw)
		}
		if deal == 0 || finished[deal] {
			continue
		}
		if deal > len(m.Deals) || m.Deals[deal-1].Cut == nil {
			t.Fatalf("view %d is of deal %d, which the record does not hold", i, deal)
		}
		rd := m.Deals[deal-1]
		mine := record.Hand(rd.Cut.Hands[you])
		// The cards on the table are the record's plays of that trick.
		d := v["deal"].(map[string]any)
		for _, k := range []string{"trick", "last"} {
			tr, ok := d[k].(map[string]any)
			if !ok {
				continue
			}
			n := int(tr["n"].(float64))
			for j, pc := range tr["cards"].([]any) {
				code := pc.(map[string]any)["card"].(string)
				if n > len(rd.Tricks) || giretra.Card(rd.Tricks[n-1].Cards[j]).Short() != code {
					t.Fatalf("view %d shows %s as card %d of trick %d of deal %d, which the record does not: %s", i, code, j+1, n, deal, raw)
				}
			}
		}
		for path, code := range cardsIn(v, "") {
			c, _ := parseCard(code)
			switch {
			case strings.HasPrefix(path, "detail.") || strings.HasPrefix(path, "log."):
			case strings.HasPrefix(path, "deal.trick.") || strings.HasPrefix(path, "deal.last."):
			case mine.Has(c) && (strings.HasPrefix(path, fmt.Sprintf("seats.%d.hand.", you)) || strings.HasPrefix(path, "decision.cards.")):
			default:
				t.Fatalf("view %d (deal %d) shows %s at %s, a card the person may not see: %s", i, deal, code, path, raw)
			}
		}
		for q, s := range v["seats"].([]any) {
			if q != int(you) && s.(map[string]any)["hand"] != nil {
				t.Fatalf("view %d shows seat %d's hand: %s", i, q, raw)
			}
		}
		if d["values"] != nil {
			t.Fatalf("view %d shows our bot's values in a deal in play: %s", i, raw)
		}
		if dec, ok := v["decision"].(map[string]any); ok && v["you"] != float64(you) {
			t.Fatalf("view %d holds a decision of another seat: %v", i, dec)
		}
	}
}

// cardsIn lists the strings of a decoded JSON value that may be cards,
// by path ("seats.0.hand.3").
func cardsIn(v any, path string) map[string]string {
	out := map[string]string{}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, join(path, k))
			}
		case []any:
			for i, e := range x {
				walk(e, join(path, fmt.Sprint(i)))
			}
		case string:
			if _, ok := parseCard(x); ok {
				out[path] = x
			}
		}
	}
	walk(v, path)
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}
