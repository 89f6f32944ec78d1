// Package referee plays Giretra matches exactly as the Giretra engine
// does (call order, payloads, timeouts, bot.meta.json launch) between bot
// servers, in-process agents and our own bot, and measures them: the
// match runner with its decision timing and records (match.go), the bot
// launcher (launch.go), the agent names the engine knows (names.go), the
// engine's validate, benchmark and swiss commands, the duplicate
// comparison and its sequential test (paired.go, compare.go), and the replay
// of a record as text (show.go). cmd/giretra-ref is its command line.
package referee
