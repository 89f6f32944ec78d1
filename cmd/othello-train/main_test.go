package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/gamebot/othello/train"
)

func TestGenThenFit(t *testing.T) {
	dir := t.TempDir()
	samples := filepath.Join(dir, "s")
	model := filepath.Join(dir, "m.gz")
	var out, errs bytes.Buffer
	if err := run(context.Background(), []string{"gen", "-games", "6", "-depth", "1", "-solve-at", "8", "-o", samples}, &out, &errs); err != nil {
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
	for _, args := range [][]string{nil, {"train"}, {"gen"}, {"fit"}, {"fit", "-i", "/nonexistent", "-o", "/tmp/x"}, {"check"}, {"check", "-i", "/nonexistent"}, {"check", "-i", "/dev/null", "-tail", "0"}} {
		if err := run(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
