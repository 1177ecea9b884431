package report

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromium finds a headless-capable Chromium; CI installs Debian's
// `chromium` package (.ci/run).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if testing.Short() {
		t.Skip("no Chromium on PATH; skipped under -short")
	}
	t.Fatal("headless Chromium is needed to look at the HTML report: apt-get install chromium (.ci/run does)")
	return ""
}

// TestHTMLRendersInChromium opens the HTML report in headless Chromium and
// looks at the screenshot: the evidence plots must really be drawn, with the
// REGRESSED interval in red over the green tolerance band and both sides'
// trial dots, not merely be present in the markup.
func TestHTMLRendersInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := Render(f, FormatHTML, fullReport()); err != nil {
		t.Fatal(err)
	}
	f.Close()
	img := screenshot(t, bin, page, 4000)
	for _, c := range []struct {
		what string
		hex  string
	}{
		{"REGRESSED interval (red)", "#cf222e"},
		{"IMPROVED interval (green)", "#1a7f37"},
		{"tolerance band", colBand},
		{"baseline trials", colBase},
		{"candidate trials", colCand},
		{"REGRESSED row", "#fff1f0"},
	} {
		if n := countColour(img, c.hex); n < 40 {
			t.Errorf("%s (%s): %d pixels in the screenshot, want it drawn", c.what, c.hex, n)
		}
	}
}

// countColour counts the pixels within a small distance of hex (#rrggbb).
func countColour(img image.Image, hex string) int {
	var want color.RGBA
	for i, p := range []*uint8{&want.R, &want.G, &want.B} {
		var v uint8
		for _, ch := range hex[1+2*i : 3+2*i] {
			v <<= 4
			switch {
			case ch >= '0' && ch <= '9':
				v |= uint8(ch - '0')
			default:
				v |= uint8(ch-'a') + 10
			}
		}
		*p = v
	}
	near := func(a uint32, b uint8) bool { d := int(a>>8) - int(b); return d >= -6 && d <= 6 }
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if near(r, want.R) && near(g, want.G) && near(b, want.B) {
				n++
			}
		}
	}
	return n
}

// screenshot opens page in headless Chromium bin in a 1600 px wide window
// of the given height and returns what it drew.
func screenshot(t *testing.T, bin, page string, height int) image.Image {
	t.Helper()
	dir := t.TempDir()
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), fmt.Sprintf("--window-size=1600,%d", height), "--screenshot="+shot, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	r, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer r.Close()
	img, err := png.Decode(r)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// frameMetrics opens page in headless Chromium inside a frame width px
// wide and 900 high (a window is at least 500 px wide, a phone's is 390)
// and returns what a script measured there: the document's scroll width
// and height, the frame's inner width, the bottoms of the first screen
// (#glance), of the verdict and of the first row it rests on, and how many
// of the first two figures of a grid of plots share a row (2: side by side).
func frameMetrics(t *testing.T, bin, page string, width int) map[string]int {
	t.Helper()
	dir := filepath.Dir(page)
	outer := filepath.Join(dir, fmt.Sprintf("frame-%d.html", width))
	script := `<!DOCTYPE html><html><body style="margin:0"><iframe id="f" src="` + filepath.Base(page) + `" style="width:` + strconv.Itoa(width) + `px;height:900px;border:0"></iframe>
<script>window.addEventListener("load",function(){var w=document.getElementById("f").contentWindow,d=w.document,e=d.documentElement;
function bottom(q){var n=d.querySelector(q);return n?Math.round(n.getBoundingClientRect().bottom):-1}
var f=d.querySelectorAll(".plots figure");var side=f.length>1&&Math.abs(f[0].getBoundingClientRect().top-f[1].getBoundingClientRect().top)<2?2:1;
document.title="scroll="+e.scrollWidth+";inner="+w.innerWidth+";height="+e.scrollHeight+";glance="+bottom("#glance")+";verdict="+bottom(".verdict")+";row="+bottom("table.basis tbody tr")+";side="+side;});</script></body></html>`
	if err := os.WriteFile(outer, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files",
		"--user-data-dir="+filepath.Join(t.TempDir(), "profile"), fmt.Sprintf("--window-size=%d,900", max(width, 500)), "--dump-dom", "file://"+outer).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	m := frameTitle.FindSubmatch(out)
	if m == nil {
		t.Fatalf("chromium ran no script: no measures in the page's title")
	}
	got := map[string]int{}
	for _, kv := range strings.Split(string(m[1]), ";") {
		k, v, _ := strings.Cut(kv, "=")
		got[k], _ = strconv.Atoi(v)
	}
	return got
}

var frameTitle = regexp.MustCompile(`<title>(scroll=[^<]*)</title>`)

// TestStoredRunsHTMLInChromium opens both real runs' pages in headless
// Chromium at 1280 and 390 px: at 1280 the first screen (the verdict, the
// rows it rests on, the provenance) ends within the 900 px window and the
// plots sit side by side; at 390 the verdict and the first row it rests
// on show within a phone's first screen, one plot a row; neither is wider
// than its window. (The page was 25,909 px tall at 1280, one
// 640 px column.)
func TestStoredRunsHTMLInChromium(t *testing.T) {
	bin := chromium(t)
	for _, name := range storedRuns {
		r := storedReport(t, name)
		seed := int64(1)
		for _, m := range r.Comparison.Metrics {
			if m.Metric == "p50" && !m.Primary {
				r.Distributions = append(r.Distributions, Distribution{Workload: m.Workload, Op: m.Op, Baseline: histogram(seed, m.Baseline), Candidate: histogram(seed+1, m.Candidate)})
				seed += 2
			}
		}
		dir := t.TempDir()
		page := filepath.Join(dir, "report.html")
		var b strings.Builder
		if err := Render(&b, FormatHTML, r); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(page, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			width, screen int
			side          int
		}{{1280, 900, 2}, {390, 844, 1}} {
			got := frameMetrics(t, bin, page, tc.width)
			t.Logf("%s at %d px: %v", name, tc.width, got)
			if got["inner"] != tc.width || got["scroll"] > got["inner"] {
				t.Errorf("%s at %d px: the page is %d px wide in a %d px window", name, tc.width, got["scroll"], got["inner"])
			}
			if got["verdict"] <= 0 || got["verdict"] > tc.screen || got["row"] <= 0 || got["row"] > tc.screen {
				t.Errorf("%s at %d px: the verdict ends at %d px and the first row at %d, want both within the first %d", name, tc.width, got["verdict"], got["row"], tc.screen)
			}
			if tc.width == 1280 && (got["glance"] <= 0 || got["glance"] > tc.screen) {
				t.Errorf("%s at %d px: the first screen ends at %d px, want within %d", name, tc.width, got["glance"], tc.screen)
			}
			if got["side"] != tc.side {
				t.Errorf("%s at %d px: %d of the first two plots share a row, want %d", name, tc.width, got["side"], tc.side)
			}
		}
	}
}
