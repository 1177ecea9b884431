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
