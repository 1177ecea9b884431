package profile

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"
)

// Flame graph geometry, in SVG pixels.
const (
	flameWidth   = 1200.0
	frameHeight  = 16.0
	flamePad     = 10.0
	flameHeadPad = 44.0 // title and legend
	minFrameWide = 0.3  // narrower frames (and their callees) are left out
	charWidth    = 6.6  // of the 11 px monospace labels
)

// node is one frame in the merged call tree.
type node struct {
	name       string
	cand, base float64 // candidate weight; baseline weight scaled to the candidate's operations
	kids       map[string]*node
}

func (n *node) child(name string) *node {
	if n.kids == nil {
		n.kids = map[string]*node{}
	}
	c := n.kids[name]
	if c == nil {
		c = &node{name: name}
		n.kids[name] = c
	}
	return c
}

// WriteFlameGraph draws a differential flame graph as one self-contained SVG
// (no scripts, nothing fetched): frames are as wide as the candidate's
// weight, red where the frame's weight per operation grew from the baseline,
// blue where it shrank, deeper colour for a larger change; hovering a frame
// shows its name and both sides' figures. Code the candidate no longer runs
// has no width, so it is missing here; the tables and the baseline's folded
// file still show it.
func WriteFlameGraph(w io.Writer, title string, kind Kind, base, cand Side) error {
	if base.Ops <= 0 || cand.Ops <= 0 {
		return fmt.Errorf("profile: flame graph %q needs the operations each side served; got baseline %d, candidate %d", title, base.Ops, cand.Ops)
	}
	ratio := float64(cand.Ops) / float64(base.Ops)
	root := &node{name: "all"}
	add := func(f Folded, scale float64, isCand bool) {
		for s, wt := range f {
			v := float64(wt) * scale
			n := root
			if isCand {
				n.cand += v
			} else {
				n.base += v
			}
			for _, fr := range strings.Split(s, ";") {
				n = n.child(fr)
				if isCand {
					n.cand += v
				} else {
					n.base += v
				}
			}
		}
	}
	add(base.Stacks, ratio, false)
	add(cand.Stacks, 1, true)

	maxDelta, depth := 0.0, 0
	var walk func(n *node, d int)
	walk = func(n *node, d int) {
		maxDelta = max(maxDelta, math.Abs(change(n.cand, n.base)))
		depth = max(depth, d)
		for _, c := range n.kids {
			if c.cand > 0 {
				walk(c, d+1)
			}
		}
	}
	walk(root, 0)

	scale, unit := perOpUnit(kind)
	height := flameHeadPad + float64(depth+1)*frameHeight + flamePad
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="monospace" font-size="11">`+"\n",
		flameWidth, height, flameWidth, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#fafafa"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="18" font-size="14" text-anchor="middle">%s</text>`+"\n", flameWidth/2, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%.0f" y="34" text-anchor="middle">width: candidate's %s; <tspan fill="#c02020">red: grew</tspan>, <tspan fill="#2040c0">blue: shrank</tspan> per operation (baseline scaled by %d/%d ops)</text>`+"\n",
		flameWidth/2, kindNoun(kind), cand.Ops, base.Ops)
	if root.cand <= 0 {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle">the candidate recorded no %s</text>`+"\n", flameWidth/2, flameHeadPad+frameHeight, kindNoun(kind))
	} else {
		px := (flameWidth - 2*flamePad) / root.cand
		var draw func(n *node, x float64, d int)
		draw = func(n *node, x float64, d int) {
			wide := n.cand * px
			y := height - flamePad - float64(d+1)*frameHeight
			delta := change(n.cand, n.base)
			fmt.Fprintf(&b, `<g><title>%s&#10;candidate %s (%.2f%%), baseline %s per candidate's ops; change %s %s</title>`,
				html.EscapeString(n.name), num(n.cand), 100*n.cand/root.cand, num(n.base), signed(delta/float64(cand.Ops)*scale), unit)
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s" stroke="#ffffff" stroke-width="0.5"/>`,
				x, y, wide, frameHeight-1, diffColour(delta, maxDelta))
			if chars := int((wide - 6) / charWidth); chars >= 3 {
				label := n.name
				if len([]rune(label)) > chars {
					label = ShortFrame(label)
					if len(n.kids) == 1 {
						for _, k := range n.kids {
							label = ShortFrameCalling(n.name, k.name)
						}
					}
				}
				if r := []rune(label); len(r) > chars {
					label = string(r[:chars-2]) + ".."
				}
				fmt.Fprintf(&b, `<text x="%.2f" y="%.1f">%s</text>`, x+3, y+frameHeight-4.5, html.EscapeString(label))
			}
			b.WriteString("</g>\n")
			kids := make([]*node, 0, len(n.kids))
			for _, c := range n.kids {
				if c.cand*px >= minFrameWide {
					kids = append(kids, c)
				}
			}
			slices.SortFunc(kids, func(a, b *node) int { return strings.Compare(a.name, b.name) })
			for _, c := range kids {
				draw(c, x, d+1)
				x += c.cand * px
			}
		}
		draw(root, flamePad, 0)
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// diffColour is white for no change, deepening to red (grew) or blue (shrank) with |delta|/maxDelta.
func diffColour(delta, maxDelta float64) string {
	if maxDelta <= 0 || delta == 0 {
		return "rgb(245,245,245)"
	}
	v := int(math.Round(200 * math.Min(1, math.Abs(delta)/maxDelta)))
	if delta > 0 {
		return fmt.Sprintf("rgb(255,%d,%d)", 245-v, 245-v)
	}
	return fmt.Sprintf("rgb(%d,%d,255)", 245-v, 245-v)
}

