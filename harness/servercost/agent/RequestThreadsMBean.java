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

    /** How many request threads are alive. */
    int getRequestThreadCount();

    /** Heap bytes every live thread has allocated since it started. */
    long getAllocatedBytes();
}
