package org.regress.testdata;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.wal.WALEdit;

/**
 * A region observer that spends the same handler-thread CPU time on every
 * request YCSB's core workloads send: each Get, each Put (update or insert)
 * and each scanner opened. A cost HBase could ship on every request (an
 * object built per RPC, one more check per call) moves every workload's
 * cost per operation at once, by the same time and so by a share that
 * depends on what the workload's operations cost already; the primary row
 * over all workloads is made to see it.
 *
 * <p>The cost is regress.slowrequest.cpu.nanos of the thread's own CPU
 * clock per request (0, the default, costs nothing).
 */
public class SlowRequestObserver implements RegionCoprocessor, RegionObserver {
  /** Configuration key for the handler thread CPU time spent per request, in ns. */
  public static final String CPU_NANOS_KEY = "regress.slowrequest.cpu.nanos";

  private static volatile long sink;
  private long cpuNanos;

  @Override
  public void start(CoprocessorEnvironment env) throws IOException {
    cpuNanos = env.getConfiguration().getLong(CPU_NANOS_KEY, 0);
    if (cpuNanos < 0) {
      throw new IOException(CPU_NANOS_KEY + " must be 0 or more, got " + cpuNanos);
    }
    SlowGetObserver.checkCpuClock(CPU_NANOS_KEY, cpuNanos);
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result)
      throws IOException {
    spend(get.getRow());
  }

  @Override
  public void prePut(ObserverContext<RegionCoprocessorEnvironment> c, Put put, WALEdit edit, Durability durability)
      throws IOException {
    spend(put.getRow());
  }

  @Override
  public void preScannerOpen(ObserverContext<RegionCoprocessorEnvironment> c, Scan scan)
      throws IOException {
    spend(scan.getStartRow());
  }

  private void spend(byte[] row) {
    if (cpuNanos > 0) {
      sink += SlowGetObserver.burnCpu(row, cpuNanos);
    }
  }
}
