// Package train fits the std engine's pattern evaluation (othello/stdengine),
// driven by cmd/othello-train. Self-play games of the std engine, from
// FlipSight's random 12-disc openings, give positions labelled with the
// game's final disc difference (exact play from SolveAt empties) and the
// engine's own search score; they are written in numbered chunk files so
// that a long generation can be stopped and resumed. A least-squares fit
// by stochastic gradient descent turns them into weights.
package train

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/botarena/gamebot/othello/stdengine"
)

// Sample is one labelled position: mover P, opponent O (a1 = bit 0), the
// final disc difference for the mover under the play that followed (exact
// from the generation's SolveAt), and the self-play search's score of the
// position (discs, mover; exact when Exact).
type Sample struct {
	P, O    uint64
	Empties int8
	Final   int8
	Score   int8
	Exact   bool
}

const (
	record       = 20
	samplesMagic = "OTSMP2\r\n"
)

// WriteSamples writes a chunk: a magic header, then one 20-byte
// little-endian record per sample.
func WriteSamples(w io.Writer, s []Sample) error {
	buf := make([]byte, 0, len(samplesMagic)+len(s)*record)
	buf = append(buf, samplesMagic...)
	for _, x := range s {
		buf = binary.LittleEndian.AppendUint64(buf, x.P)
		buf = binary.LittleEndian.AppendUint64(buf, x.O)
		var fl byte
		if x.Exact {
			fl = 1
		}
		buf = append(buf, byte(x.Empties), byte(x.Final), byte(x.Score), fl)
	}
	_, err := w.Write(buf)
	return err
}

// ReadSamples reads a chunk written by WriteSamples.
func ReadSamples(r io.Reader) ([]Sample, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(b) < len(samplesMagic) || string(b[:len(samplesMagic)]) != samplesMagic {
		return nil, errors.New("training data: not a samples chunk")
	}
	b = b[len(samplesMagic):]
	if len(b)%record != 0 {
		return nil, errors.New("training data: truncated record")
	}
	out := make([]Sample, 0, len(b)/record)
	for i := 0; i < len(b); i += record {
		x := Sample{
			P: binary.LittleEndian.Uint64(b[i:]), O: binary.LittleEndian.Uint64(b[i+8:]),
			Empties: int8(b[i+16]), Final: int8(b[i+17]), Score: int8(b[i+18]), Exact: b[i+19]&1 != 0,
		}
		if x.P&x.O != 0 || int(x.Empties) != 64-bits.OnesCount64(x.P|x.O) {
			return nil, fmt.Errorf("training data: record %d is not a position", i/record)
		}
		out = append(out, x)
	}
	return out, nil
}

// FitOptions control the least-squares fit.
type FitOptions struct {
	Epochs int
	Rate   float64 // learning rate of the pattern weights
	L2     float64 // weight decay per update
	// ScoreWeight blends the self-play search score into the label:
	// label = (1−ScoreWeight)·final + ScoreWeight·score (the exact score
	// alone where the search solved the position). The score is less
	// noisy than one game's result; the result is the ground truth.
	ScoreWeight float64
	// Holdout is the fraction of samples, taken from the end (the last
	// chunks), kept out of the fit to measure the error on unseen games.
	Holdout float64
	// Mirror also trains on each position's mirror image, so that each
	// position informs the reflected configurations too.
	Mirror bool
	// Init, when set, is where the fit starts (a model's weights, in
	// stdengine.EvalScale units), and the weight decay pulls towards it rather
	// than towards zero: a fit on little data refines a model fitted on
	// more, and the weights its data seldom touches stay as they were.
	Init []int16
	// NoMobility leaves the mobility weight at zero: the search then
	// evaluates a leaf without generating either side's moves.
	NoMobility bool
	// Tie fits a pattern configuration and its mirror image (within a
	// kind a reflection maps onto itself: stdengine.Layout.MirrorIndex) as one
	// weight.
	Tie bool
	// PerWeight, when positive, scales each pattern weight's step by
	// PerWeight/min(n, PerWeight), n the positions of the training set
	// that read it in its own stage: a rare configuration learns from
	// its few positions as fast as a common one from its many.
	PerWeight int
	// Anchors, when at least 2, fits that many weight sets for each parity
	// of the empties instead of one per stage: a stage's weights are the
	// linear interpolation of the two anchors around it (anchors evenly
	// spaced over the stages of its parity, the first and last stage
	// among them). Every position then trains the two anchors around its
	// stage, so each weight learns from the positions of several stages,
	// and the weights change smoothly with the empties. The model written
	// has its NumStages stages as usual, so the engine reads it at no cost.
	Anchors int
	// Layout is the pattern set fitted (stdengine.Layouts); nil means the
	// embedded model's.
	Layout *stdengine.Layout
	Log    func(epoch int, train, holdout float64)
}

