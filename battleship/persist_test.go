package battleship

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestMemoryRoundTrip: what is saved is what is loaded (values, recency
// order), and a bot built on the file plays with the same prior.
func TestMemoryRoundTrip(t *testing.T) {
	bot := NewBot(Options{Candidates: 1})
	r := std10
	for _, opp := range []string{"a", "b&amp;c", "é"} {
		playHis(bot, opp, r, openingShots(r, 12))
	}
	bot.PlayTurn("b&amp;c", r, nil, nil, 1) // b&c most recent
	path := filepath.Join(t.TempDir(), "mem")
	if err := bot.SaveMemory(path); err != nil {
		t.Fatal(err)
	}
	again := NewBot(Options{Candidates: 1, MemoryFile: path})
	if err := again.MemoryErr(); err != nil {
		t.Fatal(err)
	}
	if again.Len() != 3 || again.MemoryBytes() != bot.MemoryBytes() {
		t.Fatalf("loaded %d opponents (%d bytes), saved %d (%d)", again.Len(), again.MemoryBytes(), bot.Len(), bot.MemoryBytes())
	}
	for k, e := range bot.mem.entries {
		f := again.mem.entries[k]
		if f == nil || f.games != e.games || !equalF32(f.heat, e.heat) || !equalF32(f.hits, e.hits) || !equalF32(f.expect, e.expect) {
			t.Errorf("entry %q differs after the round trip", k)
		}
	}
	// Recency survives: with room for 2, loading keeps the 2 most recent.
	small := NewBot(Options{Candidates: 1, MaxOpponents: 2})
	if err := small.LoadMemory(path); err != nil {
		t.Fatal(err)
	}
	if small.mem.entries[statsKey("b&amp;c", r)] == nil || small.mem.entries[statsKey("a", r)] != nil {
		t.Errorf("kept %v", small.mem.entries)
	}
	// A missing file is an empty memory, not an error.
	if err := NewBot(Options{MemoryFile: filepath.Join(t.TempDir(), "none")}).MemoryErr(); err != nil {
		t.Errorf("missing file: %v", err)
	}
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMemoryFileRejects: damaged or foreign files are refused whole and
// leave the memory as it was.
func TestMemoryFileRejects(t *testing.T) {
	bot := NewBot(Options{Candidates: 1})
	playHis(bot, "a", std10, openingShots(std10, 5))
	var good bytes.Buffer
	if _, err := bot.mem.WriteTo(&good); err != nil {
		t.Fatal(err)
	}
	g := good.Bytes()
	keyAt := len(memoryMagic) + 8 // after the count and the key length
	tests := map[string][]byte{
		"empty":       nil,
		"magic":       append([]byte("gamebot battleship memory 2\n"), g[len(memoryMagic):]...),
		"truncated":   g[:len(g)-3],
		"trailing":    append(append([]byte{}, g...), 0),
		"bad key":     append(append(append([]byte{}, g[:keyAt]...), '9'), g[keyAt+1:]...),
		"NaN":         append(append([]byte{}, g[:len(g)-4]...), 0, 0, 0xc0, 0x7f),
		"negative":    append(append([]byte{}, g[:len(g)-4]...), 0, 0, 0x80, 0xbf),
		"huge count":  append(append([]byte(memoryMagic), 0xff, 0xff, 0xff, 0xff), g[len(memoryMagic)+4:]...),
		"long key":    append(append(append([]byte(memoryMagic), 1, 0, 0, 0), 0xff, 0, 0, 0), g[keyAt:]...),
		"wrong cells": func() []byte { b := append([]byte{}, g...); b[keyAt+len("10x10|a")] = 99; return b }(),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "mem")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			b := NewBot(Options{Candidates: 1})
			playHis(b, "z", std10, openingShots(std10, 3))
			if err := b.LoadMemory(path); err == nil {
				t.Fatal("accepted")
			}
			if b.Len() != 1 || b.mem.entries[statsKey("z", std10)] == nil {
				t.Errorf("a refused file changed the memory")
			}
		})
	}
	if err := NewBot(Options{}).mem.load(bytes.NewReader(g)); err != nil {
		t.Errorf("the good file: %v", err)
	}
}

