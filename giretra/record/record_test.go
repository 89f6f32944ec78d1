package record

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
)

// observed feeds a Writer the way the referee does: seat Bottom passes on
// every event, each seat its cut and bids.
type observed struct {
	giretra.Player
	w    *Writer
	seat giretra.Position
}

func (o observed) ChooseCut(ctx context.Context, s giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	c, err := o.Player.ChooseCut(ctx, s, m)
	o.w.Call(s, KindCut, "choose-cut", map[string]int{"deckSize": 32}, Cut{c.Position, c.FromTop}, 1500*time.Microsecond, err)
	o.w.Cut(s, c, nil)
	return c, err
}

func (o observed) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	a, err := o.Player.ChooseAction(ctx, v)
	o.w.Bid(a)
	return a, err
}

func (o observed) Notify(ctx context.Context, s giretra.Position, e *giretra.Event) error {
	if s == giretra.Bottom {
		o.w.Event(e)
	}
	return o.Player.Notify(ctx, s, e)
}

// playRecorded plays one agents' match (target 151, Colour sweeps as
// points when sweep > 0) and returns its record.
func playRecorded(t testing.TB, seed uint64, sweep int) []byte {
	t.Helper()
	var buf bytes.Buffer
	h := Header{Command: "test", Match: 1, Seed: int64(seed), Target: 151, Sweep: sweep,
		Players: [4]string{"eva", "random", "eva", "random"}, Subject: "eva", SubjectTeam: Team(giretra.Team1)}
	w := New(&buf, h, rand.New(rand.NewPCG(seed, 7)))
	var ps [4]giretra.Player
	for s := range giretra.Position(4) {
		p, err := agents.New(h.Players[s], rand.New(rand.NewPCG(seed, uint64(s))))
		if err != nil {
			t.Fatal(err)
		}
		ps[s] = observed{Player: p, w: w, seat: s}
	}
	res, err := giretra.RunMatch(context.Background(), ps, giretra.MatchConfig{TargetScore: 151, ColourSweepPoints: sweep}, rand.New(rand.NewPCG(seed, 7)), nil)
	if err := w.End(res, err, -1, false); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	for seed := range uint64(6) {
		data := playRecorded(t, seed, int(seed%2)*25)
		m, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, data)
		}
		if m.End == nil || m.End.Winner == nil || m.End.Deals != len(m.Deals) {
			t.Fatalf("seed %d: end %+v, %d deals", seed, m.End, len(m.Deals))
		}
		score := [2]int{}
		for _, d := range m.Deals {
			if d.Cut == nil || d.Contract == nil || len(d.Tricks) != 8 || d.Result == nil || len(d.Bids) == 0 {
				t.Fatalf("seed %d deal %d incomplete: %+v", seed, d.Deal, d)
			}
			if d.Score != score {
				t.Errorf("deal %d starts at %v, previous result %v", d.Deal, d.Score, score)
			}
			score = d.Result.Score
			pts := 0
			for _, tr := range d.Tricks {
				pts += tr.Points
			}
			if want := giretra.Mode(d.Contract.Mode).Total(); pts != want {
				t.Errorf("deal %d: trick points %d, want %d", d.Deal, pts, want)
			}
		}
		if score != m.End.Score {
			t.Errorf("last result %v, end %v", score, m.End.Score)
		}
		if len(m.Calls) != len(m.Deals) || m.Calls[0].Line != 3 {
			t.Errorf("%d calls (first at line %d) for %d deals", len(m.Calls), m.Calls[0].Line, len(m.Deals))
		}
		// The same seed writes the same record.
		if again := playRecorded(t, seed, int(seed%2)*25); !bytes.Equal(again, data) {
			t.Errorf("seed %d: two records differ", seed)
		}
	}
}

