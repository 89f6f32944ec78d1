package meta

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The engine's defaults (BotMetadata.cs, LocalWsPlayerAgentFactory.cs).
const (
	DefaultInitTimeout    = 120 * time.Second
	DefaultStartupTimeout = 30 * time.Second
	defaultHealthEndpoint = "health"
)

// ErrNoLaunch is a bot.meta.json without "launch": the engine skips such a
// bot (with a warning), so nothing can launch it.
var ErrNoLaunch = errors.New(`bot.meta.json has no "launch": the engine skips this bot`)

// Bot is a bot.meta.json as the engine reads it, defaults applied.
type Bot struct {
	// AgentName is the name on the engine's command line: agentName, else
	// name, else the folder's name.
	AgentName string
	// DisplayName is displayName, else AgentName.
	DisplayName string
	// Listed says whether the file lists its notifications; Notifications
	// is that list as written. Without a list the engine posts all six
	// events (the referee's BotEvents reads them as a set).
	Listed        bool
	Notifications []string
	Init          *BotInit // nil: no build step
	Launch        BotLaunch
}

// BotInit is the build step run once, in the bot's folder, before launch.
type BotInit struct {
	Command   string
	Arguments string
	Timeout   time.Duration
}

// BotLaunch is how the engine starts the bot's server.
type BotLaunch struct {
	FileName  string
	Arguments string
	// Port is the fixed port to use; 0 when the file names none, and the
	// launcher then picks a free loopback port.
	Port           int
	StartupTimeout time.Duration
	// HealthEndpoint is polled with GET until it answers 2xx.
	HealthEndpoint string
	Env            map[string]string // environmentVariables
}

// HealthPath is the URL path of the health endpoint.
func (l BotLaunch) HealthPath() string { return healthPath(l.HealthEndpoint) }

func healthPath(endpoint string) string { return "/" + strings.TrimLeft(endpoint, "/") }

// engineFile is the file's JSON as BotMetadata.cs declares it: pointers
// where the engine tells absent from zero. encoding/json matches names
// case-insensitively, as the engine does (PropertyNameCaseInsensitive).
type engineFile struct {
	Name          string    `json:"name"`
	AgentName     string    `json:"agentName"`
	DisplayName   string    `json:"displayName"`
	Notifications *[]string `json:"notifications"`
	Init          *struct {
		Command   string `json:"command"`
		Arguments string `json:"arguments"`
		Timeout   *int   `json:"timeout"`
	} `json:"init"`
	Launch *struct {
		FileName             string            `json:"fileName"`
		Arguments            string            `json:"arguments"`
		Port                 *int              `json:"port"`
		StartupTimeout       *int              `json:"startupTimeout"`
		HealthEndpoint       *string           `json:"healthEndpoint"`
		EnvironmentVariables map[string]string `json:"environmentVariables"`
	} `json:"launch"`
}

// Read reads dir/bot.meta.json as the engine does. A file without
// "launch" is ErrNoLaunch; one without launch.fileName, or with an init
// lacking its command, is an error as in the engine.
func Read(dir string) (*Bot, error) {
	data, err := os.ReadFile(filepath.Join(dir, "bot.meta.json"))
	if err != nil {
		return nil, err
	}
	return Decode(data, dir)
}

// Decode is Read for the file's contents; dir is the bot's folder, whose
// name is the last fallback of AgentName.
func Decode(data []byte, dir string) (*Bot, error) {
	var f engineFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("bot.meta.json: %w", err)
	}
	if f.Launch == nil {
		return nil, ErrNoLaunch
	}
	if f.Launch.FileName == "" {
		return nil, errors.New(`bot.meta.json: "launch.fileName" is required`)
	}
	b := &Bot{
		AgentName:   f.AgentName,
		DisplayName: f.DisplayName,
		Launch: BotLaunch{
			FileName:       f.Launch.FileName,
			Arguments:      f.Launch.Arguments,
			StartupTimeout: seconds(f.Launch.StartupTimeout, DefaultStartupTimeout),
			HealthEndpoint: defaultHealthEndpoint,
			Env:            f.Launch.EnvironmentVariables,
		},
	}
	if f.Launch.Port != nil {
		b.Launch.Port = *f.Launch.Port
	}
	if f.Launch.HealthEndpoint != nil {
		b.Launch.HealthEndpoint = *f.Launch.HealthEndpoint
	}
	if f.Init != nil {
		if f.Init.Command == "" {
			return nil, errors.New(`bot.meta.json: "init.command" is required when "init" is present`)
		}
		b.Init = &BotInit{Command: f.Init.Command, Arguments: f.Init.Arguments, Timeout: seconds(f.Init.Timeout, DefaultInitTimeout)}
	}
	if f.Notifications != nil {
		b.Listed, b.Notifications = true, *f.Notifications
	}
	if b.AgentName == "" {
		b.AgentName = f.Name
	}
	if b.AgentName == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			abs = dir
		}
		b.AgentName = filepath.Base(abs)
	}
	if b.DisplayName == "" {
		b.DisplayName = b.AgentName
	}
	return b, nil
}

func seconds(v *int, def time.Duration) time.Duration {
	if v == nil {
		return def
	}
	return time.Duration(*v) * time.Second
}
