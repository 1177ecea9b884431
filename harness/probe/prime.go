package probe

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/regress-hbase/regress/harness/servercost"
)

// primeHold is how long Prime's throwaway recording stays open: long enough
// for the recorder to load, start its samplers and write a chunk.
const primeHold = 2 * time.Second

// Prime starts a throwaway JFR recording on every region server among ss
// that this machine runs, all at once, holds it primeHold, then stops it
// and deletes what it wrote. The first JFR.start on a JVM loads and
// compiles the recorder: on 2 cores the handlers stalled for seconds and
// the first profiled pair held 19-24% of its rate (docs/profiles.md), so
// its µs per operation were the start-up's, not the release's. Primed, the
// profiled pairs' own recordings start on a loaded recorder. It returns
// how many JVMs were primed; what fails is logged, never a note (the
// profiled pair's own start says what it could not do).
func (pr *Profiler) Prime(ctx context.Context, ss servercost.Servers) int {
	var pids []int
	for _, sv := range ss {
		if sv.PID > 0 {
			pids = append(pids, sv.PID)
		}
	}
	if len(pids) == 0 || ctx.Err() != nil {
		return 0
	}
	dir, err := os.MkdirTemp("", "regress-jfr-prime-*")
	if err != nil {
		pr.logger().Warn("JFR not primed before the profiled pairs", "err", err)
		return 0
	}
	defer os.RemoveAll(dir)
	// The JVM writes the dump itself, as the region server's user.
	if err := os.Chmod(dir, 0o777); err != nil {
		pr.logger().Warn("JFR not primed before the profiled pairs", "err", err)
		return 0
	}
	recs, errs := startJFR(ctx, pids)
	var wg sync.WaitGroup
	sleepUntil(ctx, time.Now().Add(primeHold))
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	for i, rec := range recs {
		if rec == nil {
			continue
		}
		wg.Go(func() { errs[i] = rec.Stop(stopCtx, filepath.Join(dir, fmt.Sprintf("pid%d.jfr", rec.PID))) })
	}
	wg.Wait()
	primed := 0
	for i, err := range errs {
		if err != nil {
			pr.logger().Warn("JFR not primed before the profiled pairs", "pid", pids[i], "err", err)
			continue
		}
		primed++
	}
	return primed
}
