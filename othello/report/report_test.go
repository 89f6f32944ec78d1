package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/internal/browsertest"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/record"
	"github.com/chromedp/chromedp/kb"
)

// playLeg plays a random leg of mode, white's moves carrying an engine's
// score and depth.
func playLeg(t *testing.T, mode othello.Mode, seed uint64) record.Leg {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	st := othello.NewState(mode)
	size := mode.Size()
	l := record.Leg{Version: record.Version, Mode: mode.String(), Start: record.StartInitial,
		Players: [2]record.Player{{Name: "person", Kind: "person"}, {Name: "gamebot", Kind: "engine"}}, Started: time.Unix(0, 0).UTC()}
	for !st.Over() {
		legal := st.LegalMoves()
		sq := othello.Pass
		if len(legal) > 0 {
			sq = legal[rng.IntN(len(legal))]
		}
		m := record.Move{Move: record.MoveName(sq, size), Ms: 10}
		if st.Turn == othello.White && sq != othello.Pass {
			s := float64(rng.IntN(9) - 4)
			m.Score, m.Depth = &s, 8+rng.IntN(4)
		}
		st.Play(sq)
		l.Moves = append(l.Moves, m)
	}
	b, w := st.Discs()
	l.Result = &record.Result{Black: b, White: w, Winner: record.WinnerName(st.Winner()), Reason: record.ReasonEnd}
	return l
}

func TestBuild(t *testing.T) {
	legs := []record.Leg{playLeg(t, othello.Std, 1), playLeg(t, othello.Octagon, 2)}
	r, err := Build(legs, Options{ViewerLegs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Players) != 2 || r.Players[0].Legs != 2 || r.Players[0].Won+r.Players[0].Drawn+r.Players[0].Lost != 2 || r.Omitted != 1 {
		t.Fatalf("summary %+v, omitted %d", r.Players, r.Omitted)
	}
	// The viewer's boards are the replayed positions: the start and one
	// after each move, the white engine's scores turned to black's.
	v := string(r.Viewer)
	if !strings.Contains(v, `"boards":["...........................ox......xo...........................",`) {
		t.Errorf("the first board is not the start: %.200s", v)
	}
	if strings.Count(v, `"black":`) == 0 {
		t.Error("no engine evaluation in the viewer")
	}
	var page bytes.Buffer
	if err := Write(&page, legs, Options{Title: "<o>"}); err != nil {
		t.Fatal(err)
	}
	if s := page.String(); strings.Contains(s, "<o>") || !strings.Contains(s, "&lt;o&gt;") || !strings.Contains(s, "Leg viewer") {
		t.Error("the page's title is not escaped, or the viewer is missing")
	}
	bad := legs[0]
	bad.Moves = append([]record.Move{{Move: "a1"}}, bad.Moves...)
	if _, err := Build([]record.Leg{bad}, Options{}); err == nil {
		t.Error("an illegal leg was drawn")
	}
}

// TestViewerInBrowser: the page steps through a leg by the keys and the
// move list, marks the last move, shows a pass, and loads nothing.
func TestViewerInBrowser(t *testing.T) {
	var leg record.Leg
	for seed := uint64(1); ; seed++ { // a leg with a pass in it
		leg = playLeg(t, othello.Std, seed)
		if hasPass(leg) {
			break
		}
	}
	path := filepath.Join(t.TempDir(), "legs.html")
	var page bytes.Buffer
	if err := Write(&page, []record.Leg{leg}, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	p := browsertest.Open(t, path, "board")
	n := len(leg.Moves)
	if got := p.Text("step-label"); !strings.HasPrefix(got, "move "+strconv.Itoa(n)+" of "+strconv.Itoa(n)) {
		t.Fatalf("the viewer opens at %q, want the last move", got)
	}
	p.Press(kb.Home)
	if got := p.Text("step-label"); got != "start" || p.Count(".board .sq.x") != 2 || p.Count(".board .sq.legal") != 4 {
		t.Fatalf("Home: %q, %d black discs, %d legal marks", got, p.Count(".board .sq.x"), p.Count(".board .sq.legal"))
	}
	p.Press(kb.ArrowRight)
	first := leg.Moves[0].Move
	if p.Attr("#sq-"+first, "class") != "sq x last" {
		t.Fatalf("after → the first move %s is not marked: %q", first, p.Attr("#sq-"+first, "class"))
	}
	pass := 0
	for i, m := range leg.Moves {
		if m.Move == "pass" {
			pass = i
			break
		}
	}
	p.ClickOn("#moves li:nth-child(" + strconv.Itoa(pass+1) + ")")
	p.Wait("#pass-banner")
	if !strings.Contains(p.Text("pass-banner"), "passes") {
		t.Fatalf("pass banner: %q", p.Text("pass-banner"))
	}
	if got := browsertest.Eval[string](p, `document.getElementById("transcript").value`); got != leg.Transcript() {
		t.Fatalf("transcript %q, want %q", got, leg.Transcript())
	}
	if p.Count("#curve circle") == 0 || p.Count("#curve rect") == 0 {
		t.Fatal("no evaluation curve")
	}
	// Every move of the list is there to read, numbered, none cut off by
	// its box; the curve's labels lie inside its picture.
	if got := browsertest.Eval[string](p, `(() => {
		const box = document.getElementById("moves").getBoundingClientRect();
		const items = [...document.querySelectorAll("#moves li")];
		const cut = items.filter((li) => { const r = li.getBoundingClientRect(); return r.left < box.left || r.right > box.right + 1; });
		return items.length + " " + cut.length + " " + items[items.length - 1].textContent.split(".")[0]; })()`); got != fmt.Sprintf("%d 0 %d", n, n) {
		t.Errorf("the move list: %q (moves, cut off, the last number), want %d moves none cut", got, n)
	}
	p.Press(kb.Home) // the pass banner hides again
	if h := browsertest.Eval[float64](p, `document.getElementById("pass-banner").getBoundingClientRect().height`); h != 0 {
		t.Errorf("the pass banner shows, empty, on a move that is no pass (%.0f px high)", h)
	}
	if out := browsertest.Eval[int](p, `(() => {
		const svg = document.getElementById("curve").getBoundingClientRect();
		return [...document.querySelectorAll("#curve text")].filter((t) => { const r = t.getBoundingClientRect(); return r.top < svg.top || r.bottom > svg.bottom + 0.5; }).length; })()`); out != 0 {
		t.Errorf("%d labels of the curve lie outside its picture", out)
	}
	p.Check()
}

func hasPass(l record.Leg) bool {
	for _, m := range l.Moves {
		if m.Move == "pass" {
			return true
		}
	}
	return false
}
