// Package train makes the data of the Giretra bid evaluator
// (giretra/bidmodel) and fits it: bid decisions of generated deals, each
// offered action valued on the true deal (bot.GenBidDeal), in numbered
// chunk files that depend only on the seed and their number
// (internal/chunks), so the data can be made again byte for byte, resumed,
// or spread over machines.
package train

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/internal/chunks"
)

// Header heads a chunk file: everything its decisions depend on.
type Header struct {
	Seed    uint64            `json:"seed"`
	Chunk   int               `json:"chunk"`
	Deals   int               `json:"deals"`
	Options bot.BidGenOptions `json:"options"`
}

const (
	magic  = "giretra-bids 2\n"
	suffix = ".bids.gz"
	// maxHeader bounds the header line a reader accepts.
	maxHeader = 4096
)

// Name is chunk i's file in dir.
func Name(dir string, i int) string { return chunks.Name(dir, i, suffix) }

// GenChunk deals h.Deals deals (each seeded by the seed, the chunk's
// number and its own) and writes their decisions to Name(dir, h.Chunk),
// unless that file exists. It returns the number of decisions written.
func GenChunk(ctx context.Context, dir string, h Header) (int, error) {
	name := Name(dir, h.Chunk)
	if chunks.Exists(name) {
		return 0, nil
	}
	var decs []bot.BidDecision
	for d := range h.Deals {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		rng := rand.New(rand.NewPCG(h.Seed, uint64(h.Chunk)*1_000_003+uint64(d)))
		decs = append(decs, bot.GenBidDeal(rng, h.Options)...)
	}
	err := chunks.WriteAtomic(dir, name, func(w io.Writer) error { return Write(w, h, decs) })
	if err != nil {
		return 0, err
	}
	return len(decs), nil
}

// GenConfig is a generation: chunks From … To−1 of Deals deals each.
type GenConfig struct {
	Dir            string
	From, To       int
	Deals          int
	Seed           uint64
	Concurrency    int
	Options        bot.BidGenOptions
	ProgressChunks func(chunks.Done)
}

// Generate writes the chunks of cfg that are not there yet.
func Generate(ctx context.Context, cfg GenConfig) (chunks.Report, error) {
	if cfg.Dir == "" || cfg.Seed == 0 || cfg.From < 0 || cfg.To <= cfg.From || cfg.Deals < 1 || cfg.Deals > 1<<20 ||
		!(cfg.Options.Explore >= 0 && cfg.Options.Explore <= 1) || !(cfg.Options.Long >= 0 && cfg.Options.Long <= 1) {
		return chunks.Report{}, errors.New("gen: a directory, a seed, a range of chunks, deals ≥ 1, and explore and long in 0…1 are required")
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return chunks.Report{}, err
	}
	return chunks.Run(ctx, cfg.From, cfg.To, cfg.Concurrency, func() chunks.Worker {
		return func(ctx context.Context, i int) (int, error) {
			return GenChunk(ctx, cfg.Dir, Header{Seed: cfg.Seed, Chunk: i, Deals: cfg.Deals, Options: cfg.Options})
		}
	}, cfg.ProgressChunks)
}

// Write writes a chunk: the magic line, the header as a JSON line, then
// per decision the seat, the dealer, the seats' policies (two bits each),
// the hand, the match's target and
// points, the negotiation so far (a byte an action: type and mode), and
// each offered action with its value (float32), little-endian, gzipped.
func Write(w io.Writer, h Header, decs []bot.BidDecision) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	hj, err := json.Marshal(h)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	bw.WriteString(magic)
	bw.Write(hj)
	bw.WriteByte('\n')
	var buf []byte
	for i := range decs {
		d := &decs[i]
		if len(d.Neg.Actions) > 255 || len(d.Valid) > 255 || len(d.Value) != len(d.Valid) {
			return errors.New("write: a decision too long, or values unlike its options")
		}
		kinds := byte(0)
		for p, k := range d.Kinds {
			if k > 2 {
				return errors.New("write: a seat's policy is unknown")
			}
			kinds |= k << (2 * p)
		}
		buf = append(buf[:0], byte(d.Seat), byte(d.Neg.Dealer), kinds)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(d.Hand))
		buf = binary.LittleEndian.AppendUint16(buf, uint16(d.Match.TargetScore))
		buf = binary.LittleEndian.AppendUint16(buf, uint16(d.Match.Points[0]))
		buf = binary.LittleEndian.AppendUint16(buf, uint16(d.Match.Points[1]))
		buf = append(buf, byte(len(d.Neg.Actions)))
		for _, a := range d.Neg.Actions {
			buf = append(buf, actionByte(a))
		}
		buf = append(buf, byte(len(d.Valid)))
		for j, a := range d.Valid {
			buf = append(buf, actionByte(a))
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(d.Value[j])))
		}
		bw.Write(buf)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

