package server

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/botarena/gamebot/giretra/search"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestSearchAdmission checks the three ways a decision is admitted: a
// free slot (no deadline: the reproducible path), a slot that frees while
// it waits (a deadline from its arrival), and none in time (the
// heuristic's expired context).
func TestSearchAdmission(t *testing.T) {
	const budget = 200 * time.Millisecond
	s := New(slog.New(slog.DiscardHandler), Config{MaxConcurrentDecisions: 1, LoadBudget: budget}, prometheus.NewRegistry(), Deps{})
	outcome := func(o string) float64 {
		return testutil.ToFloat64(s.metrics.overloaded.WithLabelValues(giretraGame, o))
	}
	type seen struct {
		deadline, expired bool
	}
	decide := func() seen {
		var got seen
		err := s.search(context.Background(), func(ctx context.Context) error {
			_, got.deadline = ctx.Deadline()
			got.expired = ctx.Err() != nil
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	if got := decide(); got.deadline || got.expired {
		t.Errorf("free slot: deadline %v, expired %v; want neither", got.deadline, got.expired)
	}

	s.slots <- struct{}{} // another decision holds the only slot
	released := make(chan struct{})
	go func() {
		time.Sleep(budget / 10)
		<-s.slots
		close(released)
	}()
	if got := decide(); !got.deadline || got.expired {
		t.Errorf("slot freed while waiting: deadline %v, expired %v; want a live deadline", got.deadline, got.expired)
	}
	<-released
	if outcome("shortened") != 1 {
		t.Errorf("shortened = %v, want 1", outcome("shortened"))
	}

	s.slots <- struct{}{} // held for good
	if got := decide(); !got.expired {
		t.Error("no slot in time: the decision searched; want the heuristic's expired context")
	}
	<-s.slots
	if outcome("heuristic") != 1 {
		t.Errorf("heuristic = %v, want 1", outcome("heuristic"))
	}
	if len(s.slots) != 0 {
		t.Errorf("%d slots still held", len(s.slots))
	}
}

// A decision's searches yield the CPU only when every slot (every CPU, at
// most) is searching: the context a decision searches under says whether
// that is so, now.
func TestSearchBusy(t *testing.T) {
	s := New(slog.New(slog.DiscardHandler), Config{MaxConcurrentDecisions: 1, LoadBudget: time.Second}, prometheus.NewRegistry(), Deps{})
	var inside bool
	var ctx context.Context
	err := s.search(context.Background(), func(c context.Context) error {
		ctx = c
		inside = search.Busy(c) // this decision holds the only slot
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !inside {
		t.Error("the only slot held, and the decision's context says a CPU is free")
	}
	if search.Busy(ctx) {
		t.Error("no decision searching, and the context says every CPU is busy")
	}
}
