package client

// This file is written by hand beside the generated code: it is support for
// clients, not part of the contract.

import "strings"

// IsFinished reports whether a scan status is final. Material about this API
// has shown the finished state as "completed", "complete" and upper-case
// forms; they are all the same state, and so are "failed" and "FAILED".
func IsFinished(status string) bool {
	switch strings.ToLower(strings.TrimSpace(status)) {
	case "completed", "complete", "failed":
		return true
	}
	return false
}

// IsCompleted reports whether a status is the successful final state,
// accepting "complete" as well as "completed", in any case.
func IsCompleted(status string) bool {
	s := strings.ToLower(strings.TrimSpace(status))
	return s == "completed" || s == "complete"
}
