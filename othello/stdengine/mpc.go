package stdengine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Multi-ProbCut (Buro): a shallow search predicts a deep one, deep ≈
// shallow with an error of standard deviation σ that depends on the
// empties and the two depths. A null-window node whose shallow search
// lands t·σ beyond its window is cut without the deep search. The error
// model is fitted from this engine's own searches (FitErrorModel, run by
// `othello-train mpc`).

// ErrorModel gives σ (discs) of deep − shallow as a function of the
// empties e and the deep depth d (the shallow depth is mpcShallow(d)):
// σ = exp(A + B·e/60 + C·d/60), each coefficient fitted by least squares on
// log σ; for the selective endgame (deep = the exact score) D d, E·e/60
// replace the depth terms: σ = exp(D + E·e/60).
type ErrorModel struct {
	A, B, C float64 // midgame
	D, E    float64 // endgame
}

// defaultErrors is the model fitted by `othello-train mpc -n 400 -depth 12
// -solve-at 24 -seed 1001` (400 self-play positions at 14–54 empties) with
// the evaluation embedded two models before the present one (`-model`
// commit dde051a's eval.bin.gz): σ of depth 12 against 6 is 2.1–3.0 discs above
// 36 empties, 3.3–4.4 below; the exact score against a shallow search
// 3.6–7.6 discs from 24 down to 14 empties. Every depth pair's slope is
// within 0.95–1.11, so deep ≈ shallow is assumed without a fitted slope.
// The same command on the v3 model that followed it (commit fa307ff's
// eval.bin.gz) fits {A: 1.752, B: -1.406, C: 0.401, D: 3.342, E: -5.507}:
// midgame σ 4–22% smaller, endgame σ from 19% larger at 14 empties to 18%
// smaller at 26. Measured in play (the engine's mpc option) it was worth
// nothing measurable at equal time (docs/othello-training.md: 50.7% over
// 300 matches), so this model stayed. With the present v4 evaluation the
// command fits {A: 1.766, B: -1.487, C: 1.410, D: 1.631, E: 0.109}, whose
// nearly flat endgame σ lost at equal time (44.6% over 400 matches; with
// this model's endgame, its midgame scored 50.9%), so this model stays
// for v4 too.
var defaultErrors = ErrorModel{A: 1.677, B: -1.156, C: 0.737, D: 2.733, E: -3.648}

// ParseErrorModel reads an error model as its five coefficients A, B, C,
// D and E, separated by commas or by + (a spec's separator).
func ParseErrorModel(v string) (ErrorModel, error) {
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '+' })
	if len(parts) != 5 {
		return ErrorModel{}, fmt.Errorf("want five coefficients A, B, C, D, E; got %d", len(parts))
	}
	var c [5]float64
	for i, s := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(x) || math.Abs(x) > 20 {
			return ErrorModel{}, fmt.Errorf("coefficient %q: want a number within ±20", s)
		}
		c[i] = x
	}
	return ErrorModel{A: c[0], B: c[1], C: c[2], D: c[3], E: c[4]}, nil
}

// SetErrors makes the searcher cut with another error model than its
// evaluation's own.
func (s *Searcher) SetErrors(m ErrorModel) { s.margins = m.margins() }

// antiErrors is the misère game's model: the std game's, which the anti
// model was measured with (docs/othello-training.md); `othello-train mpc
// -model othello/stdengine/anti.bin.gz` fits one of its own.
var antiErrors = defaultErrors

// mpcShallow is the shallow depth paired with a deep search of depth d:
// about half, with the same parity (odd and even depths differ by a
// bias).
func mpcShallow(d int) int {
	return d/4*2 + d&1
}

// endShallow is the shallow depth that predicts the exact score of a
// position with e empties.
func endShallow(e int) int {
	return e/4*2 + e&1 - 2
}

func (m ErrorModel) mid(e, d int) float64 {
	return math.Exp(m.A + m.B*float64(e)/60 + m.C*float64(d)/60)
}

func (m ErrorModel) end(e int) float64 {
	return math.Exp(m.D + m.E*float64(e)/60)
}

// errors is the error model of the model's game.
func (m *Model) errors() ErrorModel {
	if m.Misere {
		return antiErrors
	}
	return defaultErrors
}

// margins[sel][e][d] caches ⌈t·σ⌉ in discs (d = 60: the endgame).
type marginTable [SelExact][61][61]int8

func (m ErrorModel) margins() *marginTable {
	var t marginTable
	for sel := range SelExact {
		for e := range 61 {
			for d := range 61 {
				sigma := m.mid(e, d)
				if d == 60 {
					sigma = m.end(e)
				}
				t[sel][e][d] = int8(min(64, math.Ceil(selT[sel]*sigma)))
			}
		}
	}
	return &t
}

// probcut tries the ProbCut at a null-window node (window alpha, alpha+1)
// of the given depth (depth == empties: a selective solve): it returns the
// bound and true when the shallow search says the deep one would fall
// outside the window. It tries only the side the static evaluation points
// to.
func (s *Searcher) probcut(p, o uint64, ply int, white bool, alpha, depth, empties int, pm uint64) (int, bool) {
	var ds, margin int
	if depth >= empties {
		ds, margin = endShallow(empties), int(s.margins[s.sel][empties][60])
	} else {
		ds, margin = mpcShallow(depth), int(s.margins[s.sel][empties][depth])
	}
	if ds < 0 {
		return 0, false
	}
	beta := alpha + 1
	ev := s.evalAt(ply, p, o, white, pm)
	if ev >= beta {
		if bound := beta + margin; bound <= 64 {
			if v := s.search(p, o, ply, white, bound-1, bound, ds); v >= bound && !s.aborted {
				return beta, true
			}
		}
		return 0, false
	}
	if bound := alpha - margin; bound >= -64 {
		if v := s.search(p, o, ply, white, bound, bound+1, ds); v <= bound && !s.aborted {
			return alpha, true
		}
	}
	return 0, false
}
