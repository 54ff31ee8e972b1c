#!/usr/bin/env bash
# Launch to first frame, and resident memory, of the real `fencelab` binary
# in a real terminal (issue 5: under 50 ms, under 20 MB).
#
# tmux gives the app an 80x24 terminal; `q` is typed before the app starts,
# so it draws its first frame, reads the `q` and quits. A Python timer
# around the process measures the wall time of the whole run (an upper
# bound of launch to first frame; /usr/bin/time counts only in 10 ms), and
# /usr/bin/time -v the peak resident set. Prints the median of RUNS runs.
#
#   cargo build --release -p fencelab && bash tui/benches/launch.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-21}
bin=$PWD/target/release/fencelab
[ -x "$bin" ] || { echo "build it first: cargo build --release -p fencelab" >&2; exit 2; }
command -v tmux >/dev/null || { echo "needs tmux (apt-get install -y tmux)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install -y time)" >&2; exit 2; }
work=$(mktemp -d)
socket=fencelab-launch-$$
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
# One session that outlives the runs, so the server does not exit between them.
tmux -L "$socket" -f /dev/null new-session -d -s keeper "sleep 600"
for i in $(seq 1 "$runs"); do
  out=$work/time-$i
  tmux -L "$socket" -f /dev/null new-session -d -x 80 -y 24 -s "run$i" \
    "python3 -c 'import subprocess, sys, time; t = time.perf_counter(); subprocess.run(sys.argv[1:]); open(\"$out.ms\", \"w\").write(str((time.perf_counter() - t) * 1000))' /usr/bin/time -v -o $out $bin --lessons lessons --data-dir $work/data; touch $out.done; sleep 5"
  tmux -L "$socket" send-keys -t "run$i" q
  for _ in $(seq 1 200); do [ -e "$out.done" ] && break; sleep 0.05; done
  tmux -L "$socket" kill-session -t "run$i" 2>/dev/null || true
done
python3 - "$work" "$runs" <<'PY'
import re, statistics, sys, pathlib
work, runs = pathlib.Path(sys.argv[1]), int(sys.argv[2])
walls, rss = [], []
for i in range(1, runs + 1):
    text = (work / f"time-{i}").read_text()
    status = re.search(r"Exit status: (\d+)", text).group(1)
    if status != "0":
        sys.exit(f"run {i}: fencelab exited with {status}, not by its q:\n{text}")
    walls.append(float((work / f"time-{i}.ms").read_text()))
    rss.append(int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)))
print(f"runs: {runs}")
print(f"launch, first frame and quit: median {statistics.median(walls):.1f} ms (min {min(walls):.1f}, max {max(walls):.1f})")
print(f"peak resident memory: median {statistics.median(rss)/1024:.1f} MB (max {max(rss)/1024:.1f})")
PY
