package job

import (
	"os"
	"time"
)

// The suites each command runs when --suite is not given (scenarios/suites/NAME.yaml).
const (
	// DefaultSuite is the main job's, `regress run`'s and `regress plan`'s.
	DefaultSuite = "release"
	// SweepSuite is `regress history`'s and `regress bisect`'s: a sweep
	// measures many releases, so it takes the short suite.
	SweepSuite = "smoke"
	// CapacitySuite is `regress capacity`'s: its capacity: section drives the sweep.
	CapacitySuite = "capacity"
)

// ReportsDir is where reports are written when --out is not given:
// ReportsDir/<timestamp>, ReportsDir/history-<timestamp> for history.
const ReportsDir = "reports"

// DefaultDoctorTimeout is how long `regress doctor` waits for a cluster to answer.
const DefaultDoctorTimeout = 10 * time.Second

// ScenariosEnv names the environment variable that gives the scenarios
// folder when --scenarios is not given; without either, suites and
// workload files are the ones built into the binary (package scenarios).
const ScenariosEnv = "REGRESS_SCENARIOS"

// DefaultScenarios is the scenarios folder when --scenarios is not given:
// ScenariosEnv's value, else "" (the built-in scenarios).
func DefaultScenarios() string {
	return os.Getenv(ScenariosEnv)
}

// BuiltinScenarios names the scenarios built into the binary in messages.
const BuiltinScenarios = "the built-in scenarios"
