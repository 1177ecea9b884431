package sut

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/regress-hbase/regress/harness/cluster"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/results"
)

// Name is the store target: the label when there is one, else the version
// plus what makes it another build or another machine: a digest of an RC's
// or home's jars, the region server count, and a short hash of any
// settings, so a configuration change never mixes with plain trials.
func Name(t *Target) string { return t.SideName().StoreName(t.Version) }

// SideName is how t is named, as the fields its manifest records: its
// label, or the running cluster's quorum, or the parts made of its build
// (jars, region servers, settings), with its role when kept apart.
func (t *Target) SideName() results.SideName {
	var n results.SideName
	switch {
	case t.Label != "":
		n.Given = t.Label
	case t.zkRole != "":
		n.Role, n.ZK = t.zkRole, t.ZK
	default:
		if t.Repository != "" || t.Home != "" {
			// Jars from an RC carry the release's version: their own digest keeps
			// them apart from the release and from other RCs.
			if d := cluster.JarsDigest(t.Checksums); d != "" {
				n.JarsDigest = d[:8]
			}
		}
		if t.RegionServers > 1 {
			// Results of N region servers are stored apart from standalone ones.
			n.RegionServers = t.RegionServers
		}
		n.ConfHash = confHash(t)
	}
	if t.apart != "" {
		n.Role, n.Apart = t.apart, true
	}
	return n
}

// confHash is a short hash of t's settings, JVM options, heap and extra
// jars, "" when it has none.
func confHash(t *Target) string {
	if len(t.Settings) == 0 && len(t.JVMOpts) == 0 && t.RSHeap == "" && len(t.Jars) == 0 {
		return ""
	}
	keys := make([]string, 0, len(t.Settings))
	for k := range t.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s\n", k, t.Settings[k])
	}
	for _, o := range t.JVMOpts {
		fmt.Fprintf(h, "jvm:%s\n", o)
	}
	if t.RSHeap != "" {
		fmt.Fprintf(h, "rs_heap:%s\n", t.RSHeap)
	}
	for _, j := range t.Jars {
		// The jar's content, not its name: a rebuilt coprocessor is another build.
		fmt.Fprintf(h, "jar:%s:%s\n", filepath.Base(j), fileDigest(j))
	}
	return hex.EncodeToString(h.Sum(nil))[:8]
}

// StoredNames are the store targets a side started from s with topology t
// is stored under, known before it starts, for the side's stored trials to
// be found in its place (--reuse-baseline): its label, else the version (or
// its -hadoop3 build) with its region servers, settings, JVM options, heap
// and jars, as Name makes them. A side from an RC's repository or a home
// has no such name until its jars are fetched and read (their digest joins
// it): that is an error saying what to do instead.
func (s Spec) StoredNames(t Topology) ([]string, error) {
	if s.Label != "" {
		return []string{s.Label}, nil
	}
	switch {
	case s.ZK != "":
		return nil, fault.Usagef("%s names a running cluster, whose stored results are named by a label: give %s NAME, the label they were stored under", s.flag("-zk"), s.flag("-label"))
	case s.Home != "" || s.Repo != "":
		from := s.flag("-repo")
		if s.Home != "" {
			from = s.flag("-home")
		}
		return nil, fault.Usagef("the stored trials of %s are named by a digest of its jars, known only once they are fetched: store them under a label (`regress run ... --label NAME`) and give %s NAME", from, s.flag("-label"))
	}
	settings, err := s.settings()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, v := range []string{s.Version, s.Version + "-hadoop3"} {
		out = append(out, Name(&Target{Version: v, Settings: settings, JVMOpts: s.JVMOpts, Jars: s.Jars,
			RegionServers: max(t.RegionServers, 1), RSHeap: t.RSHeap}))
	}
	return out, nil
}

// StoredName is the name a version started with topology t is stored
// under, with no settings, label or jars of its own: what history looks up.
func StoredName(version string, t Topology) string {
	return Name(&Target{Version: version, RegionServers: max(t.RegionServers, 1), RSHeap: t.RSHeap})
}

// DistinctNames keeps two sides with the same version and settings (an A/A run) apart in the store.
func DistinctNames(b, c *Target) {
	if b.Name == c.Name {
		b.apart, c.apart = Baseline, Candidate
		b.Name, c.Name = Name(b), Name(c)
	}
}

// ApartFrom keeps a candidate measured again apart from the stored trials
// it is compared with (--reuse-baseline): the same name would land among them.
func ApartFrom(t *Target, stored string) {
	if t.Name == stored {
		t.apart = Candidate
		t.Name = Name(t)
	}
}

// fileDigest is the hex SHA-256 of a file's content, or "" when unreadable.
func fileDigest(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
