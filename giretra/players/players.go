// Package players is the one registry of Giretra players: it reads a
// player spec (internal/spec's grammar) as who plays a seat, and holds
// what runs a seat for the referee and the browser table alike.
//
// A spec names (Registry.Resolve, in this order):
//
//   - a bot server already running: an http(s) URL, or url:URL;
//   - a folder holding bot.meta.json, launched as the engine launches it
//     (Launch): anything holding a slash, ".", "..", or dir:PATH;
//   - our bot in process: bot, or bot:OPTIONS (Bot's options);
//   - Eva and our bot sharing the decisions: evabid, evaplay, evalead or
//     evafollow, with the bot's options after a colon (evabid:fast);
//   - an agent or an external bot by name, in giretra-manage's order: our
//     lower-case agent names (bad, random, calculating, eva, noisy-eva, bold-eva)
//     first, then an AgentName (external bots of external-bots/ before
//     the engine's built-ins), then a DisplayName (the same), then the
//     other spellings giretra/agents knows (kialasoa, deterministic…);
//   - a folder of the working directory, by its bare name.
//
// A label names the player in reports ("v2=../my-bot"). The older
// spellings still read as they did: evabid+bot[:OPTIONS] (and evaplay+,
// evalead+, evafollow+), bot options separated by colons
// (bot:fast:budget=1s), and a display name holding spaces.
//
// Seat is what runs any of them at a seat: each decision timed, a bot
// server's calls recorded, and, for a table, the engine's fallback for
// a player that fails.
package players

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/giretra/search"
	"github.com/botarena/gamebot/internal/spec"
)

// Entry is who a spec names: an in-process player (an agent, our bot, or
// Eva with our bot), a bot server's URL, or a folder holding
// bot.meta.json.
type Entry struct {
	// Name is the player as reports show it: the spec's label, else its
	// name; "" for a folder without a label (its bot's AgentName, once
	// launched).
	Name  string
	Agent string      // a giretra/agents name
	Bot   *bot.Config // our bot, with its options
	// Eva, with Bot, is the share of the decisions Eva takes: "bid",
	// "play", "lead" or "follow" (the bot takes the others).
	Eva string
	URL string
	Dir string
}

// InProcess reports whether the entry plays in this process.
func (e Entry) InProcess() bool { return e.Agent != "" || e.Bot != nil }

// NeedsDeal reports whether the entry's player must be told the hands
// in play (an oracle).
func (e Entry) NeedsDeal() bool { return e.Bot != nil && e.Bot.Oracle != nil }

// SpecError is a spec that names no player.
type SpecError struct{ msg string }

func (e *SpecError) Error() string { return e.msg }

func specErr(format string, args ...any) error { return &SpecError{fmt.Sprintf(format, args...)} }

// Resolve reads a spec as the Registry's player (the package doc gives
// the order). An error is a *SpecError naming what is wrong.
func (r *Registry) Resolve(text string) (Entry, error) {
	if e, ok, err := composite(text); ok || err != nil {
		return e, asSpecErr(err)
	}
	sp, err := spec.Parse(text)
	if err != nil { // not a spec, but maybe a display name holding spaces
		name := strings.TrimSpace(text)
		if e, ok := r.byName(name); ok {
			return e, nil
		}
		if isDir(name) {
			return Entry{Dir: name}, nil
		}
		return Entry{}, r.unknown(name)
	}
	switch {
	case sp.Is("url"):
		if !sp.HasArg || sp.Arg == "" {
			return Entry{}, specErr("%q: url: wants the bot server's address", text)
		}
		return labelled(sp, Entry{Name: sp.Arg, URL: sp.Arg}), nil
	case sp.Is("dir") || isWindowsPath(sp):
		path := sp.Body()
		if sp.Is("dir") {
			path = sp.Arg
		}
		if !isDir(path) {
			return Entry{}, specErr("%q is not a folder", path)
		}
		return labelled(sp, Entry{Dir: path}), nil
	}
	if e, ok, err := inProcess(sp); ok || err != nil {
		return e, asSpecErr(err)
	}
	if !sp.HasArg {
		if e, ok := r.byName(sp.Kind); ok {
			return labelled(sp, e), nil
		}
	}
	if isDir(sp.Body()) {
		return labelled(sp, Entry{Dir: sp.Body()}), nil
	}
	if sp.HasArg {
		return Entry{}, specErr("player %q: %s takes no options", sp.Body(), sp.Kind)
	}
	return Entry{}, r.unknown(sp.Body())
}

