package results

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/regress-hbase/regress/harness/version"
)

// SideName is how a side's store name came to be, as fields: a label a
// person gave, or the parts regress made one of. It is written where the
// side is named (sut) and read as fields; the name is rendered from it
// (StoreName, PersonName) and never parsed back. Manifests stored before it
// hold only the name (Manifest.Label); DecodeManifest derives the fields
// from it once (upgradeName).
type SideName struct {
	// Given is the label a person gave (--label); "" when regress named the side.
	Given string `json:"given,omitempty"`
	// ZK is the quorum of a running cluster given no label (--baseline-zk):
	// the side is named by its Role and this ("baseline-zk1-2181").
	ZK string `json:"zk,omitempty"`
	// JarsDigest is the short digest of an RC's or a home's jars, which
	// carry the release's version ("+jars-0a1b2c3d").
	JarsDigest string `json:"jars_digest,omitempty"`
	// RegionServers is the region server count the name holds, above 1 ("+rs3").
	RegionServers int `json:"region_servers,omitempty"`
	// ConfHash is the short hash of the side's settings, JVM options, heap
	// and extra jars ("+conf-0a1b2c3d").
	ConfHash string `json:"conf_hash,omitempty"`
	// Role is the side's role ("baseline", "candidate") where its name
	// holds it: before ZK, or at the end when Apart.
	Role string `json:"role,omitempty"`
	// Apart is true when Role ends the name, to keep an A/A run's two
	// sides, or a candidate measured again, apart ("2.6.1+candidate").
	Apart bool `json:"apart,omitempty"`
	// Made is a name an older build made in a form this one does not take
	// apart, kept whole: never a person's label.
	Made string `json:"made,omitempty"`
}

// StoreName is the name a side of HBase version v named n is stored
// under: the one builder of a store name (KeyOf's target).
func (n SideName) StoreName(v string) string {
	var s string
	switch {
	case n.Made != "":
		s = n.Made
	case n.Given != "":
		s = n.Given
	case n.ZK != "":
		s = n.Role + "-" + sanitizeName(n.ZK)
	default:
		s = v
		if n.JarsDigest != "" {
			s += "+jars-" + n.JarsDigest
		}
		if n.RegionServers > 1 {
			s += fmt.Sprintf("+rs%d", n.RegionServers)
		}
		if n.ConfHash != "" {
			s += "+conf-" + n.ConfHash
		}
	}
	if n.Apart {
		s += "+" + n.Role
	}
	return s
}

// sanitizeName keeps the letters, digits, '.' and '-' of s, and makes any
// other rune a '-': a quorum's "zk1:2181,zk2:2181" as a store name.
func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteRune('-')
		}
	}
	return b.String()
}

// SetName records n as how m's side was named: its fields and, for readers
// of older builds and the store's folders, the name itself (Label; none
// when the name is the version).
func (m *Manifest) SetName(n SideName) {
	m.Naming = &n
	m.Label = ""
	if s := n.StoreName(m.Version); s != m.Version || n.Given != "" {
		m.Label = s
	}
}

// Name is how m's side was named; a manifest made in memory without the
// fields (an import, a test) is named by its label as a person's.
func (m *Manifest) Name() SideName {
	if m.Naming != nil {
		return *m.Naming
	}
	return SideName{Given: m.Label}
}

// StoreName is the name m's side is stored under (KeyOf's target).
func (m *Manifest) StoreName() string { return m.Name().StoreName(m.Version) }

// PersonName names m's side for people (the vote): its release ("2.6.1",
// the build flavour left out), with a label a person gave before it
// ("2.6.1RC1 (2.6.1)"); never a name regress made, such as
// "2.6.1-hadoop3+conf-794b6001" or "baseline-zk1-2181".
func (m *Manifest) PersonName() string {
	rel := version.Release(m.Version)
	if l := m.Name().Given; l != "" && l != m.Version && l != rel {
		return l + " (" + rel + ")"
	}
	return rel
}

// nameParts are the parts regress joins to a version in a name it makes,
// in the order it joins them.
var nameParts = regexp.MustCompile(`^(?:\+jars-([0-9a-f]+))?(?:\+rs([0-9]+))?(?:\+conf-([0-9a-f]+))?$`)

// upgradeName derives the fields of how m's side was named from the name
// a manifest stored before they were written (Label): the one place a
// side's name is read. A person's label holds no '+' (ValidateLabel), so
// one that does was made by regress; a running cluster regress measured
// given no label was named "<role>-<quorum>".
func (m *Manifest) upgradeName() {
	if m.Naming != nil {
		return
	}
	n := SideName{}
	rest := m.Label
	for _, role := range []string{"baseline", "candidate"} {
		if r, ok := strings.CutSuffix(rest, "+"+role); ok {
			rest, n.Role, n.Apart = r, role, true
			break
		}
	}
	switch base, parts, plus := strings.Cut(rest, "+"); {
	case rest == "" || rest == m.Version:
	case plus && base == m.Version && nameParts.MatchString("+"+parts):
		p := nameParts.FindStringSubmatch("+" + parts)
		n.JarsDigest, n.ConfHash = p[1], p[3]
		n.RegionServers, _ = strconv.Atoi(p[2])
	case plus:
		n = SideName{Made: m.Label}
	case m.Provider == "external" && m.Source == "regress" && (strings.HasPrefix(rest, "baseline-") || strings.HasPrefix(rest, "candidate-")):
		role, zk, _ := strings.Cut(rest, "-")
		if n.Apart && n.Role != role {
			n = SideName{Made: m.Label}
			break
		}
		n.Role, n.ZK = role, zk
	default:
		n.Given = rest
	}
	if n.StoreName(m.Version) != cmp.Or(m.Label, m.Version) {
		// Parts this build would write otherwise ("+rs01"): the name stays whole.
		n = SideName{Made: m.Label}
	}
	m.Naming = &n
}
