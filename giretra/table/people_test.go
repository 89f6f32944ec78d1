package table

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/internal/table/tabletest"
)

// playPeople plays a table's match with a scripted person at each token
// until it is over, and returns the last view of each.
func (ts *testServer) playPeople(t *testing.T, tokens []string, choose func(*view) string) []viewBody {
	t.Helper()
	last := make([]viewBody, len(tokens))
	for range 20000 {
		acted := false
		for i, tok := range tokens {
			vb, _ := ts.view(t, tok, -1)
			last[i] = vb
			if vb.View.Decision == nil || vb.View.Over {
				continue
			}
			if code, body := ts.act(t, tok, vb.Seq, choose(&vb.View)); code != http.StatusOK && code != http.StatusConflict {
				t.Fatalf("seat %d acting on %+v: %d %s", vb.View.You, vb.View.Decision, code, body)
			}
			acted = true
		}
		if last[0].View.Over {
			return last
		}
		if !acted {
			ts.view(t, tokens[0], last[0].Seq) // wait for the table to move
		}
	}
	t.Fatal("the match did not end")
	return nil
}

// TestTwoPeople: the person who sets the table up and a guest with the
// seat's link play a whole match against two agents. Each seat's views
// show its own hand only, and the decisions of its own seat; the watch
// link shows no hand of the deal in play and decides nothing; the seed
// the server drew is in no view, no log and no record until the match is
// over.
func TestTwoPeople(t *testing.T) {
	ts := newTestServer(t)
	c := ts.CreateTable(t, "giretra", `{"seats": ["you", "Eva", "person", "Kialasoa"], "target": 60, "pace": 0}`)
	if len(c.Seats) != 1 || c.Seats[0].Name != "Top" {
		t.Fatalf("the links to pass on: %+v", c)
	}
	guest, watch := tabletest.Token(c.Seats[0].URL), tabletest.Token(c.Watch)

	// A watcher decides nothing; a guest acts for its own seat only.
	vb, _ := ts.view(t, watch, -1)
	if code, body := ts.act(t, watch, vb.Seq, `{"next": true}`); code != http.StatusForbidden {
		t.Fatalf("a watcher's action: %d %s", code, body)
	}
	// The record during the match withholds the drawn seed.
	m, err := record.Read(bytes.NewReader(mustGet(t, ts, "/play/tables/"+c.Token+"/record")))
	if err != nil || !m.Header.SeedWithheld || m.Header.Seed != 0 {
		t.Fatalf("the record during the match: %+v %v", m.Header, err)
	}

	last := ts.playPeople(t, []string{c.Token, guest}, simple)
	if last[0].View.Failure != "" || last[0].View.Seed == nil || last[1].View.You != int(giretra.Top) || last[0].View.You != int(giretra.Bottom) {
		t.Fatalf("the match of two people: %+v / %+v", last[0].View, last[1].View)
	}
	ms := ts.readRecords(t)
	if len(ms) != 1 || ms[0].Header.SeedWithheld || ms[0].Header.Seed != *last[0].View.Seed || ms[0].Header.Players != [4]string{"You", "Eva", "Guest", "Kialasoa"} {
		t.Fatalf("the record: %+v", ms[0].Header)
	}
	checkSecrets(t, ts.viewsOf(c.Token), ms[0], giretra.Bottom, true)
	checkSecrets(t, ts.viewsOf(guest), ms[0], giretra.Top, true)

	// The guest reads "you" for its own seat, and the host by its role.
	if !strings.Contains(last[1].View.Seats[0].Name, "host") || last[1].View.Seats[2].Name != "guest" {
		t.Fatalf("the guest's names: %+v", last[1].View.Seats)
	}
	// The watch link: no hand and no seed until the match is over.
	for i, raw := range ts.viewsOf(watch) {
		var v struct {
			View view `json:"view"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if v.View.Over {
			continue
		}
		for p, s := range v.View.Seats {
			if s.Hand != nil {
				t.Fatalf("watch view %d shows seat %d's hand", i, p)
			}
		}
		if v.View.Seed != nil || v.View.Decision != nil || v.View.Deal != nil && v.View.Deal.Values != nil {
			t.Fatalf("watch view %d: %s", i, raw)
		}
	}
	if vb, _ := ts.view(t, watch, -1); !vb.View.Over || vb.View.Seed == nil || vb.View.Result == "" {
		t.Fatalf("the watcher after the match: %+v", vb.View)
	}
}

// TestWatchLinkHasNoControls: at a table of four bots, its creator may
// pause it; whoever holds its watch link watches only.
func TestWatchLinkHasNoControls(t *testing.T) {
	ts := newTestServer(t)
	c := ts.CreateTable(t, "giretra", `{"seats": ["bot", "Eva", "Kialasoa", "Eva"], "paused": true, "pace": 0, "target": 40}`)
	watch := tabletest.Token(c.Watch)
	if code, body := ts.act(t, watch, 0, `{"control": "resume"}`); code != http.StatusForbidden {
		t.Fatalf("the watch link resumed the table: %d %s", code, body)
	}
	vb, _ := ts.view(t, watch, -1)
	if !vb.View.Watch || vb.View.Host || vb.View.Seed == nil {
		t.Fatalf("a watcher of four bots: %+v", vb.View)
	}
	vb, _ = ts.view(t, c.Token, -1)
	if !vb.View.Host {
		t.Fatalf("the creator of four bots: %+v", vb.View)
	}
	if code, body := ts.act(t, c.Token, 0, `{"control": "resume"}`); code != http.StatusOK {
		t.Fatalf("the creator: %d %s", code, body)
	}
}
