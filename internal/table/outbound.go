package table

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/botarena/gamebot/internal/problem"
)

// BotHosts says which bot servers a page may seat by URL. A table whose
// seat is a URL makes this server send requests there: were any URL
// allowed, any page could aim the server at the addresses of the
// person's network (and read their answers through the table). So a URL
// is called only when its host is a loopback one (when Loopback is set)
// or one named on the command line, it carries no user name or password,
// redirects are not followed, and a loopback name must connect to a
// loopback address.
type BotHosts struct {
	// Loopback allows localhost, 127.0.0.0/8 and [::1].
	Loopback bool
	// Names are the other hosts allowed: "host" (any port) or
	// "host:port", as given on the command line.
	Names []string
}

// ParseBotHosts reads a list of the hosts bot URLs may name: "loopback"
// (this machine), "none", or comma-separated hosts (host or host:port),
// "loopback" among them if wanted. "" is the default: loopback when the
// tables listen on this machine only (onLoopback), none beyond.
func ParseBotHosts(list string, onLoopback bool) (BotHosts, error) {
	switch v := strings.TrimSpace(list); v {
	case "":
		return BotHosts{Loopback: onLoopback}, nil
	case "none":
		return BotHosts{}, nil
	}
	var b BotHosts
	for _, h := range strings.Split(list, ",") {
		switch h = strings.TrimSpace(h); {
		case h == "":
		case h == "loopback":
			b.Loopback = true
		case strings.ContainsAny(h, "/@ "):
			return b, fmt.Errorf("%q: want host or host:port", h)
		default:
			b.Names = append(b.Names, h)
		}
	}
	return b, nil
}

// Off reports whether no bot URL may be seated.
func (b BotHosts) Off() bool { return !b.Loopback && len(b.Names) == 0 }

// Describe says which URLs are allowed, for the setup form and errors.
func (b BotHosts) Describe() string {
	var parts []string
	if b.Loopback {
		parts = append(parts, "this machine (localhost, 127.0.0.1, [::1])")
	}
	parts = append(parts, b.Names...)
	if len(parts) == 0 {
		return "none: this server was started without bot URLs (gamebot play -bot-hosts)"
	}
	return strings.Join(parts, ", ")
}

// Check reads a bot URL a page sent: a Malformed Problem when it is not
// an http(s) URL of a server, a Forbidden one when its host is not
// allowed.
func (b BotHosts) Check(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return nil, problem.Malformedf("%q is not a bot server's URL (http://host:port/…)", raw)
	}
	if u.User != nil {
		return nil, problem.Malformedf("a bot URL carries no user name or password")
	}
	if b.named(u) || b.Loopback && isLoopbackName(u.Hostname()) {
		return u, nil
	}
	return nil, problem.New(problem.Forbidden, "bot URLs may name %s; not %s", b.Describe(), u.Host)
}

func (b BotHosts) named(u *url.URL) bool {
	return slices.ContainsFunc(b.Names, func(n string) bool {
		nh, np := splitHostPort(n)
		return strings.EqualFold(nh, u.Hostname()) && (np == "" || np == u.Port())
	})
}

func isLoopbackName(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Dial is the dialer for u, a URL Check accepted: a host allowed as a
// loopback one must connect to a loopback address ("localhost" is
// whatever the resolver says); a named host connects where it resolves.
func (b BotHosts) Dial(u *url.URL) func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !b.named(u) {
		d.Control = loopbackOnly
	}
	return d.DialContext
}

// loopbackOnly refuses a connection to anything but a loopback address.
func loopbackOnly(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("refused to connect to %s: bot URLs on this machine only", address)
	}
	return nil
}
