package checks

func trustChecks() []*Check { return nil }
