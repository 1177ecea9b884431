package ycsbfmt

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
)

// source is one file given to an import: its name and what it holds.
type source struct {
	path string
	b    []byte
}

// LoadSuffix ends the workload name a load phase is stored under: a load
// (INSERT only) measures another thing than the run phase after it, and
// pooled with it would blend the two.
const LoadSuffix = "-load"

// summariesOf turns the files of one import into what it stores: one
// summary per run phase. A text output and the .hdr logs given with it are
// one run (the logs' histograms, the text's statuses and overall figures);
// a load phase (INSERT only) before a run phase in one file is stored as
// its own workload, WORKLOAD-load; .hdr logs given with several run phases
// are refused, as nothing says which run they belong to. A summary's id
// comes from the content (line endings and byte order marks aside) and,
// for .hdr logs, the operation each measures: the same output imported
// again has the same id.
// It stops when ctx ends, returning ctx's error.
func summariesOf(ctx context.Context, srcs []source, workload string) ([]importedSummary, error) {
	type textRun struct {
		r    *Run
		id   string
		load bool
	}
	var texts []textRun
	var hdrRuns []*Run
	var hdrSums []string // each log's digest: sorted, they name the logs whatever their order
	// legacy is the digest imports made before, of the logs in the order
	// given: a store may hold summaries under it.
	legacy := sha256.New()
	for _, s := range srcs {
		runs, err := parseBytes(ctx, s.path, s.b)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, err
		}
		norm := normalise(s.b)
		if IsHdrLog(s.path, s.b) {
			// Keyed by operation too: identical bytes of READ.hdr and
			// UPDATE.hdr are two operations' logs, not one stored twice.
			h := sha256.New()
			fmt.Fprintf(h, "%s %d\n", strings.Join(runs[0].OpNames(), ","), len(norm))
			h.Write(norm)
			fmt.Fprintf(legacy, "%s %d\n", strings.Join(runs[0].OpNames(), ","), len(norm))
			legacy.Write(norm)
			hdrSums = append(hdrSums, hex.EncodeToString(h.Sum(nil)))
			hdrRuns = append(hdrRuns, runs...)
			continue
		}
		sum := sha256.Sum256(norm)
		for i, r := range runs {
			load := isLoadPhase(r) && slices.ContainsFunc(runs[i+1:], func(n *Run) bool { return !isLoadPhase(n) })
			texts = append(texts, textRun{r, fmt.Sprintf("ycsb-%s-%d", hex.EncodeToString(sum[:])[:12], i+1), load})
		}
	}
	var phases []int // the run phases among texts
	for i, t := range texts {
		if !t.load {
			phases = append(phases, i)
		}
	}
	var hdr *Run
	if len(hdrRuns) > 0 {
		var err error
		if hdr, err = MergeHdrRuns(hdrRuns); err != nil {
			return nil, err
		}
		if len(phases) > 1 {
			var at []string
			for _, i := range phases {
				at = append(at, fmt.Sprintf("%s line %d", texts[i].r.File, texts[i].r.Line))
			}
			return nil, fmt.Errorf("%d .hdr logs (%s) were given with %d run phases of text output (%s): a run's .hdr logs belong to that one run; import them with their run's text output alone", len(hdrRuns), strings.Join(hdr.OpNames(), ", "), len(phases), strings.Join(at, ", "))
		}
	}
	slices.Sort(hdrSums)
	hdrSum := sha256.Sum256([]byte(strings.Join(hdrSums, "\n")))
	hdrID := hex.EncodeToString(hdrSum[:])[:12]
	legacyID := hex.EncodeToString(legacy.Sum(nil))[:12]
	var out []importedSummary
	for i, t := range texts {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		w, notes := workload, t.r.Notes
		if t.load {
			w = workload + LoadSuffix
			notes = append(slices.Clone(notes), fmt.Sprintf("a load phase (INSERT only) before the run phase in the same file: stored as workload %s, never pooled with the run", w))
		}
		from := fmt.Sprintf("%s (run at line %d, %s format)", t.r.File, t.r.Line, t.r.Format)
		if hdr != nil && len(phases) == 1 && phases[0] == i {
			merged, logged, mnotes, err := withHdr(t.r, hdr)
			if err != nil {
				return nil, err
			}
			hlog, err := hlogOf(logged)
			if err != nil {
				return nil, err
			}
			out = append(out, importedSummary{trial: merged.Trial(t.id+hdrIDInfix+hdrID, w), hlog: hlog, legacyID: t.id + hdrIDInfix + legacyID,
				from: fmt.Sprintf("%s with %d .hdr logs (%s)", from, len(hdrRuns), strings.Join(hdr.OpNames(), ", ")), notes: append(slices.Clone(notes), mnotes...)})
			continue
		}
		out = append(out, importedSummary{trial: t.r.Trial(t.id, w), from: from, notes: notes})
	}
	if hdr != nil && len(phases) == 0 {
		hlog, err := hlogOf(hdr)
		if err != nil {
			return nil, err
		}
		out = append(out, importedSummary{trial: hdr.Trial(hdrIDPrefix+hdrID, workload), hlog: hlog, legacyID: hdrIDPrefix + legacyID,
			from: fmt.Sprintf("%d .hdr logs (%s)", len(hdrRuns), strings.Join(hdr.OpNames(), ", "))})
	}
	return out, nil
}

