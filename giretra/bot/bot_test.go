package bot

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

// randomPlayer picks uniformly among the options (test opponent).
type randomPlayer struct{ rng *rand.Rand }

func (r *randomPlayer) ChooseCut(context.Context, giretra.Position, *giretra.MatchState) (giretra.Cut, error) {
	return giretra.Cut{Position: 6 + r.rng.IntN(21), FromTop: r.rng.IntN(2) == 0}, nil
}

func (r *randomPlayer) ChooseAction(_ context.Context, v *giretra.BidView) (giretra.Action, error) {
	return v.Valid[r.rng.IntN(len(v.Valid))], nil
}

func (r *randomPlayer) ChooseCard(_ context.Context, v *giretra.PlayView) (giretra.Card, error) {
	cs := v.Valid.Cards()
	return cs[r.rng.IntN(len(cs))], nil
}

func (r *randomPlayer) Notify(context.Context, giretra.Position, *giretra.Event) error { return nil }

// checked fails the test on any answer outside the offered options.
type checked struct {
	giretra.Player
	t     *testing.T
	calls *int
}

func (c checked) ChooseCut(ctx context.Context, s giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	cut, err := c.Player.ChooseCut(ctx, s, m)
	if err != nil || !cut.Valid() {
		c.t.Errorf("%v: cut %+v, %v", s, cut, err)
	}
	*c.calls++
	return cut, err
}

func (c checked) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	a, err := c.Player.ChooseAction(ctx, v)
	if err != nil || !slices.Contains(v.Valid, a) {
		c.t.Errorf("%v: action %v not among %v (err %v)", v.Seat, a, v.Valid, err)
	}
	*c.calls++
	return a, err
}

func (c checked) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	card, err := c.Player.ChooseCard(ctx, v)
	if err != nil || card > 31 || !v.Valid.Has(card) {
		c.t.Errorf("%v: card %v not among %v (err %v)", v.Seat, card, v.Valid, err)
	}
	*c.calls++
	return card, err
}

// runMatches plays n matches of bots (made by mk) against random players,
// seats alternating, and returns the bots' wins.
func runMatches(t *testing.T, n int, mk func() giretra.Player, cfg giretra.MatchConfig, notify func(giretra.Position, giretra.EventKind) bool) int {
	t.Helper()
	wins, calls := 0, 0
	for i := range n {
		var ps [4]giretra.Player
		botTeam := giretra.Team(i % 2)
		for s := range giretra.Position(4) {
			if s.Team() == botTeam {
				ps[s] = checked{Player: mk(), t: t, calls: &calls}
			} else {
				ps[s] = &randomPlayer{rng: rand.New(rand.NewPCG(uint64(i), uint64(s)))}
			}
		}
		cfg.FirstDealer = giretra.Position(i % 4)
		cfg.Notify = notify
		res, err := giretra.RunMatch(t.Context(), ps, cfg, rand.New(rand.NewPCG(uint64(i), 99)), nil)
		if err != nil {
			t.Fatalf("match %d: %v", i, err)
		}
		if res.Winner == botTeam {
			wins++
		}
	}
	if calls == 0 {
		t.Fatal("no decisions")
	}
	t.Logf("%d decisions", calls)
	return wins
}

func TestFastBotAlwaysLegal(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 10
	}
	wins := runMatches(t, n, func() giretra.Player { return New(Config{Fast: true}) },
		giretra.MatchConfig{TargetScore: 151, ColourSweepPoints: 25}, nil)
	if wins < n*3/4 {
		t.Errorf("fast bot won only %d/%d against random", wins, n)
	}
}

func TestFastBotWithoutNotifications(t *testing.T) {
	none := func(giretra.Position, giretra.EventKind) bool { return false }
	runMatches(t, 10, func() giretra.Player { return New(Config{Fast: true}) },
		giretra.MatchConfig{TargetScore: 151}, none)
}

