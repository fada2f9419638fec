#!/usr/bin/env python3
"""Confusion matrix and delays of `motion activity` on the labelled recordings in ../shared.

    scripts/score_activity [--motion PATH] [--data DIR] [--jobs N] [--per-file] [-- MOTION ACTIVITY OPTIONS]

Each recording is run through `motion activity` (its rows: when a report was made, the activity,
the confidence, when it began). The activity in force at a reading is the last report made at or
before it: what a live handler would have shown. Truth, from each dataset's labels (nothing here
comes from the classifier):

- rest: BROAD's rest phases (`movement` = 0: the sensor lies still). Expected: stationary.
- handling: BROAD's movement phases (`movement` = 1): an experimenter turns, moves, taps or shakes
  the sensor without walking. Expected: not walking, not running.
- walking: between two true steps at most 2.5 s apart — Oxford's foot switches
  (oxford-steps-dev/*.steps.csv) and WeAllWalk's heel strikes (`step` rows of *.events.csv) — and the
  phone dataset's walking motions (tyrex-dev: BackPocket, FrontPocket, Phoning, Swinging, Texting;
  from 5 s after the start to 5 s before the end: its trials have no step truth).
- running: tyrex-dev's RunningHand and RunningPocket trials, likewise.
- held up (AR): tyrex-dev's AR trials, where the user holds the phone up in front as for augmented
  reality; the README does not say how much they walk (|a| swings 0.1–0.35 m/s² RMS, a walk's at
  least 0.4), so they are shown apart and in no total.

Printed: the share of each truth class's time reported as each activity, with the hours scored;
per walking dataset; and the delays: from the end of each BROAD movement phase to `stationary`, from
the first step of each walk (after 2.5 s or more without a step) to `walking` or `running`, and from
the start of each running trial to `running`.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import gzip
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
KINDS = ["stationary", "walking", "running", "unknown"]
WALK_GAP = 2.5


def read_times(path: Path) -> tuple[np.ndarray, np.ndarray | None]:
    """A recording's timestamps and, where it has one, its `movement` column."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        header = f.readline().strip().split(",")
        m = header.index("movement") if "movement" in header else None
        times, moving = [], []
        for line in f:
            fields = line.split(",")
            try:
                times.append(float(fields[0]))
                if m is not None:
                    moving.append(fields[m].strip() == "1")
            except ValueError:
                continue
    return np.array(times), (np.array(moving) if m is not None else None)


def run_activity(motion: str, path: Path, extra: list[str]) -> tuple[np.ndarray, list[str]]:
    fd, out = tempfile.mkstemp(suffix=".csv")
    os.close(fd)
    try:
        subprocess.run([motion, "activity", str(path), "-o", out, *extra], check=True, capture_output=True)
        with open(out) as f:
            rows = list(csv.DictReader(f))
    finally:
        os.remove(out)
    return np.array([float(r["t"]) for r in rows]), [r["activity"] for r in rows]


def in_force(report_times: np.ndarray, kinds: list[str], t: np.ndarray) -> np.ndarray:
    idx = np.searchsorted(report_times, t, side="right") - 1
    return np.array([kinds[i] if i >= 0 else "unknown" for i in idx])


def walking_mask(t: np.ndarray, steps: np.ndarray) -> np.ndarray:
    mask = np.zeros(len(t), bool)
    s = np.sort(steps)
    for a, b in zip(s[:-1], s[1:]):
        if b - a <= WALK_GAP:
            mask |= (t >= a) & (t <= b)
    return mask


def walk_starts(steps: np.ndarray) -> list[float]:
    s = np.sort(steps)
    return [float(s[0])] + [float(b) for a, b in zip(s[:-1], s[1:]) if b - a > WALK_GAP]


def first_report(report_times, kinds, start, wanted) -> float:
    for x, k in zip(report_times, kinds):
        if x >= start - 1e-9 and k in wanted:
            return float(x - start)
    return float("nan")