// hdrIDPrefix starts the id of a summary of .hdr logs alone; hdrIDInfix
// joins a text run's id and its logs' digest.
const (
	hdrIDPrefix = "ycsb-hdr-"
	hdrIDInfix  = "-hdr-"
)

// runIdentity is what names an imported summary's run, read from its id
// (summariesOf makes them): its text output's part (ycsb-TEXT-N) and its
// .hdr logs' digest, either "" when the summary has none.
func runIdentity(id string) (text, hdr string) {
	if h, ok := strings.CutPrefix(id, hdrIDPrefix); ok {
		return "", h
	}
	if t, h, ok := strings.Cut(id, hdrIDInfix); ok {
		return t, h
	}
	return id, ""
}

// sameRun says whether two imported summaries are of one run: the same
// text output's run, or the same .hdr logs, whatever else came with them
// (a run imported from its text, then again with its logs).
func sameRun(a, b string) bool {
	ta, ha := runIdentity(a)
	tb, hb := runIdentity(b)
	return ta != "" && ta == tb || ha != "" && ha == hb
}

// normalise is a file's content as its identity: without byte order marks,
// with LF line ends, so a copy saved on Windows is the same output.
func normalise(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("\xef\xbb\xbf"), nil)
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(b, []byte("\r"), []byte("\n"))
}

// isLoadPhase says whether a run measured only inserts (and the client's
// cleanup): what `ycsb load` prints.
func isLoadPhase(r *Run) bool {
	insert := false
	for name := range r.Ops {
		base := strings.TrimSuffix(name, "-FAILED")
		switch base {
		case "INSERT":
			insert = true
		case "CLEANUP":
		default:
			return false
		}
	}
	return insert
}

// hlogOf is the interval log of a run's histograms, or nil when it has none.
func hlogOf(r *Run) ([]byte, error) {
	if r == nil || !r.HasHistograms() {
		return nil, nil
	}
	var log bytes.Buffer
	if err := r.WriteHlog(&log); err != nil {
		return nil, err
	}
	return log.Bytes(), nil
}

// withHdr is a text run with its .hdr logs: each logged operation's
// latencies come from its histogram, its statuses and the run's overall
// figures from the text. A log of an operation the text has no block of is
// another run's, and refused; a log counting other operations than the
// text's block (a log of part of the run) is not used, and a note says so:
// the text's figures are the whole run's. logged holds the logs used.
func withHdr(text, hdr *Run) (merged, logged *Run, notes []string, err error) {
	out := *text
	out.Ops = make(map[string]*Op, len(text.Ops))
	for name, o := range text.Ops {
		out.Ops[name] = o
	}
	used := *hdr
	used.Ops = map[string]*Op{}
	for _, name := range hdr.OpNames() {
		h := hdr.Ops[name]
		t := text.Ops[name]
		if t == nil {
			return nil, nil, nil, fmt.Errorf("%s.hdr logs operation %s, which the text output %s has no block of: they are not one run; import the .hdr logs with their own run's text output", name, name, text.File)
		}
		if t.Count > 0 && h.Count > 0 && math.Abs(float64(t.Count-h.Count)) > 0.001*float64(t.Count)+1 {
			notes = append(notes, fmt.Sprintf("%s.hdr counts %d %s operations, the text's [%s] block %d: the log is not of the whole run, so it is not used; %s's figures are the text's", name, h.Count, name, name, t.Count, name))
			continue
		}
		used.Ops[name] = h
		m := *h
		m.Statuses = t.Statuses
		if m.Intended == nil {
			m.Intended = t.Intended
		}
		if m.Count == 0 {
			m.Count = t.Count
		}
		out.Ops[name] = &m
	}
	for _, name := range text.OpNames() {
		if _, ok := hdr.Ops[name]; !ok && name != "CLEANUP" {
			notes = append(notes, fmt.Sprintf("[%s] has no .hdr log: its figures are the text output's", name))
		}
	}
	if len(used.Ops) > 0 {
		out.StartUnixMillis = hdr.StartUnixMillis
	}
	return &out, &used, notes, nil
}
