package record

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/battleship"
)

var duelRules = battleship.Rules{W: 6, H: 5, Fleet: battleship.Fleet{0, 1, 1, 1}}

// playDuel plays one game between two random shooters (each cell once)
// on random fleets and returns its record. odd, when set, is a target the
// arena accepts but does not find (a leading zero) fired as seat 0's
// first shot; stop cuts the game after that many shots, as an interrupt.
func playDuel(t testing.TB, seed uint64, odd string, stop int) []byte {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	var buf bytes.Buffer
	h := DuelHeader{Command: "duel", Game: int(seed) + 1, Seed: seed, Width: duelRules.W, Height: duelRules.H,
		Players: [2]string{"bot", "opp"}, HTTP: [2]bool{true, false}, Subject: "bot", SubjectSeat: int(seed % 2)}
	copy(h.Fleet[:], duelRules.Fleet[1:])
	w := NewDuel(&buf, h)
	var arenas [2]*battleship.Arena
	for i := range 2 {
		ships := battleship.RandomFleet(duelRules, rng)
		arenas[i] = battleship.NewArena(duelRules, ships)
		w.Fleet(i, ships, time.Duration(i+1)*time.Millisecond)
	}
	order := [2][]int{rng.Perm(duelRules.Cells()), rng.Perm(duelRules.Cells())}
	for turn := 0; ; turn++ {
		i := turn % 2
		if turn == stop {
			if err := w.End(-1, "", context.Canceled, true); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}
		target := ""
		if turn == 0 && odd != "" {
			target = odd
		} else {
			c := order[i][0]
			order[i] = order[i][1:]
			target = battleship.FormatTarget(c%duelRules.W, c/duelRules.W)
		}
		res := arenas[1-i].Shoot(target)
		w.Shot(i, target, res, time.Duration(turn)*time.Microsecond)
		if res == battleship.ResultWin {
			if err := w.End(i, "", nil, false); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}
	}
}

func TestDuelRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		seed uint64
		odd  string
		stop int
	}{
		{"plain", 1, "", -1},
		{"other seat subject", 2, "", -1},
		{"leading zero target", 3, "01,2", -1},
		{"newline target", 4, "1,2\n", -1},
		{"interrupted", 5, "", 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := playDuel(t, tt.seed, tt.odd, tt.stop)
			d, err := ReadDuel(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if d.Header.Game != int(tt.seed)+1 || d.Header.Rules() != duelRules || d.Header.SubjectSeat != int(tt.seed%2) {
				t.Errorf("header %+v", d.Header)
			}
			if len(d.Fleets[0]) != 3 || len(d.Fleets[1]) != 3 || d.FleetMS != [2]float64{1, 2} {
				t.Errorf("fleets %v, init ms %v", d.Fleets, d.FleetMS)
			}
			if d.End == nil {
				t.Fatal("no end")
			}
			var fired [2]int
			sunk := 0
			for i, s := range d.Shots {
				fired[s.Seat]++
				if s.Shot != i+1 || s.Seat != i%2 || (s.Result == ResultMiss) != (s.Ship < 0) {
					t.Errorf("shot %+v", s)
				}
				if s.Result == ResultSunk {
					sunk++
				}
			}
			if d.End.Shots != fired {
				t.Errorf("end %+v, fired %v", d.End, fired)
			}
			if tt.stop >= 0 {
				if d.End.Winner != nil || !d.End.Interrupted || len(d.Shots) != tt.stop || d.Winner() != -1 {
					t.Errorf("interrupted game: end %+v, %d shots", d.End, len(d.Shots))
				}
				return
			}
			w := *d.End.Winner
			if sunk < 3 || d.Shots[len(d.Shots)-1].Seat != w || d.Shots[len(d.Shots)-1].Result != ResultSunk {
				t.Errorf("winner %d, %d ships sunk, last shot %+v", w, sunk, d.Shots[len(d.Shots)-1])
			}
			if (d.Winner() == 1) != (w == d.Header.SubjectSeat) || !strings.Contains(d.Describe(), "won in") {
				t.Errorf("subject result %d, %q", d.Winner(), d.Describe())
			}
			if tt.odd != "" {
				s := d.Shots[0]
				if s.Target != tt.odd || s.Cell != (Cell{1, 2}) || s.Result != ResultMiss {
					t.Errorf("odd target recorded as %+v", s)
				}
			} else if d.Shots[0].Target != "" {
				t.Errorf("canonical target written: %+v", d.Shots[0])
			}
			// The same game writes the same record.
			if again := playDuel(t, tt.seed, tt.odd, tt.stop); !bytes.Equal(again, data) {
				t.Error("two records of one game differ")
			}
		})
	}
}

