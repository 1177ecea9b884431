package report

import "testing"

func TestValuesPrintWithoutExponents(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{1000, "us", "1 ms"},
		{999.9, "us", "1 ms"},
		{999.4, "us", "999 µs"},
		{410.4, "us", "410 µs"},
		{0.5, "us", "0.5 µs"},
		{1500, "us", "1.5 ms"},
		{999_999, "us", "1 s"},
		{1e9, "us", "1000 s"},
		{12345678, "us", "12.3 s"},
		{1023.9 * 1024, "B", "1020 KiB"},
		{3 << 20, "B", "3 MiB"},
		{12345.6, "us/op", "12350 us/op"},
		{0.0012345, "x", "0.001234 x"},
		{0, "us", "0 µs"},
	} {
		if got := value(c.v, c.unit); got != c.want {
			t.Errorf("value(%v, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
}
