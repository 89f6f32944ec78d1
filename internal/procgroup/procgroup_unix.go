//go:build unix

// Package procgroup starts a child command in a process group of its own
// and ends the whole group, as the Giretra engine ends a bot and the
// FlipSight connector an engine: the child's own children go with it.
// Where there are no process groups (Windows), the child alone is ended.
package procgroup

import (
	"os/exec"
	"syscall"
)

// Set makes cmd, when started, the leader of a new process group.
func Set(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// Kill kills the process group led by cmd's process (started after Set),
// falling back to the process alone.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err == nil {
		return nil
	}
	return cmd.Process.Kill()
}
