// NativeLoad keeps threads inside native methods for a few seconds, so a
// JFR recording holds jdk.NativeMethodSample events of each kind the parser
// tells apart: request threads (a CallRunner.run frame, as HBase's RPC
// handlers have) spending CPU in zlib, request threads blocked in a socket,
// pipe or selector, and a thread outside any request in zlib. See README.
package org.apache.hadoop.hbase.ipc;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Random;
import java.util.zip.Deflater;

public class NativeLoad {
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    long millis = args.length > 0 ? Long.parseLong(args[0]) : 4000;
    byte[] data = new byte[4 << 20];
    Random r = new Random(1);
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) ('a' + r.nextInt(8)); // compressible, not trivially
    }
    InetAddress lo = InetAddress.getLoopbackAddress();
    ServerSocket server = new ServerSocket(0, 4, lo);
    Socket quiet = new Socket(lo, server.getLocalPort()); // never writes
    Socket served = server.accept();
    SocketChannel channel = SocketChannel.open(new InetSocketAddress(lo, server.getLocalPort()));
    Socket channelPeer = server.accept(); // never writes
    Pipe pipe = Pipe.open(); // nothing is written to it
    Selector selector = Selector.open(); // no channel registered: waits until woken

    start("request-deflate", () -> new CallRunner(() -> deflate(data)).run());
    start("request-socket-read", () -> new CallRunner(() -> read(served)).run());
    start("request-channel-read", () -> new CallRunner(() -> read(channel)).run());
    start("request-pipe-read", () -> new CallRunner(() -> read(pipe.source())).run());
    start("request-select", () -> new CallRunner(() -> select(selector)).run());
    start("background-deflate", () -> deflate(data));
    Thread.sleep(millis);
    System.out.println(sink + " " + quiet.isConnected() + " " + channelPeer.isConnected());
    System.exit(0);
  }

  static void start(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }

  // deflate compresses data at zlib's default level, again and again: the
  // time is in Deflater.deflateBytesBytes, a native method.
  static void deflate(byte[] data) {
    byte[] out = new byte[64 << 10];
    while (true) {
      Deflater d = new Deflater();
      d.setInput(data);
      d.finish();
      while (!d.finished()) {
        sink += d.deflate(out);
      }
      d.end();
    }
  }

  // read blocks in a java.net.Socket read (JDK 17, no timeout: SocketDispatcher.read0).
  static void read(Socket s) {
    try (InputStream in = s.getInputStream()) {
      sink += in.read();
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }

  // read blocks in a blocking channel's read (SocketDispatcher.read0 or FileDispatcherImpl.read0).
  static void read(java.nio.channels.ReadableByteChannel ch) {
    try {
      sink += ch.read(ByteBuffer.allocate(1));
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }

  // select blocks in epoll_wait (EPoll.wait).
  static void select(Selector s) {
    try {
      sink += s.select();
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }
}

// CallRunner stands for HBase's own (org.apache.hadoop.hbase.ipc.CallRunner):
// the frame regress takes as "this thread serves a request".
class CallRunner {
  private final Runnable call;

  CallRunner(Runnable call) {
    this.call = call;
  }

  public void run() {
    call.run();
  }
}
