package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/battleship/referee"
	"github.com/botarena/gamebot/internal/browsertest"
	"github.com/botarena/gamebot/internal/cli"
)

// small is a quick board for the record tests.
var small = []string{"-w", "6", "-h", "6", "-fleet", "0,1,1,0,0,0"}

func runText(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(t.Context(), patient(args), cli.Env(nil), nil, &out, &errOut)
	return out.String() + errOut.String(), err
}

// sameGames compares two reports of one seed: the figures, not the times.
func sameGames(t *testing.T, a, b *referee.Report) {
	t.Helper()
	if a.Games != b.Games || a.Wins != b.Wins || a.SeatWins != b.SeatWins || *a.Shots != *b.Shots || a.Invalid != b.Invalid {
		t.Errorf("the same seed played other games:\n%+v %+v\n%+v %+v", a, a.Shots, b, b.Shots)
	}
}

// TestRecordDuelInproc: -record writes one consistent record per game and
// changes no result; with players that learn nothing, a seed writes the
// same records at any -concurrency. (Learning players, self and
// dreadnought, play a seed's games alike at -concurrency 1 only: at more,
// what they learnt depends on which games finished first.)
func TestRecordDuelInproc(t *testing.T) {
	dir := t.TempDir()
	args := append([]string{"-mode", "duel-inproc", "-opponent", "dreadnought", "-n", "8", "-seed", "4"}, small...)
	plain, _ := runJSON(t, args...)
	recA := filepath.Join(dir, "a")
	with, _ := runJSON(t, append(args, "-record", recA)...)
	sameGames(t, plain, with)
	fixed := append([]string{"-mode", "duel-inproc", "-bot", "dg", "-opponent", "dreadnought-static", "-n", "8", "-seed", "4"}, small...)
	recB, recC := filepath.Join(dir, "b"), filepath.Join(dir, "c")
	plainB, _ := runJSON(t, append(fixed, "-concurrency", "1", "-record", recB)...)
	withC, _ := runJSON(t, append(fixed, "-concurrency", "3", "-record", recC)...)
	sameGames(t, plainB, withC)
	for g := 1; g <= 8; g++ {
		name := fmt.Sprintf("duel-%04d.jsonl", g)
		b, errB := os.ReadFile(filepath.Join(recB, name))
		c, errC := os.ReadFile(filepath.Join(recC, name))
		if errB != nil || errC != nil || !bytes.Equal(b, c) {
			t.Errorf("%s differs between -concurrency 1 and 3 (%v, %v)", name, errB, errC)
		}
	}
	ds, err := record.ReadDuelDir(recA)
	if err != nil || len(ds) != 8 {
		t.Fatalf("%d records: %v", len(ds), err)
	}
	wins := 0
	for i, d := range ds {
		h := d.Header
		if h.Game != i+1 || h.Command != "duel-inproc" || h.Seed != 4 || h.Width != 6 || h.SubjectSeat != i%2 ||
			h.Players[i%2] != "self" || h.Players[1-i%2] != "dreadnought" || h.HTTP != [2]bool{} {
			t.Errorf("record %d: header %+v", i+1, h)
		}
		if d.End == nil || d.End.Winner == nil || d.Fleets[0] == nil || d.Fleets[1] == nil {
			t.Fatalf("record %d: end %+v", i+1, d.End)
		}
		for _, s := range d.Shots {
			if s.MS != 0 {
				t.Fatalf("in-process shot with a latency: %+v", s)
			}
		}
		if d.Winner() == 1 {
			wins++
		}
	}
	if wins != plain.Wins {
		t.Errorf("records: %d wins, report %d", wins, plain.Wins)
	}
	if _, err := runText(t, "-mode", "target", "-n", "1", "-record", recA); err == nil {
		t.Error("-record outside the duel modes must be refused")
	}
}

