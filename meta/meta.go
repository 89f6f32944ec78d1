// Package meta is the one reader of bot.meta.json, the file through which
// the Giretra engine discovers, builds and launches a bot
// (Players/Agents/Remote/BotMetadata.cs). It reads the file two ways:
//
//   - Read, leniently, as the engine reads any bot's file: names
//     case-insensitive, only launch.fileName (and init.command when init is
//     present) required, the engine's defaults applied. The referee launches
//     bots, other people's too, from it.
//   - Parse and Load, strictly, for this repository's own file: the fields
//     the engine shows are required and checked, and the notifications must
//     be listed.
package meta

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"
)

// Meta is bot.meta.json. The engine reads it case-insensitively and needs
// only launch.fileName (and init.command when init is present).
type Meta struct {
	ID            string   `json:"id,omitempty" validate:"omitempty,uuid"`
	AgentName     string   `json:"agentName,omitempty" validate:"omitempty,max=64"`
	Name          string   `json:"name" validate:"required,max=64,excludesall= /\\"`
	DisplayName   string   `json:"displayName" validate:"required,max=64"`
	Pun           string   `json:"pun,omitempty" validate:"max=200"`
	Author        string   `json:"author,omitempty" validate:"max=100"`
	AuthorGithub  string   `json:"authorGithub,omitempty" validate:"max=39"`
	Notifications []string `json:"notifications" validate:"required,dive,oneof=deal-started negotiation-completed card-played trick-completed deal-ended match-ended"`
	Init          *Init    `json:"init,omitempty"`
	Launch        *Launch  `json:"launch" validate:"required"`
}

// Init is the build step run once before launch.
type Init struct {
	Command   string `json:"command" validate:"required"`
	Arguments string `json:"arguments,omitempty"`
	Timeout   int    `json:"timeout,omitempty" validate:"gte=0,lte=3600"`
}

// Launch starts the server process.
type Launch struct {
	FileName             string            `json:"fileName" validate:"required"`
	Arguments            string            `json:"arguments,omitempty"`
	Port                 int               `json:"port,omitempty" validate:"gte=0,lte=65535"`
	StartupTimeout       int               `json:"startupTimeout,omitempty" validate:"gte=0,lte=600"`
	HealthEndpoint       string            `json:"healthEndpoint,omitempty"`
	EnvironmentVariables map[string]string `json:"environmentVariables,omitempty"`
}

var validate = func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		return name
	})
	return v
}()

// Parse decodes and validates bot.meta.json. Notifications must be present
// (absent means the engine sends all six, each an HTTP round trip).
func Parse(b []byte) (*Meta, error) {
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("bot.meta.json: %w", err)
	}
	if err := validate.Struct(&m); err != nil {
		var ves validator.ValidationErrors
		if errors.As(err, &ves) {
			var msgs []string
			for _, fe := range ves {
				msgs = append(msgs, fmt.Sprintf("%s: fails %s %s", fe.Namespace(), fe.Tag(), fe.Param()))
			}
			return nil, fmt.Errorf("bot.meta.json invalid: %s", strings.Join(msgs, "; "))
		}
		return nil, fmt.Errorf("bot.meta.json invalid: %w", err)
	}
	return &m, nil
}

// Load reads and validates the file at path.
func Load(path string) (*Meta, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(b)
}

// HealthPath is the health URL path the engine polls.
func (m *Meta) HealthPath() string {
	h := defaultHealthEndpoint
	if m.Launch != nil && m.Launch.HealthEndpoint != "" {
		h = m.Launch.HealthEndpoint
	}
	return healthPath(h)
}
