package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/problem"
)

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The spec's choose-negotiation-action example decodes to the right model,
// and encoding that model gives back the same bytes.
func TestEngineBidGolden(t *testing.T) {
	golden := readFile(t, "engine_bid.json")
	bid, err := DecodeBid(golden, giretra.Top)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := bid.View.Hand, giretra.MustParseCards("JH 9H AS 7C TD"); got != want {
		t.Errorf("hand %v, want %v", got, want)
	}
	wantValid := []giretra.Action{{Type: giretra.Accept, Player: giretra.Top, Mode: giretra.NoMode}, {Type: giretra.Double, Player: giretra.Top, Mode: giretra.AllTrumps}}
	if len(bid.View.Valid) != 2 || bid.View.Valid[0] != wantValid[0] || bid.View.Valid[1] != wantValid[1] {
		t.Errorf("valid %v, want %v", bid.View.Valid, wantValid)
	}
	if string(bid.Raw[1]) != `{"type":"Double","targetMode":"AllTrumps"}` {
		t.Errorf("raw %s", bid.Raw[1])
	}
	st, err := bid.Neg.State()
	if err != nil || st.CurrentPlayer != giretra.Top || st.CurrentBid != giretra.AllTrumps || st.CurrentBidder != giretra.Left {
		t.Fatalf("replayed state %+v, %v", st, err)
	}
	// Encode the decoded view: the engine's bytes come back.
	enc, err := json.Marshal(EncodeBid(Engine, &bid.View))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(enc, bytes.TrimSpace(golden)) {
		t.Errorf("encoded\n%s\nwant\n%s", enc, golden)
	}
}

func TestSeedGolden(t *testing.T) {
	bid, err := DecodeBid(readFile(t, "seed_bid.json"), giretra.Bottom)
	if err != nil {
		t.Fatal(err)
	}
	if len(bid.View.Valid) != 4 || bid.View.Valid[0].Mode != giretra.ColourHearts || bid.View.Valid[3].Type != giretra.Accept {
		t.Errorf("valid %v", bid.View.Valid)
	}
	if bid.Match.Points != [2]int{150, 200} || bid.Match.Dealer != giretra.Right || bid.Match.TargetScore != 501 {
		t.Errorf("match %+v", bid.Match)
	}
	if len(bid.Neg.Actions) != 1 || bid.Neg.Actions[0] != (giretra.Action{Type: giretra.Announce, Player: giretra.Left, Mode: giretra.ColourClubs}) {
		t.Errorf("history %v", bid.Neg.Actions)
	}

	play, err := DecodePlay(readFile(t, "seed_card.json"), giretra.Top)
	if err != nil {
		t.Fatal(err)
	}
	if play.State.Mode != giretra.ColourHearts || play.State.Current.N != 1 || play.State.Current.Leader != giretra.Left {
		t.Errorf("hand state %+v", play.State)
	}
	if play.View.Valid != giretra.MustParseCards("AH KH") || play.View.Hand != giretra.MustParseCards("AH KH 7C") {
		t.Errorf("view %+v", play.View)
	}

	ms, err := DecodeCut(readFile(t, "seed_cut.json"))
	if err != nil || ms.TargetScore != 501 || ms.Dealer != giretra.Bottom {
		t.Errorf("cut match %+v %v", ms, err)
	}
}

// roundTrip is a player that sends every view through the JSON of a
// dialect and the server-side decoder, and checks nothing is lost.
type roundTrip struct {
	t       *testing.T
	dialect Dialect
	rng     *rand.Rand
	mul     giretra.Multiplier
}

func (r *roundTrip) ChooseCut(ctx context.Context, seat giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	got, err := DecodeCut(mustMarshal(r.t, EncodeCut(r.dialect, m)))
	if err != nil || got.Points != m.Points || got.Dealer != m.Dealer || got.TargetScore != m.TargetScore {
		r.t.Fatalf("cut match state %+v → %+v (%v)", m, got, err)
	}
	return giretra.Cut{Position: 6 + r.rng.IntN(21), FromTop: true}, nil
}

