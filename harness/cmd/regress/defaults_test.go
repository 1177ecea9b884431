package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/capacity/section"
	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/hbase"
	"github.com/regress-hbase/regress/harness/job"
	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/loadhosts"
	"github.com/regress-hbase/regress/harness/report"
	"github.com/regress-hbase/regress/harness/results"
	"github.com/regress-hbase/regress/harness/suite"
	"github.com/regress-hbase/regress/harness/sut"
	"github.com/regress-hbase/regress/harness/ycsbfmt"
)

// TestDefaultsComeFromTheirOwners: every default a flag takes, and every
// default its help states, is the owning package's value, so changing it
// there changes the CLI and its help with it.
func TestDefaultsComeFromTheirOwners(t *testing.T) {
	tests := []struct {
		cmd  string // the command's path below regress ("" for the main job)
		flag string
		def  string // the flag's default; "" when only its help is checked
		help string // what the flag's help (or the command's, flag "") must say; "" for nothing
	}{
		{"", "suite", job.DefaultSuite, ""},
		{"run", "suite", job.DefaultSuite, ""},
		{"plan", "suite", job.DefaultSuite, ""},
		{"history", "suite", job.SweepSuite, ""},
		{"bisect", "suite", job.SweepSuite, ""},
		{"capacity", "suite", job.CapacitySuite, ""},
		{"import-ycsb", "suite", ycsbfmt.DefaultImportSuite, ""},
		{"", "store", results.DefaultRoot, ""},
		{"compare", "store", results.DefaultRoot, ""},
		{"results list", "store", results.DefaultRoot, ""},
		{"", "provider", sut.DefaultProvider, ""},
		{"", "znode", hbase.DefaultZNodeParent, ""},
		{"doctor", "znode", hbase.DefaultZNodeParent, ""},
		{"doctor", "timeout", job.DefaultDoctorTimeout.String(), ""},
		{"cluster up", "start-timeout", cluster.DefaultStartTimeout.String(), ""},
		{"worker", "zk-timeout", loadhosts.DefaultConnectTimeout.String(), ""},
		{"worker", "root", loadhosts.DefaultRoot, ""},
		{"", "load-hosts-timeout", loadhosts.DefaultHostsTimeout.String(), ""},
		{"", "format", report.FormatText, ""},
		{"history", "format", report.FormatText, ""},
		{"", "out", "", job.ReportsDir + "/<timestamp>"},
		{"history", "out", "", job.ReportsDir + "/history-<timestamp>"},
		{"", "instances", "", "else " + strconv.Itoa(suite.DefaultInstances)},
		{"", "rs-heap", "", "else " + cluster.DefaultRSHeap},
		{"cluster up", "rs-heap", "", "default " + cluster.DefaultRSHeap},
		{"", "scenarios", "", job.ScenariosEnv},
		{"", "cache-dir", "", cluster.CacheDirEnv},
		{"", "wide", "", strconv.Itoa(report.TextWidth) + " columns"},
		{"run", "", "", results.DefaultRoot + "/ by default"},
		{"capacity", "", "", "slo_p50 (default " + section.Defaults().SLOP50.String()},
		{"capacity", "", "", strconv.Itoa(int(loadgen.HoldThreshold*100)) + "% of the target"},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSpace(tt.cmd+" --"+tt.flag), func(t *testing.T) {
			root := newRootCmd()
			c, _, err := root.Find(strings.Fields(tt.cmd))
			if err != nil {
				t.Fatal(err)
			}
			if tt.flag == "" {
				if !strings.Contains(c.Long, tt.help) {
					t.Errorf("regress %s's help does not say %q:\n%s", tt.cmd, tt.help, c.Long)
				}
				return
			}
			f := c.Flags().Lookup(tt.flag)
			if f == nil {
				t.Fatalf("regress %s has no --%s", tt.cmd, tt.flag)
			}
			if tt.def != "" && f.DefValue != tt.def {
				t.Errorf("default %q, want %q", f.DefValue, tt.def)
			}
			if !strings.Contains(f.Usage, tt.help) {
				t.Errorf("help %q does not say %q", f.Usage, tt.help)
			}
		})
	}
}
