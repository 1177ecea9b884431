package workload

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync"
)

// FNV-1a 64 parameters, as YCSB's Utils.fnvhash64 uses them.
const (
	fnvOffsetBasis64 uint64 = 0xCBF29CE484222325
	fnvPrime64       uint64 = 1099511628211
)

// FNVHash64 is YCSB's key hash: FNV-1a over the eight bytes of v taken low
// byte first, then Java's Math.abs (so math.MinInt64 stays negative).
// go-ycsb hashes big-endian and names rows differently; this follows YCSB.
func FNVHash64(v int64) int64 {
	h := fnvOffsetBasis64
	for range 8 {
		octet := v & 0xff
		v >>= 8 // arithmetic shift, as Java's >> on a long
		h ^= uint64(octet)
		h *= fnvPrime64
	}
	s := int64(h)
	if s < 0 {
		s = -s // wraps for MinInt64, exactly like Math.abs
	}
	return s
}

// keyPrefix is YCSB's fixed row-key prefix.
const keyPrefix = "user"

// AppendKey appends the row key of key number n to dst: "user", zeros up to
// zeropadding digits, and the decimal of n (hashed first unless ordered).
func AppendKey(dst []byte, n int64, zeropadding int, ordered bool) []byte {
	if !ordered {
		n = FNVHash64(n)
	}
	var num [20]byte
	digits := strconv.AppendInt(num[:0], n, 10)
	dst = append(dst, keyPrefix...)
	for i := len(digits); i < zeropadding; i++ {
		dst = append(dst, '0')
	}
	return append(dst, digits...)
}

// BuildKeyName returns the row key of key number n, as YCSB's CoreWorkload.buildKeyName does.
func BuildKeyName(n int64, zeropadding int, ordered bool) string {
	var buf [64]byte
	return string(AppendKey(buf[:0], n, zeropadding, ordered))
}

// splitKeyPrefixLen is how many key bytes after "user" form a bucket in
// SplitKeys' first pass; 11^5 buckets (a digit or end-of-key per position)
// keep each bucket small even for 10^9 rows.
const splitKeyPrefixLen = 5

// SplitKeys returns regions-1 split points that divide the row keys of key
// numbers 0..count-1 (as named with zeropadding and ordered) into regions
// ranges of equal row count: split i is the (i*count/regions)-th smallest key.
//
// It is exact without holding all keys in memory: a first pass counts keys
// per bucket of their first varying bytes (ordered as bytes sort, with
// end-of-key before any digit); a second pass keeps only the keys in the
// buckets that contain a split rank and sorts those. Both passes run in
// parallel over the key numbers; 100M rows take two passes of about 100M
// hash-and-format steps, a few seconds, and memory of a few buckets' keys.
func SplitKeys(count int64, regions int, zeropadding int, ordered bool) ([][]byte, error) {
	if regions < 1 {
		return nil, fmt.Errorf("split %d rows into %d regions: need at least 1 region", count, regions)
	}
	if count < int64(regions) {
		return nil, fmt.Errorf("split %d rows into %d regions: need at least one row per region; lower regions or raise recordcount", count, regions)
	}
	if regions == 1 {
		return nil, nil
	}
	nb := 1
	for range splitKeyPrefixLen {
		nb *= 11
	}
	// Skip the bytes every key shares: "user" and the zeros that padding adds
	// in front of even the longest number (26-digit pe-style padding would
	// otherwise put every key in one bucket).
	maxDigits := 19 // a hashed key number is below 2^63
	if ordered {
		maxDigits = len(strconv.FormatInt(count-1, 10))
	}
	off := len(keyPrefix) + max(0, zeropadding-maxDigits)
	bucketOf := func(key []byte) int {
		b := 0
		for i := range splitKeyPrefixLen {
			b *= 11
			if p := off + i; p < len(key) {
				// zero padding and digits are '0'..'9'; '-' only for
				// MinInt64's hash, which sorts before digits like end-of-key.
				if c := key[p]; c >= '0' && c <= '9' {
					b += int(c-'0') + 1
				}
			}
		}
		return b
	}
	workers := min(runtime.GOMAXPROCS(0), int(min(count/100_000+1, 64)))
	chunk := (count + int64(workers) - 1) / int64(workers)
	parallel := func(f func(lo, hi int64, w int)) {
		var wg sync.WaitGroup
		for w := range workers {
			lo, hi := int64(w)*chunk, min(int64(w+1)*chunk, count)
			if lo >= hi {
				continue
			}
			wg.Add(1)
			go func() { defer wg.Done(); f(lo, hi, w) }()
		}
		wg.Wait()
	}

	// Pass 1: bucket counts.
	counts := make([][]int64, workers)
	parallel(func(lo, hi int64, w int) {
		c := make([]int64, nb)
		var buf [64]byte
		for n := lo; n < hi; n++ {
			c[bucketOf(AppendKey(buf[:0], n, zeropadding, ordered))]++
		}
		counts[w] = c
	})
	total := make([]int64, nb)
	for _, c := range counts {
		for i, v := range c {
			total[i] += v
		}
	}

	// Which bucket holds each split rank, and the rank within it.
	ranks := make([]int64, regions-1)
	for i := range ranks {
		ranks[i] = int64(i+1) * count / int64(regions)
	}
	wanted := make([]bool, nb)
	before := int64(0)
	ri := 0
	for b, c := range total {
		for ri < len(ranks) && ranks[ri] < before+c {
			wanted[b] = true
			ri++
		}
		before += c
	}

	// Pass 2: collect the keys of the wanted buckets.
	found := make([]map[int][][]byte, workers)
	parallel(func(lo, hi int64, w int) {
		m := make(map[int][][]byte)
		var buf [64]byte
		for n := lo; n < hi; n++ {
			k := AppendKey(buf[:0], n, zeropadding, ordered)
			if b := bucketOf(k); wanted[b] {
				m[b] = append(m[b], bytes.Clone(k))
			}
		}
		found[w] = m
	})
	merged := make(map[int][][]byte, len(wanted))
	for _, m := range found {
		for b, ks := range m {
			merged[b] = append(merged[b], ks...)
		}
	}
	for b := range merged {
		slices.SortFunc(merged[b], bytes.Compare)
	}
	out := make([][]byte, len(ranks))
	before = 0
	ri = 0
	for b, c := range total {
		for ri < len(ranks) && ranks[ri] < before+c {
			out[ri] = merged[b][ranks[ri]-before]
			ri++
		}
		before += c
	}
	return out, nil
}