def score(job):
    name, path, dataset, motion, extra = job
    report_times, kinds = run_activity(motion, path, extra)
    t, moving = read_times(path)
    shown = in_force(report_times, kinds, t)
    weight = np.diff(t, append=t[-1])  # each reading weighs the interval to the next
    parts, delays = [], []
    if dataset == "broad":
        parts += [("rest", ~moving), ("handling", moving)]
        for i in np.where(np.diff(moving.astype(int)) == -1)[0]:
            delays.append(("movement end to stationary", first_report(report_times, kinds, t[i + 1], {"stationary"})))
    elif dataset in ("oxford", "weallwalk"):
        if dataset == "oxford":
            with open(str(path).replace(".accel.csv.gz", ".steps.csv")) as f:
                steps = np.array([float(r["t"]) for r in csv.DictReader(f)])
        else:
            with open(str(path).replace(".imu.csv.gz", ".events.csv")) as f:
                steps = np.array([float(r["t_start"]) for r in csv.DictReader(f) if r["kind"] == "step"])
        parts.append(("walking", walking_mask(t, steps)))
        for s in walk_starts(steps):
            delays.append(("first step to walking", first_report(report_times, kinds, s, {"walking", "running"})))
    else:
        inner = (t > t[0] + 5) & (t < t[-1] - 5)
        motion_name = name.split("_")[-1].split(".")[0]
        if motion_name.startswith("Running"):
            parts.append(("running", inner))
            delays.append(("trial start to running", first_report(report_times, kinds, t[0], {"running"})))
        elif motion_name == "AR":
            parts.append(("held up (AR)", inner))
        else:
            parts.append(("walking", inner))
    rows = []
    for truth, mask in parts:
        rows.append((truth, dataset, {k: float(weight[mask & (shown == k)].sum()) for k in KINDS}))
    return name, rows, delays


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--motion", default=str(ROOT / ".build/release/motion"))
    ap.add_argument("--data", default=str(ROOT.parent / "shared"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--per-file", action="store_true", help="also print each file's shares")
    ap.add_argument("extra", nargs="*", help="options passed to motion activity (after --)")
    a = ap.parse_args()
    if not Path(a.motion).exists():
        sys.exit(f"score_activity: {a.motion} not found (swift build -c release --product motion)")
    data = Path(a.data) / "reference-data"
    jobs = []
    for p in sorted((data / "broad").glob("*.csv")):
        jobs.append((p.name, p, "broad", a.motion, a.extra))
    for p in sorted((data / "oxford-steps-dev").glob("*.accel.csv.gz")):
        jobs.append((p.name, p, "oxford", a.motion, a.extra))
    for p in sorted((data / "weallwalk-dev").glob("*.imu.csv.gz")):
        jobs.append((p.name, p, "weallwalk", a.motion, a.extra))
    for p in sorted((data / "tyrex-dev").glob("*.imu.csv.gz")):
        jobs.append((p.name, p, "tyrex", a.motion, a.extra))
    if not jobs:
        sys.exit(f"score_activity: no recordings under {data}")
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(score, jobs))

    totals: dict[str, dict[str, float]] = {}
    by_dataset: dict[tuple[str, str], dict[str, float]] = {}
    delays: dict[str, list[float]] = {}
    for name, rows, file_delays in results:
        for truth, dataset, seconds in rows:
            for key, table in ((truth, totals), ((truth, dataset), by_dataset)):
                row = table.setdefault(key, dict.fromkeys(KINDS, 0.0))
                for k in KINDS:
                    row[k] += seconds[k]
            if a.per_file:
                total = sum(seconds.values()) or 1
                print(f"{truth:13s} {name[:44]:44s} " + " ".join(f"{k[:4]} {seconds[k] / total:.3f}" for k in KINDS))
        for kind, d in file_delays:
            delays.setdefault(kind, []).append(d)

    def table(title, rows):
        print(f"\n{title:28s}" + "".join(f"{k:>12s}" for k in KINDS) + "       hours")
        for key, row in rows:
            total = sum(row.values())
            print(f"{key:28s}" + "".join(f"{row[k] / total:12.3f}" for k in KINDS) + f"{total / 3600:12.2f}")

    order = ["rest", "handling", "walking", "running", "held up (AR)"]
    table("truth \\ reported", [(t, totals[t]) for t in order if t in totals])
    table("walking, by dataset", [(f"walking ({d})", r) for (t, d), r in sorted(by_dataset.items()) if t == "walking"])
    print("\ndelays (s)                     count   median      p90   never")
    for kind, d in delays.items():
        x = np.array(d)
        seen = x[~np.isnan(x)]
        print(f"{kind:28s}{len(x):8d}{np.median(seen):9.2f}{np.percentile(seen, 90):9.2f}{int(np.isnan(x).sum()):8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
