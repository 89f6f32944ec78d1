package flipsight

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// HostOS is the operating system the connector reports: GOOS/GOARCH.
func HostOS() string { return truncate(runtime.GOOS+"/"+runtime.GOARCH, 120) }

// HostCPU is the CPU the connector reports: its model from /proc/cpuinfo
// (Linux) with the thread count, else the architecture and the count.
// FlipSight shows at most 120 characters of either.
func HostCPU() string {
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				return truncate(fmt.Sprintf("%s (%d threads)", strings.TrimSpace(v), runtime.NumCPU()), 120)
			}
		}
	}
	return truncate(fmt.Sprintf("%s, %d threads", runtime.GOARCH, runtime.NumCPU()), 120)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