func TestCutInRange(t *testing.T) {
	b := New(Config{})
	ms := giretra.NewMatchState(151, giretra.Bottom)
	for i := range 200 {
		ms.Points = [2]int{i, 3 * i}
		ms.Deals = make([]giretra.DealResult, i%13)
		for s := range giretra.Position(4) {
			c, err := b.ChooseCut(t.Context(), s, &ms)
			if err != nil || !c.Valid() {
				t.Fatalf("cut %+v %v", c, err)
			}
		}
	}
	if c, _ := b.ChooseCut(t.Context(), giretra.Bottom, nil); !c.Valid() {
		t.Fatalf("nil match: cut %+v", c)
	}
}

func TestNoOptions(t *testing.T) {
	b := New(Config{})
	if _, err := b.ChooseAction(t.Context(), &giretra.BidView{}); err == nil {
		t.Error("no actions: want an error")
	}
	if _, err := b.ChooseCard(t.Context(), &giretra.PlayView{}); err == nil {
		t.Error("no cards: want an error")
	}
}

func TestSearchBotAlwaysLegal(t *testing.T) {
	n := 4
	if testing.Short() {
		n = 1
	}
	mk := func() giretra.Player { return New(Config{Effort: 0.2}) }
	runMatches(t, n, mk, giretra.MatchConfig{TargetScore: 151, ColourSweepPoints: 25}, nil)
	none := func(giretra.Position, giretra.EventKind) bool { return false }
	runMatches(t, n, mk, giretra.MatchConfig{TargetScore: 151}, none)
}

func TestCancelledContextStillAnswers(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	b := New(Config{})
	v := view(giretra.Bottom, P("JS 7S AD 8D 7C QH KH 9C"), giretra.ColourSpades, giretra.Bottom, nil, nil)
	c, err := b.ChooseCard(ctx, v)
	if err != nil || !v.Valid.Has(c) {
		t.Fatalf("card %v err %v", c, err)
	}
}

// Every way of bidding answers with an offered option, through whole
// matches, with and without the notifications.
func TestBidOptionsAlwaysLegal(t *testing.T) {
	none := func(giretra.Position, giretra.EventKind) bool { return false }
	for _, cfg := range []Config{
		{Effort: 0.2, FinishBids: true},
		{Effort: 0.2, FinishBids: true, SimulateAll: true, PlayoutModels: true},
		{Effort: 0.2, LearnedBids: true, Calibrated: true},
		{Effort: 0.2, Calibrated: true, BidBlend: 40},
		{LearnedOnly: true, PartnerLearned: true, Calibrated: true},
		{LearnedOnly: true, Fast: true},
		{Effort: 0.1, BidEndgame: 4, PlayoutModels: true, Edge: 8},
		{Effort: 0.2, LearnedAnnounce: true, PartnerLearned: true},
	} {
		mk := func() giretra.Player { return New(cfg) }
		runMatches(t, 2, mk, giretra.MatchConfig{TargetScore: 151, ColourSweepPoints: 25}, nil)
		runMatches(t, 1, mk, giretra.MatchConfig{TargetScore: 151}, none)
	}
}

// The calibration raises our contracts and lowers theirs by what the
// bot's real play made of each class beyond the heuristic playouts.
func TestCalibrationSides(t *testing.T) {
	nt := giretra.Contract{Mode: giretra.NoTrumps, Announcer: giretra.Bottom}
	if ours, theirs := calibration(nt, giretra.Team1), calibration(nt, giretra.Team2); ours <= 0 || theirs <= 0 {
		t.Errorf("NoTrumps: announcer's side %+.2f, defenders' %+.2f; both should gain", ours, theirs)
	}
	at := giretra.Contract{Mode: giretra.AllTrumps, Announcer: giretra.Bottom}
	if calibration(nt, giretra.Team1) <= calibration(at, giretra.Team1) {
		t.Error("our NoTrumps should gain more than our AllTrumps")
	}
}
