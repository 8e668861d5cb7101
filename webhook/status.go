package webhook

import "strings"

// IsFinished reports whether a scan status is final: the status field of a
// callback's payload, or of a scan read with GET /scans/{scan_id}. Material about this API
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
