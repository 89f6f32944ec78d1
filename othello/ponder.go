package othello

import (
	"context"
	"time"

	"github.com/botarena/gamebot/othello/stdengine"
)

// Ponder thinks on the opponent's time: it searches p, the position our
// move left (RemainingMs our clock after it), on one thread, until ctx
// ends or the search does, with the searcher and table the next Choose of
// this engine takes. Whatever the reply, that search then finds the
// reply's subtree in the table, searched as deep as the ponder went less
// one. The caller stops the ponder (ctx) and waits for Ponder to return
// before the next Choose, or that Choose would take another searcher.
// Only the std engine's modes ponder (std, and anti with its model); in
// the others Ponder returns at once. With Cores it searches only on a
// core no search is using, gives it back as soon as a search wants it,
// and goes on when a core is free again, until ctx ends.
func (e *Engine) Ponder(ctx context.Context, p *Position) {
	st := p.State
	if len(p.Legal) == 0 || st.Mode.Size() != 8 || !(st.Mode == Std || st.Mode == Anti && !e.std.GenericAnti) {
		return
	}
	timed := e.opts.MaxDepth <= 0 || e.opts.FixedTime > 0
	_, hard, _ := e.timePlan(p, overheadMs)
	lim := e.stdLimits(hard, timed)
	lim.MaxDepth, lim.Threads = e.opts.MaxDepth, 1
	pl, op := st.Bitboards()
	if e.opts.Cores == nil {
		s, done := e.stdSearcher(st.Mode == Anti)
		defer done()
		s.Search(ctx, pl, op, st.Turn == White, p.Legal, lim)
		return
	}
	// On shared cores the ponder waits for a free one, and when a search
	// calls its core back it waits for the next: the search it starts
	// again finds what it had done in the table. The searcher is borrowed
	// only once a core is, so that a ponder that never gets one holds
	// nothing another search of this engine could use.
	var s *stdengine.Searcher
	for {
		lent, release, ok := e.opts.Cores.lend(ctx)
		if !ok {
			return
		}
		if s == nil {
			var done func()
			s, done = e.stdSearcher(st.Mode == Anti)
			defer done()
		}
		sctx, cancel := context.WithCancel(ctx)
		stopLent := context.AfterFunc(lent, cancel)
		s.Search(sctx, pl, op, st.Turn == White, p.Legal, lim)
		stopLent()
		called := lent.Err() != nil
		cancel()
		release()
		if !called || ctx.Err() != nil {
			return
		}
	}
}

// PonderAfter starts pondering, in the background, the position our move
// leaves from pos, with our clock then at pos's less used, and returns the
// function that stops the ponder and waits for it: call it before this
// engine's next Choose. When the opponent must pass, the position pondered
// is our next one; when the move ends the game nothing starts.
func (e *Engine) PonderAfter(pos *Position, move int, used time.Duration) (stop func()) {
	next := pos.State.Clone()
	if move == Pass || next.Play(move) != nil || next.Over() {
		return func() {}
	}
	legal := next.LegalMoves()
	if len(legal) == 0 {
		_ = next.Play(Pass)
		legal = next.LegalMoves()
	}
	p := &Position{State: next, Legal: legal, MatchID: pos.MatchID, Leg: pos.Leg,
		RemainingMs: pos.RemainingMs - used.Milliseconds()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.Ponder(ctx, p)
	}()
	return func() { cancel(); <-done }
}
