package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/battleship/report"
	"github.com/botarena/gamebot/internal/browsertest"
	"github.com/botarena/gamebot/internal/table/tabletest"
	"github.com/chromedp/chromedp/kb"
)

// TestPage plays a whole game in headless Chromium as a person does: the
// setup form; the fleet placed by hand (the rotate key, a click, a ship
// taken off by a click and put back by the arrow keys and Enter); shots by
// click, by the arrow keys and Enter, and typed as x,y, in turn; a reload
// in the middle, and a stale and an illegal action sent by HTTP that
// change nothing; at the end, the bot's fleet, the map behind its shots
// stepped by key and by click, the record and the review. Every answer
// the person's seat got before the end is checked for the bot's ships.
func TestPage(t *testing.T) {
	dir := t.TempDir()
	ts := newTestServer(t, Config{}, dir)
	p := browsertest.OpenURL(t, ts.URL+"/play/battleship", "setup")
	for id, v := range map[string]string{"o-width": "5", "o-height": "4", "o-ship1": "1", "o-ship2": "0", "o-ship3": "1",
		"o-ship4": "0", "o-ship5": "0", "o-pace": "0", "o-seed": "5", "o-name": "Ana"} {
		must(t, p.Select(id, v))
	}
	p.ClickOn("#create")
	p.Wait("#table")
	u, err := url.Parse(p.Location())
	if err != nil || u.Query().Get("t") == "" {
		t.Fatalf("the page went to %s, not a table's address", p.Location())
	}
	id := u.Query().Get("t")
	p.Wait(`body[data-phase="place"]`)

	// The 3-ship down from 0,0: rotate with R, then a click.
	p.Focus("#mine")
	p.Press("r")
	p.Wait("#dir") // drawn
	if d := p.TextOf("#dir"); d != "down" {
		t.Fatalf("after R the ship goes %q", d)
	}
	p.ClickOn(`#mine [data-x="0"][data-y="0"]`)
	p.Wait(`#mine [data-x="0"][data-y="2"].ship`)
	// The 1-ship at 4,3 by click, taken off by a click, put back by keys.
	p.ClickOn(`#mine [data-x="4"][data-y="3"]`)
	p.Wait(`#mine [data-x="4"][data-y="3"].ship`)
	p.ClickOn(`#mine [data-x="4"][data-y="3"]`)
	p.Wait(`#mine [data-x="4"][data-y="3"]:not(.ship)`)
	p.Focus("#mine")
	p.Press(kb.ArrowLeft)
	p.Press(kb.ArrowRight)
	p.Press(kb.Enter)
	p.Wait(`#mine [data-x="4"][data-y="3"].ship`)
	_, v, _ := ts.view(t, id, -1)
	if fmt.Sprint(v.Mine) != "[{0 0 3 true} {4 3 1 false}]" {
		t.Fatalf("the fleet placed by hand: %+v", v.Mine)
	}
	p.ClickOn("#start")
	p.Wait(`body[data-phase="play"][data-turn="you"]`)

	// Shots in reading order, by click, by keys, typed, in turn.
	ways := map[string]int{}
	reloaded, probed := false, false
	for k := 0; ; k++ {
		p.Wait(fmt.Sprintf(`body[data-turn="you"][data-yours="%d"], body[data-phase="over"]`, k))
		if p.Attr("body", "data-phase") == "over" {
			break
		}
		if k == 3 && !reloaded {
			reloaded = true
			seq := p.Attr("body", "data-seq")
			p.Reload("#table")
			p.Wait(`body[data-seq="` + seq + `"][data-turn="you"]`)
		}
		if k == 4 && !probed {
			probed = true
			seq := p.Attr("body", "data-seq")
			probeRefused(t, ts, id, seq)
			if got := p.Attr("body", "data-seq"); got != seq {
				t.Fatalf("the refused actions moved the page from version %s to %s", seq, got)
			}
		}
		x, y := k%5, k/5
		switch k % 3 {
		case 0:
			ways["click"]++
			p.ClickOn(fmt.Sprintf(`#theirs [data-x="%d"][data-y="%d"]`, x, y))
		case 1:
			ways["keys"]++
			p.Focus("#theirs")
			cx, _ := strconv.Atoi(p.Attr("#theirs .c.cur", "data-x"))
			cy, _ := strconv.Atoi(p.Attr("#theirs .c.cur", "data-y"))
			for ; cx < x; cx++ {
				p.Press(kb.ArrowRight)
			}
			for ; cx > x; cx-- {
				p.Press(kb.ArrowLeft)
			}
			for ; cy < y; cy++ {
				p.Press(kb.ArrowDown)
			}
			p.Wait(fmt.Sprintf(`#theirs [data-x="%d"][data-y="%d"].cur`, x, y))
			p.Press(kb.Enter)
		case 2:
			ways["typed"]++
			p.Focus("#theirs")
			p.Press("f")
			p.Type("#fire-at", fmt.Sprintf("%d,%d", x, y)+kb.Enter)
		}
	}
	if !reloaded || !probed || ways["click"] < 2 || ways["keys"] < 2 || ways["typed"] < 2 {
		t.Fatalf("shots by %v (reloaded %v, probed %v)", ways, reloaded, probed)
	}

	// The end: the bot's fleet shown, the maps behind its shots.
	if res := p.TextOf("#result"); !strings.Contains(res, "You win") && !strings.Contains(res, "You lose") {
		t.Fatalf("the result reads %q", res)
	}
	if p.Count("#theirs .c.bship") != 4 {
		t.Fatalf("the bot's fleet shows %d cells, want 4", p.Count("#theirs .c.bship"))
	}
	p.Wait(`body[data-explained="0"]`)
	p.Wait("#mine .c.aim")
	if p.Count("#mine .c.heat") == 0 {
		t.Fatal("no map on the person's board")
	}
	if why := p.TextOf("#map-why"); !strings.Contains(why, "%") {
		t.Fatalf("the map's reason reads %q", why)
	}
	p.Focus("#mine")
	p.Press("]")
	p.Wait(`body[data-explained="1"]`)
	p.ClickOn("#map-next")
	p.Wait(`body[data-explained="2"]`)
	p.ClickOn("#map-prev")
	p.Wait(`body[data-explained="1"]`)
	if live := p.TextOf("#live"); live == "" {
		t.Fatal("the live line is empty")
	}
	if href := p.Attr("#review-link", "href"); !strings.HasSuffix(href, "/play/tables/"+url.QueryEscape(id)+"/review") {
		t.Fatalf("the review link is %q", href)
	}
	p.Check()
	t.Logf("shots by %v", ways)

	checkCaptured(t, ts.answers())
	d, err := record.FindDuel(filepath.Join(dir, "battleship"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := report.Write(&page, []*record.Duel{d}, report.Options{}); err != nil {
		t.Fatalf("the record does not render: %v", err)
	}
	if code, review := ts.call(t, "GET", "/play/tables/"+id+"/review", ""); code != http.StatusOK || !bytes.Contains(review, []byte("Duel viewer")) {
		t.Fatalf("review: %d", code)
	}
}

// probeRefused sends, on the person's turn, a stale shot and an illegal
// one (a cell already fired at) by HTTP: both are refused, the second
// with the valid cells, and the view is the same.
func probeRefused(t *testing.T, ts *testServer, id, pageSeq string) {
	t.Helper()
	seq, v, before := ts.view(t, id, -1)
	if strconv.Itoa(seq) != pageSeq || v.Turn != "you" || len(v.AtBot) == 0 {
		t.Fatalf("the page is at version %s, the table at %d (%+v)", pageSeq, seq, v)
	}
	if code, b := ts.act(t, id, seq-1, `{"type": "shoot", "x": 4, "y": 3}`); code != http.StatusConflict {
		t.Fatalf("a stale shot: %d %s", code, b)
	}
	s := v.AtBot[0]
	if code, b := ts.act(t, id, seq, fmt.Sprintf(`{"type": "shoot", "x": %d, "y": %d}`, s.X, s.Y)); code != http.StatusUnprocessableEntity || !strings.Contains(string(b), `"valid":["`) {
		t.Fatalf("a shot at a cell fired at: %d %s", code, b)
	}
	if _, _, after := ts.view(t, id, -1); !bytes.Equal(before, after) {
		t.Fatalf("the refused actions changed the view:\n%s\n%s", before, after)
	}
}

// checkCaptured: of everything the person's seat was sent, nothing before
// the view that ends the game carries the bot's ships, what it says of the
// bot's waters is only the answers to the person's shots (true to the
// fleet the end reveals), and the review and the record were not served.
func checkCaptured(t *testing.T, answers []tabletest.Sent) {
	t.Helper()
	type viewBody struct {
		Seq  *int
		View *View
	}
	end := -1
	var fleet map[[2]int]bool
	for k, s := range answers {
		var vb viewBody
		if json.Unmarshal(s.Body, &vb) == nil && vb.View != nil && vb.View.Phase == phaseOver {
			end, fleet = k, map[[2]int]bool{}
			for _, sh := range vb.View.BotShips {
				for i := range sh.Len {
					if sh.Vertical {
						fleet[[2]int{sh.X, sh.Y + i}] = true
					} else {
						fleet[[2]int{sh.X + i, sh.Y}] = true
					}
				}
			}
			break
		}
	}
	if end < 0 || len(fleet) == 0 {
		t.Fatalf("no view of the end, with the bot's fleet, among %d answers", len(answers))
	}
	for k, s := range answers[:end] {
		if bytes.Contains(s.Body, []byte("bot_ships")) {
			t.Fatalf("answer %d (%s) before the end carries the bot's ships: %s", k, s.Path, s.Body)
		}
		if strings.HasPrefix(s.Path, "/play/tables/") && s.Status == http.StatusOK {
			t.Fatalf("answer %d: %s served before the end", k, s.Path)
		}
		var vb viewBody
		if json.Unmarshal(s.Body, &vb) != nil || vb.View == nil {
			continue
		}
		for _, sh := range vb.View.AtBot {
			if hit := sh.R != "miss"; hit != fleet[[2]int{sh.X, sh.Y}] {
				t.Fatalf("answer %d says %d,%d is %s", k, sh.X, sh.Y, sh.R)
			}
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPageWeight: the table page with its script, its style and the kit
// weighs at most 60 KB.
func TestPageWeight(t *testing.T) {
	w := Game(Config{}).Weight()
	t.Logf("the page weighs %d bytes", w)
	if w > 60<<10 {
		t.Fatalf("the page weighs %d bytes, over 60 KB", w)
	}
}

// TestPageAtAGlance: at a laptop's and a phone's size, the boards are
// numbered from 0 on both axes, a legend says what the marks mean, a
// refused placement says why in one short sentence, only the controls
// the view offers are visible, and a finished game's result, "play
// again" and "review" are at the top of the window; play again sets the
// same game again.
func TestPageAtAGlance(t *testing.T) {
	for _, size := range []browsertest.Options{{Width: 1366, Height: 768}, {Width: 390, Height: 844}} {
		t.Run(fmt.Sprintf("%dx%d", size.Width, size.Height), func(t *testing.T) {
			ts := newTestServer(t, Config{}, "")
			id := ts.create(t, `{"width": 5, "height": 4, "ship1": 1, "ship2": 0, "ship3": 1, "ship4": 0, "ship5": 0, "pace_ms": 0, "seed": 8}`)
			p := browsertest.OpenURLWith(t, ts.URL+"/play/battleship?t="+url.QueryEscape(id), "table", size)
			p.Wait(`body[data-phase="place"]`)
			offered := func(phase string, shown, hidden []string) {
				t.Helper()
				for _, sel := range shown {
					if !p.Shown(sel) {
						t.Errorf("%s: %s is not shown", phase, sel)
					}
				}
				for _, sel := range hidden {
					if p.Shown(sel) {
						t.Errorf("%s: %s is shown, and the view does not offer it", phase, sel)
					}
				}
			}
			after := []string{"#again-btn", "#over-review", "#map-prev", "#map-next", "#review-link", "#record-link"}
			playing := []string{"#fire", "#fire-at"}
			placing := []string{"#rotate", "#random", "#botplace", "#clear", "#start"}
			offered("placing", placing, append(append([]string{"#create", "#result"}, after...), playing...))
			if got := p.Count(`#mine .lab[role="columnheader"]`); got != 6 || p.TextOf(`#mine .lab[role="rowheader"]`) != "0" {
				t.Errorf("the board's axes: %d column labels, first row %q", got, p.TextOf(`#mine .lab[role="rowheader"]`))
			}
			if !p.Shown("#legend") || p.Count("#legend li") < 6 {
				t.Error("no legend")
			}
			// A ship of 3 across from the last column runs off the board,
			// in a second tab: the browser logs the refusal's 422 as an
			// error, which Check would count against the first.
			q := browsertest.OpenURLWith(t, ts.URL+"/play/battleship?t="+url.QueryEscape(id), "table", size)
			q.Wait(`body[data-phase="place"]`)
			q.ClickOn(`#mine [data-x="4"][data-y="0"]`)
			q.WaitUntil(`document.querySelector("#status").textContent !== ""`)
			if msg := q.TextOf("#status"); len(msg) > 80 || !strings.Contains(msg, "off the 5x4 board") || !q.InViewport("#status") {
				t.Errorf("the refusal reads %q (%d characters)", msg, len(msg))
			}
			p.ClickOn("#random")
			p.ClickOn("#start")
			p.Wait(`body[data-phase="play"][data-turn="you"]`)
			offered("playing", playing, append(append([]string{"#result"}, placing...), after...))
			ts.playOut(t, id)
			p.Wait(`body[data-phase="over"]`)
			p.Wait(`body[data-explained="0"]`)
			offered("over", after, append(append([]string{"#create", "#headline"}, placing...), playing...))
			for _, sel := range []string{"#result", "#again-btn", "#over-review"} {
				if !p.InViewport(sel) {
					t.Errorf("%s is not in the first viewport", sel)
				}
			}
			if n := browsertest.Eval[int](p, `document.querySelectorAll(".banner:not([hidden]):not(:empty)").length`); n != 1 {
				t.Errorf("%d banners at the end, want the result's alone", n)
			}
			p.ClickOn("#again-btn")
			p.Wait(`body[data-phase="place"]`)
			if u := p.Location(); strings.Contains(u, url.QueryEscape(id)) {
				t.Errorf("play again stayed at %s", u)
			}
			if d := p.TextOf("#headline"); !strings.Contains(d, "2 ships left") {
				t.Errorf("the new game: %q", d)
			}
			p.Check()
		})
	}
}