// FuzzLoadMemory: any bytes either load into a memory that respects its
// bounds and writes back identically, or are refused.
func FuzzLoadMemory(f *testing.F) {
	bot := NewBot(Options{Candidates: 1})
	playHis(bot, "a", Rules{W: 3, H: 2, Fleet: fleetOf(1)}, []Strike{{X: 1, Y: 1, OK: true}})
	var good bytes.Buffer
	bot.mem.WriteTo(&good)
	f.Add(good.Bytes())
	f.Add([]byte(memoryMagic))
	f.Add([]byte(memoryMagic + "\x01\x00\x00\x00\x07\x00\x00\x001x1|abc\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := newMemory(4, 1000)
		if err := m.load(bytes.NewReader(data)); err != nil {
			return
		}
		if len(m.entries) > 4 || m.cells > 1000 {
			t.Fatalf("bounds: %d entries, %d cells", len(m.entries), m.cells)
		}
		var out bytes.Buffer
		if _, err := m.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		m2 := newMemory(4, 1000)
		if err := m2.load(bytes.NewReader(out.Bytes())); err != nil {
			t.Fatalf("a written memory does not load: %v", err)
		}
		var out2 bytes.Buffer
		m2.WriteTo(&out2)
		if !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatal("write, load, write differs")
		}
	})
}

// FuzzReadMemory: any file is read without a panic and within its bounds,
// and a file that is accepted survives load → save → read unchanged.
func FuzzReadMemory(f *testing.F) {
	bot := NewBot(Options{Candidates: 1})
	playHis(bot, "seed", std10, openingShots(std10, 12))
	playHis(bot, "other", Rules{W: 3, H: 2, Fleet: fleetOf(1)}, []Strike{{X: 1, Y: 1, OK: true}})
	var good bytes.Buffer
	if _, err := bot.mem.WriteTo(&good); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())
	f.Add([]byte(memoryMagic))
	f.Add(good.Bytes()[:good.Len()/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, order, err := readMemory(bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(entries) != len(order) {
			t.Fatalf("%d entries, %d in order", len(entries), len(order))
		}
		m := newMemory(1<<20, 1<<30)
		if err := m.load(bytes.NewReader(data)); err != nil {
			t.Fatalf("read accepts what load refuses: %v", err)
		}
		var out bytes.Buffer
		if _, err := m.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		again, _, err := readMemory(&out)
		if err != nil {
			t.Fatalf("a saved memory does not read back: %v", err)
		}
		for k, e := range entries {
			g := again[k]
			if g == nil || g.games != e.games || !equalF32(g.heat, e.heat) || !equalF32(g.hits, e.hits) || !equalF32(g.expect, e.expect) {
				t.Fatalf("entry %q changed in the round trip", k)
			}
		}
	})
}

// TestFlush: the shutdown save writes what was learnt since the start
// (a background save would wait 30 s), and a new bot reads it back.
func TestFlush(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mem")
	bot := NewBot(Options{Candidates: 1, MemoryFile: path})
	playHis(bot, "a", std10, openingShots(std10, 5))
	if _, err := os.Stat(path); err == nil {
		t.Fatal("saved before 30 s")
	}
	if err := bot.Flush(); err != nil {
		t.Fatal(err)
	}
	again := NewBot(Options{Candidates: 1, MemoryFile: path})
	if err := again.MemoryErr(); err != nil || again.Len() != 1 {
		t.Errorf("after Flush a new bot holds %d opponents (%v)", again.Len(), err)
	}
	if err := NewBot(Options{}).Flush(); err != nil {
		t.Errorf("Flush without a file: %v", err)
	}
}
