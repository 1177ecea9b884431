package results

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// MaxFigure bounds the magnitude of every figure a manifest stores (a
// latency in µs, a rate, bytes or CPU per operation, a clock offset):
// 1e15 µs is 31 years. regress and import-ycsb never store more (the
// import refuses a value beyond it as implausible); a manifest holding more
// was edited and re-signed, and such a figure overflows the statistics
// (its square, or a report's rounding of it, is +Inf).
const MaxFigure = 1e15

// checkFigures is the rule every reader applies to a manifest's trials and
// summaries (DecodeManifest, so `results check` and compare alike): every
// figure finite and within MaxFigure, latencies, rates and counts not
// negative, and a trial's pair, order, slot and instance what the runner
// writes. The error names the trial and the field.
func checkFigures(m *Manifest) error {
	for n, list := range [][]Trial{m.Trials, m.Summaries} {
		for i := range list {
			t := &list[i]
			err := checkTrial(t)
			if err == nil && n == 0 && t.RunID == "" {
				// Pairs match only within a run: trials of no run would
				// be paired across runs.
				err = fmt.Errorf("a measured trial of no run (an empty run id)")
			}
			if err != nil {
				return fmt.Errorf("trial %q: %w", t.ID, err)
			}
		}
	}
	return nil
}

func checkTrial(t *Trial) error {
	if err := finiteFigures(reflect.ValueOf(t).Elem(), "trial"); err != nil {
		return err
	}
	switch {
	case t.ID == "":
		return fmt.Errorf("an empty id")
	case t.Pair < 0 || t.Instance < 0:
		return fmt.Errorf("pair %d, instance %d: neither is ever negative", t.Pair, t.Instance)
	case t.Order != 0 && t.Order != 1:
		return fmt.Errorf("order %d: a trial ran first (0) or second (1) in its pair", t.Order)
	case t.Slot < 0 || t.Slot > 2:
		return fmt.Errorf("slot %d: a trial held slot 1 or 2 (0: not recorded)", t.Slot)
	case t.DurationMillis < 0 || t.TargetOpsPerSec < 0 || t.AchievedOpsPerSec < 0:
		return fmt.Errorf("a negative duration or rate")
	}
	for name, o := range t.Ops {
		if err := checkOp(o); err != nil {
			return fmt.Errorf("operation %q: %w", name, err)
		}
	}
	return nil
}

func checkOp(o OpStats) error {
	if o.Count < 0 || o.Errors < 0 || o.Errors > o.Count {
		return fmt.Errorf("count %d, errors %d: counts are never negative, nor errors more than the operations", o.Count, o.Errors)
	}
	for s, n := range o.Statuses {
		if n < 0 {
			return fmt.Errorf("status %q counts %d", s, n)
		}
	}
	lats := []Latency{o.Intended, o.Service}
	if o.Failed != nil {
		if o.Failed.Count < 0 {
			return fmt.Errorf("failed count %d", o.Failed.Count)
		}
		lats = append(lats, o.Failed.Intended, o.Failed.Service)
	}
	for _, l := range lats {
		for _, v := range []float64{l.P50Micros, l.P95Micros, l.P99Micros, l.P999Micros, l.MaxMicros, l.MinMicros, l.MeanMicros} {
			if v < 0 {
				return fmt.Errorf("a latency of %g µs", v)
			}
		}
	}
	return nil
}

// finiteFigures walks v (a trial and what it holds) for a float that is not
// finite or beyond MaxFigure, naming its field.
func finiteFigures(v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > MaxFigure {
			return fmt.Errorf("%s is %g, beyond any figure regress stores (at most %g)", path, f, MaxFigure)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return finiteFigures(v.Elem(), path)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			name := f.Name
			if tag := f.Tag.Get("json"); tag != "" && tag[0] != ',' && tag != "-" {
				name = tag
				if j := strings.IndexByte(tag, ','); j >= 0 {
					name = tag[:j]
				}
			}
			if err := finiteFigures(v.Field(i), path+"."+name); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := finiteFigures(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if err := finiteFigures(iter.Value(), fmt.Sprintf("%s[%v]", path, iter.Key())); err != nil {
				return err
			}
		}
	}
	return nil
}
