package org.regress.testdata;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.wal.WALEdit;

/**
 * A region observer that makes requests wait without working: the handler
 * thread parks (as a lock, a slower sync or a queue would make it), so the
 * request's latency grows while the server's CPU per operation barely moves.
 * A latency gate must see it; a gate on CPU alone cannot.
 *
 * <p>regress.wait.get.micros parks every chosen Get before it reads;
 * regress.wait.put.micros parks every chosen Put after it is applied (the
 * WAL append done, as a slower sync would). regress.wait.percent chooses how
 * many of them wait (default 100): 1 in 2 at 50, counted per observer, so a
 * dose smaller than the JVM's shortest park (about 60 us here: the kernel's
 * timer slack and a wake-up) moves the median by less. The park is in
 * {@link #waitFor}, so a wall-clock profile names this frame.
 */
public class WaitObserver implements RegionCoprocessor, RegionObserver {
  /** Configuration key for the wait before each chosen Get, in microseconds. */
  public static final String GET_MICROS_KEY = "regress.wait.get.micros";
  /** Configuration key for the wait after each chosen Put, in microseconds. */
  public static final String PUT_MICROS_KEY = "regress.wait.put.micros";
  /** Configuration key for the share of requests that wait, in percent. */
  public static final String PERCENT_KEY = "regress.wait.percent";

  private long getNanos;
  private long putNanos;
  private long percent = 100;
  private final AtomicLong gets = new AtomicLong();
  private final AtomicLong puts = new AtomicLong();

  @Override
  public void start(CoprocessorEnvironment env) throws IOException {
    getNanos = micros(env, GET_MICROS_KEY) * 1000;
    putNanos = micros(env, PUT_MICROS_KEY) * 1000;
    percent = env.getConfiguration().getLong(PERCENT_KEY, 100);
    if (percent < 0 || percent > 100) {
      throw new IOException(PERCENT_KEY + " must be 0 to 100, got " + percent);
    }
  }

  private static long micros(CoprocessorEnvironment env, String key) throws IOException {
    long v = env.getConfiguration().getLong(key, 0);
    if (v < 0 || v > 10_000_000) {
      throw new IOException(key + " must be 0 to 10000000 microseconds, got " + v);
    }
    return v;
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result)
      throws IOException {
    if (getNanos > 0 && chosen(gets)) {
      waitFor(getNanos);
    }
  }

  @Override
  public void postPut(ObserverContext<RegionCoprocessorEnvironment> c, Put put, WALEdit edit,
      Durability durability) throws IOException {
    if (putNanos > 0 && chosen(puts)) {
      waitFor(putNanos);
    }
  }

  /** Whether this request is among the percent that wait: spread evenly over every 100. */
  private boolean chosen(AtomicLong counter) {
    if (percent >= 100) {
      return true;
    }
    long n = counter.getAndIncrement() % 100;
    // Request n of each hundred waits when the running share passes a step:
    // 50 percent picks every second one, not the first fifty.
    return (n + 1) * percent / 100 > n * percent / 100;
  }

  /** Parks this thread for at least nanos ns of wall-clock time, spending no CPU on it. */
  static void waitFor(long nanos) {
    long end = System.nanoTime() + nanos;
    for (long left = nanos; left > 0; left = end - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }
}
