package cluster

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/version"
)

// Logging jars added to the resolved tree: HBase's artifacts leave the backend
// to the assembly, and without one nothing is logged. 2.17.2 is the log4j2
// release HBase 2.5/2.6 ship in their tarballs.
const log4jVersion = "2.17.2"

// pomTemplate is the generated project whose runtime dependency tree is the
// standalone classpath. Hadoop's own logging bindings are excluded so that
// exactly one slf4j binding (log4j2) remains.
const pomTemplate = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>regress.local</groupId>
  <artifactId>hbase-standalone-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
%[3]s  <dependencies>
    <dependency>
      <groupId>org.apache.hbase</groupId>
      <artifactId>hbase-server</artifactId>
      <version>%[1]s</version>
      <exclusions>
        <exclusion><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId></exclusion>
        <exclusion><groupId>org.slf4j</groupId><artifactId>slf4j-log4j12</artifactId></exclusion>
        <exclusion><groupId>ch.qos.reload4j</groupId><artifactId>reload4j</artifactId></exclusion>
        <exclusion><groupId>log4j</groupId><artifactId>log4j</artifactId></exclusion>
        <exclusion><groupId>jdk.tools</groupId><artifactId>jdk.tools</artifactId></exclusion>
      </exclusions>
    </dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-api</artifactId><version>%[2]s</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>%[2]s</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>%[2]s</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-1.2-api</artifactId><version>%[2]s</version></dependency>
  </dependencies>
