// Package referee plays Giretra matches exactly as the Giretra engine
// does (call order, payloads, timeouts, bot.meta.json launch) between bot
// servers, in-process agents and our own bot, and measures them: the
// match runner with its decision timing and records (match.go, on
// giretra/players' registry and seat), the engine's validate, benchmark
// and swiss commands, the duplicate comparison and its sequential test
// (paired.go, compare.go), the losses of a player to a better-informed
// one on the same deals (losses.go), and giretra-strength's in-process
// campaigns on the same runner (strength.go).
//
// Each command is a function of a config that returns a report (Validate
// → ValidateReport, …), telling its progress through callbacks; it
// prints nothing and reads no environment. cmd/giretra-ref and
// cmd/giretra-strength are its command lines: flags, terminal and
// output.
package referee
