// Package stdengine is the engine of standard 8×8 Othello (the std mode):
// an evaluation by patterns whose indices are updated move by move, a
// selective midgame search (multi-ProbCut with an error model fitted from
// its own searches), and a selective and an exact endgame. As
// othello/doc.go says, it plays std; anti with an anti model
// (Model.Misere); and reversi's middle game, to a depth at which neither
// side can meet its 32-disc limit, where reversi is std. The othello
// package hands it those positions and sets its limits from the clock;
// othello/train fits its evaluation. With Limits.Threads the search runs
// on several goroutines sharing its table (parallel.go). (Named stdengine,
// not std, so that call sites do not read as the standard library.)
//
// Boards are two bitboards from the side to move's view (othello/bitboard:
// bit i is square i, a1 = 0, h1 = 7, a2 = 8, …, h8 = 63). Scores are final
// disc differences for the side to move, in whole discs (−64..64); the
// evaluation works in finer units (EvalScale per disc) and is rounded.
package stdengine
