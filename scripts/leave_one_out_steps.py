#!/usr/bin/env python3
"""Leave-one-walker-out check of StepDetector's defaults on the two step datasets: for each walker
(Oxford: Jamie, Carmelo; WeAllWalk: ID1, ID2, ID3, ID11, ID12), pick the settings that score best on
every other walker's recordings, then score them on the walker left out, next to the defaults.

    scripts/leave_one_out_steps [--motion PATH] [--data DIR] [--jobs N]
                                [--relative-threshold LIST] [--minimum-peak LIST] [--start-merge LIST]

The grid is small and physical (27 sets, the defaults among them): the relative threshold
(relativeThreshold ∈ {0.5, 0.6, 0.7} of the RMS), the absolute floor (minimumPeak ∈ {0.5, 0.7, 0.9}
m/s²) and the merge window before a walk (startMergeWindow ∈ {0.3, 0.35, 0.4} s), each set passed to
`motion steps --set`. Scored as the datasets' scorers score (their functions are imported from
../shared/tools): Oxford on the whole track, WeAllWalk inside the annotated segments widened by
0.25 s. Criterion on some walkers: the mean absolute count error % over their Oxford tracks plus
the same over their WeAllWalk traces (each dataset weighs the same), minus nothing else.

Printed: each walker left out with the set chosen without them and its held-out error and F1, next
to the defaults'; how often each set was chosen. If the held-out errors are close to the defaults',
the defaults were not fitted to these walkers.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import gzip
import itertools
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--motion", default=str(ROOT / ".build/release/motion"))
    ap.add_argument("--data", default=str(ROOT.parent / "shared"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--relative-threshold", default="0.5,0.6,0.7")
    ap.add_argument("--minimum-peak", default="0.5,0.7,0.9")
    ap.add_argument("--start-merge", default="0.3,0.35,0.4")
    a = ap.parse_args()
    shared = Path(a.data)
    sys.path.insert(0, str(shared / "tools"))
    import score_steps as ox  # noqa: E402
    import score_steps_weallwalk as waw  # noqa: E402

    motion = Path(a.motion)
    if not motion.exists():
        sys.exit(f"leave_one_out_steps: {motion} not found (swift build -c release --product motion)")
    oxford = shared / "reference-data/oxford-steps-dev"
    weallwalk = shared / "reference-data/weallwalk-dev"
    manifest = [json.loads(line) for line in (oxford / "manifest.jsonl").read_text().splitlines() if line.strip()]
    recordings = []  # (dataset, walker, name)
    for m in manifest:
        if m.get("set", "optimisation") == "optimisation" and (oxford / f"{m['track']}.accel.csv.gz").exists():
            recordings.append(("oxford", m["user"], m["track"]))
    for path in sorted(weallwalk.glob("*.imu.csv.gz")):
        name = path.name[: -len(".imu.csv.gz")]
        recordings.append(("weallwalk", name.split("_")[1], name))

    grid = list(itertools.product(*(sorted(float(x) for x in s.split(",")) for s in
                                    (a.relative_threshold, a.minimum_peak, a.start_merge))))
    defaults = (0.6, 0.7, 0.35)
    if defaults not in grid:
        grid.append(defaults)

    tmp = Path(tempfile.mkdtemp(prefix="mf-loo-steps-"))
    try:
        # Plain CSV inputs once (the scorers give the commands plain files too).
        inputs = {}
        for dataset, _, name in recordings:
            src = (oxford / f"{name}.accel.csv.gz") if dataset == "oxford" else (weallwalk / f"{name}.imu.csv.gz")
            dst = tmp / f"{name}.csv"
            with gzip.open(src, "rt") as f:
                dst.write_text(f.read())
            inputs[name] = dst

        def run(job):
            (dataset, walker, name), s = job
            out = tmp / f"{name}-{'-'.join(map(str, s))}.steps.csv"
            cmd = [str(motion), "steps", str(inputs[name]), "-o", str(out), "--set", f"relativeThreshold={s[0]}",
                   "--set", f"minimumPeak={s[1]}", "--set", f"startMergeWindow={s[2]}"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd)}: {r.stderr}")
            if dataset == "oxford":
                det = ox.read_times(out, name)
                ref = ox.read_times(oxford / f"{name}.steps.csv", name)
                m = ox.metrics(det, ref, 0.25)
                return (name, s), (abs(m["count_err_pct"]), m["f1"])
            ev = waw.read_events(weallwalk / f"{name}.events.csv")
            truth = np.array(sorted(t0 for k, t0, _, _ in ev if k == "step"))
            seg = [(t0, t1) for k, t0, t1, _ in ev if k in ("segment", "turn")]
            lo, hi = min(x[0] for x in seg) - 0.25, max(x[1] for x in seg) + 0.25
            det = waw.read_times(out)
            det = det[(det >= lo) & (det <= hi)]
            m = waw.score(truth, det, 0.25)
            return (name, s), (abs(m["count_err_pct"]), m["f1"])

        jobs = [(r, s) for r in recordings for s in grid]
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            scores = dict(pool.map(run, jobs))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def mean(recs, s, k=0):
        by = collections.defaultdict(list)
        for dataset, _, name in recs:
            by[dataset].append(scores[(name, s)][k])
        return sum(float(np.mean(v)) for v in by.values()), {d: float(np.mean(v)) for d, v in by.items()}

    walkers = list(dict.fromkeys((d, w) for d, w, _ in recordings))
    chosen_count = collections.Counter()
    print(f"{len(recordings)} recordings, {len(grid)} settings (relativeThreshold, minimumPeak, startMergeWindow)")
    print(f"{'walker left out':24} {'n':>3}  {'chosen without them':22} {'held-out abs err % / F1':>24} "
          f"{'defaults':>18}")
    held, base = [], []
    for dataset, walker in walkers:
        train = [r for r in recordings if (r[0], r[1]) != (dataset, walker)]
        test = [r for r in recordings if (r[0], r[1]) == (dataset, walker)]
        best = min(grid, key=lambda s: (mean(train, s)[0], s != defaults))
        chosen_count[best] += 1
        e, _ = mean(test, best)
        f, _ = mean(test, best, 1)
        e0, _ = mean(test, defaults)
        f0, _ = mean(test, defaults, 1)
        held.append((e, f)); base.append((e0, f0))
        print(f"{dataset + ' ' + walker:24} {len(test):3}  {str(best):22} {e:15.2f} / {f:.3f} {e0:10.2f} / {f0:.3f}")
    print(f"{'mean over walkers':24} {'':3}  {'':22} {np.mean([h[0] for h in held]):15.2f} / "
          f"{np.mean([h[1] for h in held]):.3f} {np.mean([b[0] for b in base]):10.2f} / {np.mean([b[1] for b in base]):.3f}")
    print("chosen: " + ", ".join(f"{s} ×{n}" for s, n in chosen_count.most_common()))
    _, d_all = mean(recordings, defaults)
    print("defaults on all: " + ", ".join(f"{d} {v:.2f} %" for d, v in d_all.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
