package train

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"sort"

	"github.com/botarena/gamebot/internal/chunks"
	"github.com/botarena/gamebot/othello/bitboard"
)

// A GameRecord is one self-play game as it is kept: the squares played
// in order (a pass is not written: a side with no move passes), which of
// them were random, and for every searched move the search's score of
// the position before it (discs, for the side to move) and whether that
// score is exact. The final result follows from the moves.
//
// On disk a game is a byte a move and a byte a searched move's score:
//
//	n        the number of moves (1 … 60)
//	n bytes  square | 0x40 exact | 0x80 random
//	k bytes  the k searched moves' scores, int8
//
// so a million positions take about 2.3 MB, less than 2 gzip'd.
type GameRecord struct {
	Moves []Ply
}

// Ply is one move of a GameRecord.
type Ply struct {
	Square int8 // 0 … 63, a1 = 0
	Random bool // played at random, not searched: no score
	Exact  bool // Score is the proven final score
	Score  int8 // the search's score, when not Random
}

const (
	plyExact  = 0x40
	plyRandom = 0x80
)

// LastRandom is the index of the last random move (−1: none). The game's
// result says something of a position only after it: before, a random
// move still to come can change the result.
func (g *GameRecord) LastRandom() int {
	for i := len(g.Moves) - 1; i >= 0; i-- {
		if g.Moves[i].Random {
			return i
		}
	}
	return -1
}

// Position is one position of a replayed game.
type Position struct {
	P, O  uint64 // mover, opponent
	Black bool   // black is to move
}

// Replay plays the game's moves from the start, calling f before each
// move with the position the move is played in; it returns the final
// disc difference for black, or an error if a move is illegal or the
// game does not end where the record does.
func (g *GameRecord) Replay(f func(i int, pos Position)) (int, error) {
	p, o, black := uint64(1<<28|1<<35), uint64(1<<27|1<<36), true
	for i, m := range g.Moves {
		if bitboard.Moves(p, o) == 0 {
			if bitboard.Moves(o, p) == 0 {
				return 0, fmt.Errorf("move %d: the game is over", i+1)
			}
			p, o, black = o, p, !black
		}
		sq := int(m.Square)
		if sq < 0 || sq > 63 || bitboard.Moves(p, o)&(1<<uint(sq)) == 0 {
			return 0, fmt.Errorf("move %d: %d is not a legal move", i+1, sq)
		}
		if f != nil {
			f(i, Position{p, o, black})
		}
		fl := bitboard.Flips(sq, p, o)
		p, o, black = o&^fl, p|fl|1<<uint(sq), !black
	}
	if bitboard.Moves(p, o) != 0 || bitboard.Moves(o, p) != 0 {
		return 0, fmt.Errorf("the game stops after %d moves before its end", len(g.Moves))
	}
	d := bits.OnesCount64(p) - bits.OnesCount64(o)
	if !black {
		d = -d
	}
	return d, nil
}

// Samples turns a game into labelled positions: every searched move's
// position with its score, labelled with the final result (for its
// mover; the misère game's result when misere) where no random move
// follows it, and with the score alone before that (Final is then the
// score and HasFinal false).
func (g *GameRecord) Samples(misere bool, out []Sample) ([]Sample, error) {
	last := g.LastRandom()
	start := len(out)
	firstLabelled := -1 // the first sample of out after the last random move
	final, err := g.Replay(func(i int, pos Position) {
		m := g.Moves[i]
		if m.Random {
			return
		}
		if i > last && firstLabelled < 0 {
			firstLabelled = len(out)
		}
		out = append(out, Sample{
			P: pos.P, O: pos.O, Empties: int8(64 - bits.OnesCount64(pos.P|pos.O)),
			Score: m.Score, Exact: m.Exact, Final: boolSign(pos.Black),
		})
	})
	if err != nil {
		return out[:start], err
	}
	if misere {
		final = -final
	}
	if firstLabelled < 0 {
		firstLabelled = len(out)
	}
	for k := start; k < len(out); k++ {
		x := &out[k]
		if k < firstLabelled {
			x.Final = x.Score
			continue
		}
		x.Final *= int8(final)
	}
	return out, nil
}

func boolSign(b bool) int8 {
	if b {
		return 1
	}
	return -1
}

// AppendGame appends the game's bytes.
func AppendGame(b []byte, g *GameRecord) []byte {
	b = append(b, byte(len(g.Moves)))
	for _, m := range g.Moves {
		c := byte(m.Square)
		if m.Random {
			c |= plyRandom
		} else if m.Exact {
			c |= plyExact
		}
		b = append(b, c)
	}
	for _, m := range g.Moves {
		if !m.Random {
			b = append(b, byte(m.Score))
		}
	}
	return b
}

// ReadGame reads one game from the front of b and returns the rest. It
// checks the bytes' shape (squares, flags, lengths), not the rules:
// Replay does.
func ReadGame(b []byte) (GameRecord, []byte, error) {
	if len(b) == 0 {
		return GameRecord{}, nil, io.EOF
	}
	n := int(b[0])
	if n < 1 || n > 60 || len(b) < 1+n {
		return GameRecord{}, nil, errors.New("games: bad move count or truncated moves")
	}
	g := GameRecord{Moves: make([]Ply, n)}
	searched := 0
	for i, c := range b[1 : 1+n] {
		if c&plyRandom != 0 && c&plyExact != 0 {
			return GameRecord{}, nil, fmt.Errorf("games: move %d is both random and exact", i+1)
		}
		g.Moves[i] = Ply{Square: int8(c & 0x3f), Random: c&plyRandom != 0, Exact: c&plyExact != 0}
		if !g.Moves[i].Random {
			searched++
		}
	}
	b = b[1+n:]
	if len(b) < searched {
		return GameRecord{}, nil, errors.New("games: truncated scores")
	}
	for i := range g.Moves {
		if g.Moves[i].Random {
			continue
		}
		s := int8(b[0])
		if s < -64 || s > 64 {
			return GameRecord{}, nil, fmt.Errorf("games: score %d out of range", s)
		}
		g.Moves[i].Score, b = s, b[1:]
	}
	return g, b, nil
}

