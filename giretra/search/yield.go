package search

import (
	"context"
	"runtime"
)

// Searches run for tens of milliseconds. When every CPU is searching, a
// request that costs microseconds (a cut, a notification) would wait for
// the runtime's 10 ms preemption; so a search yields the CPU about every
// 100 µs, but only then. With a CPU idle, a yield buys nothing and costs
// much: the runtime wakes a thread through the kernel for the idle CPU,
// ~20 µs of the searching thread's time on a 2-core VM (yielding every
// 1024 solver nodes regardless cost 12 % of the bot's CPU there).

type busyKey struct{}

// WithBusy returns a context under which the searches of this package, and
// the simulations that call Yield, yield the CPU whenever busy reports
// that every CPU is taken by a search (a server knows: it counts its
// searches). Without it a search never yields.
func WithBusy(ctx context.Context, busy func() bool) context.Context {
	return context.WithValue(ctx, busyKey{}, busy)
}

// busyFrom is ctx's busy function, or nil.
func busyFrom(ctx context.Context) func() bool {
	f, _ := ctx.Value(busyKey{}).(func() bool)
	return f
}

// Busy reports whether ctx says every CPU is searching (WithBusy).
func Busy(ctx context.Context) bool {
	f := busyFrom(ctx)
	return f != nil && f()
}

// Yield yields the CPU if ctx says every CPU is searching. A simulation
// calls it between samples.
func Yield(ctx context.Context) {
	if Busy(ctx) {
		runtime.Gosched()
	}
}
