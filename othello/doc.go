// Package othello is the rules of the five FlipSight game modes (std,
// anti, grand, octagon, reversi) and Engine, which hands each mode to the
// code that plays it and plans its time from the clock. It has no network
// code; the HTTP handler, the JSON-line engine command, the match runner
// and the FlipSight connector sit on top of it.
//
// Which code plays each mode (Engine.Choose):
//
//	mode     engine                                  evaluation
//	std      othello/stdengine                       the embedded pattern model (stdengine.Embedded)
//	anti     othello/stdengine                       the embedded anti model (stdengine.EmbeddedAnti);
//	         othello/variants (Searcher8)            hand-written, with StdSettings.GenericAnti
//	reversi  othello/stdengine after the centre      the embedded std model
//	         phase, to a depth at which neither side
//	         can meet its 32-disc limit; the centre
//	         phase and the endings (exact) by
//	         othello/variants (Searcher8)            hand-written
//	grand    othello/variants (Searcher10)           hand-written
//	octagon  othello/variants (Searcher10)           hand-written, with the blocked squares
//
// Both engines build on the board primitives of othello/bitboard and on
// nothing else of each other; the generic searcher never plays std.
package othello
