package giretra

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// MatchResult is the outcome of RunMatch.
type MatchResult struct {
	Final  MatchState
	Winner Team
}

// RunMatch plays a whole match between four players, exactly in the
// engine's call order (GameManager.cs): per deal a fresh shuffle,
// deal-started to every seat, the cut by the dealer's right, the first 5
// cards, the negotiation, negotiation-completed, 3 more cards, 8 tricks with
// card-played after every card and trick-completed after every 4th,
// deal-ended; match-ended at the end. deck provides the randomness of the
// shuffles. A player error or an answer outside the offered options stops
// the match with a *DecisionError or *IllegalError. Notification errors are
// passed to onNotifyErr (if not nil) and otherwise ignored, as the engine does.
func RunMatch(ctx context.Context, players [4]Player, cfg MatchConfig, deck *rand.Rand, onNotifyErr func(Position, EventKind, error)) (MatchResult, error) {
	ms := NewMatchState(cfg.TargetScore, cfg.FirstDealer)
	maxDeals := cfg.MaxDeals
	if maxDeals <= 0 {
		maxDeals = 1000
	}
	notify := func(e *Event) error {
		for p := range Position(4) {
			if cfg.Notify != nil && !cfg.Notify(p, e.Kind) {
				continue
			}
			if err := players[p].Notify(ctx, p, e); err != nil && onNotifyErr != nil {
				onNotifyErr(p, e.Kind, err)
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	}
	for deal := 0; !ms.Complete; deal++ {
		if deal >= maxDeals {
			return MatchResult{Final: ms, Winner: NoTeam}, fmt.Errorf("match not finished after %d deals", maxDeals)
		}
		var err error
		ms, err = playDeal(ctx, players, cfg, deck, ms, notify)
		if err != nil {
			return MatchResult{Final: ms, Winner: NoTeam}, err
		}
	}
	if err := notify(&Event{Kind: MatchEnded, Match: &ms}); err != nil {
		return MatchResult{Final: ms, Winner: ms.Winner}, err
	}
	return MatchResult{Final: ms, Winner: ms.Winner}, nil
}

func playDeal(ctx context.Context, players [4]Player, cfg MatchConfig, rng *rand.Rand, ms MatchState, notify func(*Event) error) (MatchState, error) {
	deck := Shuffle(rng)
	dealer := ms.Dealer
	if err := notify(&Event{Kind: DealStarted, Match: &ms}); err != nil {
		return ms, err
	}
	cutter := dealer.Previous()
	cut, err := players[cutter].ChooseCut(ctx, cutter, &ms)
	if err != nil {
		return ms, &DecisionError{Seat: cutter, Kind: "Cut", Err: err}
	}
	if !cut.Valid() {
		return ms, &IllegalError{Seat: cutter, Kind: "Cut", Detail: fmt.Sprintf("position %d outside 6..26", cut.Position)}
	}
	if cfg.Cut != nil {
		cut = cfg.Cut(len(ms.Deals))
	}
	deck = CutDeck(deck, cut)
	hands, next := DealFirst(&deck, dealer)
	if cfg.Deal != nil {
		full := hands
		DealRest(&deck, dealer, &full, next)
		cfg.Deal(dealer, full)
	}

	neg, bid, err := negotiate(ctx, players, hands, &ms)
	if err != nil {
		return ms, err
	}
	if err := notify(&Event{Kind: NegotiationCompleted, Negotiation: &neg, Match: &ms}); err != nil {
		return ms, err
	}
	contract, _ := bid.Contract()
	DealRest(&deck, dealer, &hands, next)

	hs := HandState{Mode: contract.Mode, Current: NewTrick(dealer.Next())}
	for !hs.Over {
		p := hs.Current.Next()
		valid := LegalPlays(hands[p], &hs.Current, hs.Mode)
		view := PlayView{Seat: p, Hand: hands[p], State: &hs, Match: &ms, Valid: valid}
		c, err := players[p].ChooseCard(ctx, &view)
		if err != nil {
			return ms, &DecisionError{Seat: p, Kind: "CardPlay", Err: err}
		}
		if c > 31 || !valid.Has(c) {
			return ms, &IllegalError{Seat: p, Kind: "CardPlay", Detail: fmt.Sprintf("%v not among %v", c, valid)}
		}
		hands[p] = hands[p].Without(c)
		done := hs.Play(c)
		var result DealResult
		if hs.Over {
			result = ScoreDeal(contract, hs.CardPoints, hs.TricksWon, cfg.ColourSweepPoints)
			ms = ms.WithDeal(result)
		}
		if err := notify(&Event{Kind: CardPlayed, Player: p, Card: c, Hand: &hs, Match: &ms}); err != nil {
			return ms, err
		}
		if done {
			last := hs.Completed[len(hs.Completed)-1]
			if err := notify(&Event{Kind: TrickCompleted, Trick: &last, Winner: last.Winner(hs.Mode), Hand: &hs, Match: &ms}); err != nil {
				return ms, err
			}
		}
		if hs.Over {
			if err := notify(&Event{Kind: DealEnded, Result: &result, Hand: &hs, Match: &ms}); err != nil {
				return ms, err
			}
		}
	}
	return ms, nil
}

// negotiate plays a deal's bidding on the hands dealt before it: each
// seat's action, matched to the offered one it stands for.
func negotiate(ctx context.Context, players [4]Player, hands [4]Set, ms *MatchState) (Negotiation, Bidding, error) {
	dealer := ms.Dealer
	neg := Negotiation{Dealer: dealer}
	bid := NewBidding(dealer)
	for !bid.Complete() {
		p := bid.CurrentPlayer
		valid := bid.ValidActions(neg.Actions)
		if len(valid) == 0 {
			return neg, bid, fmt.Errorf("internal: no valid action for %v", p)
		}
		view := BidView{Seat: p, Hand: hands[p], Negotiation: &Negotiation{Dealer: dealer, Actions: neg.Actions[:len(neg.Actions):len(neg.Actions)]}, Match: ms, Valid: valid}
		a, err := players[p].ChooseAction(ctx, &view)
		if err != nil {
			return neg, bid, &DecisionError{Seat: p, Kind: "Negotiation", Err: err}
		}
		o, ok := Offered(a, valid)
		if !ok {
			return neg, bid, &IllegalError{Seat: p, Kind: "Negotiation", Detail: fmt.Sprintf("%v not among %v", a, valid)}
		}
		a = o
		if err := bid.Apply(len(neg.Actions), a); err != nil {
			return neg, bid, fmt.Errorf("internal: %w", err)
		}
		neg.Actions = append(neg.Actions, a)
	}
	return neg, bid, nil
}
