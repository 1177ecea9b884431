package sut

import (
	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/results"
)

// StoredJDK is j as the store keeps it, with opts the suite's JVM options
// for it that every server ran with (cluster.Info.JDKOpts); the zero JDK
// for a JDK not found.
func StoredJDK(j cluster.JDK, opts []string) results.JDK {
	if j.Java == "" {
		return results.JDK{}
	}
	return results.JDK{Version: j.Version, Major: j.Major, Options: opts, Java: j.Java}
}