func (r *roundTrip) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	bid, err := DecodeBid(mustMarshal(r.t, EncodeBid(r.dialect, v)), v.Seat)
	if err != nil {
		r.t.Fatal(err)
	}
	if bid.View.Hand != v.Hand || len(bid.Neg.Actions) != len(v.Negotiation.Actions) {
		r.t.Fatalf("bid view lost data: %+v vs %+v", bid.View, v)
	}
	for i, a := range v.Negotiation.Actions {
		if bid.Neg.Actions[i] != a {
			r.t.Fatalf("history[%d] %v, want %v", i, bid.Neg.Actions[i], a)
		}
	}
	choice := v.Valid[r.rng.IntN(len(v.Valid))]
	for _, got := range bid.View.Valid {
		if got.SameChoice(choice) {
			// The echoed raw option must be accepted by the engine-side matcher.
			return choice, nil
		}
	}
	r.t.Fatalf("offered %v lost in %v", choice, bid.View.Valid)
	return choice, nil
}

func (r *roundTrip) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	play, err := DecodePlay(mustMarshal(r.t, EncodeCard(r.dialect, v, r.mul)), v.Seat)
	if err != nil {
		r.t.Fatal(err)
	}
	if play.View.Hand != v.Hand || play.View.Valid != v.Valid || play.State.Played() != v.State.Played() ||
		play.State.CardPoints != v.State.CardPoints || play.State.TricksWon != v.State.TricksWon ||
		play.State.Current.Leader != v.State.Current.Leader || play.State.Mode != v.State.Mode {
		r.t.Fatalf("play view lost data:\n%+v\n%+v", play.State, v.State)
	}
	if r.dialect == Seed && play.Multiplier != r.mul {
		r.t.Fatalf("multiplier %v, want %v", play.Multiplier, r.mul)
	}
	cs := v.Valid.Cards()
	return cs[r.rng.IntN(len(cs))], nil
}

func (r *roundTrip) Notify(ctx context.Context, seat giretra.Position, e *giretra.Event) error {
	n, err := DecodeNotification(e.Kind, mustMarshal(r.t, EncodeEvent(r.dialect, e, r.mul)))
	if err != nil {
		r.t.Fatal(err)
	}
	if e.Kind == giretra.NegotiationCompleted {
		b, _ := e.Negotiation.State()
		c, _ := b.Contract()
		r.mul = c.Multiplier
		nb, err := n.Neg.State()
		if err != nil {
			r.t.Fatal(err)
		}
		if nc, _ := nb.Contract(); nc != c {
			r.t.Fatalf("contract %+v, want %+v", nc, c)
		}
	}
	if e.Kind == giretra.CardPlayed && (n.Event.Card != e.Card || n.Event.Player != e.Player) {
		r.t.Fatalf("card-played %v by %v, want %v by %v", n.Event.Card, n.Event.Player, e.Card, e.Player)
	}
	return nil
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Property: whole matches survive encode → JSON → decode in both dialects.
func TestRoundTripMatches(t *testing.T) {
	for _, d := range []Dialect{Engine, Seed} {
		for seed := range uint64(4) {
			var ps [4]giretra.Player
			for i := range ps {
				ps[i] = &roundTrip{t: t, dialect: d, rng: rand.New(rand.NewPCG(seed, uint64(i)))}
			}
			_, err := giretra.RunMatch(context.Background(), ps, giretra.MatchConfig{TargetScore: 151, FirstDealer: giretra.Position(seed)}, rand.New(rand.NewPCG(seed, 99)), nil)
			if err != nil {
				t.Fatalf("dialect %d seed %d: %v", d, seed, err)
			}
		}
	}
}

func TestAnswerDecoders(t *testing.T) {
	cuts := []struct {
		body    string
		want    giretra.Cut
		wantErr bool
	}{
		{`{"position":16,"fromTop":true}`, giretra.Cut{Position: 16, FromTop: true}, false},
		{`{"position":6}`, giretra.Cut{Position: 6, FromTop: false}, false},
		{`{"Position":16,"fromTop":true}`, giretra.Cut{Position: 0, FromTop: true}, false}, // names are case-sensitive
		{`{"position":16.0,"fromTop":true}`, giretra.Cut{}, true},
		{`{"position":"16","fromTop":true}`, giretra.Cut{}, true},
		{`{"position":16,"fromTop":"yes"}`, giretra.Cut{}, true},
		{`null`, giretra.Cut{}, true},
		{``, giretra.Cut{}, true},
		{`[16]`, giretra.Cut{}, true},
	}
	for _, tt := range cuts {
		got, err := CutAnswerOf([]byte(tt.body))
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("cut %s: %+v, %v", tt.body, got, err)
		}
	}
	valid := []giretra.Action{
		{Type: giretra.Announce, Mode: giretra.NoTrumps}, {Type: giretra.Accept, Mode: giretra.NoMode},
		{Type: giretra.Double, Mode: giretra.ColourHearts}, {Type: giretra.Redouble, Mode: giretra.ColourClubs},
	}
	actions := []struct {
		body    string
		d       Dialect
		want    int
		wantErr bool
	}{
		{`{"type":"Accept"}`, Engine, 1, false},
		{`{"type":"accept","player":"Bottom","extra":1}`, Engine, 1, false},
		{`{"type":"Announcement","mode":"notrumps"}`, Engine, 0, false},
		{`{"type":"Double","targetMode":"ColourHearts"}`, Engine, 2, false},
		{`{"type":"Redouble","targetMode":"ColourClubs"}`, Engine, 3, false},
		{`{"type":"Redouble","mode":"ColourClubs"}`, Engine, 0, true}, // needs targetMode
		{`{"Type":"Accept"}`, Engine, 0, true},
		{`{"type":"Announce","gameMode":"NoTrumps"}`, Engine, 0, true},
		{`{"type":"Announce","gameMode":"NoTrumps"}`, Seed, 0, false},
		{`{"type":"Pass"}`, Seed, 1, false},
		{`{"type":"Double","gameMode":"ColourHearts"}`, Seed, 2, false},
		{`{"type":"Announcement","mode":"AllTrumps"}`, Engine, 0, true},
	}
	for _, tt := range actions {
		got, err := ActionAnswerOf([]byte(tt.body), valid, tt.d)
		if (err != nil) != tt.wantErr || (!tt.wantErr && !got.SameChoice(valid[tt.want])) {
			t.Errorf("action %s: %v, %v", tt.body, got, err)
		}
	}
	cards := []struct {
		body    string
		want    string
		wantErr bool
	}{
		{`{"rank":"Ace","suit":"Hearts"}`, "AH", false},
		{`{"rank":"ace","suit":"HEARTS"}`, "AH", false},
		{`{"Rank":"Ace","Suit":"Hearts"}`, "", true},
		{`{"rank":"One","suit":"Hearts"}`, "", true},
		{`{"rank":1,"suit":"Hearts"}`, "", true},
	}
	for _, tt := range cards {
		got, err := CardAnswerOf([]byte(tt.body))
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != giretra.MustParseCards(tt.want).First()) {
			t.Errorf("card %s: %v, %v", tt.body, got, err)
		}
	}
}