func actionByte(a giretra.Action) byte {
	m := byte(a.Mode)
	if a.Type == giretra.Accept || a.Mode > giretra.AllTrumps {
		m = 15
	}
	return byte(a.Type)<<4 | m
}

// Read reads a chunk written by Write. Every decision is checked: its
// negotiation must replay by the rules, and its actions must be the ones
// the rules offer there, in the engine's order.
func Read(r io.Reader) (Header, []bot.BidDecision, error) {
	var h Header
	zr, err := gzip.NewReader(r)
	if err != nil {
		return h, nil, fmt.Errorf("bids: %w", err)
	}
	br := bufio.NewReader(zr)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(br, head); err != nil || string(head) != magic {
		return h, nil, errors.New("bids: not a bids chunk")
	}
	line, err := br.ReadSlice('\n')
	if err != nil || len(line) > maxHeader {
		return h, nil, errors.New("bids: no header line")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return h, nil, fmt.Errorf("bids: header: %w", err)
	}
	var out []bot.BidDecision
	for {
		d, err := readDecision(br)
		if err == io.EOF {
			return h, out, nil
		}
		if err != nil {
			return h, nil, fmt.Errorf("bids: decision %d: %w", len(out), err)
		}
		out = append(out, d)
	}
}

var errShort = errors.New("truncated")

func readDecision(br *bufio.Reader) (bot.BidDecision, error) {
	var d bot.BidDecision
	var fixed [14]byte
	if n, err := io.ReadFull(br, fixed[:]); err != nil {
		if n == 0 && err == io.EOF {
			return d, io.EOF
		}
		return d, errShort
	}
	if fixed[0] > 3 || fixed[1] > 3 {
		return d, errors.New("bad seat or dealer")
	}
	d.Seat, d.Neg.Dealer = giretra.Position(fixed[0]), giretra.Position(fixed[1])
	for p := range d.Kinds {
		d.Kinds[p] = fixed[2] >> (2 * p) & 3
		if d.Kinds[p] > 2 {
			return d, errors.New("a seat's policy is unknown")
		}
	}
	d.Hand = giretra.Set(binary.LittleEndian.Uint32(fixed[3:]))
	d.Match.TargetScore = int(binary.LittleEndian.Uint16(fixed[7:]))
	d.Match.Points[0] = int(binary.LittleEndian.Uint16(fixed[9:]))
	d.Match.Points[1] = int(binary.LittleEndian.Uint16(fixed[11:]))
	d.Match.Dealer, d.Match.Winner = d.Neg.Dealer, giretra.NoTeam
	if d.Hand.Count() != 5 || d.Match.TargetScore == 0 {
		return d, errors.New("not five cards, or no target")
	}
	st := giretra.NewBidding(d.Neg.Dealer)
	n := int(fixed[13])
	for i := range n {
		b, err := br.ReadByte()
		if err != nil {
			return d, errShort
		}
		a := fromByte(b, st.CurrentPlayer)
		if err := st.Apply(i, a); err != nil {
			return d, fmt.Errorf("negotiation: %w", err)
		}
		d.Neg.Actions = append(d.Neg.Actions, a)
	}
	if st.CurrentPlayer != d.Seat {
		return d, errors.New("not the seat's turn")
	}
	want := st.ValidActions(d.Neg.Actions)
	nv, err := br.ReadByte()
	if err != nil {
		return d, errShort
	}
	if int(nv) != len(want) || nv < 2 {
		return d, errors.New("options unlike the rules'")
	}
	var rec [5]byte
	for i := range int(nv) {
		if _, err := io.ReadFull(br, rec[:]); err != nil {
			return d, errShort
		}
		a := fromByte(rec[0], d.Seat)
		if a != want[i] {
			return d, errors.New("options unlike the rules'")
		}
		v := float64(math.Float32frombits(binary.LittleEndian.Uint32(rec[1:])))
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return d, errors.New("a value is not finite")
		}
		d.Valid = append(d.Valid, a)
		d.Value = append(d.Value, v)
	}
	return d, nil
}

func fromByte(b byte, p giretra.Position) giretra.Action {
	a := giretra.Action{Type: giretra.ActionType(b >> 4), Player: p, Mode: giretra.Mode(b & 15)}
	if a.Mode == 15 {
		a.Mode = giretra.NoMode
	}
	return a
}

// ReadDir reads the chunks of dir in order: the first maxChunks when it
// is positive, skipping the first skip.
func ReadDir(dir string, skip, maxChunks int) ([]bot.BidDecision, int, error) {
	names, err := filepath.Glob(filepath.Join(dir, chunks.Prefix+"*"+suffix))
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(names)
	names = names[min(skip, len(names)):]
	if maxChunks > 0 && len(names) > maxChunks {
		names = names[:maxChunks]
	}
	var all []bot.BidDecision
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, err
		}
		_, decs, err := Read(f)
		f.Close()
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", name, err)
		}
		all = append(all, decs...)
	}
	return all, len(names), nil
}
