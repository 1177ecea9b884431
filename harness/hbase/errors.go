package hbase

import (
	"errors"
	"fmt"
	"strings"
)

// RemoteError is an exception thrown by an HBase server, with the context of the
// call that got it.
type RemoteError struct {
	Class      string // Java exception class name, e.g. org.apache.hadoop.hbase.NotServingRegionException
	Message    string // first line of the server's stack trace
	Server     string // host:port that answered
	Table      string // table of the call, if any
	Row        []byte // row of the call, if any
	DoNotRetry bool   // the server said retrying cannot help
}

// Error describes the failure for people.
func (e *RemoteError) Error() string {
	var b strings.Builder
	b.WriteString("hbase: ")
	b.WriteString(shortClass(e.Class))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Server != "" {
		b.WriteString(" (server ")
		b.WriteString(e.Server)
		b.WriteString(")")
	}
	if e.Table != "" {
		fmt.Fprintf(&b, " (table %q", e.Table)
		if e.Row != nil {
			fmt.Fprintf(&b, ", row %q", e.Row)
		}
		b.WriteString(")")
	}
	return b.String()
}

// TableNotFoundError reports a table that does not exist.
type TableNotFoundError struct {
	Table string
	Err   *RemoteError // the server's exception; nil when meta had no row for the table
}

// Error describes the failure for people.
func (e *TableNotFoundError) Error() string {
	return fmt.Sprintf("hbase: table %q not found (create it first, or check the name and namespace)", e.Table)
}

// Unwrap gives the underlying error to errors.Is and errors.As.
func (e *TableNotFoundError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}

// TableExistsError reports a create or clone whose target table already exists.
type TableExistsError struct {
	Table string
	Err   *RemoteError
}

// Error describes the failure for people.
func (e *TableExistsError) Error() string {
	return fmt.Sprintf("hbase: table %q already exists (delete it first or pick another name)", e.Table)
}

// Unwrap gives the underlying error to errors.Is and errors.As.
func (e *TableExistsError) Unwrap() error { return e.Err }

// TableStateError reports an admin call refused because the table is enabled
// when it must be disabled, or the reverse.
type TableStateError struct {
	Table string
	Want  string // "ENABLED" or "DISABLED"
	Err   *RemoteError
}

// Error describes the failure for people.
func (e *TableStateError) Error() string {
	return fmt.Sprintf("hbase: table %q is not %s", e.Table, e.Want)
}

// Unwrap gives the underlying error to errors.Is and errors.As.
func (e *TableStateError) Unwrap() error { return e.Err }

// RetriesExhaustedError wraps the last error of an operation that kept failing
// with retriable errors until the retry budget ran out.
type RetriesExhaustedError struct {
	Op       string
	Table    string
	Row      []byte
	Attempts int
	Err      error
}

// Error describes the failure for people.
func (e *RetriesExhaustedError) Error() string {
	var where string
	if e.Table != "" {
		where = fmt.Sprintf(" on table %q", e.Table)
		if e.Row != nil {
			where += fmt.Sprintf(" row %q", e.Row)
		}
	}
	return fmt.Sprintf("hbase: %s%s failed after %d attempts (is the cluster up and done initializing? raise WithMaxRetries if regions are moving): %v",
		e.Op, where, e.Attempts, e.Err)
}

// Unwrap gives the underlying error to errors.Is and errors.As.
func (e *RetriesExhaustedError) Unwrap() error { return e.Err }

// ConnError reports a broken or refused connection to a server.
type ConnError struct {
	Server  string
	Service string
	Err     error
}

// Error describes the failure for people.
func (e *ConnError) Error() string {
	return fmt.Sprintf("hbase: connection to %s (%s) failed: %v", e.Server, e.Service, e.Err)
}

// Unwrap gives the underlying error to errors.Is and errors.As.
func (e *ConnError) Unwrap() error { return e.Err }

// errRegionOffline is returned by meta lookups that find a region without a
// server (it is being assigned); the caller backs off and looks again.
var errRegionOffline = errors.New("hbase: region has no server assigned yet")

// retryKind says how the retry loop treats an error.
type retryKind int

const (
	retryNever     retryKind = iota // final
	retryRelocate                   // drop the cached region and look it up again
	retryBackoff                    // same server, after a pause
	retryReconnect                  // server connection is bad: drop regions on it, reconnect
)

