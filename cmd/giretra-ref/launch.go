package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/enginehttp"
)

// botMeta is bot.meta.json as the engine reads it (BotMetadata.cs):
// property names case-insensitive (encoding/json's default matching).
type botMeta struct {
	ID            string    `json:"id"`
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

// infraError is a failure to set a bot up (init, launch, health): the
// engine's exit status 2.
type infraError struct{ err error }

func (e *infraError) Error() string { return e.err.Error() }
func (e *infraError) Unwrap() error { return e.err }

func readMeta(dir string) (*botMeta, error) {
	data, err := os.ReadFile(filepath.Join(dir, "bot.meta.json"))
	if err != nil {
		return nil, err
	}
	var m botMeta
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("bot.meta.json: %w", err)
	}
	if m.Launch == nil || m.Launch.FileName == "" {
		return nil, errors.New(`bot.meta.json: "launch.fileName" is required`)
	}
	if m.Init != nil && m.Init.Command == "" {
		return nil, errors.New(`bot.meta.json: "init.command" is required when "init" is present`)
	}
	return &m, nil
}

// agentName is agentName ?? name ?? the folder's name.
func (m *botMeta) agentName(dir string) string {
	switch {
	case m.AgentName != "":
		return m.AgentName
	case m.Name != "":
		return m.Name
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return filepath.Base(abs)
}

// notifySet is the enabled notifications: absent = all, a list = those
// listed (case-insensitive), [] = none.
func notifySet(list *[]string) [6]bool {
	var out [6]bool
	if list == nil {
		for i := range out {
			out[i] = true
		}
		return out
	}
	for _, n := range *list {
		if k, ok := giretra.ParseEventKind(strings.ToLower(n)); ok {
			out[k] = true
		}
	}
	return out
}

// splitArgs splits an arguments string like a command line: spaces
// separate, double quotes group, backslash escapes a quote.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	in, any := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] == '"':
			cur.WriteByte('"')
			i++
			any = true
		case c == '"':
			in = !in
			any = true
		case (c == ' ' || c == '\t') && !in:
			if any {
				out = append(out, cur.String())
				cur.Reset()
				any = false
			}
		default:
			cur.WriteByte(c)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}

// tail keeps the last 16 KB written to it, for failure messages.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - 16<<10; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// botProcess is a bot launched from its folder.
type botProcess struct {
	name    string
	baseURL string
	notify  [6]bool
	cmd     *exec.Cmd
	out     tail
	done    chan struct{} // closed when the process exits
}

// freePort asks the kernel for a free loopback port (PortAllocator).
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// resolveFile resolves a fileName containing a slash against the bot
// folder; a bare name is looked up on PATH.
func resolveFile(dir, name string) string {
	if !filepath.IsAbs(name) && strings.ContainsAny(name, `/\`) {
		return filepath.Join(dir, name)
	}
	return name
}

// launchBot runs the folder's init command, starts the bot with PORT and
// LAUNCHER_PID, polls GET /{health} every 200 ms until a 2xx (up to
// startupTimeout), then runs the smoke test, all as the engine does.
func launchBot(ctx context.Context, dir string, logw io.Writer) (*botProcess, error) {
	m, err := readMeta(dir)
	if err != nil {
		return nil, &infraError{err}
	}
	p := &botProcess{name: m.agentName(dir), notify: notifySet(m.Notifications), done: make(chan struct{})}
	if m.Init != nil {
		timeout := 120
		if m.Init.Timeout != nil {
			timeout = *m.Init.Timeout
		}
		ictx, cancel := context.WithTimeout(ctx, time.Duration(timeout)*time.Second)
		cmd := exec.CommandContext(ictx, m.Init.Command, splitArgs(m.Init.Arguments)...)
		cmd.Dir = dir
		setProcessGroup(cmd)
		cmd.Cancel = func() error { return killGroup(cmd) }
		var out tail
		cmd.Stdout, cmd.Stderr = &out, &out
		fmt.Fprintf(logw, "giretra-ref: %s: init: %s %s\n", p.name, m.Init.Command, m.Init.Arguments)
		err := cmd.Run()
		cancel()
		if ictx.Err() == context.DeadlineExceeded {
			return nil, &infraError{fmt.Errorf("init command %q timed out after %ds\n%s", m.Init.Command, timeout, out.String())}
		}
		if err != nil {
			return nil, &infraError{fmt.Errorf("init command %q failed: %v\n%s", m.Init.Command, err, out.String())}
		}
	}
	port := 0
	if m.Launch.Port != nil {
		port = *m.Launch.Port
	} else if port, err = freePort(); err != nil {
		return nil, &infraError{err}
	}
	p.baseURL = "http://localhost:" + strconv.Itoa(port)
	env := os.Environ()
	have := map[string]bool{}
	for k, v := range m.Launch.EnvironmentVariables {
		env = append(env, k+"="+v)
		have[k] = true
	}
	if !have["PORT"] {
		env = append(env, "PORT="+strconv.Itoa(port))
	}
	if !have["LAUNCHER_PID"] {
		env = append(env, "LAUNCHER_PID="+strconv.Itoa(os.Getpid()))
	}
	p.cmd = exec.Command(resolveFile(dir, m.Launch.FileName), splitArgs(m.Launch.Arguments)...)
	p.cmd.Dir = dir
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	setProcessGroup(p.cmd)
	if err := p.cmd.Start(); err != nil {
		return nil, &infraError{fmt.Errorf("starting %s: %w", m.Launch.FileName, err)}
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	fmt.Fprintf(logw, "giretra-ref: %s: started pid %d on %s\n", p.name, p.cmd.Process.Pid, p.baseURL)

	startup := 30
	if m.Launch.StartupTimeout != nil {
		startup = *m.Launch.StartupTimeout
	}
	health := "health"
	if m.Launch.HealthEndpoint != nil {
		health = *m.Launch.HealthEndpoint
	}
	if err := p.waitHealthy(ctx, p.baseURL+"/"+strings.TrimLeft(health, "/"), time.Duration(startup)*time.Second); err != nil {
		p.stop()
		return nil, &infraError{err}
	}
	if err := enginehttp.SmokeTest(ctx, p.baseURL); err != nil {
		p.stop()
		return nil, &infraError{err}
	}
	return p, nil
}

func (p *botProcess) waitHealthy(ctx context.Context, url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return fmt.Errorf("bot process exited prematurely (%v)\n%s", p.cmd.ProcessState, p.out.String())
		default:
		}
		c := &http.Client{Timeout: time.Until(deadline)}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if resp, err := c.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return fmt.Errorf("bot process did not become healthy within %v\n%s", timeout, p.out.String())
}

// stop kills the bot's process tree and waits a little for it.
func (p *botProcess) stop() {
	if p == nil || p.cmd == nil || p.cmd.Process == nil {
		return
	}
	select {
	case <-p.done:
		return
	default:
	}
	_ = killGroup(p.cmd)
	select {
	case <-p.done:
	case <-time.After(3 * time.Second):
	}
}
