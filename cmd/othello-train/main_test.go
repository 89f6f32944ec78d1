package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/othello/stdengine"
)

func TestGenFitCheck(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.gz")
	var out, errs bytes.Buffer
	gen := []string{"gen", "-dir", dir, "-chunks", "2", "-games", "3", "-depth", "1", "-solve-at", "8", "-tt-bits", "12", "-seed", "5"}
	if err := run(context.Background(), gen, cli.Env(nil), nil, &out, &errs); err != nil {
		t.Fatalf("gen: %v\n%s", err, errs.String())
	}
	if strings.Count(errs.String(), "chunk ") != 2 {
		t.Fatalf("gen did not report two chunks:\n%s", errs.String())
	}
	errs.Reset()
	if err := run(context.Background(), gen, cli.Env(nil), nil, &out, &errs); err != nil || strings.Contains(errs.String(), "chunk ") {
		t.Fatalf("a finished gen played again (%v):\n%s", err, errs.String())
	}
	if err := run(context.Background(), []string{"fit", "-dir", dir, "-o", model, "-epochs", "2", "-init", "embedded"}, cli.Env(nil), nil, &out, &errs); err != nil {
		t.Fatalf("fit: %v", err)
	}
	if !strings.Contains(out.String(), "epoch 2:") {
		t.Fatalf("fit did not log its epochs:\n%s", out.String())
	}
	if fi, err := os.Stat(model); err != nil || fi.Size() == 0 {
		t.Fatalf("no model written (%v)", err)
	}
	// Without -init and -layout a fit makes the embedded model's layout;
	// -layout makes another.
	for _, l := range []string{"", "v3"} {
		args := []string{"fit", "-dir", dir, "-o", model, "-epochs", "1"}
		if l != "" {
			args = append(args, "-layout", l)
		}
		if err := run(context.Background(), args, cli.Env(nil), nil, &out, &errs); err != nil {
			t.Fatalf("fit -layout %q: %v", l, err)
		}
		m, err := stdengine.ReadModel(model)
		want := stdengine.Embedded().Layout()
		if l != "" {
			want = stdengine.Layouts[l]
		}
		if err != nil {
			t.Fatalf("fit -layout %q: %v", l, err)
		}
		if m.Layout() != want {
			t.Fatalf("fit -layout %q wrote layout %s, want %s", l, m.Layout().Name(), want.Name())
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"check", "-dir", dir, "-model", model, "-tail", "0.5"}, cli.Env(nil), nil, &out, &errs); err != nil {
		t.Fatalf("check: %v", err)
	}
	if !strings.Contains(out.String(), "rmse(discs)") || strings.Count(out.String(), "\n") < 10 {
		t.Fatalf("check printed no error table:\n%s", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"check", "-dir", dir, "-model", model, "-mobility-table", dir}, cli.Env(nil), nil, &out, &errs); err != nil {
		t.Fatalf("check -mobility-table: %v", err)
	}
	if !strings.Contains(out.String(), "with a mobility table from ") {
		t.Fatalf("check -mobility-table printed no bands with the table:\n%s", out.String())
	}
}

func TestMPCFit(t *testing.T) {
	var out, errs bytes.Buffer
	if err := run(context.Background(), []string{"mpc", "-n", "24", "-depth", "5", "-solve-at", "12", "-min-empties", "8", "-max-empties", "40"}, cli.Env(nil), nil, &out, &errs); err != nil {
		t.Fatalf("mpc: %v\n%s", err, errs.String())
	}
	if !strings.Contains(out.String(), "fit: ErrorModel{") {
		t.Fatalf("mpc printed no fit:\n%s", out.String())
	}
}

func TestBadArguments(t *testing.T) {
	// Every path is in the test's own directory: a list that got further
	// than it should touches nothing outside it.
	dir := t.TempDir()
	out, missing := filepath.Join(dir, "x"), filepath.Join(dir, "missing")
	for _, args := range [][]string{
		nil, {"train"}, {"gen"}, {"gen", "-dir", out, "-concurrency", "0"}, {"gen", "-dir", out, "-seed", "0"}, {"gen", "-dir", out, "-sel", "9"},
		{"fit"}, {"fit", "-dir", missing, "-o", out}, {"check"}, {"check", "-dir", missing}, {"check", "-dir", dir, "-tail", "0"},
		{"mpc", "-depth", "2"}, {"mpc", "-min-empties", "30", "-max-empties", "20"},
		{"fit", "-dir", dir, "-o", out, "-layout", "v9"}, {"fit", "-dir", dir, "-o", out, "-init", "embedded", "-layout", "v3"},
	} {
		if err := run(context.Background(), args, cli.Env(nil), nil, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// TestAnti: the misère game's first round starts from an evaluation of
// zeros, its fit writes an anti model, and a model of the other game is
// refused.
func TestAnti(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "anti.gz")
	var out, errs bytes.Buffer
	if err := run(context.Background(), []string{"gen", "-anti", "-dir", dir, "-chunks", "1", "-games", "3", "-depth", "1", "-solve-at", "8", "-tt-bits", "12", "-seed", "5"}, cli.Env(nil), nil, &out, &errs); err != nil {
		t.Fatalf("gen: %v\n%s", err, errs.String())
	}
	if err := run(context.Background(), []string{"fit", "-anti", "-dir", dir, "-o", model, "-epochs", "1"}, cli.Env(nil), nil, &out, &errs); err != nil {
		t.Fatalf("fit: %v", err)
	}
	m, err := stdengine.ReadModel(model)
	if err != nil || !m.Misere {
		t.Fatalf("fit -anti wrote %v (%v)", m, err)
	}
	for _, args := range [][]string{
		{"gen", "-model", model, "-dir", dir, "-seed", "5"}, // an anti model for std
		{"fit", "-dir", dir, "-o", model, "-init", model},   // std fit from an anti model
	} {
		if err := run(context.Background(), args, cli.Env(nil), nil, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