func (o *FitOptions) label(x *Sample) float32 {
	if x.Exact {
		return float32(x.Score)
	}
	sw := float32(o.ScoreWeight)
	return (1-sw)*float32(x.Final) + sw*float32(x.Score)
}

// mirror reflects a bitboard top to bottom.
func mirror(b uint64) uint64 { return bits.ReverseBytes64(b) }

// Fit fits the evaluation's weights (disc units) to the samples and
// returns them in stdengine.EvalScale units, ready for stdengine.NewModel. A position
// trains its own stage and, at half strength, the two neighbouring stages
// of the same parity, so that stages with few positions borrow from their
// neighbours (with Anchors, the two anchors around its stage instead). It
// stops with ctx's error when ctx is done.
func Fit(ctx context.Context, samples []Sample, opt FitOptions, rng *rand.Rand) ([]int16, error) {
	if opt.Anchors != 0 && (opt.Anchors < 2 || opt.Anchors > stdengine.NumStages/2 || opt.Tie || opt.PerWeight > 0) {
		return nil, fmt.Errorf("anchors: %d, want 2–%d, without tying or per-weight steps", opt.Anchors, stdengine.NumStages/2)
	}
	f, err := newFitter(opt)
	if err != nil {
		return nil, err
	}
	nHold := int(float64(len(samples)) * min(max(opt.Holdout, 0), 0.5))
	held := samples[len(samples)-nHold:]
	samples = samples[:len(samples)-nHold]
	order := make([]int32, len(samples))
	for i := range order {
		order[i] = int32(i)
	}
	if opt.PerWeight > 0 {
		f.countScale(samples)
	}
	for ep := range opt.Epochs {
		// Linear decay of the rate to a tenth over the epochs: large steps
		// first, then averaging out the label noise.
		lr := float32(opt.Rate * (1 - 0.9*float64(ep)/float64(max(opt.Epochs-1, 1))))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var se float64
		for k, i := range order {
			if k%4096 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			se += f.step(&samples[i], lr)
		}
		if opt.Log != nil {
			opt.Log(ep, math.Sqrt(se/float64(max(len(samples), 1))), f.rms(held))
		}
	}
	return f.weights(), nil
}

// fitter is a fit in progress: the weight sets (disc units), where their
// decay pulls, and what each step reads.
type fitter struct {
	opt        FitOptions
	n, tables  int                           // a set's weights, of which the pattern tables'
	w, w0      []float32                     // the weight sets, and where the decay pulls
	mix        [stdengine.NumStages][2]share // each stage's sets: itself alone, or two anchors
	canon      []int32                       // with Tie: the weight a pattern index is fitted as
	scale      []float32                     // with PerWeight: each pattern weight's step factor (stage × index)
	decay      float32
	scalarRate [stdengine.NumScalars]float32
	lay        *stdengine.Layout
	idx        []int32 // the inputs of the position in hand
	sc         [stdengine.NumScalars]int32
}

// share is a weight set's part in a stage's weights.
type share struct {
	set int
	lam float32
}

// anchorMix is, with k anchors a parity, each stage's two anchors (weight
// sets: parity·k + anchor) and their parts, and for each set the stage it
// sits on.
func anchorMix(k int) (mix [stdengine.NumStages][2]share, at []int) {
	at = make([]int, 2*k)
	for par := range 2 {
		last := (stdengine.NumStages-par+1)/2 - 1 // the parity's stages are 2j+par, j ≤ last
		pos := make([]int, k)
		for i := range k {
			pos[i] = (2*i*last + k - 1) / (2 * (k - 1))
			at[par*k+i] = 2*pos[i] + par
		}
		for j := 0; j <= last; j++ {
			i := 0
			for i < k-2 && pos[i+1] < j {
				i++
			}
			lam := float32(pos[i+1]-j) / float32(pos[i+1]-pos[i])
			mix[2*j+par] = [2]share{{par*k + i, lam}, {par*k + i + 1, 1 - lam}}
		}
	}
	return mix, at
}

