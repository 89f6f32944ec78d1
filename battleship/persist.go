package battleship

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// The memory file: a header, then per opponent its key, board cells,
// faded game count and three tables of float32 (little endian), least
// recently used first so that loading keeps the recency order.
const memoryMagic = "gamebot battleship memory 1\n"

// Bounds a file must respect to be read (a damaged or foreign file is
// refused whole, never half-loaded).
const (
	maxKeyLen   = 160
	maxFileOpps = 1 << 16
)

// WriteTo writes the memory in the file format.
func (m *memory) WriteTo(w io.Writer) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]string, 0, len(m.entries))
	for k := range m.entries {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Compare(m.entries[a].used, m.entries[b].used)
	})
	cw := &countWriter{w: bufio.NewWriter(w)}
	cw.write([]byte(memoryMagic))
	cw.u32(uint32(len(keys)))
	for _, k := range keys {
		e := m.entries[k]
		cw.u32(uint32(len(k)))
		cw.write([]byte(k))
		cw.u32(uint32(e.cells))
		cw.f32(e.games)
		for _, t := range [][]float32{e.heat, e.hits, e.expect} {
			for _, v := range t {
				cw.f32(v)
			}
		}
	}
	if cw.err == nil {
		cw.err = cw.w.(*bufio.Writer).Flush()
	}
	return cw.n, cw.err
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
	b   [4]byte
}

func (c *countWriter) write(p []byte) {
	if c.err != nil {
		return
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
}

func (c *countWriter) u32(v uint32) {
	binary.LittleEndian.PutUint32(c.b[:], v)
	c.write(c.b[:])
}

func (c *countWriter) f32(v float32) { c.u32(math.Float32bits(v)) }

// readMemory decodes a memory file. Every entry must be well formed (a key
// naming its board size, cells matching it, finite non-negative values):
// anything else is an error and nothing is returned.
func readMemory(r io.Reader) (map[string]*oppEntry, []string, error) {
	br := bufio.NewReader(r)
	magic := make([]byte, len(memoryMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != memoryMagic {
		return nil, nil, errors.New("not a battleship memory file")
	}
	var b [4]byte
	u32 := func() (uint32, error) {
		_, err := io.ReadFull(br, b[:])
		return binary.LittleEndian.Uint32(b[:]), err
	}
	n, err := u32()
	if err != nil || n > maxFileOpps {
		return nil, nil, fmt.Errorf("memory file: bad opponent count %d (%v)", n, err)
	}
	entries := make(map[string]*oppEntry, n)
	order := make([]string, 0, n)
	for i := range n {
		kl, err := u32()
		if err != nil || kl > maxKeyLen {
			return nil, nil, fmt.Errorf("memory file: entry %d: bad key length", i)
		}
		kb := make([]byte, kl)
		if _, err := io.ReadFull(br, kb); err != nil {
			return nil, nil, fmt.Errorf("memory file: entry %d: %w", i, err)
		}
		key := string(kb)
		cells, err := u32()
		if err != nil {
			return nil, nil, fmt.Errorf("memory file: entry %d: %w", i, err)
		}
		if w, h, ok := keySize(key); !ok || uint32(w*h) != cells {
			return nil, nil, fmt.Errorf("memory file: entry %d: key %q does not match %d cells", i, key, cells)
		}
		if _, dup := entries[key]; dup {
			return nil, nil, fmt.Errorf("memory file: entry %d: key %q twice", i, key)
		}
		vals := make([]float32, 1+3*cells)
		for j := range vals {
			v, err := u32()
			f := math.Float32frombits(v)
			if err != nil || !(f >= 0) || math.IsInf(float64(f), 0) {
				return nil, nil, fmt.Errorf("memory file: entry %d: bad value", i)
			}
			vals[j] = f
		}
		c := int(cells)
		t := vals[1:]
		entries[key] = &oppEntry{cells: c, games: vals[0], heat: t[:c:c], hits: t[c : 2*c : 2*c], expect: t[2*c:]}
		order = append(order, key)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, nil, errors.New("memory file: trailing data")
	}
	return entries, order, nil
}

// keySize reads the board size a statsKey starts with ("WxH|name").
func keySize(key string) (w, h int, ok bool) {
	i := 0
	num := func() (int, bool) {
		v, start := 0, i
		for i < len(key) && key[i] >= '0' && key[i] <= '9' && i-start < 3 {
			v = v*10 + int(key[i]-'0')
			i++
		}
		return v, i > start && v >= 1 && v <= MaxSide
	}
	if w, ok = num(); !ok || i >= len(key) || key[i] != 'x' {
		return 0, 0, false
	}
	i++
	if h, ok = num(); !ok || i >= len(key) || key[i] != '|' {
		return 0, 0, false
	}
	return w, h, true
}

// load replaces the memory's content with a file's (within the bounds:
// the most recently used entries are kept).
func (m *memory) load(r io.Reader) error {
	entries, order, err := readMemory(r)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries = make(map[string]*oppEntry)
	m.cells = 0
	for _, k := range order {
		e := entries[k]
		if e.cells > m.maxCells {
			continue
		}
		for len(m.entries) > 0 && (len(m.entries) >= m.maxEntries || m.cells+e.cells > m.maxCells) {
			m.evict()
		}
		m.clock++
		e.used = m.clock
		m.entries[k] = e
		m.cells += e.cells
	}
	return nil
}

// LoadMemory replaces what the bot remembers of its opponents with the
// content of a file written by SaveMemory. A missing file is not an error
// (nothing is remembered yet); a damaged one is, and changes nothing.
func (b *Bot) LoadMemory(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	return b.mem.load(f)
}

// SaveMemory writes what the bot remembers of its opponents to path
// (through a temporary file renamed over it, so a crash never leaves a
// half-written file).
func (b *Bot) SaveMemory(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := b.mem.WriteTo(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// autosave writes Options.MemoryFile after a game starts, at most once per
// saveEvery, in the background and never two at once.
func (b *Bot) autosave() {
	if b.opt.MemoryFile == "" {
		return
	}
	now := time.Now()
	b.saveMu.Lock()
	if b.saving || now.Sub(b.savedAt) < saveEvery {
		b.saveMu.Unlock()
		return
	}
	b.saving, b.savedAt = true, now
	b.saves.Add(1)
	b.saveMu.Unlock()
	go func() {
		defer b.saves.Done()
		err := b.SaveMemory(b.opt.MemoryFile)
		b.saveMu.Lock()
		b.saving, b.saveErr = false, err
		b.saveMu.Unlock()
	}()
}

const saveEvery = 30 * time.Second

// Flush waits for a background save in flight, then writes
// Options.MemoryFile (if set) with the memory as it is now: the last save,
// at shutdown, so that an older background save cannot land after it.
func (b *Bot) Flush() error {
	b.saves.Wait()
	if b.opt.MemoryFile == "" {
		return nil
	}
	return b.SaveMemory(b.opt.MemoryFile)
}
