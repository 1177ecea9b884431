package job

import (
	"errors"
	"strings"
	"testing"

	"github.com/regress-hbase/regress/harness/fault"
)

func TestSideFlagsAreRefusedByTheirOwnNames(t *testing.T) {
	for _, c := range []struct {
		role string
		side Side
		want string
	}{
		{"candidate", Side{}, "give --candidate VERSION"},
		{"run", Side{}, "give --version VERSION"},
		{"run", Side{Repo: "file:///r"}, "--repo needs --version VERSION"},
		{"baseline", Side{Home: "/h", Repo: "file:///r"}, "--baseline-home and --baseline-repo exclude each other"},
		{"run", Side{ZK: "h:1", JavaHome: "/j"}, "--java-home applies only to clusters regress starts, not to --zk"},
		{"candidate", Side{Version: "2.6.1", Conf: []string{"novalue"}}, `--candidate-conf "novalue": write key=value`},
	} {
		_, err := c.side.Check(c.role)
		var ue *fault.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want a usage error saying %q", c.role, c.side, err, c.want)
		}
	}
	s, err := Side{Version: "2.6.1", Conf: []string{"a.b= x=y"}}.Check("baseline")
	if err != nil || s.Conf["a.b"] != " x=y" || s.Role != "baseline" {
		t.Fatalf("a good side: %+v, %v", s, err)
	}
}
