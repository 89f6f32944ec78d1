// Package jsonline speaks the FlipSight connector's --engine protocol: one
// JSON request per line in, one {"move": …} line out, flushed, until EOF.
// Serve is the engine side; Engine is the connector side (it runs an
// engine command and asks it for moves: a wire.Engine).
package jsonline

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/wire"
)

// MaxLine bounds one request line (a 10×10 request is about 1 KiB).
const MaxLine = 1 << 20

// Serve answers requests from in on out until in ends or ctx is done. Each
// answer is written and flushed before the next line is read. A bad line
// gets a wire.ErrorReply line (the problem and its kind) and the loop goes
// on.
func Serve(ctx context.Context, eng *othello.Engine, in io.Reader, out io.Writer, logger *slog.Logger) error {
	return serve(ctx, eng, false, in, out, logger)
}

// ServePondering is Serve thinking on the opponent's time: from each
// answer until the next line arrives it ponders the position its move
// left (othello.Engine.PonderAfter), on one thread. A connector that runs
// an engine process per leg, as FlipSight's does, never has one process
// search and ponder at once.
func ServePondering(ctx context.Context, eng *othello.Engine, in io.Reader, out io.Writer, logger *slog.Logger) error {
	return serve(ctx, eng, true, in, out, logger)
}

func serve(ctx context.Context, eng *othello.Engine, ponder bool, in io.Reader, out io.Writer, logger *slog.Logger) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	stop := func() {}
	defer func() { stop() }()
	for {
		if err := ctx.Err(); err != nil {
			return nil
		}
		line, err := readLine(r)
		stop()
		stop = func() {}
		if len(line) > 0 {
			pos, d, werr := answer(ctx, eng, line, w, logger)
			if werr != nil {
				return werr
			}
			if ponder && pos != nil {
				stop = eng.PonderAfter(pos, d.Move, d.Elapsed)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			return fmt.Errorf("reading requests: %w", err)
		}
		if errors.Is(err, errLineTooLong) {
			logger.Warn("request line too long", "limit", MaxLine)
			if werr := writeLine(w, wire.ErrorReply{Error: fmt.Sprintf("request line longer than %d bytes", MaxLine), Kind: problem.TooLarge.String()}); werr != nil {
				return werr
			}
		}
	}
}

var errLineTooLong = errors.New("line too long")

// readLine returns the next non-empty line without its newline. An
// over-long line is consumed and reported as errLineTooLong.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLine {
			buf = nil
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, errLineTooLong
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		trimmed := trimSpace(buf)
		if err != nil { // EOF or a read error: return what there is
			return trimmed, err
		}
		if len(trimmed) == 0 {
			buf = buf[:0]
			continue
		}
		return trimmed, nil
	}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}

// answer answers one line; it returns the position and the decision when
// the line was a request (nil for a bad line).
func answer(ctx context.Context, eng *othello.Engine, line []byte, w *bufio.Writer, logger *slog.Logger) (*othello.Position, othello.Decision, error) {
	req, err := wire.Decode(line)
	var pos *othello.Position
	if err == nil {
		pos, err = req.Position()
	}
	if err != nil {
		kind := problem.KindOf(err)
		logger.Warn("bad request", "kind", kind, "err", err)
		return nil, othello.Decision{}, writeLine(w, wire.ErrorReply{Error: err.Error(), Kind: kind.String()})
	}
	d := eng.Choose(ctx, pos)
	logger.Debug("move", "mode", pos.State.Mode, "move", d.Move, "score", d.Score, "depth", d.Depth,
		"exact", d.Exact, "nodes", d.Nodes, "ms", d.Elapsed.Milliseconds(), "remaining_ms", pos.RemainingMs)
	return pos, d, writeLine(w, wire.Reply{Move: d.Move})
}

func writeLine(w *bufio.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("writing answer: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing answer: %w", err)
	}
	return nil
}
