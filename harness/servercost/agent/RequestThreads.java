package regress.agent;

import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import javax.management.ObjectName;

/**
 * regress's region server agent: one MBean, regress:type=RequestThreads,
 * that HBase's info server answers on /jmx like any other. Its attributes
 * sum what the threads that serve requests have allocated on the heap and
 * spent on the CPU so far, exact to the byte and nanosecond (the JVM's own
 * per-thread counters). It does nothing until read, and a read runs on the
 * info server's thread, which is not a request thread: reading costs the
 * figure nothing.
 *
 * A request thread is picked as regress picks it from /proc for the CPU
 * figure, by its name cut to the 15 bytes Linux keeps: RPC handlers and
 * readers ("RpcSer"), Netty event loops ("RS-EventLoopGro"), and the WAL's
 * writers ("WAL", "AsyncFSOutput", "sync."). Threads that ended are lost.
 */
public final class RequestThreads implements RequestThreadsMBean {
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Registers the bean when the JVM starts with -javaagent. */
    public static void premain(String args, Instrumentation inst) throws Exception {
        register();
    }

    /** Registers the bean when the agent is attached to a running JVM. */
    public static void agentmain(String args, Instrumentation inst) throws Exception {
        register();
    }

    private static void register() throws Exception {
        ObjectName name = new ObjectName("regress:type=RequestThreads");
        if (!ManagementFactory.getPlatformMBeanServer().isRegistered(name)) {
            ManagementFactory.getPlatformMBeanServer().registerMBean(new RequestThreads(), name);
        }
    }

    static boolean requestThread(String name) {
        String comm = name.length() > 15 ? name.substring(0, 15) : name;
        return comm.contains("RpcSer") || comm.startsWith("RS-EventLoopGro") || comm.contains("WAL")
                || comm.startsWith("AsyncFSOutput") || comm.startsWith("sync.");
    }

    private long[] requestIds() {
        long[] ids = threads.getAllThreadIds();
        ThreadInfo[] infos = threads.getThreadInfo(ids, 0);
        long[] picked = new long[ids.length];
        int n = 0;
        for (ThreadInfo ti : infos) {
            if (ti != null && requestThread(ti.getThreadName())) {
                picked[n++] = ti.getThreadId();
            }
        }
        long[] out = new long[n];
        System.arraycopy(picked, 0, out, 0, n);
        return out;
    }

    private static long sum(long[] vs) {
        long s = 0;
        for (long v : vs) {
            if (v > 0) {
                s += v;
            }
        }
        return s;
    }

    @Override
    public long getRequestAllocatedBytes() {
        return sum(threads.getThreadAllocatedBytes(requestIds()));
    }

    @Override
    public String getRequestAllocatedBytesByThread() {
        long[] ids = requestIds();
        return byThread(ids, threads.getThreadAllocatedBytes(ids));
    }

    @Override
    public String getRequestCpuTimeByThread() {
        long[] ids = requestIds();
        return byThread(ids, threads.getThreadCpuTime(ids));
    }

    /** "id=value" items separated by spaces, a thread that ended (-1) left out. */
    private static String byThread(long[] ids, long[] values) {
        StringBuilder b = new StringBuilder(ids.length * 16);
        for (int i = 0; i < ids.length; i++) {
            if (values[i] < 0) {
                continue;
            }
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(ids[i]).append('=').append(values[i]);
        }
        return b.toString();
    }

    @Override
    public long getRequestCpuTime() {
        return sum(threads.getThreadCpuTime(requestIds()));
    }

    @Override
    public int getRequestThreadCount() {
        return requestIds().length;
    }

    @Override
    public long getAllocatedBytes() {
        return sum(threads.getThreadAllocatedBytes(threads.getAllThreadIds()));
    }
}
