package loadhosts

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// report is what a host writes when its share of a trial ends.
type report struct {
	Host Host `json:"host"`
	// Error is why the share failed; empty when it ran.
	Error  string      `json:"error,omitempty"`
	Result *wireResult `json:"result,omitempty"`
	// HlogChunks is the number of chunk znodes holding the interval log.
	HlogChunks int `json:"hlog_chunks"`
	// Clock is the host's clock against ZooKeeper's, read as it prepared;
	// Saw is when it saw the barrier, on ZooKeeper's clock.
	Clock Clock     `json:"clock"`
	Saw   time.Time `json:"saw"`
}

// barrier is the go znode's data: the trial's agreed start, on ZooKeeper's clock.
type barrier struct {
	Start time.Time `json:"start"`
}

// wireResult is a loadgen.Result with its histograms encoded (HdrHistogram's
// compressed V2 form), so they add exactly on the coordinator.
type wireResult struct {
	TargetRate float64            `json:"target_rate"`
	Rate       float64            `json:"rate"`
	Start      time.Time          `json:"start"`
	Duration   time.Duration      `json:"duration"`
	Ops        int64              `json:"ops"`
	WarmupOps  int64              `json:"warmup_ops"`
	Clamped    int64              `json:"clamped"`
	Invalid    int64              `json:"invalid"`
	Empty      int64              `json:"empty"`
	StoppedBy  string             `json:"stopped_by"`
	Lateness   []byte             `json:"lateness,omitempty"`
	PerOp      map[string]wireOp  `json:"per_op"`
	Client     loadgen.ClientCost `json:"client"`
}

type wireOp struct {
	Intended       []byte   `json:"intended,omitempty"`
	Service        []byte   `json:"service,omitempty"`
	FailedIntended []byte   `json:"failed_intended,omitempty"`
	FailedService  []byte   `json:"failed_service,omitempty"`
	Statuses       [3]int64 `json:"statuses"`
}

func encodeHist(h *hdr.Histogram) ([]byte, error) {
	if h == nil {
		return nil, nil
	}
	return h.Encode(hdr.V2CompressedEncodingCookieBase)
}

func decodeHist(b []byte) (*hdr.Histogram, error) {
	if len(b) == 0 {
		return nil, nil
	}
	return hdr.Decode(b)
}

func encodeResult(r *loadgen.Result) (*wireResult, error) {
	w := &wireResult{TargetRate: r.TargetRate, Rate: r.Rate, Start: r.Start, Duration: r.Duration, Ops: r.Ops,
		WarmupOps: r.WarmupOps, Clamped: r.Clamped, Invalid: r.Invalid, Empty: r.Empty, StoppedBy: r.StoppedBy,
		Client: r.Client, PerOp: map[string]wireOp{}}
	var err error
	if w.Lateness, err = encodeHist(r.Lateness); err != nil {
		return nil, err
	}
	for _, o := range r.PerOp {
		if o == nil {
			continue
		}
		var wo wireOp
		for dst, h := range map[*[]byte]*hdr.Histogram{&wo.Intended: o.Intended, &wo.Service: o.Service,
			&wo.FailedIntended: o.FailedIntended, &wo.FailedService: o.FailedService} {
			if *dst, err = encodeHist(h); err != nil {
				return nil, fmt.Errorf("encode %s histogram: %w", o.Op, err)
			}
		}
		copy(wo.Statuses[:], o.Statuses[:])
		w.PerOp[o.Op.String()] = wo
	}
	return w, nil
}

func decodeResult(w *wireResult) (*loadgen.Result, error) {
	r := &loadgen.Result{TargetRate: w.TargetRate, Rate: w.Rate, Start: w.Start, Duration: w.Duration, Ops: w.Ops,
		WarmupOps: w.WarmupOps, Clamped: w.Clamped, Invalid: w.Invalid, Empty: w.Empty, StoppedBy: w.StoppedBy, Client: w.Client}
	var err error
	if r.Lateness, err = decodeHist(w.Lateness); err != nil {
		return nil, fmt.Errorf("lateness histogram: %w", err)
	}
	for name, wo := range w.PerOp {
		op, ok := workload.ParseOp(name)
		if !ok {
			return nil, fmt.Errorf("unknown operation %q", name)
		}
		o := &loadgen.OpResult{Op: op}
		for dst, b := range map[**hdr.Histogram][]byte{&o.Intended: wo.Intended, &o.Service: wo.Service,
			&o.FailedIntended: wo.FailedIntended, &o.FailedService: wo.FailedService} {
			if *dst, err = decodeHist(b); err != nil {
				return nil, fmt.Errorf("%s histogram: %w", name, err)
			}
		}
		copy(o.Statuses[:], wo.Statuses[:])
		r.PerOp[op] = o
	}
	return r, nil
}

// mergeHlogs joins the hosts' interval logs into one: the first log's
// header, then every host's interval lines ordered by their start. Each
// interval keeps its tag (READ.intended, ...), so merging the log by tag
// gives exactly the merged histograms. A host's interval starts are
// offsets from its own start, never compared with another's beyond sorting.
func mergeHlogs(logs [][]byte) []byte {
	var header []string
	type line struct {
		start float64
		text  string
	}
	var lines []line
	for i, l := range logs {
		sc := bufio.NewScanner(bytes.NewReader(l))
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			t := sc.Text()
			if t == "" {
				continue
			}
			if strings.HasPrefix(t, "#") || strings.HasPrefix(t, `"`) {
				if i == 0 {
					header = append(header, t)
				}
				continue
			}
			lines = append(lines, line{start: intervalStart(t), text: t})
		}
	}
	slices.SortStableFunc(lines, func(a, b line) int {
		switch {
		case a.start < b.start:
			return -1
		case a.start > b.start:
			return 1
		}
		return 0
	})
	var b strings.Builder
	for _, h := range header {
		b.WriteString(h)
		b.WriteByte('\n')
	}
	for _, l := range lines {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// intervalStart reads an interval line's start (after an optional Tag=).
func intervalStart(line string) float64 {
	if strings.HasPrefix(line, "Tag=") {
		if i := strings.IndexByte(line, ','); i >= 0 {
			line = line[i+1:]
		}
	}
	if i := strings.IndexByte(line, ','); i >= 0 {
		line = line[:i]
	}
	f, _ := strconv.ParseFloat(line, 64)
	return f
}
