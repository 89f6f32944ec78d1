// Package train fits the std-mode pattern evaluation of the othello
// engine, driven by cmd/othello-train: self-play games from FlipSight's
// random 12-disc openings produce positions labelled with the game's final
// disc difference (sample files in a fixed record format), and a linear
// least-squares fit by stochastic gradient descent turns them into pattern
// weights. The engine itself only reads the fitted model.
package train

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/botarena/gamebot/othello"
)

// Sample is one labelled position: mover P, opponent O (a1 = bit 0),
// the mover's moves minus the opponent's, the final disc difference for
// the mover under the play that followed (exact from SolveAt empties), and
// the self-play search's own score of the position (discs, mover).
type Sample struct {
	P, O    uint64
	Empties int8
	Mob     int8
	Target  int8
	Score   int8
}

const trainRecord = 20

// WriteSamples appends samples in a fixed 20-byte little-endian record.
func WriteSamples(w io.Writer, s []Sample) error {
	buf := make([]byte, 0, len(s)*trainRecord)
	for _, x := range s {
		buf = binary.LittleEndian.AppendUint64(buf, x.P)
		buf = binary.LittleEndian.AppendUint64(buf, x.O)
		buf = append(buf, byte(x.Empties), byte(x.Mob), byte(x.Target), byte(x.Score))
	}
	_, err := w.Write(buf)
	return err
}

// ReadSamples reads every record written by WriteSamples.
func ReadSamples(r io.Reader) ([]Sample, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(b)%trainRecord != 0 {
		return nil, errors.New("training data: truncated record")
	}
	out := make([]Sample, 0, len(b)/trainRecord)
	for i := 0; i < len(b); i += trainRecord {
		out = append(out, Sample{
			P: binary.LittleEndian.Uint64(b[i:]), O: binary.LittleEndian.Uint64(b[i+8:]),
			Empties: int8(b[i+16]), Mob: int8(b[i+17]), Target: int8(b[i+18]), Score: int8(b[i+19]),
		})
	}
	return out, nil
}

// GenOptions control self-play data generation.
type GenOptions struct {
	Depth      int // midgame search depth
	SolveAt    int // empties from which play is perfect (exact solve)
	RandomMax  int // extra random moves after the 8-move opening: 0..RandomMax
	UsePattern bool
}

// NewEngine returns an engine that plays self-play games as opt asks: a
// fixed depth, exact from SolveAt empties, the hand-written evaluation
// unless UsePattern. One engine per worker (it keeps a table).
func NewEngine(opt GenOptions) *othello.Engine {
	return othello.NewEngine(othello.EngineOptions{TTBits: 18, Pool: 1, MaxDepth: max(opt.Depth, 1), SolveAt: max(opt.SolveAt, 1), HandWritten: !opt.UsePattern})
}

// SelfPlayGame plays one std game from a random FlipSight opening (8
// random moves, then 0..RandomMax more) with eng (see NewEngine) and
// returns its labelled positions, from the first searched one on.
func SelfPlayGame(ctx context.Context, rng *rand.Rand, opt GenOptions, eng *othello.Engine) []Sample {
	st := othello.NewState(othello.Std)
	nRandom := 8 + rng.IntN(opt.RandomMax+1)
	type rec struct {
		p, o  uint64
		black bool
		mob   int
		score int
	}
	var recs []rec
	for ply := 0; !st.Over(); ply++ {
		legal := st.LegalMoves()
		if len(legal) == 0 {
			_ = st.Play(othello.Pass)
			continue
		}
		if ply < nRandom {
			_ = st.Play(legal[rng.IntN(len(legal))])
			continue
		}
		p, o := st.Bitboards()
		opp := st.Clone()
		opp.Turn = 3 - opp.Turn
		d := eng.Choose(ctx, &othello.Position{State: st, Legal: legal, RemainingMs: math.MaxInt32, BudgetMs: math.MaxInt32, MatchID: -1})
		if ctx.Err() != nil {
			return nil
		}
		recs = append(recs, rec{p, o, st.Turn == othello.Black, len(legal) - len(opp.LegalMoves()), max(-64, min(64, int(d.Score)))})
		_ = st.Play(d.Move)
	}
	b, w := st.Discs()
	final := b - w // for black
	out := make([]Sample, 0, len(recs))
	for _, r := range recs {
		t := final
		if !r.black {
			t = -t
		}
		e := 64 - bits(r.p) - bits(r.o)
		out = append(out, Sample{P: r.p, O: r.o, Empties: int8(e), Mob: int8(r.mob), Target: int8(t), Score: int8(r.score)})
	}
	return out
}

func bits(b uint64) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// FitOptions control the least-squares fit.
type FitOptions struct {
	Epochs int
	Rate   float64 // learning rate of the pattern weights
	L2     float64 // weight decay per update
	// ScoreWeight blends the self-play search score into the label:
	// label = (1−ScoreWeight)·result + ScoreWeight·score. The score is less
	// noisy than one game's result; the result is the ground truth.
	ScoreWeight float64
	// Holdout is the fraction of samples, taken from the end (the last
	// games), kept out of the fit to measure the error on unseen games.
	Holdout float64
	// Mirror also trains on each position's mirror image. Rotations are
	// covered by reading every pattern in every rotation; the mirror
	// image makes the fit see the reflected configurations too, so each
	// position informs twice as many table entries.
	Mirror bool
	Log    func(epoch int, train, holdout float64)
}

