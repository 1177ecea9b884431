package cluster

import (
	"path/filepath"
	"strings"
)

// Flavours of an HBase 2.x release's Maven artifacts: the plain build
// (2.6.3, Hadoop 2 client jars in the 2.x lines) and the -hadoop3 build
// (2.6.1-hadoop3, Hadoop 3's), which is not published for every release
// (2.6.2 and 2.6.3 have none on Maven Central).
const (
	FlavourPlain   = "plain"
	FlavourHadoop3 = "hadoop3"
)

// Flavour names the build an artifact version is: FlavourHadoop3 for a
// -hadoop3 version, else FlavourPlain.
func Flavour(artifact string) string {
	if strings.HasSuffix(artifact, "-hadoop3") {
		return FlavourHadoop3
	}
	return FlavourPlain
}

// ExplicitFlavour says whether a requested version names its build itself
// (2.6.1-hadoop3), rather than leaving regress to prefer the -hadoop3 one.
func ExplicitFlavour(v string) bool { return strings.Contains(v, "-hadoop") }

// HadoopStack returns the version of the Hadoop client stack on a class
// path, as its hadoop-common jar names it ("2.10.2", "3.4.1"); "" when no
// such jar is on it.
func HadoopStack(jars []string) string {
	for _, j := range jars {
		name := filepath.Base(j)
		v, ok := strings.CutPrefix(name, "hadoop-common-")
		if !ok || !strings.HasSuffix(v, ".jar") {
			continue
		}
		v = strings.TrimSuffix(v, ".jar")
		if strings.HasSuffix(v, "-tests") || v == "" || v[0] < '0' || v[0] > '9' {
			continue
		}
		return v
	}
	return ""
}
