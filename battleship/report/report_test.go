package report

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/internal/i18n"
)

// duel builds a duel record on a 3x1 board with one ship of length 1:
// seat 0's at 2,0, seat 1's at 0,0; lines after the fleets.
func duel(t *testing.T, game, subjectSeat int, lines ...string) *record.Duel {
	t.Helper()
	head := `{"type":"duel","version":1,"command":"duel","game":` + strconv.Itoa(game) + `,"seed":1,"width":3,"height":1,"fleet":[1,0,0,0,0,0],` +
		`"players":["bot","opp"],"http":[true,false],"subject":"bot","subjectSeat":` + strconv.Itoa(subjectSeat) + `}`
	if subjectSeat == 1 {
		head = strings.Replace(head, `"players":["bot","opp"],"http":[true,false]`, `"players":["opp","bot"],"http":[false,true]`, 1)
	}
	fleets := `{"type":"fleet","seat":0,"ships":[[[2,0]]],"ms":2}` + "\n" + `{"type":"fleet","seat":1,"ships":[[[0,0]]]}`
	d, err := record.ReadDuel(strings.NewReader(head + "\n" + fleets + "\n" + strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestBuild(t *testing.T) {
	won := duel(t, 1, 0,
		`{"type":"shot","shot":1,"seat":0,"cell":[1,0],"result":"miss","ms":1.5}`,
		`{"type":"shot","shot":2,"seat":1,"cell":[0,0],"result":"miss"}`,
		`{"type":"shot","shot":3,"seat":0,"cell":[0,0],"result":"sunk","ms":3}`,
		`{"type":"end","winner":0,"shots":[2,1]}`)
	lost := duel(t, 2, 1,
		`{"type":"shot","shot":1,"seat":0,"cell":[2,0],"result":"miss"}`,
		`{"type":"shot","shot":2,"seat":1,"cell":[1,0],"result":"miss","ms":1}`,
		`{"type":"shot","shot":3,"seat":0,"cell":[0,0],"result":"sunk"}`,
		`{"type":"end","winner":0,"shots":[2,1]}`)
	invalid := duel(t, 3, 0, `{"type":"end","winner":1,"shots":[0,0],"invalid":"play-turn: shot \"x\" is malformed"}`)
	stopped := duel(t, 4, 0, `{"type":"end","shots":[0,0],"error":"context canceled","interrupted":true}`)
	all := []*record.Duel{won, lost, invalid, stopped}
	r, err := Build(all, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "bot" || r.Games != 3 || r.Wins != 1 || r.Stopped != 1 || r.Invalid != 1 || r.Lo > 0.1 || r.Hi < 0.7 {
		t.Errorf("summary %+v", r)
	}
	if r.Shots.N != 1 || r.Shots.Mean != 2 || r.OppShots.N != 1 || r.OppShots.Mean != 2 {
		t.Errorf("shots to win %+v, the opponent's %+v", r.Shots, r.OppShots)
	}
	if len(r.Opponent) != 1 || r.Opponent[0].Name != "opp" || r.Opponent[0].Games != 3 {
		t.Errorf("opponents %+v", r.Opponent)
	}
	if len(r.Latency) != 1 || r.Latency[0].Player != "bot" || len(r.Latency[0].Kinds) != 2 || r.Latency[0].Kinds[1].Count != 3 || r.Latency[0].Kinds[1].Max != 3 {
		t.Errorf("latency %+v", r.Latency)
	}
	if len(r.List) != 4 || r.List[1].Result != "lost" || r.List[3].Result != "stopped" {
		t.Errorf("games %+v", r.List)
	}
	// The viewer holds the games with both fleets, shots as arrays.
	if !strings.Contains(string(r.Viewer), `"shots":[[0,1,0,"miss",-1],[1,0,0,"miss",-1],[0,0,0,"sunk",0]]`) {
		t.Errorf("viewer data %s", r.Viewer)
	}
	var page bytes.Buffer
	if err := Write(&page, all, Options{Title: "<x>", ViewerGames: 1}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"&lt;x&gt;", "Made by battleref report", "3 left out", "Duel viewer"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page.String(), "<x>") {
		t.Error("the title is not escaped")
	}
	if _, err := Build(all, Options{Subject: "nobody"}); err == nil {
		t.Error("an absent subject must be an error")
	}
}

// TestWriteDuel: the review of one game speaks the reader's language —
// its result, the board, each side's shots, hits and ships sunk, a bot
// server's answer times, the viewer's words — and reads as one game.
func TestWriteDuel(t *testing.T) {
	d := duel(t, 1, 0,
		`{"type":"shot","shot":1,"seat":0,"cell":[1,0],"result":"miss","ms":1.5}`,
		`{"type":"shot","shot":2,"seat":1,"cell":[0,0],"result":"miss"}`,
		`{"type":"shot","shot":3,"seat":0,"cell":[0,0],"result":"sunk","ms":3}`,
		`{"type":"end","winner":0,"shots":[2,1]}`)
	for lang, want := range map[i18n.Lang][]string{
		i18n.EN: {`<html lang="en">`, "Battleship: bot vs opp", "bot wins with 2 shots (opp fired 1)", "3x1 board", "bot shot first.", "<td>bot</td><td>2</td><td>1</td><td>1 / 1</td><td>2.0 ms, 3.0 ms</td>", "Duel viewer"},
		i18n.FR: {`<html lang="fr">`, "Bataille navale : bot contre opp", "bot gagne en 2 tirs (opp en a tiré 1)", "Grille 3x1", "bot a tiré le premier.", "temps de réponse", "Visionneuse de duels", `"step0":"étape 0/%d : flottes placées"`},
		i18n.MG: {`<html lang="mg">`, "Ady an-dranomasina: bot — opp", "Nandresy tamin&#39;ny tifitra 2 i bot", "Takelaka 3x1", "Mpijery ady", `"miss":"diso"`},
	} {
		var page bytes.Buffer
		if err := WriteDuel(&page, d, i18n.For(lang), DuelOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(page.String(), w) {
				t.Errorf("%s: the review lacks %q", lang, w)
			}
		}
		for _, not := range []string{"Wilson", "interval", "Latency", "histogram", "Games</h2>"} {
			if strings.Contains(page.String(), not) {
				t.Errorf("%s: the review of one game holds %q", lang, not)
			}
		}
	}
	var page bytes.Buffer
	if err := WriteDuel(&page, d, nil, DuelOptions{Title: "T", Result: "R."}); err != nil || !strings.Contains(page.String(), `<p class="big" id="duel-result">R.</p>`) || !strings.Contains(page.String(), `"end":"R."`) {
		t.Errorf("the table's own result: %v", err)
	}
}
