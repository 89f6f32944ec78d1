//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the child in its own process group, so that
// killGroup ends the whole tree it starts (the engine kills the tree).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the process group led by cmd's process (the one this
// program started), falling back to the process alone.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err == nil {
		return nil
	}
	return cmd.Process.Kill()
}