func newFitter(opt FitOptions) (*fitter, error) {
	lay := opt.Layout
	if lay == nil {
		lay = stdengine.Embedded().Layout()
	}
	n := lay.StageLen()
	f := &fitter{opt: opt, lay: lay, idx: make([]int32, lay.NumInputs()), n: n, tables: lay.Tables(), decay: float32(1 - opt.L2),
		scalarRate: [stdengine.NumScalars]float32{0.1, 0.01, 0.002, 0.002}}
	sets := stdengine.NumStages
	at := make([]int, sets) // the stage each set starts from
	for s := range f.mix {
		f.mix[s] = [2]share{{s, 1}, {s, 0}}
		at[s] = s
	}
	if opt.Anchors > 0 {
		f.mix, at = anchorMix(opt.Anchors)
		sets = len(at)
	}
	f.w = make([]float32, sets*n)
	f.w0 = make([]float32, len(f.w))
	if opt.Init != nil {
		if len(opt.Init) != stdengine.NumStages*n {
			return nil, fmt.Errorf("initial weights: %d, want %d (layout %s)", len(opt.Init), stdengine.NumStages*n, lay.Name())
		}
		for set, s := range at {
			for i, v := range opt.Init[s*n:][:n] {
				f.w[set*n+i] = float32(v) / stdengine.EvalScale
			}
		}
		copy(f.w0, f.w)
	}
	if opt.Tie {
		f.canon = lay.MirrorIndex()
		for i, j := range f.canon {
			f.canon[i] = min(int32(i), j)
		}
		for s := range sets { // start from the pair's mean
			ws := f.w[s*n:]
			for i, j := range f.canon {
				if int(j) < i {
					v := (ws[i] + ws[j]) / 2
					ws[i], ws[j] = v, v
				}
			}
			copy(f.w0[s*n:][:f.tables], ws[:f.tables])
		}
	}
	if opt.NoMobility {
		f.scalarRate[stdengine.ScalarMobility] = 0
		for s := range sets {
			f.w[s*n+f.tables+stdengine.ScalarMobility] = 0
			f.w0[s*n+f.tables+stdengine.ScalarMobility] = 0
		}
	}
	return f, nil
}

// inputs reads the position's pattern indices (tied, with Tie) and
// scalars into f.idx and f.sc.
func (f *fitter) inputs(p, o uint64) {
	f.lay.Inputs(p, o, false, f.idx, &f.sc)
	if f.canon != nil {
		for k, i := range f.idx {
			f.idx[k] = f.canon[i]
		}
	}
}

// countScale sets each pattern weight's step factor from how many of the
// samples read it in its own stage.
func (f *fitter) countScale(samples []Sample) {
	counts := make([]int32, len(f.w))
	for k := range samples {
		x := &samples[k]
		f.inputs(x.P, x.O)
		base := stdengine.StageOf(int(x.Empties)) * f.n
		for _, i := range f.idx {
			counts[base+int(i)]++
		}
	}
	f.scale = make([]float32, len(f.w))
	c := int32(f.opt.PerWeight)
	for i, v := range counts {
		f.scale[i] = float32(c) / float32(max(min(v, c), 1))
	}
}

// step trains on one sample at rate lr: its stage, the neighbouring two
// at half strength, its mirror image too with Mirror. It returns the
// squared error of its own stage's prediction before the step.
func (f *fitter) step(x *Sample, lr float32) (se float64) {
	if f.opt.Anchors > 0 {
		return f.stepMixed(x, lr)
	}
	n, tables := f.n, f.tables
	y := f.opt.label(x)
	e := int(x.Empties)
	own := stdengine.StageOf(e)
	stages := [3]int{own, -1, -1}
	if e+4 <= 60 {
		stages[1] = stdengine.StageOf(e + 4)
	}
	if e-4 >= 0 {
		stages[2] = stdengine.StageOf(e - 4)
	}
	for im := range f.images() {
		f.readImage(x, im)
		for j, s := range stages {
			if s < 0 {
				continue
			}
			d := predict(f.w[s*n:][:n], tables, f.idx, &f.sc) - y
			if j == 0 && im == 0 {
				se += float64(d * d)
			}
			g := lr * d
			if j > 0 {
				g /= 2
			}
			f.nudge(s, g)
		}
	}
	return se
}

// images is how many images of a position a step trains: the position,
// and with Mirror its mirror image too.
func (f *fitter) images() int {
	if f.opt.Mirror {
		return 2
	}
	return 1
}

// readImage reads image im of x (1: the mirror image) into f's inputs.
func (f *fitter) readImage(x *Sample, im int) {
	p, o := x.P, x.O
	if im == 1 {
		p, o = mirror(p), mirror(o)
	}
	f.inputs(p, o)
}

