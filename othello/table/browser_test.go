package table

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/browsertest"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/record"
	"github.com/chromedp/chromedp/kb"
)

// TestPlayInBrowser plays a whole leg of each mode through the page as a
// person does: the setup form, then moves by a click on a marked square,
// by the arrow keys and Enter, and typed; it reloads the page mid-game
// (the game resumes where it was) and sends a stale and an illegal move,
// which change nothing.
func TestPlayInBrowser(t *testing.T) {
	_, c := newHub(t, t.TempDir())
	for _, tc := range []struct{ mode, start, colour string }{
		{"std", "xot", "black"}, {"anti", "initial", "white"}, {"grand", "random", "black"}, {"octagon", "initial", "white"}, {"reversi", "random", "black"},
	} {
		t.Run(tc.mode, func(t *testing.T) { playInBrowser(t, c, tc.mode, tc.start, tc.colour) })
	}
}

func playInBrowser(t *testing.T, c client, mode, start, colour string) {
	p := browsertest.OpenURL(t, c.srv.URL+"/play/othello", "setup-form")
	for id, v := range map[string]string{"mode": mode, "start": start, "colour": colour, "opponent": "gamebot-1"} {
		if err := p.Select(id, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Select("pace", "0"); err != nil {
		t.Fatal(err)
	}
	p.ClickOn("#start-button")
	p.Wait(`body[data-seq]`)
	u, _ := url.Parse(p.Location())
	id := u.Query().Get("t")
	if id == "" {
		t.Fatalf("the page's address names no table: %s", p.Location())
	}
	size := 8
	if mode == "grand" || mode == "octagon" {
		size = 10
	}
	ready := `body[data-turn="you"], body[data-over="1"]`
	for moves := 0; ; moves++ {
		p.Wait(ready)
		if p.Attr("body", "data-over") == "1" {
			break
		}
		seq := p.Attr("body", "data-seq")
		sq := p.Attr(".board button.sq.legal", "data-sq")
		switch {
		case moves == 2:
			// A reload resumes the table: the same version, the same board.
			before := c.view(id, -1)
			p.Reload(ready)
			if got := p.Attr("body", "data-seq"); got != seq || p.Attr("#sq-0-"+sq, "class") != "sq legal" {
				t.Fatalf("after a reload: version %s (was %s), %s is %q", got, seq, sq, p.Attr("#sq-0-"+sq, "class"))
			}
			staleAndIllegal(t, c, id, before)
			p.ClickOn("#sq-0-" + sq)
		case moves%3 == 0:
			p.ClickOn("#sq-0-" + sq)
		case moves%3 == 1:
			// The arrow keys: from the square left of (or right of) the
			// move, one step across, then Enter.
			n, _ := othello.ParseSquare(sq, size)
			from, key := n-1, kb.ArrowRight
			if n%size == 0 {
				from, key = n+1, kb.ArrowLeft
			}
			p.Focus("#sq-0-" + othello.SquareName(from, size))
			p.Press(key)
			p.Press(kb.Enter)
		default:
			p.Type("#move-input", sq+kb.Enter)
		}
		p.Wait(`body:not([data-seq="` + seq + `"])`)
	}
	if got := p.TextOf("#over"); !strings.Contains(got, "–") {
		t.Fatalf("the end: %q", got)
	}
	code, b := c.do("GET", "/play/tables/"+id+"/record", "")
	legs, err := record.Read(strings.NewReader(string(b)))
	if code != 200 || err != nil || len(legs) != 1 || legs[0].Mode != mode || legs[0].Result == nil {
		t.Fatalf("record: %d %v", code, err)
	}
	p.ClickOn("#review-link")
	p.Wait("#board")
	p.Check()
}

// staleAndIllegal sends a move on an old version and a move the rules
// refuse: 409 and 422 with the legal moves, and the table is unchanged.
func staleAndIllegal(t *testing.T, c client, id string, before viewBody) {
	t.Helper()
	legal := before.View.Legs[0].Legal
	code, b := c.do("POST", "/play/api/tables/"+id+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"move":%q}}`, before.Seq-1, legal[0]))
	if code != 409 {
		t.Fatalf("stale move: %d %s", code, b)
	}
	illegal := ""
	size := before.View.Size
	for sq := range size * size {
		name := othello.SquareName(sq, size)
		if before.View.Legs[0].Cells[sq] == '.' && !contains(legal, name) {
			illegal = name
			break
		}
	}
	code, b = c.do("POST", "/play/api/tables/"+id+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"move":%q}}`, before.Seq, illegal))
	var body struct{ Valid []string }
	json.Unmarshal(b, &body)
	if code != 422 || strings.Join(body.Valid, " ") != strings.Join(legal, " ") {
		t.Fatalf("illegal move %s: %d %s", illegal, code, b)
	}
	after := c.view(id, -1)
	x, _ := json.Marshal(before)
	y, _ := json.Marshal(after)
	if string(x) != string(y) {
		t.Fatalf("refused moves changed the table:\n%s\n%s", x, y)
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// TestWatchInBrowser: a watched match on two boards, paused, stepped and
// resumed from the page's buttons, to its end.
func TestWatchInBrowser(t *testing.T) {
	_, c := newHub(t, "")
	p := browsertest.OpenURL(t, c.srv.URL+"/play/othello", "setup-form")
	p.ClickOn("#watch")
	for id, v := range map[string]string{"mode": "std", "start": "random", "engine-a": "gamebot-1", "engine-b": "first", "pace": "50"} {
		if err := p.Select(id, v); err != nil {
			t.Fatal(err)
		}
	}
	p.ClickOn("#start-button")
	p.Wait("#board-1")
	p.ClickOn("#pause")
	p.Wait(`#pause:not([disabled])`)
	p.Wait(`#step:not([disabled])`)
	// Paused, the boards do not change (a move found after the pause is
	// held); a step is one move: one disc more on the two boards.
	const count = `document.querySelectorAll(".board button.sq.x, .board button.sq.o").length`
	before := browsertest.Eval[int](p, count)
	p.ClickOn("#step")
	p.WaitUntil(fmt.Sprintf("%s !== %d", count, before))
	if got := browsertest.Eval[int](p, count); got != before+1 {
		t.Fatalf("a step placed %d discs", got-before)
	}
	p.ClickOn("#pause") // resume
	p.Wait(`body[data-over="1"]`)
	if n, _ := strconv.Atoi(p.Attr("body", "data-seq")); n < 60 {
		t.Fatalf("a whole match in %d versions", n)
	}
	p.Check()
}
