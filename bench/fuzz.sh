#!/bin/sh
# Fuzz the file readers (issue 7): VSH_FUZZ_CASES (default 100000) seeded cases per
# target, in a release build of the tests. Prints the cases tried per target and the time;
# crashes are 0 unless the run dies, in which case the unfinished test is named (its
# temporary directory under /tmp, vsh-fuzz-*, keeps the input that crashed it).
# Usage: bench/fuzz.sh   (from the package root; not part of `make`)
set -u
cases=${VSH_FUZZ_CASES:-100000}
log=$(mktemp)
start=$(date +%s)
VSH_FUZZ_CASES=$cases swift test -c release --scratch-path .build-fuzz --filter Fuzz >"$log" 2>&1
status=$?
seconds=$(( $(date +%s) - start ))
# The headline figure, for the table `make bench` ends with (bench/lib/results.py).
headline() {
    python3 -c 'import sys; sys.path.insert(0, "bench"); from lib.results import headline, save; headline(sys.argv[1], sys.argv[2]); save("fuzz")' \
        "file readers, $cases cases per target: crashes, failures" "$1"
}
echo "fuzz: $cases cases per target, release build"
grep '^fuzz: ' "$log" | sed 's/^fuzz: /  /'
if [ $status -eq 0 ]; then
    echo "crashes: 0, failures: 0; ${seconds} s in all (with the build)"
    headline "0, 0"
else
    if grep -q 'exited with unexpected signal\|Program crashed' "$log"; then
        echo "crashes: 1 (the run died in:"
        grep 'started\.$' "$log" | grep '^.*Test ' | sed 's/^/  /' | tail -1
        grep -m1 -E 'Fatal error|Assertion|Program crashed' "$log" | sed 's/^/  /'
        echo ")"
        headline "1, -"
    else
        echo "crashes: 0, but tests failed:"
        grep -E '✘|error:' "$log" | head -20 | sed 's/^/  /'
        headline "0, some (see the log)"
    fi
    echo "full log: $log"
    exit 1
fi
rm -f "$log"
