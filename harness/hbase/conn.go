package hbase

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"
)

// Service names, one TCP connection each.
const (
	clientService = "ClientService"
	adminService  = "AdminService"
	masterService = "MasterService"
)

// call is one in-flight RPC. Calls are pooled: a call goes back to the pool
// only when both the writer and the reader are done with it, i.e. after its
// response arrived; a call abandoned on cancellation is left to the GC.
type call struct {
	id    uint32
	frame []byte
	resp  any // proto.Message, or rawDecoder for hand-decoded hot-path responses
	err   error
	done  chan struct{} // capacity 1: the reader signals once
	timer *time.Timer
}

var callPool = sync.Pool{New: func() any {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &call{done: make(chan struct{}, 1), timer: t}
}}

// conn is one connection to one service on one server, shared by all
// goroutines: callers write their own frames (combining with each other, see
// send), a reader goroutine matches responses to calls by call id.
type conn struct {
	addr    string
	service string
	nc      net.Conn
	closed  chan struct{} // closed once the connection is broken or closed
	nextID  atomic.Uint32
	timeout time.Duration // bounds one socket write

	wmu      sync.Mutex
	wbuf     []byte // frames queued while another caller writes
	wspare   []byte // the buffer being written, reused for the next queue
	writing  bool
	deadline time.Time // the socket's write deadline, renewed when half used

	mu      sync.Mutex
	pending map[uint32]*call
	err     error // why the connection broke; set before closed is closed
}

// dialConn opens a connection and sends the preamble and ConnectionHeader.
func dialConn(ctx context.Context, addr, service, user string) (*conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, &ConnError{Server: addr, Service: service, Err: err}
	}
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	hdr, err := appendConnectionHeader(nil, user, service)
	if err != nil {
		nc.Close()
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = nc.SetWriteDeadline(dl)
	}
	if _, err := nc.Write(hdr); err != nil {
		nc.Close()
		return nil, &ConnError{Server: addr, Service: service, Err: fmt.Errorf("send connection header: %w", err)}
	}
	_ = nc.SetWriteDeadline(time.Time{})
	c := &conn{
		addr:    addr,
		service: service,
		nc:      nc,
		closed:  make(chan struct{}),
		pending: make(map[uint32]*call),
		timeout: writeTimeout,
	}
	go c.readLoop()
	return c, nil
}

// alive reports whether the connection can still take calls.
func (c *conn) alive() bool {
	select {
	case <-c.closed:
		return false
	default:
		return true
	}
}

// fail breaks the connection once: every pending call gets err.
func (c *conn) fail(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	pending := c.pending
	c.pending = nil
	close(c.closed)
	c.mu.Unlock()
	c.nc.Close()
	for _, cl := range pending {
		cl.err = err
		cl.done <- struct{}{}
	}
}

// close shuts the connection down; pending calls fail.
func (c *conn) close() {
	c.fail(&ConnError{Server: c.addr, Service: c.service, Err: errors.New("client closed")})
}

// writeTimeout bounds one socket write: a server that stops reading fails
// the connection instead of blocking its callers forever.
const writeTimeout = 60 * time.Second

// send writes frame to the socket. The caller that finds no write in
// progress writes its own frame, then whatever other callers queued
// meanwhile, so concurrent calls share system calls; no writer goroutine
// means no goroutine hand-off (and no thread wake-up) per call. The lock is
// never held across the write.
func (c *conn) send(frame []byte) error {
	c.wmu.Lock()
	c.wbuf = append(c.wbuf, frame...)
	if c.writing {
		c.wmu.Unlock()
		return nil // the writing caller sends it
	}
	c.writing = true
	for len(c.wbuf) > 0 {
		buf := c.wbuf
		c.wbuf = c.wspare[:0]
		c.wmu.Unlock()
		// Renewing the deadline costs a runtime timer update; once per half
		// timeout is enough to bound a write by between 1/2 and 1 timeout.
		if now := time.Now(); c.deadline.Sub(now) < c.timeout/2 {
			c.deadline = now.Add(c.timeout)
			_ = c.nc.SetWriteDeadline(c.deadline)
		}
		_, err := c.nc.Write(buf)
		c.wmu.Lock()
		c.wspare = buf
		if err != nil {
			c.writing = false
			c.wbuf = c.wbuf[:0]
			c.wmu.Unlock()
			e := &ConnError{Server: c.addr, Service: c.service, Err: fmt.Errorf("write: %w", err)}
			c.fail(e)
			return e
		}
	}
	if cap(c.wspare) > 1<<20 {
		c.wspare = nil // a big batch must not pin its buffer
	}
	c.writing = false
	c.wmu.Unlock()
	return nil
}

