package job

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/fault"
)

// TestLoadSuiteRefusesAClusterSectionNoProviderStarts checks that a suite's
// cluster section is refused when the suite is loaded (by sut.CheckSuite),
// naming the suite file and the key, before any cluster starts.
func TestLoadSuiteRefusesAClusterSectionNoProviderStarts(t *testing.T) {
	scen, _ := filepath.Abs(filepath.Join("..", "..", "scenarios"))
	dir := t.TempDir()
	for _, tc := range []struct{ section, want string }{
		{"cluster: {region_servers: 2, rs_heap: 2g}", ""},
		{"cluster: {region_servers: 99}", "cluster: region servers: 99 is out of range"},
		{"cluster: {rs_heap: 2gb}", "512m or 2g"},
		{"cluster: {region_servers: 5}", "cluster.region_servers: 5 servers need at least as many seed regions"},
	} {
		p := filepath.Join(dir, "s.yaml")
		if err := os.WriteFile(p, []byte("workloads: [workloada]\ndata: {recordcount: 1000, regions: 4}\n"+tc.section+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadSuite(scen, p)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v, want it loaded", tc.section, err)
			}
			continue
		}
		var ue *fault.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "suite "+p+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a usage error naming the suite and saying %q", tc.section, err, tc.want)
		}
	}
}
