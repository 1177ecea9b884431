package cluster

import (
	"archive/zip"
	"path/filepath"
	"strings"
)

// webappsEntry is the resource directory a region server's info server
// needs; HBase's server jar carries it, but not every jar tree Maven
// resolves does.
const webappsEntry = "hbase-webapps/regionserver/"

// servesWebapps reports whether one of jars (the hbase-server jar, in
// practice) holds the region server's web resources.
func servesWebapps(jars []string) bool {
	for _, j := range jars {
		if !strings.HasPrefix(filepath.Base(j), "hbase-server") {
			continue
		}
		if jarHas(j, webappsEntry) {
			return true
		}
	}
	return false
}

// jarHas reports whether the jar at path has an entry name (or entries under it).
func jarHas(path, name string) bool {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return false
	}
	defer zr.Close()
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, name) {
			return true
		}
	}
	return false
}
