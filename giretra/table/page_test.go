package table

import (
	"bytes"
	"fmt"
	"io"
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
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/chromedp/chromedp/kb"
)

// TestPageAtBottom and TestPageAtLeft play a whole match in headless
// Chromium as a person does, one on a laptop's screen (1366×768), one on
// a phone's (390×844): the setup form, then every cut, bid, card and
// "next deal" by clicks or by keys in turn, a reload in the middle, a
// stale and an illegal action sent by HTTP that change nothing; no
// control the view does not offer is shown; at the end the result with
// "play again" and "review" lies in the first screenful; then the
// record, the review and what every view showed.
func TestPageAtBottom(t *testing.T) {
	playThroughPage(t, giretra.Bottom, 5, browsertest.Options{Width: 1366, Height: 768})
}

func TestPageAtLeft(t *testing.T) {
	playThroughPage(t, giretra.Left, 9, browsertest.Options{Width: 390, Height: 844})
}

var cardLabel = regexp.MustCompile(`^(Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of (Clubs|Diamonds|Hearts|Spades)$`)

func playThroughPage(t *testing.T, you giretra.Position, seed int, o browsertest.Options) {
	ts := newTestServer(t)
	p := browsertest.OpenURLWith(t, ts.URL+"/play/giretra", "setup", o)
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
		checkControls(t, p, kind)
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
	for _, sel := range []string{"#result", "#again-btn", "#over-review"} {
		if !p.InViewport(sel) {
			t.Errorf("at %dx%d, %s is not in the first screenful once the match is over", o.Width, o.Height, sel)
		}
	}
	checkControls(t, p, "")
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

// checkControls fails the test when the page shows a control of a
// decision other than kind ("" for none), or the controls of a watcher
// of four bots at a table where a person plays.
func checkControls(t *testing.T, p *browsertest.Page, kind string) {
	t.Helper()
	controls := map[string]string{decideCut: "#cut-form", decideBid: "#bids", decideCard: "#hand button.playable", decideNext: "#next-btn"}
	for k, sel := range controls {
		if shown := p.Shown(sel); shown != (k == kind) {
			t.Errorf("deciding %q, %s shown: %v", kind, sel, shown)
		}
	}
	for _, sel := range []string{"#watch", "#pause-btn", "#step-btn", "#speed", "#setup"} {
		if p.Shown(sel) {
			t.Errorf("a person's table shows %s", sel)
		}
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
	if w := Game().Weight(); w > 60<<10 {
		t.Fatalf("in its heaviest language the page weighs %d bytes, over 60 KB", w)
	}
	t.Logf("the page weighs %d bytes", total)
	if total > 60<<10 {
		t.Fatalf("the page weighs %d bytes, over 60 KB", total)
	}
}

// TestTwoPeopleInBrowsers: the person who sets the table up passes the
// link of the seat kept for a friend; the friend opens it in a browser of
// their own, and the two play a whole match by clicks against two
// agents. Neither page ever shows the other's hand, and each view sent to
// each page holds only what its seat may see.
func TestTwoPeopleInBrowsers(t *testing.T) {
	ts := newTestServer(t)
	a := browsertest.OpenURLWith(t, ts.URL+"/play/giretra", "setup", browsertest.Options{Width: 1366, Height: 768})
	for i, s := range []string{"you", "Eva", "person", "Kialasoa"} {
		must(t, a.Select(fmt.Sprintf("seat-%d", i), s))
	}
	must(t, a.Select("target", "40"))
	must(t, a.Select("pace", "0"))
	a.ClickOn("#sit")
	a.Wait(`#invite input[data-k="seat-link-0"]`)
	link := browsertest.Eval[string](a, `document.querySelector('#invite input[data-k="seat-link-0"]').value`)
	if !strings.HasPrefix(link, ts.URL+"/play/giretra?t=") {
		t.Fatalf("the link passed on: %q", link)
	}
	b := browsertest.OpenURLWith(t, link, "table", browsertest.Options{Width: 390, Height: 844, Lang: "fr-FR"})
	if b.Shown("#invite") {
		t.Fatal("the friend is shown the links to pass on")
	}
	tokens := map[*browsertest.Page]string{a: tabletestToken(t, a.Location()), b: tabletestToken(t, link)}
	seats := map[*browsertest.Page]giretra.Position{a: giretra.Bottom, b: giretra.Top}
	for step := 0; ; step++ {
		if step > 600 {
			t.Fatal("the match did not end")
		}
		// The server says whose turn it is; that page, once it shows the
		// same version, acts as its person would.
		var turn *browsertest.Page
		var vb viewBody
		for _, p := range []*browsertest.Page{a, b} {
			v, _ := ts.view(t, tokens[p], -1)
			if v.View.Over {
				vb = v
				break
			}
			if v.View.Decision != nil {
				turn, vb = p, v
			}
		}
		if vb.View.Over {
			break
		}
		if turn == nil {
			ts.view(t, tokens[a], vb.Seq) // wait for the table to move
			continue
		}
		other := a
		if turn == a {
			other = b
		}
		turn.Wait(fmt.Sprintf(`body[data-seq="%d"][data-turn="you"]`, vb.Seq))
		if n := other.Count(fmt.Sprintf("#pos-%s .card", map[giretra.Position]string{giretra.Bottom: "n", giretra.Top: "s"}[seats[other]])); n != 0 {
			// The other person sees their partner across the table: it
			// must show no card of that hand.
			t.Fatalf("a page shows %d cards of its partner's hand", n)
		}
		switch vb.View.Decision.Kind {
		case decideCut:
			turn.ClickOn("#cut-btn")
		case decideBid:
			if turn.Count(`#bids button[data-type="Accept"]`) > 0 {
				turn.ClickOn(`#bids button[data-type="Accept"]`)
			} else {
				turn.ClickOn("#bids button")
			}
		case decideCard:
			turn.ClickOn("#hand button.playable")
		case decideNext:
			turn.ClickOn("#next-btn")
		}
		turn.Wait(fmt.Sprintf(`body:not([data-seq="%d"])`, vb.Seq))
	}
	for _, p := range []*browsertest.Page{a, b} {
		p.Wait(`body[data-over="1"]`)
		if !p.InViewport("#result") {
			t.Error("the result is not in the first screenful")
		}
		p.Check()
	}
	if lang := b.Attr("html", "lang"); lang != "fr" || !strings.Contains(b.TextOf("#result"), "gagne") {
		t.Errorf("the friend's page speaks %q: %q", lang, b.TextOf("#result"))
	}
	ms := ts.readRecords(t)
	checkSecrets(t, ts.viewsOf(tokens[a]), ms[0], giretra.Bottom, true)
	checkSecrets(t, ts.viewsOf(tokens[b]), ms[0], giretra.Top, true)
}

func tabletestToken(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("t") == "" {
		t.Fatalf("%q is not a table's link", link)
	}
	return u.Query().Get("t")
}

// TestPageLanguages: the page speaks the browser's language, and its
// switch changes it and is remembered; every text the page or the server
// writes is in the catalogues of the three languages.
func TestPageLanguages(t *testing.T) {
	for _, bad := range i18n.Check() {
		t.Error(bad)
	}
	ts := newTestServer(t)
	p := browsertest.OpenURLWith(t, ts.URL+"/play/giretra", "setup", browsertest.Options{Lang: "mg-MG,mg;q=0.9"})
	if lang := p.Attr("html", "lang"); lang != "mg" || !strings.Contains(p.TextOf("#setup-h"), "Latabatra vaovao") {
		t.Fatalf("a Malagasy browser gets %q: %q", lang, p.TextOf("#setup-h"))
	}
	// As a person picks French in the switch (the page reloads in it).
	browsertest.Eval[bool](p, `(() => { const s = document.getElementById("lang"); s.value = "fr"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.Wait(`html[lang="fr"] #setup`)
	if !strings.Contains(p.TextOf("#setup-h"), "Nouvelle table") {
		t.Fatalf("after the switch to French: %q", p.TextOf("#setup-h"))
	}
	p.Reload("#setup")
	if lang := p.Attr("html", "lang"); lang != "fr" {
		t.Fatalf("the choice was not remembered: %q", lang)
	}
	p.ClickOn("#rules-btn")
	p.Wait("#rules")
	if txt := p.TextOf("#rules"); !strings.Contains(txt, "Contré") || !strings.Contains(txt, "26 cartes") {
		t.Fatalf("the rules in French: %.300s", txt)
	}
	p.Check()
	// No page text is a bare key: every key the page names is in the catalogues.
	for _, l := range []i18n.Lang{i18n.EN, i18n.FR, i18n.MG} {
		req, _ := http.NewRequest("GET", ts.URL+"/play/giretra", nil)
		req.AddCookie(&http.Cookie{Name: "gamebot_lang", Value: string(l)})
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if m := regexp.MustCompile(`>giretra\.[a-z.]+<|"giretra\.page\.[a-zA-Z.]+"`).Find(body); m != nil {
			t.Errorf("%s: the page shows the key %s", l, m)
		}
	}
}

// TestGoneTable: a table that is not here says so at the top of the
// page, with the way back to the lobby.
func TestGoneTable(t *testing.T) {
	ts := newTestServer(t)
	for _, o := range []browsertest.Options{{Width: 1366, Height: 768}, {Width: 390, Height: 844}} {
		p := browsertest.OpenURLWith(t, ts.URL+"/play/giretra?t=NOSUCHTABLE", "gone", o)
		if !p.InViewport("#gone") || !p.InViewport(`#gone a[href="/play"]`) || p.Shown("#table") || p.Shown("#setup") {
			t.Errorf("at %dx%d the gone table is not said at the top", o.Width, o.Height)
		}
	}
}