func TestReadErrors(t *testing.T) {
	good := string(playRecorded(t, 3, 0))
	lines := strings.Split(strings.TrimSpace(good), "\n")
	replace := func(i int, old, new string) string {
		l := append([]string(nil), lines...)
		l[i] = strings.Replace(l[i], old, new, 1)
		return strings.Join(l, "\n")
	}
	find := func(typ string) int {
		for i, l := range lines {
			if strings.Contains(l, `"type":"`+typ+`"`) {
				return i
			}
		}
		t.Fatalf("no %s line", typ)
		return -1
	}
	trick := find(TypeTrick)
	cut := find(TypeCut)
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "empty record"},
		{"no header", strings.Join(lines[1:], "\n"), "starts with"},
		{"not JSON", lines[0] + "\n{", "line 2: not a JSON object"},
		{"unknown field", replace(0, `"version":1`, `"version":1,"x":2`), "unknown field"},
		{"future version", replace(0, `"version":1`, `"version":9`), "format version 9"},
		{"bad card", replace(trick, `"cards":["`, `"cards":["1X","`), "bad card"},
		{"bad fifth card", replace(trick, `"],"winner"`, `","XX"],"winner"`), "bad card"},
		{"five cards", replace(trick, `"],"winner"`, `","7C"],"winner"`), "of 5 cards"},
		{"after end", good + "\n" + lines[1], "after the end"},
		{"bad seat", replace(find(TypeDeal), `"dealer":"`, `"dealer":"x`), "bad seat"},
		{"lower-case mode", replace(find(TypeContract), `"mode":"`, `"mode":"x`), "bad mode"},
		{"deal gap", replace(find(TypeDeal), `"deal":1`, `"deal":2`), "deal 2 after 0 deals"},
		{"cut range", replace(cut, `"position":`, `"position":99,"x":`), "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.data))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want %q", err, tt.want)
			}
		})
	}
	// A trick whose card its player did not hold.
	m, _ := Read(strings.NewReader(good))
	tr := m.Deals[0].Tricks[0]
	other := m.Deals[0].Cut.Hands[(tr.Leader+1)&3][0]
	bad := strings.Replace(good, lines[trick], strings.Replace(lines[trick], `"cards":["`+string(mustText(tr.Cards[0])), `"cards":["`+string(mustText(other)), 1), 1)
	if _, err := Read(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "not in its hand") {
		t.Errorf("err %v, want a card not in hand", err)
	}
}

func mustText(c giretra.Card) []byte { b, _ := c.MarshalText(); return b }

func TestMade(t *testing.T) {
	t1, t2 := Team(giretra.Team1), Team(giretra.Team2)
	for _, tt := range []struct {
		r    ResultLine
		want bool
	}{
		{ResultLine{AnnouncerTeam: t1, MatchPoints: [2]int{16, 0}}, true},
		{ResultLine{AnnouncerTeam: t1, MatchPoints: [2]int{0, 16}}, false},
		{ResultLine{AnnouncerTeam: t2, Sweep: &t2, SweepBonus: 25}, true},
		{ResultLine{AnnouncerTeam: t2, Sweep: &t1, SweepBonus: 25}, false},
		{ResultLine{AnnouncerTeam: t1, Sweep: &t1, InstantWin: true}, true},
		{ResultLine{AnnouncerTeam: t1, Sweep: &t2, InstantWin: true}, false},
	} {
		if got := tt.r.Made(); got != tt.want {
			t.Errorf("%+v: made %v", tt.r, got)
		}
	}
}

func TestWriteErrorKept(t *testing.T) {
	w := New(failWriter{}, Header{}, rand.New(rand.NewPCG(1, 1)))
	w.Bid(giretra.Action{Type: giretra.Accept})
	if err := w.End(giretra.MatchResult{}, nil, -1, false); err == nil {
		t.Error("a failing output must fail End")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// FuzzRead: whatever the input, Read returns a consistent record or an
// error, never a panic.
func FuzzRead(f *testing.F) {
	f.Add(playRecorded(f, 1, 0))
	f.Add(playRecorded(f, 2, 25))
	f.Add([]byte(`{"type":"match","version":1}` + "\n" + `{"type":"deal","deal":1,"dealer":"Left","score":[0,0],"targetScore":151}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		for i, d := range m.Deals {
			if d.Deal != i+1 || len(d.Tricks) > 8 {
				t.Fatalf("inconsistent deal %d: %+v", i+1, d)
			}
			for _, tr := range d.Tricks {
				if len(tr.Cards) != 4 || d.Cut == nil {
					t.Fatalf("trick %+v", tr)
				}
			}
		}
		_ = m.Describe()
		_ = m.Winner()
	})
}
