package othello

import (
	"context"
	"slices"

	"github.com/botarena/gamebot/othello/variants"
)

// variantRules states a mode's rules for the generic searcher.
func variantRules(m Mode) variants.Rules {
	return variants.Rules{Misere: m == Anti, Reversi: m == Reversi, MaxPlaced: MaxPlaced, Blocked: m.Blocked()}
}

// chooseVariant searches a position of grand, octagon, reversi (its
// centre phase and endings) or anti (GenericAnti) with the generic
// searcher of its board size.
func (e *Engine) chooseVariant(ctx context.Context, p *Position, s search) Decision {
	st := p.State
	r := variantRules(st.Mode)
	lim := variants.Limits{MaxDepth: s.maxDepth, Soft: s.soft, Deadline: s.deadline, ExactEmpties: s.exact}
	var res variants.Result
	if st.Mode.Size() == 8 {
		sr, ok := e.pool8.get()
		if ok {
			sr.SetRules(r)
		} else {
			sr = variants.NewSearcher8(r, e.opts.TTBits)
		}
		pl, op := st.Bitboards()
		res = sr.Search(ctx, pl, op, st.Placed[st.Turn-1], st.Placed[2-st.Turn], p.Legal, lim)
		e.pool8.put(sr)
	} else {
		sr, ok := e.pool10.get()
		if ok {
			sr.SetRules(r)
		} else {
			sr = variants.NewSearcher10(r, e.opts.TTBits)
		}
		pl, op := st.masks10()
		res = sr.Search(ctx, pl, op, p.Legal, lim)
		e.pool10.put(sr)
	}
	move := res.Move
	if !slices.Contains(p.Legal, move) { // cannot happen: the roots are p.Legal
		move = p.Legal[0]
	}
	return Decision{Move: move, Score: res.Score, Depth: res.Depth, Exact: res.Exact, Nodes: res.Nodes}
}
