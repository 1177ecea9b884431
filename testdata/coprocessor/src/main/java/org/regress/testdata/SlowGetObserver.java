package org.regress.testdata;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Optional;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;

/**
 * A region observer that burns a fixed amount of CPU before every Get: a
 * cost added on purpose, so a differential profile of a candidate that loads
 * it must name {@code SlowGetObserver.burn} among the frames that grew.
 *
 * <p>Load it on the candidate only: put the jar on the region server's
 * classpath (HBASE_CLASSPATH) and set hbase.coprocessor.region.classes to
 * org.regress.testdata.SlowGetObserver. The cost per Get is set by
 * regress.slowget.iterations (default 20000: about 0.1 ms of p50 here, a cost a
 * release could plausibly add), or by regress.slowget.cpu.nanos: that much of
 * the handler thread's own CPU time per Get, read from the thread's CPU clock,
 * so the dose is the same in every JVM whatever the JIT makes of the loop
 * (a loop of fixed steps cost C's Gets +1.7% to +7.3% in four JVMs here).
 * When both are set the CPU time wins.
 */
public class SlowGetObserver implements RegionCoprocessor, RegionObserver {
  /** Configuration key for the loop iterations spent per Get. */
  public static final String ITERATIONS_KEY = "regress.slowget.iterations";
  static final long DEFAULT_ITERATIONS = 20_000L;
  /** Configuration key for the handler thread CPU time spent per Get, in ns. */
  public static final String CPU_NANOS_KEY = "regress.slowget.cpu.nanos";
  // Loop steps between two reads of the thread's CPU clock: a read costs a
  // system call (about a microsecond here), a step a few nanoseconds.
  private static final long STEPS_PER_CHECK = 64;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  // Written so the JIT cannot drop the loop as dead code.
  private static volatile long sink;

  private long iterations = DEFAULT_ITERATIONS;
  private long cpuNanos;

  @Override
  public void start(CoprocessorEnvironment env) throws IOException {
    iterations = env.getConfiguration().getLong(ITERATIONS_KEY, DEFAULT_ITERATIONS);
    if (iterations < 0) {
      throw new IOException(ITERATIONS_KEY + " must be 0 or more, got " + iterations);
    }
    cpuNanos = env.getConfiguration().getLong(CPU_NANOS_KEY, 0);
    if (cpuNanos < 0) {
      throw new IOException(CPU_NANOS_KEY + " must be 0 or more, got " + cpuNanos);
    }
    checkCpuClock(CPU_NANOS_KEY, cpuNanos);
  }

  /**
   * Refuses a CPU-time dose this JVM cannot measure: without a thread CPU
   * clock (or with it turned off) burnCpu's clock reads -1 and would spin
   * for ever.
   */
  static void checkCpuClock(String key, long nanos) throws IOException {
    if (nanos > 0 && !(THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled())) {
      throw new IOException(key + " needs thread CPU time, which this JVM does not measure"
          + " (or has turned off: ThreadMXBean.setThreadCpuTimeEnabled)");
    }
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result)
      throws IOException {
    if (cpuNanos > 0) {
      sink += burnCpu(get.getRow(), cpuNanos);
      return;
    }
    sink += burn(get.getRow(), iterations);
  }

  /**
   * Spends n ns of this thread's CPU time (user and system, as the thread's
   * CPU clock counts it, which is what regress reads of a handler thread),
   * in steps of the loop below between clock reads.
   */
  static long burnCpu(byte[] row, long n) {
    long x = row.length == 0 ? 1 : row[0];
    long end = THREADS.getCurrentThreadCpuTime() + n;
    while (THREADS.getCurrentThreadCpuTime() < end) {
      x += burn(row, STEPS_PER_CHECK);
    }
    return x;
  }

  /**
   * Spends CPU proportional to n in this frame itself (no callee), so the
   * profile attributes the cost to this method's self time.
   */
  static long burn(byte[] row, long n) {
    long x = row.length == 0 ? 1 : row[0];
    for (long i = 0; i < n; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      x ^= x >>> 29;
    }
    return x;
  }
}
