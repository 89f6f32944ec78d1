package referee

import "context"

// Launched is a bot server started from its folder, for players outside
// the referee's runs (gamebot play's tables).
type Launched struct {
	Name   string  // the bot's agent name
	URL    string  // where it listens
	Events [6]bool // the notifications its bot.meta.json asks for
	Stop   func()  // kills its process tree
}

// LaunchBot starts the bot of folder dir as the engine does (init,
// launch, health, smoke test).
func LaunchBot(ctx context.Context, dir string) (*Launched, error) {
	p, err := launchBot(ctx, dir, nil)
	if err != nil {
		return nil, err
	}
	return &Launched{Name: p.name, URL: p.baseURL, Events: BotEvents(p.meta), Stop: p.stop}, nil
}