// TestRecordShowReport: a duel over HTTP recorded, shown and reported,
// and the page driven in headless Chromium.
func TestRecordShowReport(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec")
	args := append([]string{"-mode", "duel", "-bot", "self", "-opponent", "stupid", "-n", "4", "-seed", "2"}, small...)
	plain, _ := runJSON(t, args...)
	with, _ := runJSON(t, append(args, "-record", rec)...)
	sameGames(t, plain, with)
	// Games played at once write their records side by side.
	if _, err := runText(t, append(args, "-concurrency", "3", "-record", filepath.Join(dir, "c3"))...); err != nil {
		t.Fatal(err)
	}
	if ds, err := record.ReadDuelDir(filepath.Join(dir, "c3")); err != nil || len(ds) != 4 {
		t.Fatalf("-concurrency 3: %d records: %v", len(ds), err)
	}
	ds, err := record.ReadDuelDir(rec)
	if err != nil || len(ds) != 4 {
		t.Fatalf("%d records: %v", len(ds), err)
	}
	for i, d := range ds {
		me := d.Header.SubjectSeat
		if !d.Header.HTTP[me] || d.Header.HTTP[1-me] || d.Winner() != 1 || d.FleetMS[me] <= 0 {
			t.Errorf("record %d: header %+v, winner %d, init ms %v", i+1, d.Header, d.Winner(), d.FleetMS)
		}
		for _, s := range d.Shots {
			if (s.MS > 0) != (s.Seat == me) {
				t.Fatalf("record %d: latency %v on seat %d's shot (HTTP seat %d)", i+1, s.MS, s.Seat, me)
			}
		}
	}

	// show
	third := filepath.Join(rec, "duel-0003.jsonl")
	for _, tt := range []struct {
		name string
		args []string
		want []string // in the output; nil: an error
	}{
		{"file", []string{third}, []string{"game 3: self vs stupid, self won in", "duel, seed 2, board 6x6", "round", "SUNK 3", "ms", "boards at the end", "self's fleet", "stupid's fleet", "    012345"}},
		{"folder", []string{rec, "-game", "2"}, []string{"game 2: stupid vs self", "self won with"}},
		{"flag first", []string{"-game", "4", rec}, []string{"game 4:"}},
		{"folder default", []string{rec}, []string{"game 1:"}},
		{"no such game", []string{rec, "-game", "9"}, nil},
		{"file of another game", []string{third, "-game", "2"}, nil},
		{"no file", []string{filepath.Join(dir, "nope")}, nil},
		{"two files", []string{third, third}, nil},
	} {
		t.Run("show "+tt.name, func(t *testing.T) {
			out, err := runText(t, append([]string{"show"}, tt.args...)...)
			if tt.want == nil {
				if err == nil {
					t.Errorf("no error:\n%s", out)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("show lacks %q:\n%s", w, out)
				}
			}
		})
	}

	// report
	page := filepath.Join(dir, "replay.html")
	if out, err := runText(t, "report", rec, "-o", page); err != nil || !strings.Contains(out, "4 games") {
		t.Fatalf("report: %v %s", err, out)
	}
	html, _ := os.ReadFile(page)
	for _, want := range []string{"Battleship report: self", "of 4 finished games (4 won)", "Wilson 95% interval 51.0% – 100.0%",
		"needed to win", "Latency of the bot servers", "play-turn", "Duel viewer", "game 3: self vs stupid"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`(?i)(src|href)=["']?(https?:)?//`).Find(html); m != nil {
		t.Errorf("report fetches from the network: %s", m)
	}
	if _, err := runText(t, "report", dir); err == nil {
		t.Error("a folder without records must be an error")
	}
	browseDuels(t, page, ds)
}

// browseDuels opens the battleship report in headless Chromium: it must
// load cleanly, and the duel viewer must step through a game picked in
// its list, the marked shots growing and the highlighted cell moving.
func browseDuels(t *testing.T, page string, ds []*record.Duel) {
	p := browsertest.Open(t, page, "next")
	d := ds[1]
	if err := p.Select("game-select", "1"); err != nil {
		t.Fatal(err)
	}
	marked := func() int { return browsertest.Eval[int](p, `document.querySelectorAll(".board .cell.shot").length`) }
	now := func() string {
		return browsertest.Eval[string](p, `(function () { var c = document.querySelectorAll(".board .cell.now");
			return c.length === 1 ? c[0].parentNode.id + ":" + c[0].dataset.x + "," + c[0].dataset.y : c.length + " highlighted"; })()`)
	}
	ships := browsertest.Eval[int](p, `document.querySelectorAll(".board .cell.ship").length`)
	if want := 2 * (2 + 3); ships != want || marked() != 0 || !strings.Contains(p.Text("step-label"), "fleets placed") {
		t.Errorf("at the start: %d ship cells (want %d), %d shots marked, %q", ships, want, marked(), p.Text("step-label"))
	}
	if !strings.Contains(p.Text("game-info"), "game 2:") {
		t.Errorf("picked game: %q", p.Text("game-info"))
	}
	var seen []string
	cells := map[[3]int]bool{}
	for k := 1; k <= 4; k++ {
		p.Click("next")
		s := d.Shots[k-1]
		board := "board-" + string(rune('0'+1-s.Seat))
		want := board + ":" + string(rune('0'+s.Cell[0])) + "," + string(rune('0'+s.Cell[1]))
		if got := now(); got != want {
			t.Errorf("shot %d: highlighted %s, want %s", k, got, want)
		}
		cells[[3]int{s.Seat, s.Cell[0], s.Cell[1]}] = true // stupid may shoot a cell twice
		if m := marked(); m != len(cells) {
			t.Errorf("after %d shots: %d marked, want %d", k, m, len(cells))
		}
		seen = append(seen, now())
	}
	if seen[0] == seen[1] || seen[1] == seen[2] {
		t.Errorf("the highlight did not move: %v", seen)
	}
	if n := browsertest.Eval[int](p, `document.querySelectorAll("#shots li").length`); n != 4 {
		t.Errorf("%d shots listed", n)
	}
	// The keyboard steps too; End shows the whole game and its result.
	if err := p.Key(kb.ArrowLeft); err != nil {
		t.Fatal(err)
	}
	if m := marked(); m > len(cells) || browsertest.Eval[int](p, `document.querySelectorAll("#shots li").length`) != 3 {
		t.Errorf("after ←: %d marked, %q", m, p.Text("step-label"))
	}
	if got := p.Text("step-label"); !strings.HasPrefix(got, "shot 3/") {
		t.Errorf("after ←: %q", got)
	}
	p.Click("last")
	if got := p.Text("result"); !strings.Contains(got, "self wins with") {
		t.Errorf("at the end: %q", got)
	}
	want := 0 // every cell of every ship sunk
	for _, s := range d.Shots {
		if s.Result == record.ResultSunk {
			want += d.Fleets[1-s.Seat][s.Ship].L
		}
	}
	if sunk := browsertest.Eval[int](p, `document.querySelectorAll(".board .cell.shot.sunk").length`); sunk != want || want < 5 {
		t.Errorf("%d sunk cells marked at the end, want %d", sunk, want)
	}
	p.Check()
}