func TestDecodeProblems(t *testing.T) {
	tests := []struct {
		name string
		body string
		want problem.Kind
	}{
		{"no valid plays", `{"hand":[{"rank":"Ace","suit":"Hearts"}],"handState":{"gameMode":"NoTrumps","completedTricks":[]},"validPlays":[]}`, problem.Impossible},
		{"no valid plays field", `{"hand":[{"rank":"Ace","suit":"Hearts"}],"handState":{"gameMode":"NoTrumps"}}`, problem.Malformed},
		{"unknown rank", `{"hand":[{"rank":"Joker","suit":"Hearts"}],"handState":{"gameMode":"NoTrumps","completedTricks":[]},"validPlays":[{"rank":"Ace","suit":"Hearts"}]}`, problem.Malformed},
		{"unknown mode", `{"hand":[],"handState":{"gameMode":"Chess"},"validPlays":[{"rank":"Ace","suit":"Hearts"}]}`, problem.Malformed},
		{"duplicate card in hand", `{"hand":[{"rank":"Ace","suit":"Hearts"},{"rank":"Ace","suit":"Hearts"}],"handState":{"gameMode":"NoTrumps"},"validPlays":[{"rank":"Ace","suit":"Hearts"}]}`, problem.Impossible},
		{"five cards in a trick", `{"hand":[],"handState":{"gameMode":"NoTrumps","currentTrick":{"leader":"Bottom","playedCards":[{},{},{},{},{}]}},"validPlays":[{"rank":"Ace","suit":"Hearts"}]}`, problem.Malformed},
		{"wrong type and impossible: malformed wins", `{"hand":[{"rank":"Ace","suit":"Hearts"},{"rank":"Ace","suit":"Hearts"}],"handState":{"gameMode":"NoTrumps"},"matchState":{"targetScore":"151"},"validPlays":[{"rank":"Ace","suit":"Hearts"}]}`, problem.Malformed},
		{"not an object", `[1,2]`, problem.Malformed},
		{"trailing data", `{"hand":[]} {}`, problem.Malformed},
	}
	for _, tt := range tests {
		_, err := DecodePlay([]byte(tt.body), giretra.Bottom)
		if problem.KindOf(err) != tt.want {
			t.Errorf("%s: %v (%v), want %v", tt.name, err, problem.KindOf(err), tt.want)
		}
	}
}