// Java exception classes grouped by what the client does about them. The short
// name (after the last dot) is the key so that shaded and unshaded packages match.
var retryByClass = map[string]retryKind{
	"NotServingRegionException":        retryRelocate,
	"RegionMovedException":             retryRelocate,
	"RegionOfflineException":           retryRelocate,
	"WrongRegionException":             retryRelocate,
	"RegionOpeningException":           retryBackoff,
	"RegionTooBusyException":           retryBackoff,
	"CallQueueTooBigException":         retryBackoff,
	"CallDroppedException":             retryBackoff,
	"RetryImmediatelyException":        retryBackoff,
	"RpcThrottlingException":           retryBackoff,
	"PleaseHoldException":              retryBackoff,
	"ServerTooBusyException":           retryBackoff,
	"MultiActionResultTooLarge":        retryBackoff,
	"RegionServerAbortedException":     retryReconnect,
	"RegionServerStoppedException":     retryReconnect,
	"ServerNotRunningYetException":     retryReconnect,
	"ConnectionClosingException":       retryReconnect,
	"MasterNotRunningException":        retryReconnect,
	"UnknownScannerException":          retryRelocate, // scanner lost (region moved or lease expired): reopen
	"OutOfOrderScannerNextException":   retryRelocate,
	"ScannerResetException":            retryRelocate,
	"NotAllMetaRegionsOnlineException": retryBackoff,
	"RegionInRecoveryException":        retryBackoff,
	"FailedSanityCheckException":       retryNever,
	"NoSuchColumnFamilyException":      retryNever,
	"TableNotFoundException":           retryNever,
	"TableExistsException":             retryNever,
	"TableNotEnabledException":         retryNever,
	"TableNotDisabledException":        retryNever,
	"DoNotRetryIOException":            retryNever,
	"AccessDeniedException":            retryNever,
	"SnapshotExistsException":          retryNever,
	"SnapshotDoesNotExistException":    retryNever,
	"SnapshotCreationException":        retryNever,
	"CorruptedSnapshotException":       retryNever,
	"RestoreSnapshotException":         retryNever,
	"UnsupportedOperationException":    retryNever,
	"IllegalArgumentException":         retryNever,
	"DoNotRetryRegionException":        retryNever,
	"ProcedureAbortedException":        retryNever,
	"MergeRegionException":             retryNever,
	"HBaseSnapshotException":           retryNever,
}

func shortClass(class string) string {
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		return class[i+1:]
	}
	return class
}

// firstLine returns the exception message from a Java stack trace: the text of
// its first line after "Class: ".
func firstLine(trace string) string {
	if i := strings.IndexByte(trace, '\n'); i >= 0 {
		trace = trace[:i]
	}
	if i := strings.Index(trace, ": "); i >= 0 {
		trace = trace[i+2:]
	}
	return strings.TrimSpace(trace)
}

// mapRemote turns a server exception into the typed error callers match with
// errors.As. It is the only place exception class names become Go types.
func mapRemote(re *RemoteError) error {
	switch shortClass(re.Class) {
	case "TableNotFoundException":
		t := re.Table
		if t == "" {
			t = re.Message
		}
		return &TableNotFoundError{Table: t, Err: re}
	case "TableExistsException":
		t := re.Table
		if t == "" {
			t = re.Message
		}
		return &TableExistsError{Table: t, Err: re}
	case "TableNotEnabledException":
		return &TableStateError{Table: re.Table, Want: "ENABLED", Err: re}
	case "TableNotDisabledException":
		return &TableStateError{Table: re.Table, Want: "DISABLED", Err: re}
	}
	return re
}

// classify says how the retry loop treats err.
func classify(err error) retryKind {
	var re *RemoteError
	if errors.As(err, &re) {
		if k, ok := retryByClass[shortClass(re.Class)]; ok {
			return k
		}
		if re.DoNotRetry {
			return retryNever
		}
		// An unknown server exception without do_not_retry: Java retries it too.
		return retryBackoff
	}
	var ce *ConnError
	if errors.As(err, &ce) {
		return retryReconnect
	}
	if errors.Is(err, errRegionOffline) {
		return retryBackoff
	}
	return retryNever
}
