package players

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/meta"
)

// engineAgent is one of the engine's built-in agents, played in-process
// by the giretra/agents opponent written from it.
type engineAgent struct {
	agentName, displayName string
	key                    string   // giretra/agents name
	aliases                []string // other spellings seen in the engine's documentation
}

// engineAgents are the engine's built-ins (every IPlayerAgentFactory its
// core declares, found by reflection), strongest first: the engine's own
// order is reflection order, which it does not fix.
var engineAgents = []engineAgent{
	{agentName: "DeterministicPlayer", displayName: "Eva", key: "eva"},
	{agentName: "CalculatingPlayer", displayName: "Razazavavy", key: "calculating", aliases: []string{"Razavavy"}}, // the website's spelling
	{agentName: "RandomPlayer", displayName: "Kialasoa", key: "random"},
	{agentName: "BadPlayer", displayName: "Sakabelou", key: "bad"},
}

func (a engineAgent) entry() Entry { return Entry{Name: a.agentName, Agent: a.key} }

// isDisplayName reports whether name is a's DisplayName or another
// spelling of it, ignoring case.
func (a engineAgent) isDisplayName(name string) bool {
	return strings.EqualFold(a.displayName, name) || slices.ContainsFunc(a.aliases, func(s string) bool { return strings.EqualFold(s, name) })
}

// EngineAgents are the engine's built-in agents as a menu offers them:
// AgentName and DisplayName, strongest first.
func EngineAgents() [][2]string {
	out := make([][2]string, len(engineAgents))
	for i, a := range engineAgents {
		out[i] = [2]string{a.agentName, a.displayName}
	}
	return out
}

// ours is the entry of one of our lower-case agent names (agents.Names),
// which always mean our agents, whatever external bot shares the name.
func ours(name string) (Entry, bool) {
	if slices.Contains(agents.Names(), strings.ToLower(name)) {
		return Entry{Name: strings.ToLower(name), Agent: strings.ToLower(name)}, true
	}
	return Entry{}, false
}

// otherSpelling is the entry of a spelling giretra/agents knows besides
// the names above (kialasoa, deterministic…).
func otherSpelling(name string) (Entry, bool) {
	if _, err := agents.New(name, nil); err == nil {
		return Entry{Name: strings.ToLower(name), Agent: strings.ToLower(name)}, true
	}
	return Entry{}, false
}

// Agent resolves an agent's name as Resolve does (ours in lower case,
// the engine's AgentName, DisplayName or another spelling), and nothing
// else: no URL, no folder, not our bot.
func Agent(name string) (Entry, bool) {
	if e, ok := ours(name); ok {
		return e, true
	}
	for _, a := range engineAgents {
		if strings.EqualFold(a.agentName, name) || a.isDisplayName(name) {
			return a.entry(), true
		}
	}
	return otherSpelling(name)
}

// externalBot is a bot discovered in external-bots/.
type externalBot struct {
	agentName, displayName, dir string
}

// Registry resolves names as giretra-manage does: AgentName, then
// DisplayName (both ignoring case), over the built-in agents and the bots
// of external-bots/ (which override a built-in of the same name). The
// folder is found once, on first use.
type Registry struct {
	botsDir string // "" = external-bots/ of the checkout around the working directory
	warn    func(string)
	loaded  bool
	bots    []externalBot
}

// NewRegistry is the registry of the bots in botsDir ("": external-bots/
// of the checkout around the working directory); warn (nil: none) is told
// what is wrong with them, in the engine's words.
func NewRegistry(botsDir string, warn func(msg string)) *Registry {
	if warn == nil {
		warn = func(string) {}
	}
	return &Registry{botsDir: botsDir, warn: warn}
}

// FindBotsDir walks up from the working directory to the first directory
// holding .git (the engine's repository root) and returns its
// external-bots/. A .git file (a git worktree) counts too.
func FindBotsDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return filepath.Join(dir, "external-bots")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// discover lists external-bots/*/bot.meta.json, in folder-name order,
// warning (as the engine does) about files it skips.
func (r *Registry) discover() []externalBot {
	if r.loaded {
		return r.bots
	}
	r.loaded = true
	root := r.botsDir
	if root == "" {
		root = FindBotsDir()
	}
	if root == "" {
		return nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, "bot.meta.json")); err != nil {
			continue
		}
		m, err := meta.Read(dir)
		switch {
		case errors.Is(err, meta.ErrNoLaunch):
			r.warn(fmt.Sprintf("Skipping %s: missing 'launch' section in bot.meta.json", e.Name()))
			continue
		case err != nil:
			r.warn(fmt.Sprintf("Skipping %s: malformed bot.meta.json (%v)", e.Name(), err))
			continue
		}
		for _, a := range engineAgents {
			if strings.EqualFold(a.agentName, m.AgentName) {
				r.warn(fmt.Sprintf("External bot %s overrides a built-in agent of the same name.", m.AgentName))
			}
		}
		r.bots = append(r.bots, externalBot{agentName: m.AgentName, displayName: m.DisplayName, dir: dir})
	}
	return r.bots
}

// byName resolves a name in giretra-manage's order: AgentName (external
// bots first), then DisplayName (external bots first), after our
// lower-case names and before the other spellings giretra/agents knows.
func (r *Registry) byName(name string) (Entry, bool) {
	if e, ok := ours(name); ok {
		return e, true
	}
	bots := r.discover()
	for _, b := range bots {
		if strings.EqualFold(b.agentName, name) {
			return Entry{Dir: b.dir}, true
		}
	}
	for _, a := range engineAgents {
		if strings.EqualFold(a.agentName, name) {
			return a.entry(), true
		}
	}
	for _, b := range bots {
		if strings.EqualFold(b.displayName, name) {
			return Entry{Dir: b.dir}, true
		}
	}
	for _, a := range engineAgents {
		if a.isDisplayName(name) {
			return a.entry(), true
		}
	}
	return otherSpelling(name)
}

// ExternalBot is a bot of the registry's folder, as a menu offers it.
type ExternalBot struct {
	AgentName, DisplayName string
	Dir                    string
}

// External lists the bots of the registry's folder (external-bots/), in
// folder-name order.
func (r *Registry) External() []ExternalBot {
	var out []ExternalBot
	for _, b := range r.discover() {
		out = append(out, ExternalBot{AgentName: b.agentName, DisplayName: b.displayName, Dir: b.dir})
	}
	return out
}

// Available is the engine's list (AgentName or "AgentName (DisplayName)",
// sorted ignoring case) plus our lower-case names.
func (r *Registry) Available() string {
	var l []string
	for _, a := range engineAgents {
		l = append(l, a.agentName+" ("+a.displayName+")")
	}
	for _, b := range r.discover() {
		if b.displayName != b.agentName {
			l = append(l, b.agentName+" ("+b.displayName+")")
		} else {
			l = append(l, b.agentName)
		}
	}
	slices.SortFunc(l, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return strings.Join(l, ", ") + "; " + strings.Join(agents.Names(), ", ")
}

// All is every agent swiss plays by default: the built-ins the engine
// has, then the discovered bots by folder (a bot overriding a built-in
// replaces it).
func (r *Registry) All() []string {
	bots := r.discover()
	var out []string
	for _, a := range engineAgents {
		if !slices.ContainsFunc(bots, func(b externalBot) bool { return strings.EqualFold(b.agentName, a.agentName) }) {
			out = append(out, a.agentName)
		}
	}
	for _, b := range bots {
		out = append(out, b.dir)
	}
	return out
}
