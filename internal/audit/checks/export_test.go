package checks

// For the external tests: the evidence rule every result keeps, and the
// time the package's tests run at.
var (
	RequireResult = requireResult
	TestNow       = testNow
)
