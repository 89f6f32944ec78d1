package table

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/browsertest"
	"github.com/botarena/gamebot/internal/table/tabletest"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/record"
	"github.com/chromedp/chromedp/kb"
)

// The two windows the pages are checked at: a laptop's and a phone's.
var (
	laptop = browsertest.Options{Width: 1366, Height: 768}
	phone  = browsertest.Options{Width: 390, Height: 844}
)

// TestPlayInBrowser plays a whole leg of each mode through the page as a
// person does, at a laptop's and at a phone's size: the setup form, then
// moves by a click on a marked square, by the arrow keys and Enter, and
// typed; it reloads the page mid-game (the game resumes where it was) and
// sends a stale and an illegal move, which change nothing. The result,
// "play again" and the review's link are then in the first view.
func TestPlayInBrowser(t *testing.T) {
	_, c := newHub(t, t.TempDir())
	for i, tc := range []struct{ mode, start, colour string }{
		{"std", "xot", "black"}, {"anti", "initial", "white"}, {"grand", "random", "black"}, {"octagon", "initial", "white"}, {"reversi", "random", "black"},
	} {
		o := []browsertest.Options{laptop, phone}[i%2]
		t.Run(tc.mode, func(t *testing.T) { playInBrowser(t, c, o, tc.mode, tc.start, tc.colour) })
	}
}