func kindNoun(k Kind) string {
	switch k {
	case Alloc:
		return "allocated bytes"
	case Wait:
		return "wait time"
	}
	return "CPU samples"
}

// ShortFrame keeps "Class.method" of "package.Class.method": what fits where
// the package does not. A lambda's class ("pkg.Foo$$Lambda.get", or a
// stored form with its JVM's numbers) reads "Foo (lambda).get": the class
// that wrote the lambda and the interface method it implements, never the
// JVM's number for it. ShortFrameCalling names it by its body when known.
func ShortFrame(f string) string {
	f = CanonicalFrame(f)
	i := strings.LastIndexByte(f, '.')
	if i <= 0 {
		return f
	}
	class, method := f[:i], f[i+1:]
	if k := strings.Index(class, lambdaClassMark); k >= 0 {
		return shortClass(class[:k]) + " (lambda)." + method
	}
	return shortClass(class) + "." + method
}

// lambdaClassMark is what the JDK puts between the class that wrote a lambda and the number of the class it spins for it.
const lambdaClassMark = "$$Lambda"

// ShortFrameCalling is ShortFrame for a frame whose callee is known (the
// next frame toward the leaf): a lambda's class calling the lambda's body,
// "pkg.Foo.lambda$bar$3", is named by the method that wrote the lambda,
// "Foo.bar (lambda)". A lambda that is a method reference calls the
// referenced method itself, and keeps ShortFrame's name.
func ShortFrameCalling(f, callee string) string {
	f = CanonicalFrame(f)
	if i := strings.LastIndexByte(f, '.'); i > 0 && strings.Contains(f[:i], lambdaClassMark) {
		callee = CanonicalFrame(callee)
		if j := strings.LastIndexByte(callee, '.'); j > 0 && strings.HasPrefix(callee[j+1:], lambdaBodyPrefix) && len(callee) > j+1+len(lambdaBodyPrefix) {
			return shortClass(callee[:j]) + "." + callee[j+1+len(lambdaBodyPrefix):] + " (lambda)"
		}
	}
	return ShortFrame(f)
}

// shortClass is a dotted class name without its package.
func shortClass(c string) string {
	if c == "" {
		return "[unknown]"
	}
	return c[strings.LastIndexByte(c, '.')+1:]
}
