package players

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/wire"
)

// FailLimit is the consecutive failed decisions after which a bot server
// gets no more calls and the fallback plays its seat for the rest of the
// match, as the engine's web app does (ResilientPlayerAgent).
const FailLimit = 3

// Recorder keeps a bot server's calls: each decision's request and
// answer, each notification sent. It returns the call's line in the
// record (0: none). *record.Writer is one.
type Recorder interface {
	Call(seat giretra.Position, kind, endpoint string, request, answer any, d time.Duration, err error) int
}

// Seat runs one seat's player for a referee or a table: it times each
// decision, writes a bot server's calls to Record, and with Fallback
// answers a failed or refused decision with the engine's fallback. The
// match calls it from one goroutine: it is not safe for concurrent use.
type Seat struct {
	pos     giretra.Position
	player  giretra.Player
	remote  *remote.Seat // player, when it is a bot server's seat
	dialect wire.Dialect

	// Record, when set, keeps the calls to a bot server.
	Record Recorder
	// Run, when set, runs each decision: the decision's time starts when
	// Run calls decide, and an error means decide was not called (ctx
	// ended first).
	Run func(ctx context.Context, decide func()) error
	// Decided, when set, is told each decision the player was asked.
	Decided func(Decision)
	// Notified, when set, is told each notification that reached the
	// player (a bot server's when it went over the wire).
	Notified func(ctx context.Context, seat giretra.Position, e *giretra.Event, took time.Duration, err error)
	// Fallback answers a failed decision, or one outside the options,
	// with the engine's fallback instead of returning it: the match goes
	// on. A bot server that failed FailLimit decisions in a row is asked
	// nothing more and told nothing more; the fallback plays its seat.
	// Without Fallback the failure is returned, and the match stops on
	// it, as in the engine's referee.
	Fallback bool
	// Failed, with Fallback, is told each decision the fallback answered
	// because the player failed.
	Failed func(Failure)
	// Redact records and tells a bot server's errors as remote.Reason
	// says them, quoting nothing the server sent: for records and logs
	// that people read who did not choose the server.
	Redact bool

	mul   giretra.Multiplier // the deal's, for the seed dialect's card requests
	fails int                // failed decisions in a row
	dead  bool               // FailLimit failures in a row: the fallback plays
}

// NewSeat runs player at pos; a bot server's requests are recorded in
// dialect.
func NewSeat(pos giretra.Position, player giretra.Player, dialect wire.Dialect) *Seat {
	s := &Seat{pos: pos, player: player, dialect: dialect}
	s.remote, _ = player.(*remote.Seat)
	return s
}

// Decision is one decision a seat's player was asked.
type Decision struct {
	Seat  giretra.Position
	Kind  string              // record.KindCut, KindNegotiation or KindCardPlay
	Match *giretra.MatchState // the match as the decision saw it
	// Answer is the player's answer as text: "(position, fromTop)", the
	// action, the card.
	Answer string
	Took   time.Duration
	Err    error
	Line   int // the call's line in the record; 0: not recorded
}

// Failure is a decision the fallback answered.
type Failure struct {
	Seat giretra.Position
	Kind string // record.KindCut, KindNegotiation or KindCardPlay
	// Why the player failed: the error, or as remote.Reason says it for a
	// bot server with Redact.
	Why string
	// Dead: the seat failed FailLimit times in a row, and the fallback
	// plays it for the rest of the match.
	Dead bool
}

// call is one decision's exchange, as the record keeps it.
type call struct {
	kind, endpoint string
	match          *giretra.MatchState
	request        func() any          // encoded only when recorded
	answer         func(err error) any // the answer read; nil: none
	text           func() string       // the answer as Decision.Answer says it
}

// ask runs decide (through Run), then records and tells the decision.
func (s *Seat) ask(ctx context.Context, c call, decide func() error) error {
	start := time.Now()
	var err error
	if s.Run == nil {
		err = decide()
	} else if rerr := s.Run(ctx, func() { start = time.Now(); err = decide() }); rerr != nil {
		err = rerr
	}
	took := time.Since(start)
	line := 0
	if s.Record != nil && s.remote != nil {
		line = s.Record.Call(s.pos, c.kind, c.endpoint, c.request(), c.answer(err), took, s.shown(err))
	}
	if s.Decided != nil {
		s.Decided(Decision{Seat: s.pos, Kind: c.kind, Match: c.match, Answer: c.text(), Took: took, Err: err, Line: line})
	}
	return err
}

// shown is err as records and logs show it: with Redact, a bot server's
// as remote.Reason says it.
func (s *Seat) shown(err error) error {
	if err == nil || !s.Redact || s.remote == nil {
		return err
	}
	return errors.New(remote.Reason(err))
}

// fail counts a failed decision and tells Failed why.
func (s *Seat) fail(kind string, err error) {
	s.fails++
	s.dead = s.remote != nil && s.fails >= FailLimit
	if s.Failed != nil {
		s.Failed(Failure{Seat: s.pos, Kind: kind, Why: s.shown(err).Error(), Dead: s.dead})
	}
}

