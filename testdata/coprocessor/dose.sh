#!/bin/sh
# One run of a dose-response curve: the README's suite (release, or SUITE) on
# one HBase version against itself, the observer loaded on both sides, the
# candidate alone spending NANOS ns of handler-thread CPU time per request.
#
# Usage: testdata/coprocessor/dose.sh NAME DOSE [request|get|wait-get|wait-put] [regress flags...]
#   request  every Get, Put and scanner open (SlowRequestObserver; default):
#            a cost on every RPC, what the primary row is for; DOSE in ns of CPU
#   get      every Get (SlowGetObserver): a cost of the read path alone; DOSE in ns of CPU
#   wait-get every Get waits DOSE us before it reads, spending no CPU (WaitObserver):
#            what a lock or a queue does to latency
#   wait-put every Put waits DOSE us after it is applied (the WAL append done),
#            as a slower sync would
#   WAIT_PERCENT (default 100) makes only that share of the requests wait: the
#   JVM's shortest park is about 60 us here, so a smaller move of the median
#   needs fewer waits, not shorter ones.
# NANOS 0 is an A/A with the same jar on both sides. To aim at a share of
# workload C's cpu_per_op, read C's baseline figure from an A/A's report;
# what a dose costs is known only as the run measures it (a Get pays the
# clock reads too, and JVMs differ): on the development VM (C 124-165 us a
# Get) 3300 ns a Get cost C +5.4% and +1.1%, 5000 ns +5.7%, 8000 ns +9.2% and
# +9.5%, 13000 ns +10.8%, 19000 ns +11.3%; 5000 ns a request +4.6% and +6.5%.
# Results are stored under the
# labels <version>-base-<observer>0-NAME and <version>-<observer>NANOS-NAME in
# $STORE (default baselines), reports in reports/dose-NAME; exit code as regress's.
# Environment: VERSION (default 2.6.1), SUITE (default release), REGRESS
# (default: go run ./harness/cmd/regress), STORE.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 NAME DOSE [request|get|wait-get|wait-put] [regress flags...]" >&2; exit 2; }
name=$1; nanos=$2; shift 2
kind=request
case ${1:-} in request|get|wait-get|wait-put) kind=$1; shift;; esac
case $nanos in ''|*[!0-9]*) echo "DOSE must be a whole number (ns of CPU, or us of wait), got $nanos" >&2; exit 2;; esac
percent=${WAIT_PERCENT:-100}
case $percent in ''|*[!0-9]*) echo "WAIT_PERCENT must be a whole number 0-100, got $percent" >&2; exit 2;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
jar=$("$root/testdata/coprocessor/build.sh")
extra=
case $kind in
request) class=org.regress.testdata.SlowRequestObserver key=regress.slowrequest.cpu.nanos tag=req ;;
get) class=org.regress.testdata.SlowGetObserver key=regress.slowget.cpu.nanos tag=cpu ;;
wait-get|wait-put)
  class=org.regress.testdata.WaitObserver key=regress.wait.${kind#wait-}.micros tag=w${kind#wait-}
  [ "$percent" = 100 ] || tag=$tag$percent-
  extra=regress.wait.percent=$percent ;;
esac
version=${VERSION:-2.6.1}
cd "$root"
set -- --baseline "$version" --candidate "$version" \
  --baseline-label "$version-base-${tag}0-$name" --candidate-label "$version-$tag$nanos-$name" \
  --baseline-jar "$jar" --candidate-jar "$jar" \
  --baseline-conf hbase.coprocessor.region.classes=$class \
  --candidate-conf hbase.coprocessor.region.classes=$class \
  --baseline-conf regress.slowget.iterations=0 --candidate-conf regress.slowget.iterations=0 \
  --baseline-conf $key=0 --candidate-conf $key=$nanos \
  ${extra:+--baseline-conf $extra --candidate-conf $extra} \
  --suite "${SUITE:-release}" --store "${STORE:-baselines}" --out "reports/dose-$name" "$@"
if [ -n "${REGRESS:-}" ]; then exec $REGRESS "$@"; fi
exec go run ./harness/cmd/regress "$@"
