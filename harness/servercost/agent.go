package servercost

import (
	"archive/zip"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/regress-hbase/regress/harness/atomicfile"
	"github.com/regress-hbase/regress/harness/javabuild"
)

// The region server agent (agent/RequestThreads.java) is one MBean,
// regress:type=RequestThreads, that a region server's info server answers
// on /jmx: the heap bytes and CPU its request threads (the threads
// requestThread picks from /proc) have spent so far, from the JVM's own
// per-thread counters. It is what makes alloc_per_op the request path's
// cost, as cpu_per_op is, instead of the whole JVM's: the GC log's figure
// holds every chore, the metrics system and whatever answered regress's
// own readings. A read runs on the info server's thread, which is not a
// request thread, so reading costs the figure nothing.

//go:embed agent/*.java
var agentSources embed.FS

// AgentBean is the agent's MBean as /jmx's qry names it.
const AgentBean = "regress:type=RequestThreads"

// AgentOptions are the JVM options that load the agent jar at path.
func AgentOptions(jar string) []string {
	if jar == "" {
		return nil
	}
	return []string{"-javaagent:" + jar}
}

// AgentJar returns the agent's jar, compiled once per source digest into
// dir (the user cache's regress/agent when empty) with the first javac found
// among the JDK homes given, $JAVA_HOME and PATH. The classes target Java 8,
// so every JDK an HBase line here runs on loads them.
func AgentJar(ctx context.Context, dir string, javaHomes ...string) (string, error) {
	srcs, err := agentSourceFiles()
	if err != nil {
		return "", err
	}
	dir = javabuild.CacheDir(dir, "agent")
	jar := filepath.Join(dir, srcs.Digest(), "regress-agent.jar")
	if fi, err := os.Stat(jar); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
		return jar, nil
	}
	javac, _, err := javabuild.FindJavac(javaHomes...)
	if err != nil {
		return "", fmt.Errorf("%w to compile regress's region server agent: alloc_per_op falls back to the whole JVM's allocation from its GC log", err)
	}
	classes, err := javabuild.Compile(ctx, javac, "8", srcs, dir)
	if err != nil {
		return "", fmt.Errorf("regress's region server agent: %w", err)
	}
	err = atomicfile.Write(jar, 0o644, func(w io.Writer) error { return writeAgentJar(w, classes) })
	if err != nil {
		return "", fmt.Errorf("writing the agent jar %s: %w", jar, err)
	}
	return jar, nil
}

// agentSourceFiles returns the agent's sources by path under their package
// directory.
func agentSourceFiles() (javabuild.Sources, error) {
	ents, err := agentSources.ReadDir("agent")
	if err != nil {
		return nil, err
	}
	out := javabuild.Sources{}
	for _, e := range ents {
		b, err := agentSources.ReadFile("agent/" + e.Name())
		if err != nil {
			return nil, err
		}
		out[filepath.Join("regress", "agent", e.Name())] = b
	}
	return out, nil
}

// writeAgentJar writes a jar of the class files under classes with the
// manifest that makes it a -javaagent.
func writeAgentJar(w io.Writer, classes string) error {
	zw := zip.NewWriter(w)
	mf, err := zw.Create("META-INF/MANIFEST.MF")
	if err != nil {
		return err
	}
	fmt.Fprint(mf, "Manifest-Version: 1.0\r\nPremain-Class: regress.agent.RequestThreads\r\nAgent-Class: regress.agent.RequestThreads\r\n\r\n")
	err = filepath.WalkDir(classes, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(classes, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = f.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	return zw.Close()
}

// agentReading is the agent's counters at one instant.
type agentReading struct {
	requestAlloc int64
	requestCPU   time.Duration
	threads      int64
	// byThread is each request thread's bytes by thread id; nil from an
	// agent built before it had them.
	byThread map[int64]int64
	// cpuByThread is each request thread's CPU nanoseconds by thread id;
	// nil from an agent built before it had them.
	cpuByThread map[int64]int64
}

// parseByThread reads "id=value id=value ..." (bytes or CPU nanoseconds by
// thread id); nil when s holds none.
func parseByThread(s string) map[int64]int64 {
	out := map[int64]int64{}
	for _, f := range strings.Fields(s) {
		id, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		i, err1 := strconv.ParseInt(id, 10, 64)
		n, err2 := strconv.ParseInt(v, 10, 64)
		if err1 == nil && err2 == nil && n >= 0 {
			out[i] = n
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// perThreadDelta is what the threads of b allocated (or spent, for CPU
// nanoseconds) since a, as threadsDelta counts /proc's CPU: a thread that
// ended in the window loses only its own part.
func perThreadDelta(a, b map[int64]int64) int64 {
	var d int64
	for id, nb := range b {
		if na, ok := a[id]; ok {
			if nb > na {
				d += nb - na
			}
			continue
		}
		d += nb
	}
	return d
}

// readAgent reads the agent's bean from the info server at addr; an error
// when the bean is not there (a JVM started without the agent).
func readAgent(ctx context.Context, client *http.Client, addr string) (agentReading, error) {
	beans, err := getBeans(ctx, client, addr, AgentBean)
	if err != nil {
		return agentReading{}, err
	}
	if len(beans) == 0 {
		return agentReading{}, fmt.Errorf("%s: no %s bean (the JVM runs without regress's agent)", addr, AgentBean)
	}
	b := beans[0]
	if _, ok := b["RequestAllocatedBytes"]; !ok {
		return agentReading{}, fmt.Errorf("%s: the %s bean has no RequestAllocatedBytes", addr, AgentBean)
	}
	r := agentReading{requestAlloc: b.int("RequestAllocatedBytes"), requestCPU: time.Duration(b.int("RequestCpuTime")),
		threads: b.int("RequestThreadCount")}
	var by string
	if json.Unmarshal(b["RequestAllocatedBytesByThread"], &by) == nil {
		r.byThread = parseByThread(by)
	}
	by = ""
	if json.Unmarshal(b["RequestCpuTimeByThread"], &by) == nil {
		r.cpuByThread = parseByThread(by)
	}
	return r, nil
}

// InfoSource says what a trial will read of the region server whose info
// server is at addr (host:port): the request threads' figures where the JVM
// runs regress's agent, else the whole process's, and "over TLS" where it
// speaks TLS; a *NotReadError (FindJMX's) when it answers but not to
// regress, another error when its /jmx does not answer.
func InfoSource(ctx context.Context, addr string) (string, error) {
	return infoSource(ctx, jmxClient, addr)
}

func infoSource(ctx context.Context, client *http.Client, addr string) (string, error) {
	at, err := findJMX(ctx, client, addr)
	if err != nil {
		return "", err
	}
	over := ""
	if strings.HasPrefix(at, "https://") {
		over = " over TLS"
	}
	if _, err := readAgent(ctx, client, at); err == nil {
		return "request threads (regress's agent)" + over, nil
	}
	if _, err := getBeans(ctx, client, at, jmxQueries[0]); err != nil {
		return "", err
	}
	return "process" + over + " (no agent on it: see `regress cluster agent`)", nil
}