</project>
`

// repositoriesXML declares repo (if any) in the generated pom, ahead of Central.
func repositoriesXML(repo string) string {
	if repo == "" {
		return ""
	}
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(repo))
	return "  <repositories>\n    <repository><id>regress-repo</id><url>" + b.String() +
		"</url><releases><enabled>true</enabled></releases><snapshots><enabled>true</enabled></snapshots></repository>\n  </repositories>\n"
}

// maven runs mvn for the artifact cache.
type maven struct {
	path string
	log  *slog.Logger
	// repo is a repository searched before Maven's own, and repoLocal the
	// local repository used with it (so its jars never reach ~/.m2).
	repo, repoLocal string
}

// withRepo returns a copy of m that resolves from repo first, into repoLocal.
func (m *maven) withRepo(repo, repoLocal string) *maven {
	c := *m
	c.repo, c.repoLocal = repo, repoLocal
	return &c
}

// run executes mvn in dir with args and returns its combined output.
func (m *maven) run(ctx context.Context, dir string, args ...string) (string, error) {
	full := []string{"-B", "-q"}
	if m.repoLocal != "" {
		full = append(full, "-Dmaven.repo.local="+m.repoLocal)
	}
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, m.path, full...)
	cmd.Env = mavenEnv()
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	m.log.Debug("mvn", "args", full, "dir", dir, "took", time.Since(start), "err", err)
	return out.String(), err
}

// ansiRE matches terminal colour codes, which some Maven builds print even in batch mode.
var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

// isNotFound says whether mvn output reports hbase-server:<version> itself as
// absent (as opposed to a network failure or a missing transitive dependency).
func isNotFound(out, version string) bool {
	art := regexp.QuoteMeta("org.apache.hbase:hbase-server:") + `(jar|pom):` + regexp.QuoteMeta(version)
	re := regexp.MustCompile(`(Could not find artifact |Failure to find )` + art + `(\s|$)|` + art + ` was not found in`)
	return re.MatchString(ansiRE.ReplaceAllString(out, ""))
}

// errDependencyNotServed marks a resolution Maven answered definitely: an
// artifact of the version's runtime tree is absent from the repositories
// (2.6.5's hbase-common jars), not a network or Maven failure.
var errDependencyNotServed = errors.New("an artifact of its runtime tree is not served")

// missingArtifactRE matches Maven's words for an artifact a repository
// answered it does not have (a 404, or one cached from an earlier try).
var missingArtifactRE = regexp.MustCompile(`(Could not find artifact |Failure to find )\S+|\S+ was not found in `)

// isArtifactMissing says whether mvn output reports an artifact as absent
// from the repositories: a definite answer, unlike a transfer that failed.
func isArtifactMissing(out string) bool {
	return missingArtifactRE.MatchString(ansiRE.ReplaceAllString(out, ""))
}

// mavenErrorLines returns the first [ERROR] line of mvn output (Maven puts
// the cause there; the rest is boilerplate), or the output's tail.
func mavenErrorLines(out string) string {
	out = ansiRE.ReplaceAllString(out, "")
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if msg, ok := strings.CutPrefix(l, "[ERROR]"); ok && strings.TrimSpace(msg) != "" {
			msg = strings.TrimSpace(msg)
			if len(msg) > 800 {
				msg = msg[:800] + "..."
			}
			return msg
		}
	}
	return strings.Join(tailLines(out, 5), " | ")
}

// copyDependencies resolves hbase-server:version's runtime tree into dir/lib.
func (m *maven) copyDependencies(ctx context.Context, dir, version string) error {
	pom := fmt.Sprintf(pomTemplate, version, log4jVersion, repositoriesXML(m.repo))
	if err := os.WriteFile(filepath.Join(dir, "pom.xml"), []byte(pom), 0o644); err != nil {
		return fmt.Errorf("writing generated pom for %s: %w", version, err)
	}
	out, err := m.run(ctx, dir, "dependency:copy-dependencies", "-DincludeScope=runtime",
		"-DoutputDirectory="+filepath.Join(dir, "lib"))
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("resolving HBase %s with mvn: %w", version, ctx.Err())
	}
	if isNotFound(out, version) {
		return &VersionNotFoundError{Version: version}
	}
	if isArtifactMissing(out) {
		return fmt.Errorf("resolving HBase %s with mvn: %w: %w: %s", version, errDependencyNotServed, err, mavenErrorLines(out))
	}
	return fmt.Errorf("resolving HBase %s with mvn (check network access and ~/.m2/settings.xml): %w: %s", version, err, mavenErrorLines(out))
}

// publishedVersions asks Maven for hbase-server's metadata (refreshing it with
// -U, through whatever repositories the user's settings name) and returns the
// versions it lists. It resolves the RELEASE meta-version because that makes
// Maven download maven-metadata.xml into the local repository, where it is read.
func (m *maven) publishedVersions(ctx context.Context) ([]string, error) {
	tmp, err := os.MkdirTemp("", "regress-mvn-")
	if err != nil {
		return nil, fmt.Errorf("creating temp dir for mvn: %w", err)
	}
	defer os.RemoveAll(tmp)
	out, getErr := m.run(ctx, tmp, "-U", "dependency:get",
		"-Dartifact=org.apache.hbase:hbase-server:RELEASE:pom", "-Dtransitive=false")
	repo := m.localRepo(ctx, tmp)
	vs, readErr := readMetadataVersions(filepath.Join(repo, "org", "apache", "hbase", "hbase-server"))
	if getErr != nil {
		if len(vs) > 0 {
			// Stale metadata still names real releases; say it may be old.
			m.log.Warn("could not refresh the hbase-server version list from Maven; using the local copy", "err", mavenErrorLines(out))
			return vs, nil
		}
		return nil, fmt.Errorf("listing hbase-server versions with mvn: %w: %s", getErr, mavenErrorLines(out))
	}
	if readErr != nil {
		return nil, readErr
	}
	return vs, nil
}

// localRepo asks Maven where its local repository is, falling back to the
// default ~/.m2/repository.
func (m *maven) localRepo(ctx context.Context, dir string) string {
	out, err := m.run(ctx, dir, "help:evaluate", "-Dexpression=settings.localRepository", "-DforceStdout")
	if p := strings.TrimSpace(out); err == nil && p != "" && !strings.Contains(p, "\n") && filepath.IsAbs(p) {
		return p
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".m2", "repository")
}

// readMetadataVersions reads every maven-metadata*.xml in dir (one per remote
// repository) and returns the union of the versions listed.
func readMetadataVersions(dir string) ([]string, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "maven-metadata*.xml"))
	if len(files) == 0 {
		return nil, fmt.Errorf("no maven-metadata*.xml for hbase-server in %s", dir)
	}
	var all []string
	var errs []error
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var md struct {
			Versions []string `xml:"versioning>versions>version"`
		}
		if err := xml.Unmarshal(b, &md); err != nil {
			errs = append(errs, fmt.Errorf("parsing %s: %w", f, err))
			continue
		}
		for _, v := range md.Versions {
			if version.Validate(v) == nil {
				all = append(all, v)
			}
		}
	}
	if len(all) == 0 {
		return nil, errors.Join(append(errs, fmt.Errorf("no versions in %v", files))...)
	}
	return version.Sort(all), nil
}
