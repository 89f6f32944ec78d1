// Package referee plays Giretra matches exactly as the Giretra engine
// does (call order, payloads, timeouts, bot.meta.json launch) between bot
// servers, in-process agents and our own bot, and measures them: the
// match runner with its decision timing and records (match.go), the bot
// launcher (launch.go), the agent names the engine knows (names.go), the
// engine's validate, benchmark and swiss commands, the duplicate
// comparison and its sequential test (paired.go, compare.go), the replay
// of a record as text (show.go), and giretra-strength's in-process
// campaigns on the same runner (strength.go). cmd/giretra-ref and
// cmd/giretra-strength are its command lines.
package referee
