package report

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra/record"
)

// rec builds a record from lines after a header (subject "bot" at Team1).
func rec(t *testing.T, match int, lines ...string) *record.Match {
	t.Helper()
	head := `{"type":"match","version":1,"command":"test","match":` + strconv.Itoa(match) + `,"seed":1,"targetScore":151,"colourSweepPoints":0,"firstDealer":"Bottom",` +
		`"players":["bot","opp","bot","opp"],"http":[true,false,true,false],"subject":"bot","subjectTeam":"Team1"}`
	m, err := record.Read(strings.NewReader(head + "\n" + strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const hands = `"hands":[["7C","8C","9C","TC","JC","QC","KC","AC"],["7D","8D","9D","TD","JD","QD","KD","AD"],["7H","8H","9H","TH","JH","QH","KH","AH"],["7S","8S","9S","TS","JS","QS","KS","AS"]]`

func TestBuild(t *testing.T) {
	won := rec(t, 1,
		`{"type":"deal","deal":1,"dealer":"Bottom","score":[0,0],"targetScore":151}`,
		`{"type":"call","deal":1,"seat":"Right","kind":"Cut","endpoint":"choose-cut","ms":0.5}`,
		`{"type":"cut","deal":1,"seat":"Right","position":10,"fromTop":true,`+hands+`}`,
		`{"type":"call","deal":1,"seat":"Bottom","kind":"Negotiation","endpoint":"choose-negotiation-action","request":{},"answer":{},"ms":3}`,
		`{"type":"bid","deal":1,"seat":"Left","action":"Announcement","mode":"ColourClubs"}`,
		`{"type":"contract","deal":1,"mode":"ColourClubs","multiplier":"Normal","announcer":"Left"}`,
		`{"type":"trick","deal":1,"trick":1,"leader":"Left","cards":["7D","7H","7S","7C"],"winner":"Bottom","points":0}`,
		`{"type":"result","deal":1,"mode":"ColourClubs","multiplier":"Normal","announcerTeam":"Team2","cardPoints":[100,62],"matchPoints":[32,0],"score":[32,0]}`,
		`{"type":"end","winner":"Team1","score":[160,20],"deals":1}`)
	lost := rec(t, 2, `{"type":"end","winner":"Team2","score":[20,160],"deals":0}`)
	stopped := rec(t, 3, `{"type":"end","score":[0,0],"deals":0,"error":"boom"}`)
	r, err := Build([]*record.Match{won, lost, stopped}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "bot" || r.Matches != 2 || r.Wins != 1 || r.Stopped != 1 || r.Rate != 0.5 || r.Lo > 0.1 || r.Hi < 0.9 {
		t.Errorf("summary %+v", r)
	}
	if len(r.Opponent) != 1 || r.Opponent[0].Name != "opp" || r.Opponent[0].PointsFor != 180 {
		t.Errorf("opponents %+v", r.Opponent)
	}
	if m := r.Modes[0]; m.Opp != 1 || m.OppFail != 1 || m.Own != 0 {
		t.Errorf("ColourClubs %+v", m)
	}
	if len(r.Latency) != 2 || r.Latency[0].Player != "opp" || r.Latency[1].Kinds[0].Kind != "Negotiation" || r.Latency[1].Kinds[0].P99 != 3 {
		t.Errorf("latency %+v", r.Latency)
	}
	if !strings.Contains(string(r.Viewer), `"hands":[["7C"`) {
		t.Errorf("viewer data %s", r.Viewer)
	}
	var page bytes.Buffer
	if err := Write(&page, []*record.Match{won, lost, stopped}, Options{Title: "<x>"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "&lt;x&gt;") || strings.Contains(page.String(), "<x>") {
		t.Error("the title is not escaped")
	}
	if _, err := Build([]*record.Match{won}, Options{Subject: "nobody"}); err == nil {
		t.Error("an absent subject must be an error")
	}
}
