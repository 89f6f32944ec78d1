package bot

import "github.com/botarena/gamebot/giretra"

// Explanation methods: how a card decision valued its candidates.
const (
	// ExplainSearch: each candidate solved exactly on deals sampled
	// consistently with the play so far; the best average wins.
	ExplainSearch = "search"
	// ExplainRollout: each candidate played out by the heuristic on
	// sampled deals; the heuristic's own card stays unless another beats
	// it by more than the sampling noise.
	ExplainRollout = "rollout"
)

// CardValues is what the bot valued each card it could play at one
// searched decision: the average, over the sampled deals, of what the
// deal is worth to its team (match points, weighed by the chance of
// winning the match, plus a little per card point). Higher is better;
// only the differences between candidates mean something.
type CardValues struct {
	Seat      giretra.Position
	Deal      int // deals finished before this one (len(match.Deals))
	Trick     int // 1..8
	Method    string
	Samples   int
	Valid     giretra.Set
	Value     [32]float64 // by card, for the cards of Valid
	Heuristic giretra.Card
	Chosen    giretra.Card
}

// Explain has the bot pass f the values behind each card decision it
// searches (none for a lone valid card, fast mode, or a search that
// could not run: the heuristic decided those). f runs inside ChooseCard
// with the bot's lock held: it must not call the bot. nil stops it.
// Explaining reads what the search computed anyway: it changes no
// decision.
func (b *Bot) Explain(f func(CardValues)) {
	b.mu.Lock()
	b.explain = f
	b.mu.Unlock()
}

// explained reports a decision's values when someone listens; values
// holds the sums of samples (rollouts) or the averages (search, n = 1).
// The caller holds b.mu.
func (b *Bot) explained(v *giretra.PlayView, method string, valid giretra.Set, values *[32]float64, n, samples int, heuristic, chosen giretra.Card) {
	if b.explain == nil || n <= 0 {
		return
	}
	cv := CardValues{Seat: v.Seat, Trick: len(v.State.Completed) + 1, Method: method, Samples: samples, Valid: valid, Heuristic: heuristic, Chosen: chosen}
	if v.Match != nil {
		cv.Deal = len(v.Match.Deals)
	}
	for c := range valid.All() {
		cv.Value[c] = values[c] / float64(n)
	}
	b.explain(cv)
}