// ChooseCut asks the player's cut. With Fallback, a failure or a cut
// outside 6..26 is answered by giretra.FallbackCut.
func (s *Seat) ChooseCut(ctx context.Context, seat giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	var c giretra.Cut
	var err error
	if !s.dead {
		err = s.ask(ctx, call{kind: record.KindCut, endpoint: "choose-cut", match: m,
			request: func() any { return wire.EncodeCut(s.dialect, m) },
			answer: func(err error) any {
				if err != nil {
					return nil
				}
				return wire.CutAnswer{Position: c.Position, FromTop: c.FromTop}
			},
			text: func() string { return fmt.Sprintf("(%d, %v)", c.Position, c.FromTop) },
		}, func() (err error) { c, err = s.player.ChooseCut(ctx, seat, m); return err })
	}
	if !s.Fallback {
		return c, err
	}
	if ctx.Err() != nil {
		return c, ctx.Err()
	}
	switch {
	case s.dead:
		return giretra.FallbackCut(), nil
	case err == nil && !c.Valid():
		err = fmt.Errorf("cut at %d, outside 6..26", c.Position)
	}
	if err != nil {
		s.fail(record.KindCut, err)
		return giretra.FallbackCut(), nil
	}
	s.fails = 0
	return c, nil
}

// ChooseAction asks the player's bid. With Fallback, the answer is the
// offered action it stands for, with its player set, and a failure or an
// action not offered is answered by giretra.FallbackAction.
func (s *Seat) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	var a giretra.Action
	var err error
	if !s.dead {
		err = s.ask(ctx, call{kind: record.KindNegotiation, endpoint: "choose-negotiation-action", match: v.Match,
			request: func() any { return wire.EncodeBid(s.dialect, v) },
			answer: func(err error) any {
				if err != nil {
					return nil
				}
				return wire.FromValidAction(a)
			},
			text: func() string { return a.String() },
		}, func() (err error) { a, err = s.player.ChooseAction(ctx, v); return err })
	}
	if !s.Fallback {
		return a, err
	}
	if ctx.Err() != nil {
		return a, ctx.Err()
	}
	chosen, ok := giretra.Offered(a, v.Valid)
	switch {
	case s.dead:
		chosen = giretra.FallbackAction(v.Valid)
	case err != nil || !ok:
		if err == nil {
			err = fmt.Errorf("%v is not among the offered actions", a)
		}
		s.fail(record.KindNegotiation, err)
		chosen = giretra.FallbackAction(v.Valid)
	default:
		s.fails = 0
	}
	chosen.Player = v.Seat
	return chosen, nil
}

// ChooseCard asks the player's card. With Fallback, a failure or a card
// outside the valid ones is answered by giretra.FallbackCard.
func (s *Seat) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	c, err := giretra.NoCard, error(nil)
	if !s.dead {
		err = s.ask(ctx, call{kind: record.KindCardPlay, endpoint: "choose-card", match: v.Match,
			request: func() any { return wire.EncodeCard(s.dialect, v, s.mul) },
			answer: func(error) any {
				if c > 31 { // no card read
					return nil
				}
				return wire.FromCard(c)
			},
			text: func() string { return c.String() },
		}, func() (err error) { c, err = s.player.ChooseCard(ctx, v); return err })
	}
	if !s.Fallback {
		return c, err
	}
	if ctx.Err() != nil {
		return c, ctx.Err()
	}
	switch {
	case s.dead:
		c = giretra.FallbackCard(v.Valid)
	case err != nil || c > 31 || !v.Valid.Has(c):
		if err == nil {
			err = fmt.Errorf("%v is not among the valid cards", c)
		}
		s.fail(record.KindCardPlay, err)
		c = giretra.FallbackCard(v.Valid)
	default:
		s.fails = 0
	}
	return c, nil
}

// Notify passes e on, and keeps the deal's multiplier for the card
// requests recorded. A notification that goes to a bot server is timed,
// recorded and told to Notified; one an in-process player gets is timed
// and told. A seat the fallback plays is told nothing.
func (s *Seat) Notify(ctx context.Context, seat giretra.Position, e *giretra.Event) error {
	s.mul = e.Multiplier(s.mul)
	if s.dead {
		return nil
	}
	if s.remote != nil && !s.remote.WillSend(e.Kind) {
		return s.player.Notify(ctx, seat, e)
	}
	start := time.Now()
	err := s.player.Notify(ctx, seat, e)
	took := time.Since(start)
	if s.Record != nil && s.remote != nil {
		s.Record.Call(seat, record.KindNotification, "notify/"+e.Kind.String(), nil, nil, took, s.shown(err))
	}
	if s.Notified != nil {
		s.Notified(ctx, seat, e, took, err)
	}
	return err
}
