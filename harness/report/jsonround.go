package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/regress-hbase/regress/harness/metric"
)

// JSONSchemaVersion is report.json's schema_version: raised when a field
// changes meaning or goes, not when one is added (docs/reports.md lists
// every field).
const JSONSchemaVersion = 1

// The JSON report's numbers are rounded to what they mean, by their key,
// in this writer only (the comparison keeps its full precision): a float's
// last bits (999.9999999999998) say nothing a script should read.
var (
	// ratioKeys are ratios and fractions: 5 significant digits.
	ratioKeys = []string{"ratio", "ci_low", "ci_high", "pass_bound", "regression_bound", "tolerance", "detectable",
		"total_low", "total_high", "base_share", "cand_share", "hold", "resolution", "instance_sd"}
	// fractionMaps are objects keyed by metric whose every value is a
	// fraction (instance_noise.instance_sd): each value rounds as the key
	// the object lies under.
	fractionMaps = []string{"instance_sd"}
	// levelKeys are p-values and test levels: 4 significant digits.
	levelKeys = []string{"p", "alpha", "look_alpha", "family_alpha"}
	// sideKeys carry a metric row's figures in the row's unit.
	sideKeys = []string{"baseline", "candidate", "baseline_values", "candidate_values"}
)

// roundJSONNumber rounds the float v found under key (unit: the "unit" of
// the object it lies in, if any): latencies to 0.1 µs, milliseconds to
// 1 µs, bytes to 0.1 B, rates to 0.01 ops/s, ratios to 5 significant
// digits, p-values and levels to 4, anything else to 9 (float noise off,
// every measured digit kept).
func roundJSONNumber(key, unit string, v float64) float64 {
	switch {
	case slices.Contains(sideKeys, key):
		switch unit {
		case metric.Micros, metric.Bytes:
			return decimals(v, 1)
		case metric.OpsPerSec:
			return decimals(v, 2)
		}
	case slices.Contains(ratioKeys, key) || strings.HasSuffix(key, "_ratio"):
		return significant(v, 5)
	case slices.Contains(levelKeys, key):
		return significant(v, 4)
	case strings.HasSuffix(key, "_us") || strings.HasSuffix(key, "_bytes"):
		return decimals(v, 1)
	case strings.HasSuffix(key, "_ms"):
		return decimals(v, 3)
	case strings.HasSuffix(key, "ops_per_sec") || key == "max_rate":
		return decimals(v, 2)
	}
	return significant(v, 9)
}

// decimals rounds v to n decimal places (the nearest float to the decimal).
func decimals(v float64, n int) float64 {
	p := math.Pow(10, float64(n))
	if !finite(v * p) {
		return v // too large to have decimals (1e308 * 10 is +Inf, which JSON cannot hold)
	}
	r := math.Round(v*p) / p
	if r == 0 {
		return 0 // no -0
	}
	return r
}

// significant rounds v to n significant digits.
func significant(v float64, n int) float64 {
	if v == 0 || !finite(v) {
		return v
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', n, 64), 64)
	if err != nil {
		return v
	}
	return r
}

// jsonFrame is an object or array being rewritten: the key it lies under,
// whether a value was written (a comma is due), and for an object the key
// whose value comes next and the "unit" it has declared so far.
type jsonFrame struct {
	object    bool
	under     string
	wrote     bool
	key       string
	expectKey bool
	unit      string
}

// writeRoundedJSON writes v as indented JSON with its numbers rounded by
// roundJSONNumber: encoded once, then rewritten token by token, so field
// order and escaping are encoding/json's.
func writeRoundedJSON(w io.Writer, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out bytes.Buffer
	var stack []*jsonFrame
	// value writes one value's text at the current position.
	value := func(text []byte) {
		if n := len(stack); n > 0 {
			top := stack[n-1]
			if top.wrote {
				out.WriteByte(',')
			}
			if top.object {
				kb, _ := json.Marshal(top.key)
				out.Write(kb)
				out.WriteByte(':')
				top.expectKey = true
			}
			top.wrote = true
		}
		out.Write(text)
	}
	// closeFrame ends the innermost container (an object around it already
	// expects its next key: value set that when the container opened).
	closeFrame := func(delim byte) {
		stack = stack[:len(stack)-1]
		out.WriteByte(delim)
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("report: json: %w", err)
		}
		var top *jsonFrame
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		if top != nil && top.object && top.expectKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				closeFrame('}')
				continue
			}
			top.key, top.expectKey = tok.(string), false
			continue
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				under := ""
				if top != nil {
					under = top.key
					if !top.object {
						under = top.under
					}
				}
				value([]byte{byte(t)})
				stack = append(stack, &jsonFrame{object: t == '{', under: under, expectKey: t == '{'})
			case '}', ']':
				closeFrame(byte(t))
			}
		case json.Number:
			text := t.String()
			if strings.ContainsAny(text, ".eE") {
				f, err := t.Float64()
				if err != nil {
					return fmt.Errorf("report: json: %w", err)
				}
				key, unit := jsonKeyUnit(stack)
				if top != nil && top.object && slices.Contains(fractionMaps, top.under) {
					key = top.under
				}
				b, err := json.Marshal(roundJSONNumber(key, unit, f))
				if err != nil {
					return err
				}
				text = string(b)
			}
			value([]byte(text))
		case string:
			b, _ := json.Marshal(t)
			value(b)
			if top != nil && top.object && top.key == "unit" {
				top.unit = t
			}
		case bool:
			value([]byte(strconv.FormatBool(t)))
		case nil:
			value([]byte("null"))
		}
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, out.Bytes(), "", "  "); err != nil {
		return fmt.Errorf("report: json: %w", err)
	}
	indented.WriteByte('\n')
	_, err = w.Write(indented.Bytes())
	return err
}

// jsonKeyUnit is the key a number lies under (an array's elements take the
// array's key) and the unit its object declared.
func jsonKeyUnit(stack []*jsonFrame) (key, unit string) {
	n := len(stack)
	if n == 0 {
		return "", ""
	}
	top := stack[n-1]
	if top.object {
		return top.key, top.unit
	}
	key = top.under
	if n > 1 && stack[n-2].object {
		unit = stack[n-2].unit
	}
	return key, unit
}
