#!/usr/bin/env python3
"""Time MotionFusion's filters and VQF 2.1.2 on the same samples in one run; print ns per sample and
the ratios.

Run it through the wrapper ``scripts/compare_speed`` (it creates / reuses ``<repo>/.venv-compare``
with pinned ``vqf`` and ``numpy``):

    scripts/compare_speed [--input CSV] [--every N] [--motion PATH] [--repeats N]

Data: by default BROAD trial 01 (../shared/reference-data/broad, 285.7 Hz, 56,940 samples); --input
takes any CSV in the `motion fuse` format (t, gx..gz rad/s, ax..az m/s², mx..mz µT). --every N keeps
every N-th sample (N = 3 turns BROAD into 95 Hz).

What is timed, all single stream, Double, samples already in memory:
- VQF: ``vqf.VQF(Ts).updateBatch(gyr, acc[, mag])`` and ``vqf.BasicVQF(Ts).updateBatch(...)``, the
  C++ batch loops behind the Python binding (the arrays are converted once, outside the timer; the
  time includes the binding's allocation of the output arrays, a few ns per sample). Best of
  --repeats runs, each over the whole recording.
- MotionFusion: ``motion bench --input SAME.csv --json`` (the bare update loop over arrays, best of
  --repeats runs of at least 0.3 s), for every filter, Float and Double.
The ratio column is VQF's time divided by ours (> 1: ours is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_INPUT = "../shared/reference-data/broad/01_undisturbed_slow_rotation_A.csv"
DEFAULT_MOTION = ".build/release/motion"


def fail(message: str) -> None:
    print(f"compare_speed: {message}", file=sys.stderr)
    sys.exit(1)


def load(path: Path, every: int):
    with open(path) as f:
        header = f.readline().strip().split(",")
    data = np.genfromtxt(path, delimiter=",", skip_header=1)
    col = {name: i for i, name in enumerate(header)}
    missing = [c for c in ("t", "gx", "gy", "gz", "ax", "ay", "az") if c not in col]
    if missing:
        fail(f"{path}: missing columns {', '.join(missing)}")
    data = data[::every]
    t = data[:, col["t"]]
    gyr = np.ascontiguousarray(data[:, [col["gx"], col["gy"], col["gz"]]])
    acc = np.ascontiguousarray(data[:, [col["ax"], col["ay"], col["az"]]])
    mag = None
    if all(c in col for c in ("mx", "my", "mz")):
        mag = np.ascontiguousarray(data[:, [col["mx"], col["my"], col["mz"]]])
    return t, gyr, acc, mag


def time_vqf(cls, ts, gyr, acc, mag, repeats):
    best = float("inf")
    for _ in range(repeats):
        estimator = cls(ts)
        start = time.perf_counter()
        if mag is None:
            estimator.updateBatch(gyr, acc)
        else:
            estimator.updateBatch(gyr, acc, mag)
        best = min(best, time.perf_counter() - start)
    return best / len(gyr) * 1e9


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", default=DEFAULT_INPUT, help="CSV in the motion fuse format")
    parser.add_argument("--every", type=int, default=1, help="keep every N-th sample")
    parser.add_argument("--motion", default=DEFAULT_MOTION, help="the motion CLI (release build)")
    parser.add_argument("--repeats", type=int, default=7, help="runs per case (the best counts)")
    args = parser.parse_args()
    if args.every < 1 or args.repeats < 1:
        fail("--every and --repeats must be at least 1")

    import vqf

    path = Path(args.input)
    if not path.is_absolute():
        path = ROOT / path
    if not path.is_file():
        fail(f"input not found: {path} (pass --input CSV)")
    motion = Path(args.motion)
    if not motion.is_absolute():
        motion = ROOT / motion
    if not motion.is_file():
        print("building the motion CLI (swift build -c release --product motion) ...", file=sys.stderr)
        subprocess.run(["swift", "build", "-c", "release", "--product", "motion"], cwd=ROOT, check=True)

    t, gyr, acc, mag = load(path, args.every)
    ts = float(np.median(np.diff(t)))
    print(f"data: {path.name}, every {args.every}: {len(t)} samples at {1 / ts:.1f} Hz")

    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "input.csv"
        columns = [t[:, None], gyr, acc] + ([mag] if mag is not None else [])
        header = "t,gx,gy,gz,ax,ay,az" + (",mx,my,mz" if mag is not None else "")
        np.savetxt(csv, np.hstack(columns), delimiter=",", header=header, comments="", fmt="%.17g")
        result = subprocess.run([str(motion), "bench", "--input", str(csv), "--json",
                                 "--repeats", str(args.repeats)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"motion bench failed:\n{result.stderr}")
        ours = json.loads(result.stdout)

    peers = {}
    for mode in ("6D", "9D"):
        if mode == "9D" and mag is None:
            continue
        m = mag if mode == "9D" else None
        peers[("VQF", mode)] = time_vqf(vqf.VQF, ts, gyr, acc, m, args.repeats)
        peers[("BasicVQF", mode)] = time_vqf(vqf.BasicVQF, ts, gyr, acc, m, args.repeats)

    print()
    print("ns per sample, single stream (peers in Double; ratio = VQF C++ batch / ours)")
    print(f"{'implementation':<34}{'mode':<6}{'ns/sample':>10}{'VQF / this':>12}")
    for (name, mode), ns in peers.items():
        print(f"{name + ' 2.1.2 updateBatch (C++)':<34}{mode:<6}{ns:>10.1f}{peers[('VQF', mode)] / ns:>12.2f}")
    for row in ours:
        mode = row["mode"]
        ns = row["nsPerSample"]
        label = f"MotionFusion {row['filter']} {row['scalar']}"
        print(f"{label:<34}{mode:<6}{ns:>10.1f}{peers[('VQF', mode)] / ns:>12.2f}")
    print()
    print("| implementation | 6D ns/sample | 9D ns/sample | VQF / this (6D, 9D) |")
    print("|---|---:|---:|---:|")
    rows = {}
    for (name, mode), ns in peers.items():
        rows.setdefault(f"{name} 2.1.2 `updateBatch` (C++)", {})[mode] = ns
    for row in ours:
        if row["scalar"] == "Double":
            rows.setdefault(f"MotionFusion {row['filter']} (Double)", {})[row["mode"]] = row["nsPerSample"]
    for label, modes in rows.items():
        six, nine = modes.get("6D"), modes.get("9D")
        r6 = peers[("VQF", "6D")] / six if six else float("nan")
        r9 = peers[("VQF", "9D")] / nine if nine else float("nan")
        print(f"| {label} | {six:.1f} | {nine:.1f} | {r6:.1f}×, {r9:.1f}× |" if nine else
              f"| {label} | {six:.1f} | – | {r6:.1f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