// unknown is the error of a name that names no player.
func (r *Registry) unknown(name string) error {
	return specErr("unknown agent '%s'. Available: %s; or an http(s) URL, or a folder with bot.meta.json", name, r.Available())
}

// InProcess reads a spec that must name an in-process player: an agent,
// our bot or Eva with our bot (giretra-strength's players).
func InProcess(text string) (Entry, error) {
	if e, ok, err := composite(text); ok || err != nil {
		return e, err
	}
	unknown := fmt.Errorf("unknown agent %q (want one of %s)", text, strings.Join(agents.Names(), ", "))
	sp, err := spec.Parse(text)
	if err != nil {
		return Entry{}, unknown
	}
	if e, ok, err := inProcess(sp); ok || err != nil {
		return e, err
	}
	if sp.HasArg || sp.Is("url") || sp.Is("dir") {
		return Entry{}, unknown
	}
	if e, ok := Agent(sp.Kind); ok {
		return labelled(sp, e), nil
	}
	return Entry{}, unknown
}

// New is the in-process player a spec names (InProcess), for one seat of
// one match: rng drives an agent's random choices, deal gives an oracle
// the hands in play.
func New(text string, rng *rand.Rand, deal func() ([4]giretra.Set, bool)) (giretra.Player, error) {
	e, err := InProcess(text)
	if err != nil {
		return nil, err
	}
	return e.Player(rng, deal)
}

// Player makes an in-process entry's player for one seat of one match:
// rng drives an agent's random choices, deal gives an oracle the hands
// in play. A bot server or a folder is an error: Launch and
// remote.NewSeat play those.
func (e Entry) Player(rng *rand.Rand, deal func() ([4]giretra.Set, bool)) (giretra.Player, error) {
	switch {
	case e.Agent != "":
		return agents.New(e.Agent, rng)
	case e.Bot == nil:
		return nil, fmt.Errorf("player %q does not play in process", e.Name)
	}
	cfg := *e.Bot
	if cfg.Oracle != nil {
		o := *cfg.Oracle
		o.Deal = deal
		cfg.Oracle = &o
	}
	if e.Eva == "" {
		return bot.New(cfg), nil
	}
	eva, _ := agents.New("eva", rng)
	switch e.Eva {
	case "bid":
		return agents.Hybrid{Bidder: eva, Player: bot.New(cfg)}, nil
	case "play":
		return agents.Hybrid{Bidder: bot.New(cfg), Player: eva}, nil
	}
	return agents.Mixed{Eva: eva, Other: bot.New(cfg), EvaLeads: e.Eva == "lead"}, nil
}

// evaShares are the kinds that seat Eva with our bot, by Eva's share.
var evaShares = map[string]string{"evabid": "bid", "evaplay": "play", "evalead": "lead", "evafollow": "follow"}

// composite reads the older evabid+bot[:OPTIONS] spelling (ok: text is
// one).
func composite(text string) (Entry, bool, error) {
	for kind, share := range evaShares {
		rest, found := strings.CutPrefix(text, kind+"+")
		if !found {
			continue
		}
		opts, isBot := strings.CutPrefix(rest, "bot")
		if !isBot || opts != "" && opts[0] != ':' {
			return Entry{}, true, fmt.Errorf("player %q: %s+ wants a bot spec after it (bot[:option…]), not %q", text, kind, rest)
		}
		cfg, err := parseBot(strings.TrimPrefix(opts, ":"), opts != "")
		if err != nil {
			return Entry{}, true, fmt.Errorf("player %q: %w", text, err)
		}
		return Entry{Name: text, Bot: &cfg, Eva: share}, true, nil
	}
	return Entry{}, false, nil
}

// inProcess reads sp when its kind is bot or one of evaShares' (ok:
// it is).
func inProcess(sp spec.Spec) (Entry, bool, error) {
	share, eva := evaShares[strings.ToLower(sp.Kind)]
	if !eva && !sp.Is("bot") {
		return Entry{}, false, nil
	}
	cfg, err := parseBot(sp.Arg, sp.HasArg)
	if err != nil {
		return Entry{}, true, fmt.Errorf("player %q: %w", sp.Body(), err)
	}
	return labelled(sp, Entry{Name: sp.Body(), Bot: &cfg, Eva: share}), true, nil
}

// BotOptions are our bot's options, for messages.
const BotOptions = "fast, noinf, dd, models, linear, effort=X, bideffort=X, budget=D, oracle=full|partner|opponents|own[@bid|@play], calib, calibours, finish, finishall, learned, learnedonly, learnedannounce, partnerlearned, blend=K, endgame=N, edge=N"

