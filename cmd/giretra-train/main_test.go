package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/cli"
)

func runTrain(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(t.Context(), args, cli.Env(nil), nil, &out, &errb)
	return out.String(), errb.String(), err
}

func TestGenFitCheck(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bids")
	model := filepath.Join(t.TempDir(), "m.gz")
	if _, stderr, err := runTrain(t, "gen", "-dir", dir, "-chunks", "3", "-deals", "30", "-seed", "11", "-concurrency", "2"); err != nil ||
		!strings.Contains(stderr, "this run: 3 chunks") {
		t.Fatalf("gen: %v\n%s", err, stderr)
	}
	out, stderr, err := runTrain(t, "fit", "-dir", dir, "-valid", "1", "-epochs", "2", "-o", model)
	if err != nil || !strings.Contains(out, "decisions; mean value on the true deal") || !strings.Contains(stderr, "epoch 2") {
		t.Fatalf("fit: %v\n%s%s", err, out, stderr)
	}
	first, _ := os.ReadFile(model)
	if _, _, err := runTrain(t, "fit", "-dir", dir, "-valid", "1", "-epochs", "2", "-o", model); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(model); len(first) == 0 || !bytes.Equal(first, again) {
		t.Error("the same fit twice wrote two models")
	}
	if out, _, err := runTrain(t, "check", "-dir", dir, "-chunks", "1", "-model", model); err != nil || !strings.Contains(out, "model −") {
		t.Fatalf("check: %v\n%s", err, out)
	}
	// A second round: the first round's model bids for our seats.
	if _, stderr, err := runTrain(t, "gen", "-dir", dir+"2", "-chunks", "1", "-deals", "10", "-seed", "12", "-learned", model, "-card-models", "-calibrated"); err != nil {
		t.Fatalf("gen -learned: %v\n%s", err, stderr)
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"train"},
		{"gen", "-dir", t.TempDir()}, // no seed
		{"gen", "-dir", t.TempDir(), "-seed", "1", "-explore", "2"},
		{"fit", "-dir", t.TempDir()}, // no -o
		{"check", "-dir", t.TempDir(), "-model", filepath.Join(t.TempDir(), "absent.gz")},
		{"calib"},                          // no -records
		{"calib", "-records", t.TempDir()}, // no record there
	} {
		if _, _, err := runTrain(t, args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
