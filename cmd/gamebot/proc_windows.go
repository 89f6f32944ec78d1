//go:build windows

package main

import (
	"errors"
	"syscall"
)

// processQueryLimitedInformation is PROCESS_QUERY_LIMITED_INFORMATION, the
// least access that reads an exit code (the syscall package lacks it).
const processQueryLimitedInformation = 0x1000

// stillActive is STILL_ACTIVE, the exit code of a running process.
const stillActive = 259

// processAlive reports whether process pid is still running. A process
// that cannot be opened for lack of rights exists; one that has exited may
// still be openable while someone holds a handle, hence the exit code.
func processAlive(pid int) bool {
	h, err := syscall.OpenProcess(processQueryLimitedInformation, false, uint32(pid))
	if err != nil {
		return errors.Is(err, syscall.ERROR_ACCESS_DENIED)
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return true // cannot tell: keep serving rather than exit by mistake
	}
	return code == stillActive
}
