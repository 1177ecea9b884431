package report

// Test helpers for the external tests (package report_test), which may
// import packages that import report, such as capacity's sections.
var (
	Chromium    = chromium
	CountColour = countColour
)
