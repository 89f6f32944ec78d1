package giretra

import (
	"fmt"
	"runtime/debug"
)

// The fallback answers: what a player answers when its strategy fails.
// Each is among the offered options whatever they are; the bot and the
// server both use these, so that a failure answers the same everywhere.

// FallbackCut is a valid cut. The deck is reshuffled every deal, so one
// cut is as good as another.
func FallbackCut() Cut { return Cut{Position: 16, FromTop: true} }

// FallbackAction is the engine's own fallback: Accept if offered, else the
// first option. valid must not be empty.
func FallbackAction(valid []Action) Action {
	for _, a := range valid {
		if a.Type == Accept {
			return a
		}
	}
	return valid[0]
}

// FallbackCard is the first valid card. valid must not be empty.
func FallbackCard(valid Set) Card { return valid.First() }

// PanicError is a panic recovered in a decision: the value and the stack
// where it happened. A player returns it with its fallback answer, so the
// caller can both answer and report the bug.
type PanicError struct {
	Value any
	stack []byte
}

// NewPanicError captures the stack of a recovered panic; call it in the
// deferred function that recovered.
func NewPanicError(v any) *PanicError { return &PanicError{Value: v, stack: debug.Stack()} }

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Stack is where the panic happened.
func (e *PanicError) Stack() []byte { return e.stack }
