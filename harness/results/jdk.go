package results

import (
	"regexp"
	"strconv"
	"strings"
)

// JDK is the Java a side's servers ran on, as fields: written once where
// the JDK was found (sut.StoredJDK) and read as fields, never parsed back
// out of its label. Manifests stored before it hold only the label
// (Environment.JDK); DecodeManifest derives the fields from it once.
type JDK struct {
	// Version is the full version, "11.0.13" ("1.8.0_392" for 8).
	Version string `json:"version"`
	// Major is the feature release: 8, 11, 17, ...; 0 where not known.
	Major int `json:"major"`
	// Options are the suite's JVM options for this JDK that every server
	// ran with (cluster.jvm_opts_by_jdk); a side's own are Manifest.JVMOpts.
	Options []string `json:"options,omitempty"`
	// Java is the java executable: shown, never compared.
	Java string `json:"java,omitempty"`
}

// Label names the JDK as a store records it (Environment.JDK):
// "JDK 11.0.13 -XX:-TieredCompilation (/opt/jdk11/bin/java)"; "" for none.
func (j JDK) Label() string {
	if j.Java == "" && j.Version == "" {
		return ""
	}
	s := "JDK " + j.Words()
	if j.Java != "" {
		s += " (" + j.Java + ")"
	}
	return s
}

// Words is the JDK as a person reads it beside the word "JDK": its version
// and options, "11.0.13 -XX:-TieredCompilation".
func (j JDK) Words() string {
	return strings.Join(append([]string{j.Version}, j.Options...), " ")
}

// Brief is Words with the java a JDK found on PATH ran as ("17.0.15
// (java)"), leaving out the path of this machine's java: a vote names the
// JDK, not where one machine keeps it.
func (j JDK) Brief() string {
	if j.Java != "" && !strings.HasPrefix(j.Java, "/") {
		return j.Words() + " (" + j.Java + ")"
	}
	return j.Words()
}

// SetJDK records j as the side's JDK: its fields and, for readers of older
// builds, its label.
func (e *Environment) SetJDK(j JDK) {
	e.JDK, e.JDKParts = j.Label(), &j
}

// jdkMajorRE is the feature release in a version: 11 of 11.0.13, 8 of 1.8.0_392.
var jdkMajorRE = regexp.MustCompile(`^(?:1\.)?([0-9]+)`)

// upgradeJDK derives the JDK's fields from the label a manifest stored
// before they were written ("JDK 11.0.13 -XX:-TieredCompilation (/x/java)"):
// the one place a JDK label is read. A label naming no version derives
// none, and the side's JDK is then unknown.
func (e *Environment) upgradeJDK() {
	if e.JDKParts != nil || e.JDK == "" {
		return
	}
	head, java, found := strings.Cut(e.JDK, " (")
	f := strings.Fields(head)
	if len(f) > 0 && f[0] == "JDK" {
		f = f[1:]
	}
	if len(f) == 0 {
		return
	}
	j := JDK{Version: f[0], Options: f[1:]}
	if found {
		j.Java = strings.TrimSuffix(java, ")")
	}
	if m := jdkMajorRE.FindStringSubmatch(j.Version); m != nil {
		j.Major, _ = strconv.Atoi(m[1])
	}
	if len(j.Options) == 0 {
		j.Options = nil
	}
	e.JDKParts = &j
}
