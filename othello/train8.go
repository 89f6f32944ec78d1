package othello

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// Training of the std-mode pattern evaluation (pattern8.go), driven by
// cmd/othello-train: self-play games from FlipSight's random 12-disc
// openings produce positions labelled with the game's final disc
// difference, and a linear least-squares fit by stochastic gradient
// descent turns them into pattern weights.

// TrainSample is one labelled position: mover P, opponent O (a1 = bit 0),
// the mover's moves minus the opponent's, the final disc difference for
// the mover under the play that followed (exact from SolveAt empties), and
// the self-play search's own score of the position (discs, mover).
type TrainSample struct {
	P, O    uint64
	Empties int8
	Mob     int8
	Target  int8
	Score   int8
}

const trainRecord = 20

// WriteSamples appends samples in a fixed 20-byte little-endian record.
func WriteSamples(w io.Writer, s []TrainSample) error {
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
func ReadSamples(r io.Reader) ([]TrainSample, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(b)%trainRecord != 0 {
		return nil, errors.New("training data: truncated record")
	}
	out := make([]TrainSample, 0, len(b)/trainRecord)
	for i := 0; i < len(b); i += trainRecord {
		out = append(out, TrainSample{
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

// SelfPlayGame plays one game from a random FlipSight opening and returns
// its labelled positions (from the first searched position on).
func SelfPlayGame(ctx context.Context, rng *rand.Rand, opt GenOptions, s *TrainSearcher) []TrainSample {
	sr := s.s
	sr.usePattern = opt.UsePattern
	pos := pos8{p: bits8(1<<28 | 1<<35), o: bits8(1<<27 | 1<<36)} // black to move: d5 e4 black
	black := true
	nRandom := 8 + rng.IntN(opt.RandomMax+1)
	type rec struct {
		pos   pos8
		black bool
		score int
	}
	var recs []rec
	for ply := 0; ; ply++ {
		m := sr.moves(pos)
		if m.isZero() {
			if sr.moves(pos.pass()).isZero() {
				break
			}
			pos, black = pos.pass(), !black
			continue
		}
		if ply < nRandom {
			k := rng.IntN(m.count())
			for range k {
				m.pop()
			}
			pos, black = sr.play(pos, m.pop()), !black
			continue
		}
		empties := sr.empties(pos)
		var legal []int
		for mm := m; !mm.isZero(); {
			legal = append(legal, mm.pop())
		}
		depth := opt.Depth
		if empties <= opt.SolveAt {
			sr.exactEmpties = opt.SolveAt
			depth = 64
		} else {
			sr.exactEmpties = 0
		}
		res := sr.searchRoot(ctx, pos, legal, 0, time.Time{}, depth)
		if ctx.Err() != nil {
			return nil
		}
		recs = append(recs, rec{pos, black, max(-64, min(64, res.score/discScale))})
		pos, black = sr.play(pos, res.move), !black
	}
	// Final result for black.
	final := sr.final(pos) / discScale
	if !black {
		final = -final
	}
	out := make([]TrainSample, 0, len(recs))
	for _, r := range recs {
		t := final
		if !r.black {
			t = -t
		}
		mob := sr.moves(r.pos).count() - sr.moves(r.pos.pass()).count()
		out = append(out, TrainSample{P: uint64(r.pos.p), O: uint64(r.pos.o), Empties: int8(sr.empties(r.pos)), Mob: int8(mob), Target: int8(t), Score: int8(r.score)})
	}
	return out
}

// TrainSearcher is a std-mode searcher owned by one training worker.
type TrainSearcher struct{ s *searcher8 }

// NewTrainSearcher returns a std-mode searcher for SelfPlayGame.
func NewTrainSearcher(ttBits uint) *TrainSearcher {
	return &TrainSearcher{s: newSearcher8(Std, ttBits)}
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
// returns them in score units, ready for WritePatternModel.
func FitPatterns(samples []TrainSample, opt FitOptions, rng *rand.Rand) []int16 {
	w := make([]float32, patStages*patStageLen)
	nHold := int(float64(len(samples)) * min(max(opt.Holdout, 0), 0.5))
	held := samples[len(samples)-nHold:]
	samples = samples[:len(samples)-nHold]
	order := make([]int32, len(samples))
	for i := range order {
		order[i] = int32(i)
	}
	var idx [numPatInst]int32
	sw := float32(opt.ScoreWeight)
	label := func(x *TrainSample) float32 { return (1-sw)*float32(x.Target) + sw*float32(x.Score) }
	decay := float32(1 - opt.L2)
	for ep := range opt.Epochs {
		// Linear decay of the rate to a tenth over the epochs: large steps
		// first, then averaging out the label noise.
		lr := float32(opt.Rate * (1 - 0.9*float64(ep)/float64(max(opt.Epochs-1, 1))))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var se float64
		for _, k := range order {
			x := &samples[k]
			// Each position also trains the stages of positions two
			// empties away, so neighbouring stages share data.
			e := int(x.Empties)
			st := patStage(e)
			sts := [3]int{st, patStage(e + 2), patStage(e - 2)}
			images := 1
			if opt.Mirror {
				images = 2
			}
			for im := range images {
				p, o := x.P, x.O
				if im == 1 {
					p, o = flipVert8(p), flipVert8(o)
				}
				patIndices(p, o, &idx)
				for j, s := range sts {
					if slices.Contains(sts[:j], s) {
						continue
					}
					ws := w[s*patStageLen:][:patStageLen]
					sc := ws[patOffset[numPatKinds]:]
					d := stagePredict(ws, &idx, x.Mob) - label(x)
					if s == st && im == 0 {
						se += float64(d * d)
					}
					g := lr * d
					for _, i := range idx {
						ws[i] = ws[i]*decay - g
					}
					sc[scalarBias] -= g * 0.1
					sc[scalarMob] -= g * 0.01 * float32(x.Mob)
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
		out[i] = int16(max(-30000, min(30000, math.Round(float64(v)*discScale))))
	}
	return out
}

// patPredict is the float model's prediction for a sample (disc units).
func patPredict(w []float32, x *TrainSample, idx *[numPatInst]int32) float32 {
	patIndices(x.P, x.O, idx)
	return stagePredict(w[patStage(int(x.Empties))*patStageLen:][:patStageLen], idx, x.Mob)
}

// stagePredict sums one stage's weights ws over the instance indices idx.
func stagePredict(ws []float32, idx *[numPatInst]int32, mob int8) float32 {
	sc := ws[patOffset[numPatKinds]:]
	pred := sc[scalarBias] + float32(mob)*sc[scalarMob]
	for _, i := range idx {
		pred += ws[i]
	}
	return pred
}

// WritePatternModel writes fitted weights in the embedded model format.
func WritePatternModel(w io.Writer, weights []int16) error { return encodePatModel(w, weights) }

// ErrStat is a model's error on the samples with one number of empties.
type ErrStat struct {
	N    int
	RMSE float64 // discs, against the samples' final results
}

// ModelErrors measures a pattern model (the bytes of a model file, or the
// embedded model when nil) against the samples' final results, by empties.
// Below the self-play's solve-at empties the results are exact values, so
// those rows are the evaluation's error against perfect play.
func ModelErrors(samples []TrainSample, model []byte) ([61]ErrStat, error) {
	var out [61]ErrStat
	m := stdModel()
	if model != nil {
		var err error
		if m, err = decodePatModel(model); err != nil {
			return out, err
		}
	}
	if m == nil {
		return out, errors.New("no pattern model")
	}
	var se [61]float64
	for _, x := range samples {
		e := int(x.Empties)
		if e < 0 || e > 60 {
			continue
		}
		d := float64(m.eval(x.P, x.O, e, int(x.Mob)))/discScale - float64(x.Target)
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
