package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/botarena/gamebot/othello/train"
)

func TestGenThenFit(t *testing.T) {
	dir := t.TempDir()
	samples := filepath.Join(dir, "s")
	model := filepath.Join(dir, "m.gz")
	var out, errs bytes.Buffer
	if err := run(context.Background(), []string{"gen", "-n", "6", "-depth", "1", "-solve-at", "8", "-o", samples}, &out, &errs); err != nil {
		t.Fatalf("gen: %v\n%s", err, errs.String())
	}
	f, err := os.Open(samples)
	if err != nil {
		t.Fatal(err)
	}
	s, err := train.ReadSamples(f)
	f.Close()
	if err != nil || len(s) < 6*20 {
		t.Fatalf("gen wrote %d samples (%v)", len(s), err)
	}
	if err := run(context.Background(), []string{"fit", "-i", samples, "-o", model, "-epochs", "2", "-score-weight", "0.5", "-mirror"}, &out, &errs); err != nil {
		t.Fatalf("fit: %v", err)
	}
	if !strings.Contains(out.String(), "epoch 2:") {
		t.Fatalf("fit did not log its epochs:\n%s", out.String())
	}
	if fi, err := os.Stat(model); err != nil || fi.Size() == 0 {
		t.Fatalf("no model written (%v)", err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"check", "-i", samples, "-model", model, "-tail", "0.5"}, &out, &errs); err != nil {
		t.Fatalf("check: %v", err)
	}
	// A header and one row per empties count up to 40 (games of 6 × ~25 own
	// searched positions cover most of them).
	if !strings.Contains(out.String(), "rmse(discs)") || strings.Count(out.String(), "\n") < 20 {
		t.Fatalf("check printed no error table:\n%s", out.String())
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{
		nil, {"train"}, {"gen"}, {"gen", "-o", "/tmp/x", "-concurrency", "0"}, {"gen", "-o", "/tmp/x", "-games", "3"},
		{"fit"}, {"fit", "-i", "/nonexistent", "-o", "/tmp/x"}, {"check"}, {"check", "-i", "/nonexistent"}, {"check", "-i", "/dev/null", "-tail", "0"},
	} {
		if err := run(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// Interrupted, gen says how many games it kept and returns the
// cancellation, fit writes no model; -seed 0 prints the seed it drew.
func TestInterrupted(t *testing.T) {
	dir := t.TempDir()
	samples, model := filepath.Join(dir, "s"), filepath.Join(dir, "m.gz")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var out, errs bytes.Buffer
	err := run(ctx, []string{"gen", "-n", "4", "-depth", "1", "-seed", "0", "-o", samples}, &out, &errs)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted after 0 of 4 games") {
		t.Errorf("gen: %v", err)
	}
	if !regexp.MustCompile(`^othello-train: seed [1-9]\d*\n`).MatchString(errs.String()) {
		t.Errorf("gen stderr %q, want the drawn seed first", errs.String())
	}
	// fit on a real (small) samples file, interrupted.
	if err := run(t.Context(), []string{"gen", "-n", "1", "-depth", "1", "-solve-at", "8", "-o", samples}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	err = run(ctx, []string{"fit", "-i", samples, "-o", model, "-epochs", "3"}, &out, &errs)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("fit: %v", err)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("an interrupted fit wrote a model")
	}
}