func TestReadDuelErrors(t *testing.T) {
	good := string(playDuel(t, 1, "", -1))
	lines := strings.Split(strings.TrimSpace(good), "\n")
	replace := func(i int, old, new string) string {
		l := append([]string(nil), lines...)
		if !strings.Contains(l[i], old) {
			t.Fatalf("line %d %s lacks %q", i+1, l[i], old)
		}
		l[i] = strings.Replace(l[i], old, new, 1)
		return strings.Join(l, "\n")
	}
	firstOf := func(result string) int {
		for i, l := range lines {
			if strings.Contains(l, `"result":"`+result+`"`) {
				return i
			}
		}
		t.Fatalf("no %s shot", result)
		return -1
	}
	miss, hit, end := firstOf(ResultMiss), firstOf(ResultHit), len(lines)-1
	tests := []struct {
		name, data, want string
	}{
		{"good", good, ""},
		{"empty", "", "empty record"},
		{"giretra header", `{"type":"match","version":1}`, "starts with a \"duel\" line"},
		{"future version", replace(0, `"version":1`, `"version":2`), "format version 2"},
		{"board too big", replace(0, `"width":6`, `"width":101`), "rules"},
		{"subject seat", replace(0, `"subjectSeat":1`, `"subjectSeat":2`), "subject seat 2"},
		{"unknown field", replace(1, `"seat":0`, `"seat":0,"x":1`), "unknown field"},
		{"fleet seat", replace(1, `"seat":0`, `"seat":3`), "seat 3"},
		{"second fleet", replace(2, `"seat":1`, `"seat":0`), "a second fleet"},
		{"ship off board", replace(1, `"ships":[[[`, `"ships":[[[99,0],[`), "off the 6x5 board"},
		{"overlap", replace(1, `"ships":[`, `"ships":[[[5,4]],`), "overlaps"},
		{"other rules", replace(0, `"fleet":[1,1,1,0,0,0]`, `"fleet":[0,1,1,1,0,0]`), "does not match"},
		{"shot before fleets", strings.Join(append(lines[:1:1], lines[3:]...), "\n"), "before both fleets"},
		{"shot number", replace(3, `"shot":1`, `"shot":2`), "shot 2 after 0 shots"},
		{"shot off board", replace(miss, `"cell":[`, `"cell":[9,`), "cell"},
		{"miss as hit", replace(miss, `"result":"miss"`, `"result":"hit"`), "the arena answers \"miss\""},
		{"hit as miss", replace(hit, `"result":"hit"`, `"result":"miss"`), "the arena answers \"hit\""},
		{"canonical target", replace(miss, `"result"`, `"target":"`+cellOf(lines[miss])+`","result"`), "not a valid shot"},
		{"target elsewhere", replace(miss, `"result"`, `"target":"07,7","result"`), "not a valid shot"},
		{"end counts", replace(end, `"shots":[`, `"shots":[99,`), "end counts"},
		{"winner without sinking", replace(end, `"winner":`, `"winner":9,"x":`), "unknown field"},
		{"after end", good + "\n" + lines[3], "after the end"},
		{"second header", lines[0] + "\n" + lines[0], "a second header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadDuel(strings.NewReader(tt.data))
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
	// The loser's seat cannot be the winner when it sank nothing.
	d, _ := ReadDuel(strings.NewReader(good))
	loser := 1 - *d.End.Winner
	bad := strings.Replace(good, `"winner":`+string(rune('0'+*d.End.Winner)), `"winner":`+string(rune('0'+loser)), 1)
	if _, err := ReadDuel(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "without sinking") {
		t.Errorf("err %v, want a winner without sinking the fleet", err)
	}
}

// cellOf is a shot line's cell as the canonical target "x,y".
func cellOf(line string) string {
	_, rest, _ := strings.Cut(line, `"cell":[`)
	c, _, _ := strings.Cut(rest, "]")
	return c
}

func TestDuelWriteErrorKept(t *testing.T) {
	w := NewDuel(failWriter{}, DuelHeader{})
	w.Shot(0, "1,1", "", 0)
	if err := w.End(0, "", nil, false); err == nil {
		t.Error("a failing output must fail End")
	}
	var nilW *DuelWriter // not recording: every method does nothing
	nilW.Fleet(0, nil, 0)
	nilW.Shot(0, "1,1", "", 0)
	if err := nilW.End(0, "", errors.New("x"), false); err != nil {
		t.Error(err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// FuzzReadDuel: whatever the input, ReadDuel returns a consistent record
// or an error, never a panic.
func FuzzReadDuel(f *testing.F) {
	f.Add(playDuel(f, 1, "", -1))
	f.Add(playDuel(f, 3, "01,2", 9))
	f.Add([]byte(`{"type":"duel","version":1,"width":3,"height":1,"fleet":[1,0,0,0,0,0]}` + "\n" +
		`{"type":"fleet","seat":0,"ships":[[[2,0]]]}` + "\n" + `{"type":"fleet","seat":1,"ships":[[[0,0]]]}` + "\n" +
		`{"type":"shot","shot":1,"seat":0,"cell":[0,0],"result":"sunk"}` + "\n" + `{"type":"end","winner":0,"shots":[1,0]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadDuel(bytes.NewReader(data))
		if err != nil {
			return
		}
		r := d.Header.Rules()
		for i, s := range d.Shots {
			if s.Shot != i+1 || s.Seat&1 != s.Seat || s.Cell[0] < 0 || s.Cell[0] >= r.W || s.Cell[1] < 0 || s.Cell[1] >= r.H {
				t.Fatalf("inconsistent shot %d: %+v", i+1, s)
			}
			if s.Ship >= len(d.Fleets[1-s.Seat]) || (s.Result == ResultMiss) != (s.Ship < 0) {
				t.Fatalf("shot %+v: ship out of the fleet", s)
			}
		}
		for _, f := range d.Fleets {
			if f != nil && battleship.CheckPlacement(r, f) != nil {
				t.Fatalf("invalid fleet %v", f)
			}
		}
		_ = d.Describe()
		_ = d.Winner()
	})
}
