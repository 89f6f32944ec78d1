package players

import (
	"context"
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

	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/internal/procgroup"
	"github.com/botarena/gamebot/meta"
)

// SplitArgs splits an arguments string like a command line: spaces
// separate, double quotes group, backslash escapes a quote.
func SplitArgs(s string) []string {
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

// Launched is a bot server started from its folder.
type Launched struct {
	Name   string    // the bot's AgentName
	URL    string    // where it listens
	Meta   *meta.Bot // its bot.meta.json
	Events [6]bool   // the notifications its bot.meta.json asks for
	cmd    *exec.Cmd
	out    tail
	done   chan struct{} // closed when the process exits
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

// Launch starts the bot of folder dir as the engine does: it runs the
// folder's init command, starts the bot with PORT and LAUNCHER_PID, polls
// GET /{health} every 200 ms until a 2xx (up to startupTimeout), then runs
// the smoke test. log (nil: none) is told the init command and the
// process started.
func Launch(ctx context.Context, dir string, log func(string)) (*Launched, error) {
	if log == nil {
		log = func(string) {}
	}
	// The commands run in dir and name their files relative to it: an
	// absolute dir keeps a relative one from being joined twice (once by
	// resolveFile, once by exec against cmd.Dir).
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	m, err := meta.Read(dir)
	if err != nil {
		return nil, err
	}
	p := &Launched{Name: m.AgentName, Meta: m, Events: BotEvents(m), done: make(chan struct{})}
	if m.Init != nil {
		ictx, cancel := context.WithTimeout(ctx, m.Init.Timeout)
		cmd := exec.CommandContext(ictx, m.Init.Command, SplitArgs(m.Init.Arguments)...)
		cmd.Dir = dir
		procgroup.Set(cmd)
		cmd.Cancel = func() error { return procgroup.Kill(cmd) }
		var out tail
		cmd.Stdout, cmd.Stderr = &out, &out
		log(fmt.Sprintf("%s: init: %s %s", p.Name, m.Init.Command, m.Init.Arguments))
		err := cmd.Run()
		cancel()
		if ictx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("init command %q timed out after %v\n%s", m.Init.Command, m.Init.Timeout, out.String())
		}
		if err != nil {
			return nil, fmt.Errorf("init command %q failed: %v\n%s", m.Init.Command, err, out.String())
		}
	}
	port := m.Launch.Port
	if port == 0 {
		if port, err = freePort(); err != nil {
			return nil, err
		}
	}
	p.URL = "http://localhost:" + strconv.Itoa(port)
	env := os.Environ()
	for k, v := range m.Launch.Env {
		env = append(env, k+"="+v)
	}
	// The engine adds PORT and LAUNCHER_PID with TryAdd: the file's own
	// values win.
	if _, ok := m.Launch.Env["PORT"]; !ok {
		env = append(env, "PORT="+strconv.Itoa(port))
	}
	if _, ok := m.Launch.Env["LAUNCHER_PID"]; !ok {
		env = append(env, "LAUNCHER_PID="+strconv.Itoa(os.Getpid()))
	}
	p.cmd = exec.Command(resolveFile(dir, m.Launch.FileName), SplitArgs(m.Launch.Arguments)...)
	p.cmd.Dir = dir
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	procgroup.Set(p.cmd)
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", m.Launch.FileName, err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	log(fmt.Sprintf("%s: started pid %d on %s", p.Name, p.cmd.Process.Pid, p.URL))

	if err := p.waitHealthy(ctx, p.URL+m.Launch.HealthPath(), m.Launch.StartupTimeout); err != nil {
		p.Stop()
		return nil, err
	}
	if err := remote.SmokeTest(ctx, p.URL); err != nil {
		p.Stop()
		return nil, err
	}
	return p, nil
}

func (p *Launched) waitHealthy(ctx context.Context, url string, timeout time.Duration) error {
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

// Stop kills the bot's process tree and waits a little for it.
func (p *Launched) Stop() {
	if p == nil || p.cmd == nil || p.cmd.Process == nil {
		return
	}
	select {
	case <-p.done:
		return
	default:
	}
	_ = procgroup.Kill(p.cmd)
	select {
	case <-p.done:
	case <-time.After(3 * time.Second):
	}
}