// FitPatterns fits the pattern weights (disc units) to the samples and
// returns them in score units, ready for othello.EncodePatternModel. It
// stops with ctx's error when ctx is done.
func FitPatterns(ctx context.Context, samples []Sample, opt FitOptions, rng *rand.Rand) ([]int16, error) {
	stageLen := othello.PatternStageLen()
	bias, mob := othello.PatternScalars()
	w := make([]float32, othello.PatternStages*stageLen)
	nHold := int(float64(len(samples)) * min(max(opt.Holdout, 0), 0.5))
	held := samples[len(samples)-nHold:]
	samples = samples[:len(samples)-nHold]
	order := make([]int32, len(samples))
	for i := range order {
		order[i] = int32(i)
	}
	var idx [othello.PatternInstances]int32
	sw := float32(opt.ScoreWeight)
	label := func(x *Sample) float32 { return (1-sw)*float32(x.Target) + sw*float32(x.Score) }
	decay := float32(1 - opt.L2)
	for ep := range opt.Epochs {
		// Linear decay of the rate to a tenth over the epochs: large steps
		// first, then averaging out the label noise.
		lr := float32(opt.Rate * (1 - 0.9*float64(ep)/float64(max(opt.Epochs-1, 1))))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var se float64
		for n, k := range order {
			if n%4096 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			x := &samples[k]
			// Each position also trains the stages of positions two
			// empties away, so neighbouring stages share data.
			e := int(x.Empties)
			st := othello.PatternStage(e)
			sts := [3]int{st, othello.PatternStage(e + 2), othello.PatternStage(e - 2)}
			images := 1
			if opt.Mirror {
				images = 2
			}
			for im := range images {
				p, o := x.P, x.O
				if im == 1 {
					p, o = othello.MirrorImage(p), othello.MirrorImage(o)
				}
				othello.PatternIndices(p, o, &idx)
				for j, s := range sts {
					if slices.Contains(sts[:j], s) {
						continue
					}
					ws := w[s*stageLen:][:stageLen]
					d := stagePredict(ws, &idx, x.Mob) - label(x)
					if s == st && im == 0 {
						se += float64(d * d)
					}
					g := lr * d
					for _, i := range idx {
						ws[i] = ws[i]*decay - g
					}
					ws[bias] -= g * 0.1
					ws[mob] -= g * 0.01 * float32(x.Mob)
				}
			}
		}
		if opt.Log != nil {
			var he float64
			for k := range held {
				x := &held[k]
				d := float64(patPredict(w, x, &idx)) - float64(x.Target)
				he += d * d
			}
			opt.Log(ep, math.Sqrt(se/float64(max(len(samples), 1))), math.Sqrt(he/float64(max(len(held), 1))))
		}
	}
	out := make([]int16, len(w))
	for i, v := range w {
		out[i] = int16(max(-30000, min(30000, math.Round(float64(v)*othello.DiscScale))))
	}
	return out, nil
}

// patPredict is the float model's prediction for a sample (disc units).
func patPredict(w []float32, x *Sample, idx *[othello.PatternInstances]int32) float32 {
	othello.PatternIndices(x.P, x.O, idx)
	n := othello.PatternStageLen()
	return stagePredict(w[othello.PatternStage(int(x.Empties))*n:][:n], idx, x.Mob)
}

// stagePredict sums one stage's weights ws over the instance indices idx.
func stagePredict(ws []float32, idx *[othello.PatternInstances]int32, mob int8) float32 {
	bias, mobW := othello.PatternScalars()
	pred := ws[bias] + float32(mob)*ws[mobW]
	for _, i := range idx {
		pred += ws[i]
	}
	return pred
}

// ErrStat is a model's error on the samples with one number of empties.
type ErrStat struct {
	N    int
	RMSE float64 // discs, against the samples' final results
}

// ModelErrors measures a pattern model (the bytes of a model file, or the
// embedded model when nil) against the samples' final results, by empties.
// Below the self-play's solve-at empties the results are exact values, so
// those rows are the evaluation's error against perfect play.
func ModelErrors(samples []Sample, model []byte) ([61]ErrStat, error) {
	var out [61]ErrStat
	m, err := othello.DecodePatternModel(model)
	if err != nil {
		return out, err
	}
	var se [61]float64
	for _, x := range samples {
		e := int(x.Empties)
		if e < 0 || e > 60 {
			continue
		}
		d := m.Eval(x.P, x.O, e, int(x.Mob)) - float64(x.Target)
		se[e] += d * d
		out[e].N++
	}
	for e := range out {
		if out[e].N > 0 {
			out[e].RMSE = math.Sqrt(se[e] / float64(out[e].N))
		}
	}
	return out, nil
}
