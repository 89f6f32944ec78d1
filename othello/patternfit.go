package othello

import (
	"errors"
	"io"
)

// The trained evaluation's layout, exported for fitting it (othello/train)
// and nothing else: the engine plays with the embedded model.

// PatternInstances is the number of pattern instances read on a board.
const PatternInstances = numPatInst

// PatternStages is the number of game stages with their own weights.
const PatternStages = patStages

// DiscScale is the evaluation's units per disc.
const DiscScale = discScale

// PatternStageLen is the number of weights of one stage: the pattern
// tables, then the bias and the mobility weight (PatternScalars).
func PatternStageLen() int { return patStageLen }

// PatternScalars are the indices, within a stage, of the bias and the
// mobility (mover's moves − opponent's moves) weights.
func PatternScalars() (bias, mobility int) {
	return patOffset[numPatKinds] + scalarBias, patOffset[numPatKinds] + scalarMob
}

// PatternStage is the stage of a position with that many empties.
func PatternStage(empties int) int { return patStage(empties) }

// PatternIndices reads the pattern instances of a position (mover,
// opponent; a1 = bit 0) as indices into one stage's weights.
func PatternIndices(mover, opponent uint64, idx *[PatternInstances]int32) {
	patIndices(mover, opponent, idx)
}

// MirrorImage is a bitboard reflected top to bottom.
func MirrorImage(b uint64) uint64 { return flipVert8(b) }

// EncodePatternModel writes weights (PatternStages × PatternStageLen, in
// score units) in the embedded model's file format.
func EncodePatternModel(w io.Writer, weights []int16) error { return encodePatModel(w, weights) }

// PatternModel is a decoded model file.
type PatternModel struct{ m *patModel }

// DecodePatternModel reads a model file; nil bytes mean the embedded
// model.
func DecodePatternModel(b []byte) (*PatternModel, error) {
	if b == nil {
		if m := stdModel(); m != nil {
			return &PatternModel{m}, nil
		}
		return nil, errors.New("no embedded pattern model")
	}
	m, err := decodePatModel(b)
	if err != nil {
		return nil, err
	}
	return &PatternModel{m}, nil
}

// Eval is the model's score of a position for the mover, in discs.
func (m *PatternModel) Eval(mover, opponent uint64, empties, mobility int) float64 {
	return float64(m.m.eval(mover, opponent, empties, mobility)) / discScale
}
