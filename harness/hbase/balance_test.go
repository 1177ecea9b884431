package hbase

import "testing"

func TestEncodedName(t *testing.T) {
	for name, want := range map[string]string{
		"t,,1700000000000.0123456789abcdef0123456789abcdef.":              "0123456789abcdef0123456789abcdef",
		"t,row.with.dots,1700000000000.00112233445566778899aabbccddeeff.": "00112233445566778899aabbccddeeff",
		"hbase:meta,,1": "",
		"t,,1.":         "",
		"":              "",
	} {
		if got := string(encodedName([]byte(name))); got != want {
			t.Errorf("encodedName(%q) = %q, want %q", name, got, want)
		}
	}
}
