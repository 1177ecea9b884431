package workload

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Config read once and sent as JSON (a load host's task) builds the same
// workload as the properties it came from: the same draws, the histogram
// file's sizes without the file.
func TestConfigTravelsAsJSON(t *testing.T) {
	dir := t.TempDir()
	hist := filepath.Join(dir, "hist.txt")
	if err := os.WriteFile(hist, []byte("BlockSize\t10\n0\t5\n1\t5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []Properties{
		props("requestdistribution", "zipfian", "insertproportion", "0.1", "readproportion", "0.9", "updateproportion", "0"),
		props("fieldlengthdistribution", "histogram", "fieldlengthhistogram", hist),
		props("requestdistribution", "hotspot", "scanproportion", "0.5", "readproportion", "0.5", "updateproportion", "0"),
	} {
		cfg, err := NewConfig(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(hist); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		var back Config
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if _, err := New(p.Clone()); cfg.FieldLengthDistribution == "histogram" && err == nil {
			t.Fatal("the histogram file is gone, yet New read it")
		}
		a, err := FromConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		z, err := FromConfig(back)
		if err != nil {
			t.Fatalf("config decoded from %s: %v", b, err)
		}
		ka, kz := a.NewWorker(7), z.NewWorker(7)
		for i := range 200 {
			if oa, oz := ka.NextOp(), kz.NextOp(); oa != oz {
				t.Fatalf("draw %d: op %v from the config, %v from its JSON", i, oa, oz)
			}
			if na, nz := ka.NextKeyNumber(), kz.NextKeyNumber(); na != nz {
				t.Fatalf("draw %d: key %d from the config, %d from its JSON", i, na, nz)
			}
			if va, vz := len(ka.RowValues()[0].Value), len(kz.RowValues()[0].Value); va != vz {
				t.Fatalf("draw %d: value of %d bytes from the config, %d from its JSON", i, va, vz)
			}
		}
		if err := os.WriteFile(hist, []byte("BlockSize\t10\n0\t5\n1\t5\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestConfigSetOperationsSizesNewKeys(t *testing.T) {
	cfg, err := NewConfig(props("insertproportion", "0.5", "readproportion", "0.5", "updateproportion", "0"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewConfig(props("insertproportion", "0.5", "readproportion", "0.5", "updateproportion", "0", "operationcount", "4000"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.SetOperations(4000)
	if cfg.OperationCount != 4000 || cfg.ExpectedNewKeys != want.ExpectedNewKeys || cfg.ExpectedNewKeys != 4000 {
		t.Errorf("after SetOperations(4000): %d operations, %d expected new keys; want 4000 and %d as parsed", cfg.OperationCount, cfg.ExpectedNewKeys, want.ExpectedNewKeys)
	}
}

// A Config that did not come from NewConfig (a task decoded on a load
// host) is refused with the property named, never built into a workload
// that would panic or allocate without bound.
func TestConfigValidateRefusesBadValues(t *testing.T) {
	good, err := NewConfig(props())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		bad  func(*Config)
		want string
	}{
		{"no table", func(c *Config) { c.Table = " " }, "table"},
		{"no fields", func(c *Config) { c.FieldCount = 0 }, "fieldcount=0"},
		{"huge values", func(c *Config) { c.FieldLength = 1 << 40 }, "fieldlength="},
		{"unknown distribution", func(c *Config) { c.RequestDistribution = "gaussian" }, "requestdistribution"},
		{"no operations in the mix", func(c *Config) { c.Proportions = [NumOps]float64{} }, "sum to 0"},
		{"negative proportion", func(c *Config) { c.Proportions[Read] = -1 }, "READ proportion"},
		{"range beyond the table", func(c *Config) { c.InsertCount = c.RecordCount + 1 }, "beyond recordcount"},
		{"histogram without weights", func(c *Config) { c.FieldLengthDistribution = "histogram" }, "fieldlengthhistogram"},
		{"bad hotspot", func(c *Config) { c.RequestDistribution, c.HotspotDataFraction = "hotspot", 2 }, "hotspot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := good
			tc.bad(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate = %v, want an error naming %q", err, tc.want)
			}
			if _, err := FromConfig(c); err == nil {
				t.Error("FromConfig built a workload Validate refuses")
			}
		})
	}
	if err := good.Validate(); err != nil {
		t.Errorf("a config from NewConfig: %v", err)
	}
}
