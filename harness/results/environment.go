package results

import (
	"bufio"
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// CurrentEnvironment fingerprints this machine: CPU model, cores, memory and
// OS, with jdk the JDK that HBase would run on as the caller found it
// (cluster.DefaultJDK's, through sut.StoredJDK; zero when none). Figures it
// cannot read are left empty and logged; it never fails.
func CurrentEnvironment(jdk JDK) Environment {
	env := Environment{Cores: runtime.NumCPU()}
	if jdk.Label() != "" {
		env.SetJDK(jdk)
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		env.CPUModel = cpuModel(b)
	} else {
		slog.Debug("environment: cpu model unknown", "err", err)
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		env.MemoryBytes = memTotal(b)
	}
	env.OS = osName()
	if h, err := os.Hostname(); err == nil {
		env.Hostname = h
	}
	return env
}

// cpuModel returns the first "model name" (x86) or "Model"/"Hardware" (ARM) line of /proc/cpuinfo.
func cpuModel(cpuinfo []byte) string {
	var fallback string
	sc := bufio.NewScanner(bytes.NewReader(cpuinfo))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "model name":
			return v
		case "Model", "Hardware", "cpu model":
			if fallback == "" {
				fallback = v
			}
		}
	}
	return fallback
}

// memTotal returns MemTotal from /proc/meminfo in bytes (0 when absent).
func memTotal(meminfo []byte) int64 {
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0
			}
			if len(f) >= 3 && strings.EqualFold(f[2], "kB") {
				n *= 1024
			}
			return n
		}
	}
	return 0
}

// osName is PRETTY_NAME from /etc/os-release plus the kernel release.
func osName() string {
	name := runtime.GOOS + "/" + runtime.GOARCH
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		if p := osReleasePretty(b); p != "" {
			name = p + " " + runtime.GOARCH
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		name += " (kernel " + strings.TrimSpace(string(b)) + ")"
	}
	return name
}

func osReleasePretty(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PRETTY_NAME="); ok {
			return strings.Trim(v, `"'`)
		}
	}
	return ""
}

// Diff lists the fields in which two environments differ, as "field a vs b"
// (cpu, cores, memory, os, jdk, host, hadoop), so a comparison across
// machines, or of two builds on different Hadoop client stacks, can warn
// about it. The Hadoop stack counts only where both sides recorded it.
func (e Environment) Diff(o Environment) []string {
	var d []string
	add := func(field string, a, b any) {
		if a != b {
			d = append(d, fmt.Sprintf("%s %v vs %v", field, a, b))
		}
	}
	add("cpu", e.CPUModel, o.CPUModel)
	add("cores", e.Cores, o.Cores)
	add("memory", e.MemoryBytes, o.MemoryBytes)
	add("os", e.OS, o.OS)
	add("jdk", e.JDK, o.JDK)
	add("host", e.Hostname, o.Hostname)
	if e.Hadoop != "" && o.Hadoop != "" {
		add("hadoop", e.Hadoop, o.Hadoop)
	}
	return d
}
