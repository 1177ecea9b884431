package regress.agent;

/** What regress reads of a region server's request threads (RequestThreads). */
public interface RequestThreadsMBean {
    /** Heap bytes the live request threads have allocated since they started. */
    long getRequestAllocatedBytes();

    /** CPU nanoseconds the live request threads have spent since they started. */
    long getRequestCpuTime();

    /** How many request threads are alive. */
    int getRequestThreadCount();

    /** Heap bytes every live thread has allocated since it started. */
    long getAllocatedBytes();
}