// nudge moves weight set s against the error by g: the pattern weights
// read (each by its own factor with PerWeight), decayed towards where the
// decay pulls, and the scalars at their own rates.
func (f *fitter) nudge(s int, g float32) {
	n := f.n
	ws, ws0 := f.w[s*n:][:n], f.w0[s*n:][:n]
	if f.scale != nil {
		sw := f.scale[s*n:][:n]
		for _, i := range f.idx {
			ws[i] = ws0[i] + (ws[i]-ws0[i])*f.decay - g*sw[i]
		}
	} else {
		for _, i := range f.idx {
			ws[i] = ws0[i] + (ws[i]-ws0[i])*f.decay - g
		}
	}
	for k, v := range f.sc {
		ws[f.tables+k] -= g * f.scalarRate[k] * float32(v)
	}
}

// stepMixed is step for anchored sets: the prediction is the stage's
// mix of its two anchors, and each anchor moves by its part of the error.
func (f *fitter) stepMixed(x *Sample, lr float32) (se float64) {
	y := f.opt.label(x)
	mix := &f.mix[stdengine.StageOf(int(x.Empties))]
	for im := range f.images() {
		f.readImage(x, im)
		d := f.predictMixed(mix) - y
		if im == 0 {
			se = float64(d * d)
		}
		for _, sh := range mix {
			if sh.lam != 0 {
				f.nudge(sh.set, lr*d*sh.lam)
			}
		}
	}
	return se
}

// predictMixed is the prediction of the inputs in hand by a stage's mix.
func (f *fitter) predictMixed(mix *[2]share) float32 {
	var v float32
	for _, sh := range mix {
		if sh.lam != 0 {
			v += sh.lam * predict(f.w[sh.set*f.n:][:f.n], f.tables, f.idx, &f.sc)
		}
	}
	return v
}

// rms is the root mean squared error of the weights' predictions of the
// final discs of held.
func (f *fitter) rms(held []Sample) float64 {
	var he float64
	for k := range held {
		x := &held[k]
		f.inputs(x.P, x.O)
		d := f.predictMixed(&f.mix[stdengine.StageOf(int(x.Empties))]) - float32(x.Final)
		he += float64(d * d)
	}
	return math.Sqrt(he / float64(max(len(held), 1)))
}

// weights are the fitted weights in stdengine.EvalScale units.
func (f *fitter) weights() []int16 {
	if f.canon != nil { // both entries of a pair hold the pair's weight
		for s := range stdengine.NumStages {
			ws := f.w[s*f.n:]
			for i, j := range f.canon {
				ws[i] = ws[j]
			}
		}
	}
	out := make([]int16, stdengine.NumStages*f.n)
	for s, mix := range f.mix {
		for i := range f.n {
			var v float32
			for _, sh := range mix {
				v += sh.lam * f.w[sh.set*f.n+i]
			}
			out[s*f.n+i] = int16(max(-30000, min(30000, math.Round(float64(v)*stdengine.EvalScale))))
		}
	}
	return out
}

func predict(ws []float32, tables int, idx []int32, sc *[stdengine.NumScalars]int32) float32 {
	var v float32
	for _, i := range idx {
		v += ws[i]
	}
	for s, x := range sc {
		v += ws[tables+s] * float32(x)
	}
	return v
}

// ErrStat is a model's error on the samples with one number of empties.
type ErrStat struct {
	N    int
	RMSE float64 // discs
}

// ModelErrors measures a model against the samples' final results by
// empties. Below the generation's SolveAt the results are exact values, so
// those rows are the evaluation's error against perfect play.
func ModelErrors(samples []Sample, m *stdengine.Model) [61]ErrStat {
	return EvalErrors(samples, func(x *Sample) float64 { return m.Eval(x.P, x.O, false) })
}

// EvalErrors is ModelErrors for any evaluation of a sample (discs, mover).
func EvalErrors(samples []Sample, eval func(*Sample) float64) [61]ErrStat {
	var out [61]ErrStat
	var se [61]float64
	for i := range samples {
		x := &samples[i]
		e := int(x.Empties)
		if e < 0 || e > 60 {
			continue
		}
		d := eval(x) - float64(x.Final)
		se[e] += d * d
		out[e].N++
	}
	for e := range out {
		if out[e].N > 0 {
			out[e].RMSE = math.Sqrt(se[e] / float64(out[e].N))
		}
	}
	return out
}

// Bands sums a model's errors by empties into two bands: up to cut
// empties, and above.
func Bands(st [61]ErrStat, cut int) (low, high ErrStat) {
	var se [2]float64
	for e, s := range st {
		b := 0
		if e > cut {
			b = 1
		}
		se[b] += s.RMSE * s.RMSE * float64(s.N)
		if b == 0 {
			low.N += s.N
		} else {
			high.N += s.N
		}
	}
	if low.N > 0 {
		low.RMSE = math.Sqrt(se[0] / float64(low.N))
	}
	if high.N > 0 {
		high.RMSE = math.Sqrt(se[1] / float64(high.N))
	}
	return low, high
}
