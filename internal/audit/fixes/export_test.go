package fixes

// For the external tests: the strict patch applier.
var ApplyUnifiedDiff = applyUnifiedDiff