// parseBot reads our bot's options, separated by commas or colons
// (hasOpts: a colon followed the kind, so an empty option list is an
// empty option).
func parseBot(opts string, hasOpts bool) (cfg bot.Config, err error) {
	if !hasOpts {
		return cfg, nil
	}
	for _, f := range strings.Split(strings.ReplaceAll(opts, ",", ":"), ":") {
		if err := setBotOption(&cfg, f); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// setBotOption sets one of BotOptions.
func setBotOption(cfg *bot.Config, f string) error {
	name, value, hasValue := strings.Cut(f, "=")
	switch {
	case !hasValue && name == "fast":
		cfg.Fast = true
	case !hasValue && name == "noinf":
		cfg.NoInference = true
	case !hasValue && name == "dd":
		cfg.DoubleDummy = true
	case !hasValue && name == "models":
		cfg.PlayoutModels = true
	case !hasValue && name == "linear":
		cfg.LinearScore = true
	case !hasValue && name == "calib":
		cfg.Calibrated = true
	case !hasValue && name == "calibours":
		cfg.CalibratedOurs = true
	case !hasValue && name == "finish":
		cfg.FinishBids = true
	case !hasValue && name == "learned":
		cfg.LearnedBids = true
	case !hasValue && name == "learnedonly":
		cfg.LearnedOnly = true
	case !hasValue && name == "learnedannounce":
		cfg.LearnedAnnounce = true
	case !hasValue && name == "partnerlearned":
		cfg.PartnerLearned = true
	case !hasValue && name == "finishall":
		cfg.FinishBids, cfg.SimulateAll = true, true
	case hasValue && name == "oracle":
		who, phase, _ := strings.Cut(value, "@")
		if who != "full" && who != "partner" && who != "opponents" && who != "own" || phase != "" && phase != "bid" && phase != "play" {
			return fmt.Errorf("bad oracle=%s (want full, partner, opponents or own, then @bid or @play for one phase)", value)
		}
		cfg.Oracle = &bot.Oracle{Partner: who == "full" || who == "partner", Opponents: who == "full" || who == "opponents",
			Own: who == "full" || who == "own", BidOnly: phase == "bid", PlayOnly: phase == "play"}
	case hasValue && name == "blend":
		x, ok := positive(value)
		if !ok {
			return fmt.Errorf("bad blend=%s (want a positive number of deals)", value)
		}
		cfg.BidBlend = x
	case hasValue && name == "endgame":
		n, perr := strconv.Atoi(value)
		if perr != nil || n < 1 || n > 8 {
			return fmt.Errorf("bad endgame=%s (want the cards in hand, 1 to 8, from which our seats solve the bid simulation's playouts)", value)
		}
		cfg.BidEndgame = n
	case hasValue && name == "edge":
		n, perr := strconv.Atoi(value)
		if perr != nil || n < -search.MaxEdge || n > search.MaxEdge {
			return fmt.Errorf("bad edge=%s (want the match points a deal our team expects to outscore the other by, %d to %d)", value, -search.MaxEdge, search.MaxEdge)
		}
		cfg.Edge = n
	case hasValue && name == "effort":
		x, ok := positive(value)
		if !ok {
			return fmt.Errorf("bad effort=%s (want a positive number)", value)
		}
		cfg.Effort = x
	case hasValue && name == "bideffort":
		x, ok := positive(value)
		if !ok {
			return fmt.Errorf("bad bideffort=%s (want a positive number)", value)
		}
		cfg.BidEffort = x
	case hasValue && name == "budget":
		d, perr := time.ParseDuration(value)
		if perr != nil || d <= 0 {
			return fmt.Errorf("bad budget=%s (want a positive duration such as 250ms)", value)
		}
		cfg.Budget = d
	default:
		return fmt.Errorf("unknown option %q (want %s)", f, BotOptions)
	}
	return nil
}

// positive reads a finite number above zero.
func positive(s string) (float64, bool) {
	x, err := strconv.ParseFloat(s, 64)
	return x, err == nil && x > 0 && !math.IsInf(x, 0)
}

// labelled is e named by sp's label, when it has one.
func labelled(sp spec.Spec, e Entry) Entry {
	if sp.Label != "" {
		e.Name = sp.Label
	}
	return e
}

func asSpecErr(err error) error {
	if err == nil {
		return nil
	}
	return &SpecError{err.Error()}
}

// isWindowsPath reports a spec that is a path with a drive letter
// (C:\bots\x), which the grammar reads as kind C.
func isWindowsPath(sp spec.Spec) bool {
	return len(sp.Kind) == 1 && (strings.HasPrefix(sp.Arg, `\`) || strings.HasPrefix(sp.Arg, "/"))
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
