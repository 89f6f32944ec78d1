package train

import (
	"math/bits"

	"github.com/botarena/gamebot/othello/bitboard"
	"github.com/botarena/gamebot/othello/stdengine"
)

// mobilityCap: move counts from this on share the table's last row; a
// position with 24 or more moves for a side is rare and alike.
const mobilityCap = 24

// MobilityTable measures whether an NTest-style mobility table (a weight
// per stage for each pair of move counts, the mover's and the
// opponent's) would add to a model, whose linear mobility term sees only
// the difference: it holds the mean residual of the model on a training
// set in each cell, so the model plus the table is the best the table
// could do on top of the model's patterns. A fit of both at once can do
// somewhat better than the model plus this table; by how much it cannot
// say, only whether the nonlinearity in the two counts is there at all.
type MobilityTable struct {
	sum, n [stdengine.NumStages][mobilityCap][mobilityCap]float64
	// Shrink pulls a cell with few positions towards zero: its
	// correction is sum/(n+Shrink).
	Shrink float64
}

func mobilityCell(p, o uint64) (int, int) {
	return min(bits.OnesCount64(bitboard.Moves(p, o)), mobilityCap-1),
		min(bits.OnesCount64(bitboard.Moves(o, p)), mobilityCap-1)
}

// FitMobilityTable fills a table from the model's residuals on samples,
// labelled as a fit with opt's ScoreWeight labels them.
func FitMobilityTable(samples []Sample, m *stdengine.Model, opt FitOptions, shrink float64) *MobilityTable {
	t := &MobilityTable{Shrink: shrink}
	for i := range samples {
		x := &samples[i]
		a, b := mobilityCell(x.P, x.O)
		s := stdengine.StageOf(int(x.Empties))
		t.sum[s][a][b] += float64(opt.label(x)) - m.Eval(x.P, x.O, false)
		t.n[s][a][b]++
	}
	return t
}

// Correction is the table's value for a position (discs, mover p).
func (t *MobilityTable) Correction(p, o uint64, empties int) float64 {
	a, b := mobilityCell(p, o)
	s := stdengine.StageOf(empties)
	if t.n[s][a][b] == 0 {
		return 0
	}
	return t.sum[s][a][b] / (t.n[s][a][b] + t.Shrink)
}