func (c *conn) readLoop() {
	br := bufio.NewReaderSize(c.nc, 64<<10)
	var lenBuf [4]byte
	var buf []byte
	for {
		if _, err := io.ReadFull(br, lenBuf[:]); err != nil {
			c.fail(&ConnError{Server: c.addr, Service: c.service, Err: fmt.Errorf("read: %w", err)})
			return
		}
		n := binary.BigEndian.Uint32(lenBuf[:])
		if n > maxFrame {
			c.fail(&ConnError{Server: c.addr, Service: c.service, Err: fmt.Errorf("response frame of %d bytes exceeds %d", n, maxFrame)})
			return
		}
		if cap(buf) < int(n) {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(br, buf); err != nil {
			c.fail(&ConnError{Server: c.addr, Service: c.service, Err: fmt.Errorf("read: %w", err)})
			return
		}
		f, err := parseResponse(buf)
		if err != nil {
			c.fail(&ConnError{Server: c.addr, Service: c.service, Err: err})
			return
		}
		if f.callID == ^uint32(0) && f.exception != nil {
			// A connection-level failure: the server closes after sending it.
			re := remoteFrom(f.exception, c.addr)
			c.fail(&ConnError{Server: c.addr, Service: c.service, Err: re})
			return
		}
		cl := c.take(f.callID)
		if cl == nil {
			continue // the caller gave up (cancelled); drop the late response
		}
		if f.exception != nil {
			cl.err = remoteFrom(f.exception, c.addr)
		} else {
			// Both decoders copy what they keep, so buf can be reused for the next frame.
			var err error
			switch r := cl.resp.(type) {
			case rawDecoder:
				err = r.decodeRaw(f.body)
			case proto.Message:
				err = proto.Unmarshal(f.body, r)
			}
			if err != nil {
				cl.err = fmt.Errorf("hbase: decode response from %s: %w", c.addr, err)
			}
		}
		cl.done <- struct{}{}
	}
}

func (c *conn) take(id uint32) *call {
	c.mu.Lock()
	cl := c.pending[id]
	if cl != nil {
		delete(c.pending, id)
	}
	c.mu.Unlock()
	return cl
}

func remoteFrom(e interface {
	GetExceptionClassName() string
	GetStackTrace() string
	GetDoNotRetry() bool
}, server string) *RemoteError {
	return &RemoteError{
		Class:      e.GetExceptionClassName(),
		Message:    firstLine(e.GetStackTrace()),
		Server:     server,
		DoNotRetry: e.GetDoNotRetry(),
	}
}

// invoke sends one call and waits for its response, the context, or timeout
// (0 = only the context). resp is filled in place.
func (c *conn) invoke(ctx context.Context, method string, req proto.Message, resp any, timeout time.Duration) error {
	if dl, ok := ctx.Deadline(); ok {
		if d := time.Until(dl); timeout == 0 || d < timeout {
			timeout = d
		}
	}
	if timeout < 0 {
		return context.DeadlineExceeded
	}
	cl := callPool.Get().(*call)
	cl.id = c.nextID.Add(1) & 0x7fffffff
	cl.resp = resp
	cl.err = nil
	var err error
	cl.frame, err = appendRequest(cl.frame[:0], cl.id, method, uint32(timeout/time.Millisecond), req)
	if err != nil {
		callPool.Put(cl)
		return err
	}

	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		callPool.Put(cl)
		return err
	}
	c.pending[cl.id] = cl
	c.mu.Unlock()

	var timerC <-chan time.Time
	if timeout > 0 {
		cl.timer.Reset(timeout)
		timerC = cl.timer.C
	}
	// A failed write fails the connection, which signals every pending
	// call, this one included; the wait below then returns its error.
	_ = c.send(cl.frame)
	select {
	case <-cl.done:
	case <-ctx.Done():
		return c.abandon(cl, ctx.Err())
	case <-timerC:
		return c.abandon(cl, fmt.Errorf("hbase: %s call to %s timed out after %v: %w", method, c.addr, timeout, context.DeadlineExceeded))
	}
	if timerC != nil {
		cl.timer.Stop()
	}
	err = cl.err
	cl.resp = nil
	if cap(cl.frame) > 1<<20 {
		cl.frame = nil // a big batch must not pin its buffer in the pool
	}
	callPool.Put(cl)
	return err
}

// abandon gives up on a call. If the reader already took it, the call's
// response is being decoded into resp right now: wait for that to finish so
// the caller never sees resp written after it returned.
func (c *conn) abandon(cl *call, err error) error {
	if c.take(cl.id) == nil {
		c.mu.Lock()
		broken := c.err != nil
		c.mu.Unlock()
		<-cl.done
		if broken {
			return err
		}
	}
	slog.Debug("hbase call abandoned", "server", c.addr, "call", cl.id, "err", err)
	// The call is not recycled: the reader may still take it.
	return err
}
