package job

import (
	"cmp"
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
// directory when --scenarios is not given; DefaultScenariosDir is it when
// neither is.
const (
	ScenariosEnv        = "REGRESS_SCENARIOS"
	DefaultScenariosDir = "scenarios"
)

// DefaultScenarios is the scenarios directory when --scenarios is not
// given: ScenariosEnv's value, else DefaultScenariosDir.
func DefaultScenarios() string {
	return cmp.Or(os.Getenv(ScenariosEnv), DefaultScenariosDir)
}
