// Package profile records where a region server spends its CPU and its
// allocations, and says which frames grew from a baseline to a candidate.
//
// Recording uses the JDK's flight recorder (JFR) through the JDK's own jcmd,
// found beside the java that runs the region server (/proc/PID/exe) or under
// JAVA_HOME: Start begins a recording on a running JVM by pid, Stop dumps it
// to a file and ends it. A JDK without JFR or without jcmd (a JRE, an old JDK
// 8) gives an *UnavailableError, which callers print as a note, not a failure.
//
// Parsing runs the same JDK's `jfr print --json` over the recording and folds
// jdk.ExecutionSample events into CPU stacks (one count a sample), with
// request threads' jdk.NativeMethodSample events in a native method that
// works rather than blocks rooted at "[native]" beside them, and
// jdk.ObjectAllocationSample events (JDK 16 and later; the TLAB events on JDK
// 11) into allocation stacks weighted by bytes. We chose the JDK's tool over a
// Go parser because the JFR file format changes with JDK releases and the
// tool that reads it ships with, and is maintained beside, the JDK that wrote
// it; it costs no Go dependency. The maintained Go parser
// (github.com/grafana/jfr-parser, Pyroscope's) was the alternative: the Go
// module proxy refuses it here (403, "not available"), and it would tie each
// new JDK's format change to a dependency upgrade. The price is a JDK on the
// machine that parses (every machine that runs HBase has one) and JSON output
// that repeats every frame in full, which ParseJSON streams rather than holds.
//
// A region server elsewhere is profiled by its own info server instead:
// StartServlet asks HBase's profiler servlet (/prof) to run async-profiler
// on the server's host for a window's length, and ServletRun.Collect reads
// the collapsed output once it is written; ParseCollapsed names its frames
// as the JFR path does. It gives CPU stacks only (the servlet runs one event
// at a time), and an *UnavailableError where the host has no async-profiler
// or the servlet refuses regress.
//
// Diff compares two folded profiles normalised per operation: frames by
// self and total weight, and whole stacks, top 10 by absolute change per
// operation, both sides' shares shown. WriteDiffTable prints it and
// WriteFlameGraph draws a self-contained differential flame graph (SVG, no
// scripts): red for frames that grew, blue for those that shrank.
package profile
