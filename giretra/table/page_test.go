package table

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/report"
	"github.com/botarena/gamebot/internal/browsertest"
	"github.com/chromedp/chromedp/kb"
)

// TestPageAtBottom and TestPageAtLeft play a whole match in headless
// Chromium as a person does: the setup form, then every cut, bid, card
// and "next deal" by clicks or by keys in turn, a reload in the middle,
// a stale and an illegal action sent by HTTP that change nothing; then
// the record, the review and what every view showed.
func TestPageAtBottom(t *testing.T) { playThroughPage(t, giretra.Bottom, 5) }

func TestPageAtLeft(t *testing.T) { playThroughPage(t, giretra.Left, 9) }

var cardLabel = regexp.MustCompile(`^(Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of (Clubs|Diamonds|Hearts|Spades)$`)

func playThroughPage(t *testing.T, you giretra.Position, seed int) {
	ts := newTestServer(t)
	p := browsertest.OpenURL(t, ts.URL+"/play/giretra", "setup")
	seats := []string{"Eva", "Kialasoa", "Eva", "Kialasoa"}
	seats[you], seats[you.Partner()] = "you", "bot"
	for i, s := range seats {
		must(t, p.Select(fmt.Sprintf("seat-%d", i), s))
	}
	must(t, p.Select("target", "40"))
	must(t, p.Select("seed", strconv.Itoa(seed)))
	must(t, p.Select("pace", "0"))
	must(t, p.Select("first", you.Next().String())) // the person cuts the first deal
	p.ClickOn("#sit")
	p.Wait("#table")
	u, err := url.Parse(p.Location())
	if err != nil || u.Query().Get("t") == "" {
		t.Fatalf("the page went to %s, not a table's address", p.Location())
	}
	id := u.Query().Get("t")

	counts := map[string]int{}
	reloaded, probed, lastSeen := false, false, false
	for step := 0; ; step++ {
		if step > 400 {
			t.Fatal("the match did not end")
		}
		p.Wait(`body[data-turn="you"], body[data-over="1"]`)
		if p.Attr("body", "data-over") == "1" {
			break
		}
		kind := p.Attr("body", "data-decision")
		counts[kind]++
		byKeys := (counts[kind]+int(you))%2 == 0 // clicks first at Bottom, keys first at Left
		seq := p.Attr("body", "data-seq")
		switch kind {
		case decideCut:
			if byKeys {
				p.Focus("#cut-pos")
				p.Press(kb.Enter)
			} else {
				p.ClickOn("#cut-btn")
			}
		case decideBid:
			accept := p.Count(`#bids button[data-type="Accept"]`) > 0
			switch {
			case byKeys && accept:
				p.Press("a")
			case byKeys:
				p.Focus("#bids button")
				p.Press(kb.End)
				p.Press(kb.Enter)
			case accept:
				p.ClickOn(`#bids button[data-type="Accept"]`)
			default:
				p.ClickOn("#bids button")
			}
		case decideCard:
			if label := p.Attr("#hand button.playable", "aria-label"); !cardLabel.MatchString(label) {
				t.Fatalf("a card labelled %q", label)
			}
			if counts[kind] == 3 && !reloaded {
				reloaded = true
				p.Reload("#table")
				p.Wait(`body[data-seq="` + seq + `"][data-turn="you"]`)
			}
			if counts[kind] == 4 && !probed {
				probed = true
				probeRefused(t, ts, id, p.Attr("body", "data-seq"))
				if got := p.Attr("body", "data-seq"); got != seq {
					t.Fatalf("the refused actions moved the page from version %s to %s", seq, got)
				}
			}
			if counts[kind] == 6 && !lastSeen {
				lastSeen = true
				p.Press("l")
				p.Wait("#last")
				if txt := p.TextOf("#last"); !strings.Contains(txt, "won") {
					t.Fatalf("the last trick reads %q", txt)
				}
			}
			if byKeys {
				p.Focus("#hand button.playable")
				p.Press(kb.ArrowRight)
				p.Press(kb.Enter)
			} else {
				p.ClickOn("#hand button.playable")
			}
		case decideNext:
			p.Wait("#detail h3")
			if byKeys {
				p.Press("n")
			} else {
				p.ClickOn("#next-btn")
			}
		default:
			t.Fatalf("a decision of kind %q", kind)
		}
		p.Wait(`body:not([data-seq="` + seq + `"])`)
	}
	if !reloaded || !probed || counts[decideCard] < 8 || counts[decideBid] == 0 || counts[decideCut] == 0 {
		t.Fatalf("decisions taken: %v (reloaded %v, probed %v)", counts, reloaded, probed)
	}
	if res := p.TextOf("#result"); !strings.Contains(res, "won") {
		t.Fatalf("the result reads %q", res)
	}
	if live := p.TextOf("#live"); live == "" {
		t.Fatal("the live line is empty")
	}
	if p.Count("#deals li") == 0 || p.Count("#detail table") == 0 {
		t.Fatal("no deal's summary on the page")
	}
	p.Check()
	t.Logf("decisions: %v", counts)

	ms := ts.readRecords(t)
	if len(ms) != 1 || ms[0].End == nil || ms[0].End.Winner == nil {
		t.Fatalf("records: %d", len(ms))
	}
	checkSecrets(t, ts.viewsOf(id), ms[0], you, false)
	var page bytes.Buffer
	if err := report.Write(&page, ms, report.Options{}); err != nil {
		t.Fatalf("the record does not render: %v", err)
	}
	code, review := ts.call(t, "GET", "/play/tables/"+id+"/review", "")
	if code != http.StatusOK || !bytes.Contains(review, []byte("deal")) {
		t.Fatalf("review: %d", code)
	}
	if _, err := record.Read(bytes.NewReader(mustGet(t, ts, "/play/tables/"+id+"/record"))); err != nil {
		t.Fatal(err)
	}
}

