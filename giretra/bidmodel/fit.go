package bidmodel

import (
	"errors"
	"math"
	"math/rand/v2"
)

// Examples are actions' features and values, in rows of NumFeatures.
type Examples struct {
	X []float32
	Y []float32 // match points
}

// Len is the number of examples.
func (e *Examples) Len() int { return len(e.Y) }

// Add appends one example.
func (e *Examples) Add(x []float32, y float64) {
	e.X = append(e.X, x[:NumFeatures]...)
	e.Y = append(e.Y, float32(y))
}

// FitOptions steer Fit.
type FitOptions struct {
	Epochs int
	Rate   float64 // Adam's step
	Batch  int
	L2     float64
	Seed   uint64
	// Progress, when set, hears the training error (RMSE in match points)
	// after each epoch.
	Progress func(epoch int, rmse float64)
}

// Fit fits a model to ex by least squares with Adam on minibatches, in an
// order drawn from the seed: the same examples and options give the same
// model, bit for bit.
func Fit(ex *Examples, opt FitOptions) (*Model, error) {
	n := ex.Len()
	if n == 0 || len(ex.X) != n*NumFeatures {
		return nil, errors.New("bid model fit: no examples, or rows of the wrong length")
	}
	if opt.Epochs < 1 || opt.Batch < 1 || !(opt.Rate > 0) {
		return nil, errors.New("bid model fit: epochs, batch and rate must be positive")
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5851f42d4c957f2d))
	m := new(Model)
	sd := math.Sqrt(2.0 / NumFeatures)
	for h := range Hidden {
		for i := range NumFeatures {
			m.W1[h][i] = float32(rng.NormFloat64() * sd)
		}
		m.W2[h] = float32(rng.NormFloat64() * math.Sqrt(1.0/Hidden))
	}
	nw := Hidden*NumFeatures + Hidden + 1
	w := make([]float64, nw) // the weights in float64 while fitting
	pack(m, w, false)
	g := make([]float64, nw)
	m1 := make([]float64, nw)
	m2 := make([]float64, nw)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	const b1, b2, eps = 0.9, 0.999, 1e-8
	step := 0
	var hid [Hidden]float64
	for epoch := range opt.Epochs {
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		sq := 0.0
		for lo := 0; lo < n; lo += opt.Batch {
			hi := min(lo+opt.Batch, n)
			clear(g)
			for _, k := range order[lo:hi] {
				x := ex.X[k*NumFeatures : (k+1)*NumFeatures]
				out := w[nw-1]
				for h := range Hidden {
					row := w[h*NumFeatures : (h+1)*NumFeatures]
					s := 0.0
					for i, xi := range x {
						if xi != 0 {
							s += row[i] * float64(xi)
						}
					}
					hid[h] = max(s, 0)
					out += w[Hidden*NumFeatures+h] * hid[h]
				}
				e := out - float64(ex.Y[k])/valueScale
				sq += e * e
				g[nw-1] += e
				for h := range Hidden {
					if hid[h] <= 0 {
						continue
					}
					g[Hidden*NumFeatures+h] += e * hid[h]
					d := e * w[Hidden*NumFeatures+h]
					row := g[h*NumFeatures : (h+1)*NumFeatures]
					for i, xi := range x {
						if xi != 0 {
							row[i] += d * float64(xi)
						}
					}
				}
			}
			step++
			scale := 1 / float64(hi-lo)
			c1 := 1 - math.Pow(b1, float64(step))
			c2 := 1 - math.Pow(b2, float64(step))
			for i := range w {
				gi := g[i]*scale + opt.L2*w[i]
				m1[i] = b1*m1[i] + (1-b1)*gi
				m2[i] = b2*m2[i] + (1-b2)*gi*gi
				w[i] -= opt.Rate * (m1[i] / c1) / (math.Sqrt(m2[i]/c2) + eps)
			}
		}
		if opt.Progress != nil {
			opt.Progress(epoch+1, math.Sqrt(sq/float64(n))*valueScale)
		}
	}
	pack(m, w, true)
	return m, nil
}

// pack copies the model's weights to w (or back, when into is true), in
// the order W1 by row, W2, B2.
func pack(m *Model, w []float64, into bool) {
	k := 0
	for h := range Hidden {
		for i := range NumFeatures {
			if into {
				m.W1[h][i] = float32(w[k])
			} else {
				w[k] = float64(m.W1[h][i])
			}
			k++
		}
	}
	for h := range Hidden {
		if into {
			m.W2[h] = float32(w[k])
		} else {
			w[k] = float64(m.W2[h])
		}
		k++
	}
	if into {
		m.B2 = float32(w[k])
	} else {
		w[k] = float64(m.B2)
	}
}

// RMSE is m's error on ex, in match points.
func (m *Model) RMSE(ex *Examples) float64 {
	sq := 0.0
	for k := range ex.Len() {
		e := m.Value(ex.X[k*NumFeatures:(k+1)*NumFeatures]) - float64(ex.Y[k])
		sq += e * e
	}
	return math.Sqrt(sq / float64(max(ex.Len(), 1)))
}
