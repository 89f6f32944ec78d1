package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/internal/stats"
	"github.com/botarena/gamebot/internal/table"
)

// PlayConfig drives a play server (gamebot play) with scripted persons: Tables tables of
// Game at once, each a person sending one of the actions the table lists
// as valid (a Scripted table) as soon as it may, game after game, until
// Duration has passed (each table plays one game at least, and finishes
// the game it is in).
type PlayConfig struct {
	URL      string          // the play server, e.g. http://127.0.0.1:8080
	Game     string          // giretra, battleship, othello
	Setup    json.RawMessage // the table's setup (the bots' pace 0 for a load)
	Tables   int
	Duration time.Duration
	Seed     uint64
	Client   *http.Client
}

// PlayResult is what a load run measured.
type PlayResult struct {
	Game    string `json:"game"`
	Tables  int    `json:"tables"`
	Games   int    `json:"games"`   // finished
	Actions int    `json:"actions"` // the persons' actions acknowledged
	Errors  int    `json:"errors"`
	// Stale counts actions a bot's move overtook (409: the person acted
	// on a view the table had left, as a person can; the next view
	// follows).
	Stale int `json:"stale"`
	// Ack: a person's action, from sending it to its answer (ms).
	AckP50, AckP99, AckMax float64
	// Reply: a bot's move, from the table's change to its view reaching
	// the person's long poll (ms): what a person waits beyond the bot's
	// own decision time.
	Replies                      int
	ReplyP50, ReplyP99, ReplyMax float64
	FirstError                   string `json:"firstError,omitempty"`
	Seconds                      float64
}

// Play runs cfg and measures it.
func Play(ctx context.Context, cfg PlayConfig) (PlayResult, error) {
	if cfg.Tables < 1 || cfg.Duration <= 0 || cfg.Game == "" || cfg.URL == "" {
		return PlayResult{}, errors.New("play load: a URL, a game, tables ≥ 1 and a duration are required")
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: table.PollWait + 10*time.Second}
	}
	base := strings.TrimRight(cfg.URL, "/")
	res := PlayResult{Game: cfg.Game, Tables: cfg.Tables}
	var mu sync.Mutex
	var acks, replies []float64
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		res.Errors++
		if res.FirstError == "" {
			res.FirstError = err.Error()
		}
	}
	start := time.Now()
	deadline := start.Add(cfg.Duration)
	var wg sync.WaitGroup
	for i := range cfg.Tables {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
			p := person{client: cfg.Client, base: base, rng: rng}
			for first := true; ctx.Err() == nil && (first || time.Now().Before(deadline)); first = false {
				a, r, stale, err := p.play(ctx, cfg.Game, cfg.Setup)
				mu.Lock()
				acks = append(acks, a...)
				replies = append(replies, r...)
				res.Stale += stale
				if err == nil {
					res.Games++
				}
				mu.Unlock()
				if err != nil {
					if ctx.Err() != nil {
						return
					}
					fail(err)
					time.Sleep(100 * time.Millisecond) // a refused table: not a busy loop
				}
			}
		})
	}
	wg.Wait()
	res.Seconds = time.Since(start).Seconds()
	res.Actions, res.Replies = len(acks), len(replies)
	slices.Sort(acks)
	slices.Sort(replies)
	if len(acks) > 0 {
		res.AckP50, res.AckP99, res.AckMax = stats.Quantile(acks, 0.5), stats.Quantile(acks, 0.99), stats.Quantile(acks, 1)
	}
	if len(replies) > 0 {
		res.ReplyP50, res.ReplyP99, res.ReplyMax = stats.Quantile(replies, 0.5), stats.Quantile(replies, 0.99), stats.Quantile(replies, 1)
	}
	return res, ctx.Err()
}

var errStale = errors.New("stale action")

// person is one scripted player.
type person struct {
	client *http.Client
	base   string
	rng    *rand.Rand
}

type loadView struct {
	Seq   int   `json:"seq"`
	At    int64 `json:"at"`
	Over  bool  `json:"over"`
	Valid []any `json:"valid"`
}

// play plays one game to its end and returns the acknowledgement times
// of its actions, the delays of the bots' moves (ms) and the number of
// its actions a bot's move made stale.
func (p *person) play(ctx context.Context, game string, setup json.RawMessage) (acks, replies []float64, stale int, err error) {
	var c table.Created
	if err := p.call(ctx, "POST", "/play/api/"+game+"/tables", setup, http.StatusCreated, &c); err != nil {
		return nil, nil, 0, fmt.Errorf("creating a table: %w", err)
	}
	path := "/play/api/tables/" + c.Token
	v := loadView{Seq: -1}
	for {
		var next loadView
		if err := p.call(ctx, "GET", fmt.Sprintf("%s?after=%d&valid=1", path, v.Seq), nil, http.StatusOK, &next); err != nil {
			return acks, replies, stale, err
		}
		if next.Seq > v.Seq && v.Seq >= 0 {
			replies = append(replies, float64(time.Now().UnixMilli()-next.At))
		}
		v = next
		for len(v.Valid) > 0 {
			a := v.Valid[p.rng.IntN(len(v.Valid))]
			body, _ := json.Marshal(map[string]any{"seq": v.Seq, "action": a})
			t0 := time.Now()
			var after loadView
			err := p.call(ctx, "POST", path+"/actions?valid=1", body, http.StatusOK, &after)
			acks = append(acks, float64(time.Since(t0).Microseconds())/1000)
			if errors.Is(err, errStale) {
				stale++
				break // the poll brings the view the table moved to
			}
			if err != nil {
				return acks, replies, stale, fmt.Errorf("acting: %w", err)
			}
			v = after
		}
		if v.Over {
			return acks, replies, stale, nil
		}
	}
}

func (p *person) call(ctx context.Context, method, path string, body []byte, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, p.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode == http.StatusConflict {
		return errStale
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, bytes.TrimSpace(b))
	}
	return json.Unmarshal(b, out)
}
