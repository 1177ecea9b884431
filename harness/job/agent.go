package job

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/regress-hbase/regress/harness/atomicfile"
	"github.com/regress-hbase/regress/harness/fault"
	"github.com/regress-hbase/regress/harness/servercost"
)

// ClusterAgent (`regress cluster agent`) builds regress's region server
// agent (once; it is cached), copies it into dir when one is given, and
// prints the jar's path and the hbase-env.sh line that loads it. A cluster
// regress did not start whose region servers run it gives the request
// threads' CPU and allocation per operation through each info server's
// /jmx, the figures a cluster regress starts gives.
func ClusterAgent(ctx context.Context, out io.Writer, dir string) error {
	if dir != "" {
		if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
			return fault.Usagef("cluster agent: --out %s is a file: give a directory to copy regress-agent.jar into", dir)
		}
	}
	jar, err := servercost.AgentJar(ctx, "")
	if err != nil {
		return fmt.Errorf("cluster agent: %w", err)
	}
	if dir != "" {
		b, err := os.ReadFile(jar)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("cluster agent: %w", err)
		}
		to, err := filepath.Abs(filepath.Join(dir, "regress-agent.jar"))
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(to, b, 0o644); err != nil {
			return fmt.Errorf("cluster agent: %w", err)
		}
		jar = to
	}
	_, err = fmt.Fprintf(out, `%s
Copy it to every region server host, add this line to conf/hbase-env.sh there and restart the region servers:
  export HBASE_REGIONSERVER_OPTS="$HBASE_REGIONSERVER_OPTS -javaagent:%s"
regress then reads the request threads' CPU and allocation (bean %s) through each info server's /jmx:
cpu_per_op and alloc_per_op of --baseline-zk/--candidate-zk sides come from the request threads, as on a cluster regress starts.
`, jar, jar, servercost.AgentBean)
	return err
}
