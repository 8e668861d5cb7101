package webhook

import "testing"

func TestStatusHelpers(t *testing.T) {
	t.Parallel()
	for status, want := range map[string][2]bool{
		"completed": {true, true}, "COMPLETED": {true, true}, "complete": {true, true}, " Complete ": {true, true},
		"failed": {true, false}, "FAILED": {true, false},
		"pending": {false, false}, "running": {false, false}, "": {false, false},
	} {
		if IsFinished(status) != want[0] || IsCompleted(status) != want[1] {
			t.Errorf("%q: IsFinished=%v IsCompleted=%v, want %v", status, IsFinished(status), IsCompleted(status), want)
		}
	}
}
