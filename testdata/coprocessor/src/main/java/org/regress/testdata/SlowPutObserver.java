package org.regress.testdata;

import java.io.IOException;
import java.util.Optional;

import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.wal.WALEdit;

/**
 * A region observer that burns a fixed amount of CPU before every Put: a
 * cost added on the write path on purpose (regress.slowput.iterations).
 */
public class SlowPutObserver implements RegionCoprocessor, RegionObserver {
  /** Configuration key for the loop iterations spent per Put. */
  public static final String ITERATIONS_KEY = "regress.slowput.iterations";

  private static volatile long sink;
  private long iterations = 200_000L;

  @Override
  public void start(CoprocessorEnvironment env) throws IOException {
    iterations = env.getConfiguration().getLong(ITERATIONS_KEY, iterations);
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void prePut(ObserverContext<RegionCoprocessorEnvironment> c, Put put, WALEdit edit, Durability durability)
      throws IOException {
    sink += SlowGetObserver.burn(put.getRow(), iterations);
  }
}
