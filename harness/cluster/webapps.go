package cluster

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/regress-hbase/regress/harness/atomicfile"
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

// webappsStubJar is the file name of the empty web app a cluster whose
// hbase-server jar lacks its web resources gets in its work dir's conf/.
const webappsStubJar = "regress-hbase-webapps.jar"

// webappsStubEntries are the stub's entries: the directories HBase's
// HttpServer looks up on the class path (getWebAppsPath: the web app's
// own, and static/ beside it for the /static context), as a release's
// hbase-server jar lays them out, with nothing in them.
var webappsStubEntries = []string{"hbase-webapps/", webappsEntry, "hbase-webapps/static/"}

// writeWebappsStub writes the empty web app's jar at path.
func writeWebappsStub(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating %s for the info server's web app: %w", filepath.Dir(path), err)
	}
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		zw := zip.NewWriter(w)
		for _, e := range webappsStubEntries {
			if _, err := zw.Create(e); err != nil {
				return err
			}
		}
		return zw.Close()
	})
	if err != nil {
		return fmt.Errorf("writing the info server's empty web app %s: %w", path, err)
	}
	return nil
}
