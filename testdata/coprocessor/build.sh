#!/bin/sh
# Builds target/slow-get-observer.jar against hbase-server from Maven Central.
# Usage: testdata/coprocessor/build.sh   (needs mvn and a JDK 8 or later)
set -eu
cd "$(dirname "$0")"
mvn -q -B -Dstyle.color=never package >&2 # stdout carries only the jar path
echo "$(pwd)/target/slow-get-observer.jar"