func playInBrowser(t *testing.T, c client, o browsertest.Options, mode, start, colour string) {
	p := browsertest.OpenURLWith(t, c.srv.URL+"/play/othello", "setup-form", o)
	if p.Shown("#watch-opts") || !p.Shown("#play-opts") {
		t.Fatal("the setup form shows the engines of a watched match to a person who plays")
	}
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
	if got := p.TextOf("#game"); !strings.HasPrefix(got, mode+" — ") {
		t.Fatalf("the table names its game %q", got)
	}
	if !p.Shown("#move-form") || p.Shown("#watch-controls") || p.Shown("#over") {
		t.Fatal("playing, the page shows controls that do not act")
	}
	playLeg(t, c, p, id, mode)
	if got := p.TextOf("#over"); !strings.Contains(got, "–") {
		t.Fatalf("the end: %q", got)
	}
	for _, sel := range []string{"#result", "#again-btn", "#review-link"} {
		if !p.InViewport(sel) {
			t.Errorf("%dx%d: %s is not in the first view", o.Width, o.Height, sel)
		}
	}
	if p.Shown("#move-form") {
		t.Error("the move form outlives the game")
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

// playLeg plays the person's moves on the page until the leg is over.
func playLeg(t *testing.T, c client, p *browsertest.Page, id, mode string) {
	size := 8
	if mode == "grand" || mode == "octagon" {
		size = 10
	}
	ready := `body[data-turn="you"], body[data-over="1"]`
	for moves := 0; ; moves++ {
		p.Wait(ready)
		if p.Attr("body", "data-over") == "1" {
			return
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
// resumed from the page's buttons and keys, to its end; its controls are
// the creator's alone (a watcher's page shows none), and the result is in
// the first view.
func TestWatchInBrowser(t *testing.T) {
	_, c := newHub(t, "")
	p := browsertest.OpenURLWith(t, c.srv.URL+"/play/othello", "setup-form", laptop)
	p.ClickOn("#watch")
	if !p.Shown("#watch-opts") || p.Shown("#play-opts") {
		t.Fatal("watching, the setup form shows a player's colour and opponent, or not the engines")
	}
	for id, v := range map[string]string{"mode": "std", "start": "random", "engine-a": "gamebot-1", "engine-b": "first", "pace": "300"} {
		if err := p.Select(id, v); err != nil {
			t.Fatal(err)
		}
	}
	p.ClickOn("#start-button")
	p.Wait("#board-1")
	if !p.Shown("#watch-controls") || p.Shown("#move-form") {
		t.Fatal("the creator of a watched match: no controls, or a move form")
	}
	p.Press("p") // pause, before the watcher's page opens: the match waits for it
	p.Wait(`#step:not([disabled])`)
	watchURL := browsertest.Eval[string](p, `(() => { const i = document.querySelector('#invite input[data-k="watch-link"]'); return i ? i.value : ""; })()`)
	if watchURL == "" {
		t.Fatal("the creator is given no link to pass on")
	}
	w := browsertest.OpenURLWith(t, watchURL, "board-1", phone)
	if w.Shown("#watch-controls") || w.Shown("#move-form") || w.Shown("#invite") {
		t.Fatal("a watcher's page shows controls")
	}
	// Paused, the boards do not change (a move found after the pause is
	// held); a step is one move: one disc more on the two boards.
	const count = `document.querySelectorAll(".board button.sq.x, .board button.sq.o").length`
	before := browsertest.Eval[int](p, count)
	p.Press(".")
	p.WaitUntil(fmt.Sprintf("%s !== %d", count, before))
	if got := browsertest.Eval[int](p, count); got != before+1 {
		t.Fatalf("a step placed %d discs", got-before)
	}
	if err := p.Select("speed", "0"); err != nil { // fast, for the rest
		t.Fatal(err)
	}
	p.ClickOn("#pause") // resume
	p.Wait(`body[data-over="1"]`)
	if n, _ := strconv.Atoi(p.Attr("body", "data-seq")); n < 60 {
		t.Fatalf("a whole match in %d versions", n)
	}
	if !p.InViewport("#result") || !p.InViewport("#again-btn") || !p.InViewport("#review-link") || p.Shown("#watch-controls") {
		t.Fatal("over: the result and its buttons are not in the first view, or the controls stay")
	}
	w.Wait(`body[data-over="1"]`)
	if !w.InViewport("#result") || w.Shown("#again-btn") {
		t.Fatal("a watcher at the end: the result is not in the first view, or the next game is offered")
	}
	p.Check()
	w.Check()
}

// TestKeysHelp: ? shows the keys and hides them again.
func TestKeysHelp(t *testing.T) {
	_, c := newHub(t, "")
	p := browsertest.OpenURLWith(t, c.srv.URL+"/play/othello", "setup-form", phone)
	p.Press("?")
	p.Wait("#help:not([hidden])")
	if !p.InViewport("#help h2") {
		t.Fatal("the keys help is not in view")
	}
	p.Press("?")
	p.WaitUntil(`document.querySelector("#help").hidden`)
	p.Check()
}

// TestFriendInBrowser: the creator keeps black for a friend, whose link
// the page shows to pass on; on that link the friend plays black and the
// creator white, each page showing its own moves only, until the end.
func TestFriendInBrowser(t *testing.T) {
	_, c := newHub(t, "")
	host := browsertest.OpenURLWith(t, c.srv.URL+"/play/othello", "setup-form", laptop)
	for id, v := range map[string]string{"mode": "std", "start": "random", "colour": "white", "opponent": "person"} {
		if err := host.Select(id, v); err != nil {
			t.Fatal(err)
		}
	}
	host.ClickOn("#start-button")
	host.Wait("#board-0")
	link := browsertest.Eval[string](host, `document.querySelector('#invite input[data-k="seat-link-0"]').value`)
	friend := browsertest.OpenURLWith(t, link, "board-0", phone)
	pages := map[string]*browsertest.Page{"black": friend, "white": host}
	for moves := 0; moves < 200; moves++ {
		friend.Wait(`.board[data-turn], body[data-over="1"]`)
		if friend.Attr("body", "data-over") == "1" {
			break
		}
		turn := friend.Attr("#board-0", "data-turn")
		if turn == "" { // over: the view that says so is on its way
			continue
		}
		mover, other := pages[turn], pages[map[string]string{"black": "white", "white": "black"}[turn]]
		mover.Wait(`body[data-turn="you"], body[data-over="1"]`)
		if mover.Attr("body", "data-over") == "1" {
			break
		}
		if other.Count(".board button.sq.legal") != 0 {
			t.Fatalf("move %d: %s's page offers moves on the other's turn", moves, turn)
		}
		seq := mover.Attr("body", "data-seq")
		mover.ClickOn(".board button.sq.legal")
		mover.Wait(`body:not([data-seq="` + seq + `"])`)
	}
	for _, p := range []*browsertest.Page{host, friend} {
		p.Wait(`body[data-over="1"]`)
		if !p.InViewport("#result") || p.Shown("#move-form") {
			t.Fatal("the end is not at the top of a player's page")
		}
	}
	if host.Shown("#again-btn") != true || friend.Shown("#again-btn") {
		t.Fatal("play again is the creator's")
	}
	if tabletest.Token(link) == "" {
		t.Fatal("the friend's link holds no token")
	}
	host.Check()
	friend.Check()
}
