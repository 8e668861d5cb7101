package checks

func visibilityChecks() []*Check { return nil }
