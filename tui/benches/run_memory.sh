#!/usr/bin/env bash
# Peak resident memory of `fencelab run` on the largest legal scenario files
# (1 MiB: the size limit; docs/scenario-format.md states the budget, 128 MiB,
# for `run --json`, `run --db sqlite` and `run --db sqlite --json`).
#
# Writes four files of the shortest steps that fill 1 MiB (claims, fails,
# stale writes with a violation each, writes over 256 workers, jobs and
# targets), runs each command on each under /usr/bin/time -v and prints the
# peak resident set and wall time. Exits 1 when a peak is over the budget.
#
#   cargo build --release -p fencelab && bash tui/benches/run_memory.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-$PWD/target/release/fencelab}
budget_kib=$((128 * 1024))
[ -x "$bin" ] || { echo "build it first: cargo build --release -p fencelab" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install -y time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import sys, pathlib
work = pathlib.Path(sys.argv[1])
LIMIT = 1024 * 1024

def fill(name, head, step, tail):
    steps, size, i = [], len(head) + len(tail), 0
    while True:
        text = step(i)
        if size + len(text) > LIMIT:
            break
        steps.append(text)
        size += len(text)
        i += 1
    (work / f"{name}.toml").write_text(head + "".join(steps) + tail)

one = 'id = "big"\ntitle = "big"\nttl = 5\nworkers = ["A"]\ndesign = "db-conditional"\nsteps = [\n'
fill("claims", one, lambda i: '{at=0,worker="A",do="claim"},', "]\n")
fill("fails", one, lambda i: '{at=0,worker="A",do="fail"},', "]\n")
fill(
    "stale-writes",
    'id = "big"\ntitle = "big"\nttl = 5\nworkers = ["A","B"]\ndesign = "client-check"\nsteps = [\n'
    '{at=0,worker="A",do="claim"},{at=6,worker="B",do="claim"},\n',
    lambda i: '{at=7,worker="A",do="write",target="t"},',
    ']\n[[targets]]\nid = "t"\nprotect = "none"\n',
)
names = lambda prefix: ",".join(f'"{prefix}{i}"' for i in range(256))
fill(
    "writes-256",
    f'id = "big"\ntitle = "big"\nttl = 5\nworkers = [{names("W")}]\njobs = [{names("j")}]\n'
    'design = "client-check"\nsteps = [\n',
    lambda i: f'{{at=0,worker="W{i % 256}",do="write",target="t{i * 7 % 256}"}},',
    "]\n" + "".join(f'[[targets]]\nid = "t{i}"\nprotect = "none"\n' for i in range(256)),
)
PY
over=0
for file in claims fails stale-writes writes-256; do
  for args in "--json" "--db sqlite --json" "--db sqlite"; do
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$work/time" "$bin" run "$work/$file.toml" $args >/dev/null
    peak=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time")
    printf '%-13s run %-19s %6s MiB  %s\n' "$file" "$args" "$(awk -v kib="$peak" 'BEGIN { printf "%.1f", kib / 1024 }')" "$wall"
    [ "$peak" -le "$budget_kib" ] || over=1
  done
done
[ "$over" -eq 0 ] || { echo "over the budget of $((budget_kib / 1024)) MiB" >&2; exit 1; }
