//go:build !unix

package procgroup

import "os/exec"

// Set does nothing where there are no process groups.
func Set(*exec.Cmd) {}

// Kill kills cmd's process.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
