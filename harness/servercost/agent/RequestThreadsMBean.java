package regress.agent;

/** What regress reads of a region server's request threads (RequestThreads). */
public interface RequestThreadsMBean {
    /** Heap bytes the live request threads have allocated since they started. */
    long getRequestAllocatedBytes();

    /**
     * Each live request thread's heap bytes allocated so far, as
     * "id=bytes" items separated by spaces: what lets a window lose only an
     * ended thread's in-window bytes, not its whole life's.
     */
    String getRequestAllocatedBytesByThread();

    /** CPU nanoseconds the live request threads have spent since they started. */
    long getRequestCpuTime();

    /**
     * Each live request thread's CPU nanoseconds so far, "id=nanos" items
     * separated by spaces: the CPU figure of a server read only through its
     * info server (a cluster regress did not start), an ended thread losing
     * only its own in-window time.
     */
    String getRequestCpuTimeByThread();

    /** How many request threads are alive. */
    int getRequestThreadCount();

    /** Heap bytes every live thread has allocated since it started. */
    long getAllocatedBytes();
}
