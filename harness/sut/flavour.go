package sut

import (
	"context"
	"fmt"

	"github.com/regress-hbase/regress/harness/cluster"
)

// Like for like: a run's two sides run one build flavour. A plain version
// such as 2.6.1 prefers its -hadoop3 build (Hadoop 3 client jars), but not
// every release publishes one (2.6.3 does not): left alone, 2.6.1 against
// 2.6.3 would compare 2.6.1-hadoop3 with 2.6.3 on Hadoop 2.10's jars, two
// Hadoop stacks. What an HBase voter runs is the release against the
// release, so both sides fall back to the plain build, the one both have.
// A flavour the user named (2.6.1-hadoop3) is theirs: it is kept, the log
// says the stacks differ, and each side's stack is recorded with its
// results, where compare's environment check warns of it in the report and
// the vote.

// resolver returns the artifact version a cluster spec would start (cluster.Local.Resolve).
type resolver func(ctx context.Context, s cluster.Spec) (string, error)

// flavourPlan is what sameFlavour decided for two sides.
type flavourPlan struct {
	// plain marks the sides to start on their plain build.
	plain [2]bool
	// note says what was decided, for the log; warn that the stacks differ.
	note string
	warn bool
}

// planFlavours decides from the specs as given and the artifact versions
// they resolved to; plainOK says whether each side's plain build resolves
// (asked only of a side that would have to fall back to it).
func planFlavours(specs [2]Spec, resolved [2]string, plainOK [2]bool) flavourPlan {
	f := [2]string{cluster.Flavour(resolved[0]), cluster.Flavour(resolved[1])}
	if f[0] == f[1] {
		return flavourPlan{}
	}
	h3 := 0 // the side on the -hadoop3 build
	if f[1] == cluster.FlavourHadoop3 {
		h3 = 1
	}
	other := 1 - h3
	named := cluster.ExplicitFlavour(specs[h3].Version)
	if !named && plainOK[h3] {
		var p flavourPlan
		p.plain[h3] = true
		p.note = fmt.Sprintf("%s: HBase %s runs its plain build (Hadoop 2 client jars), as %s %s must: %s has no -hadoop3 build here, and both sides run one Hadoop stack (ask for %s-hadoop3 to run that build anyway; the report then says the stacks differ)",
			specs[h3].Role, specs[h3].Version, specs[other].Role, specs[other].Version, specs[other].Version, specs[h3].Version)
		return p
	}
	why := "as asked"
	if !named {
		why = fmt.Sprintf("%s's plain build does not resolve here", specs[h3].Version)
	}
	return flavourPlan{warn: true, note: fmt.Sprintf("%s runs %s and %s runs %s: two Hadoop client stacks (%s); the report's warnings and the vote say so, and a difference may come from the stack rather than the release",
		specs[0].Role, resolved[0], specs[1].Role, resolved[1], why)}
}

// sameFlavour resolves both sides of a run that start a version through the
// local provider (their jars are fetched once, as Start would) and returns
// the specs to start: see planFlavours. Sides from a home or a running
// cluster are what they are; their stacks are recorded all the same.
func sameFlavour(ctx context.Context, opt Options, specs []Spec, resolve resolver) ([]Spec, error) {
	if len(specs) != 2 {
		return specs, nil
	}
	for _, s := range specs {
		if !s.started() || s.Home != "" || s.Plain {
			return specs, nil
		}
	}
	var resolved [2]string
	for i, s := range specs {
		v, err := resolve(ctx, cluster.Spec{Version: s.Version, Repo: s.Repo, CacheDir: opt.CacheDir})
		if err != nil {
			return nil, fmt.Errorf("%s: start HBase %s: %w", s.Role, s.Version, err)
		}
		resolved[i] = v
	}
	var plainOK [2]bool
	for i, s := range specs {
		if cluster.Flavour(resolved[i]) == cluster.FlavourHadoop3 && cluster.Flavour(resolved[1-i]) == cluster.FlavourPlain && !cluster.ExplicitFlavour(s.Version) {
			_, err := resolve(ctx, cluster.Spec{Version: s.Version, Repo: s.Repo, CacheDir: opt.CacheDir, Plain: true})
			plainOK[i] = err == nil
		}
	}
	p := planFlavours([2]Spec{specs[0], specs[1]}, resolved, plainOK)
	out := append([]Spec(nil), specs...)
	for i := range out {
		out[i].Plain = p.plain[i]
	}
	switch {
	case p.warn:
		opt.logger().Warn(p.note)
		opt.message("warning: " + p.note)
	case p.note != "":
		opt.logger().Info(p.note)
		opt.message(p.note)
	}
	return out, nil
}

// renewedFlavour is s as Renew starts it again: on the build old ran, so a
// side's fresh instances never change flavour between blocks of pairs.
func renewedFlavour(s Spec, old *Target) Spec {
	if s.started() && s.Home == "" && !cluster.ExplicitFlavour(s.Version) && old != nil && old.Version != "" &&
		cluster.Flavour(old.Version) == cluster.FlavourPlain {
		s.Plain = true
	}
	return s
}
