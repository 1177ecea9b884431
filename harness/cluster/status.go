package cluster

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// What `regress cluster versions` knows of a version without asking Maven.
const (
	statusCached    = "cached"
	statusNotServed = "not served"
)

// versionsFile remembers, per version, what a resolution found: cached, or
// not served (listed by the metadata but its jars unreachable from here).
const versionsFile = "versions.json"

// versionStatus is one remembered answer.
type versionStatus struct {
	Status  string    `json:"status"`
	Checked time.Time `json:"checked"`
}

// remember records what resolving version found; repositories other than
// Maven's own are not remembered (their content is keyed by checksum).
func (c *artifactCache) remember(version, repo, status string) {
	if repo != "" {
		return
	}
	m := c.remembered()
	m[version] = versionStatus{Status: status, Checked: time.Now().UTC()}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(c.root, ".versions-*.json")
	if err != nil {
		c.log.Debug("cannot remember version status", "err", err)
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if err := os.Rename(tmp.Name(), filepath.Join(c.root, versionsFile)); err != nil {
		os.Remove(tmp.Name())
	}
}

// remembered reads the remembered statuses (empty when none).
func (c *artifactCache) remembered() map[string]versionStatus {
	m := map[string]versionStatus{}
	if b, err := os.ReadFile(filepath.Join(c.root, versionsFile)); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}
