package othello

// pool keeps up to n searchers, and their tables, between moves: a move
// takes a free one, or a new one when all are busy, and gives it back.
type pool[S any] struct{ free chan S }

func newPool[S any](n int) pool[S] { return pool[S]{free: make(chan S, n)} }

// get returns a free searcher, or false when there is none.
func (p pool[S]) get() (S, bool) {
	select {
	case s := <-p.free:
		return s, true
	default:
		var none S
		return none, false
	}
}

// put gives s back; it is dropped when the pool is full.
func (p pool[S]) put(s S) {
	select {
	case p.free <- s:
	default:
	}
}