// probeRefused sends, while the person is to play a card, a stale action
// and an illegal one by HTTP: both are refused and the view is the same.
func probeRefused(t *testing.T, ts *testServer, id, pageSeq string) {
	t.Helper()
	vb, before := ts.view(t, id, -1)
	if strconv.Itoa(vb.Seq) != pageSeq || vb.View.Decision == nil || vb.View.Decision.Kind != decideCard {
		t.Fatalf("the page is at version %s, the table at %d (%+v)", pageSeq, vb.Seq, vb.View.Decision)
	}
	valid := vb.View.Decision.Cards
	if code, body := ts.act(t, id, vb.Seq-1, `{"card": "`+valid[0]+`"}`); code != http.StatusConflict {
		t.Fatalf("a stale card: %d %s", code, body)
	}
	illegal := ""
	for c := range giretra.FullDeck.All() {
		if !strings.Contains(strings.Join(valid, ","), c.Short()) {
			illegal = c.Short()
			break
		}
	}
	if code, body := ts.act(t, id, vb.Seq, `{"card": "`+illegal+`"}`); code != http.StatusUnprocessableEntity || !strings.Contains(string(body), valid[0]) {
		t.Fatalf("an illegal card: %d %s", code, body)
	}
	if _, after := ts.view(t, id, -1); !bytes.Equal(before, after) {
		t.Fatalf("the refused actions changed the view:\n%s\n%s", before, after)
	}
}

func mustGet(t *testing.T, ts *testServer, path string) []byte {
	t.Helper()
	code, body := ts.call(t, "GET", path, "")
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, code, body)
	}
	return body
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPageWeight: the table page with its script and style and the kit's
// weighs at most 60 KB.
func TestPageWeight(t *testing.T) {
	ts := newTestServer(t)
	total := 0
	for _, path := range []string{"/play/giretra", "/play/giretra/page.js", "/play/giretra/page.css", "/play/kit.js", "/play/kit.css"} {
		total += len(mustGet(t, ts, path))
	}
	t.Logf("the page weighs %d bytes", total)
	if total > 60<<10 {
		t.Fatalf("the page weighs %d bytes, over 60 KB", total)
	}
}
