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
// heuristic's expired context). No outcome depends on the machine's
// speed: the slot is freed the moment the decision starts waiting, with
// an hour's budget left, and the last decision's slot never frees.
func TestSearchAdmission(t *testing.T) {
	newServer := func(budget time.Duration) *Server {
		return New(slog.New(slog.DiscardHandler), Config{MaxConcurrentDecisions: 1, LoadBudget: budget}, prometheus.NewRegistry(), Deps{})
	}
	outcome := func(s *Server, o string) float64 {
		return testutil.ToFloat64(s.metrics.overloaded.WithLabelValues(giretraGame, o))
	}
	type seen struct {
		deadline, expired bool
	}
	decide := func(s *Server) seen {
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

	s := newServer(time.Hour)
	if got := decide(s); got.deadline || got.expired {
		t.Errorf("free slot: deadline %v, expired %v; want neither", got.deadline, got.expired)
	}

	s.slots <- struct{}{} // another decision holds the only slot, until this one waits
	s.waiting = func() { <-s.slots }
	if got := decide(s); !got.deadline || got.expired {
		t.Errorf("slot freed while waiting: deadline %v, expired %v; want a live deadline", got.deadline, got.expired)
	}
	if outcome(s, "shortened") != 1 {
		t.Errorf("shortened = %v, want 1", outcome(s, "shortened"))
	}

	s = newServer(time.Millisecond)
	s.slots <- struct{}{} // held for good
	if got := decide(s); !got.expired {
		t.Error("no slot in time: the decision searched; want the heuristic's expired context")
	}
	<-s.slots
	if outcome(s, "heuristic") != 1 {
		t.Errorf("heuristic = %v, want 1", outcome(s, "heuristic"))
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