// ChunkHeader says how a chunk's games were made: enough to make them
// again (the seed, the chunk's number, the options and the model).
type ChunkHeader struct {
	Seed    uint64     `json:"seed"`
	Chunk   int        `json:"chunk"`
	Games   int        `json:"games"`
	Misere  bool       `json:"misere,omitempty"`
	Model   string     `json:"model"` // the model's digest (stdengine.Model.Digest)
	Options GenOptions `json:"options"`
}

const gamesMagic = "OTGAMES1\n"

// WriteGames writes a chunk: the magic line, the header as one JSON line,
// then the games' bytes, all gzip'd (at the default level: the best one
// costs several times the time for a few per cent).
func WriteGames(w io.Writer, h ChunkHeader, games []GameRecord) error {
	hj, err := json.Marshal(h)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, len(gamesMagic)+len(hj)+1+len(games)*110)
	buf = append(append(append(buf, gamesMagic...), hj...), '\n')
	for i := range games {
		buf = AppendGame(buf, &games[i])
	}
	zw := gzip.NewWriter(w)
	if _, err := zw.Write(buf); err != nil {
		return err
	}
	return zw.Close()
}

// maxChunkBytes bounds what a chunk may inflate to: a chunk of the
// default size is about a hundredth of it.
const maxChunkBytes = 256 << 20

// ReadGames reads a chunk written by WriteGames. Its games' shapes are
// checked; their rules are checked by Replay (and Samples).
func ReadGames(r io.Reader) (ChunkHeader, []GameRecord, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return ChunkHeader{}, nil, fmt.Errorf("games: not a gzip'd chunk: %w", err)
	}
	b, err := io.ReadAll(io.LimitReader(zr, maxChunkBytes+1))
	if err != nil {
		return ChunkHeader{}, nil, fmt.Errorf("games: %w", err)
	}
	if len(b) > maxChunkBytes {
		return ChunkHeader{}, nil, errors.New("games: chunk too large")
	}
	if !bytes.HasPrefix(b, []byte(gamesMagic)) {
		return ChunkHeader{}, nil, errors.New("games: not a games chunk")
	}
	b = b[len(gamesMagic):]
	nl := bytes.IndexByte(b, '\n')
	if nl < 0 {
		return ChunkHeader{}, nil, errors.New("games: no header line")
	}
	var h ChunkHeader
	if err := json.Unmarshal(b[:nl], &h); err != nil {
		return ChunkHeader{}, nil, fmt.Errorf("games: header: %w", err)
	}
	b = b[nl+1:]
	var games []GameRecord
	for len(b) > 0 {
		var g GameRecord
		g, b, err = ReadGame(b)
		if err != nil {
			return ChunkHeader{}, nil, fmt.Errorf("game %d: %w", len(games)+1, err)
		}
		games = append(games, g)
	}
	if len(games) != h.Games {
		return ChunkHeader{}, nil, fmt.Errorf("games: %d games, the header says %d", len(games), h.Games)
	}
	return h, games, nil
}

const gamesSuffix = ".games.gz"

// GamesName is the file of chunk i in dir.
func GamesName(dir string, i int) string {
	return chunks.Name(dir, i, gamesSuffix)
}

// ReadGameDir reads the chunks of games in dir, in chunk order, and
// returns their samples (Samples of every game, each game replayed and
// checked) with the number of chunks and games read: every game, or the
// first maxGames when it is positive (the same data a run that made only
// those games made).
func ReadGameDir(dir string, maxGames int) (samples []Sample, chunks, games int, err error) {
	names, err := filepath.Glob(filepath.Join(dir, "chunk-*"+gamesSuffix))
	if err != nil {
		return nil, 0, 0, err
	}
	sort.Strings(names)
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return nil, 0, 0, err
		}
		h, gs, err := ReadGames(bufio.NewReader(f))
		f.Close()
		if err != nil {
			return nil, 0, 0, fmt.Errorf("%s: %w", n, err)
		}
		chunks++
		for i := range gs {
			if maxGames > 0 && games == maxGames {
				return samples, chunks, games, nil
			}
			if samples, err = gs[i].Samples(h.Misere, samples); err != nil {
				return nil, 0, 0, fmt.Errorf("%s: game %d: %w", n, i+1, err)
			}
			games++
		}
	}
	return samples, chunks, games, nil
}

// ReadGameDirs reads the chunks of dirs, in order: the first maxGames
// games of each (0: all). A folder without a chunk is an error: a
// misspelt folder would otherwise fit on nothing.
func ReadGameDirs(dirs []string, maxGames int) ([]Sample, error) {
	var all []Sample
	for _, d := range dirs {
		s, n, _, err := ReadGameDir(d, maxGames)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("no chunk files in %s", d)
		}
		all = append(all, s...)
	}
	return all, nil
}
