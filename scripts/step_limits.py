#!/usr/bin/env python3
"""What limits `motion steps` on the two step datasets (issue 38, point 1). Run from the repository
root through ``scripts/step_limits``; needs ``swift build -c release --product motion``.

On ../shared/reference-data/oxford-steps-dev (foot switches under both shoes):

  retrigger A foot cannot strike twice while the other foot is in the air: a step of the same foot as
           the step before it, less than one median step interval after it, is a foot-switch pad
           re-triggering (its README counts such "non-alternating" steps: 20 on the swinging-arm
           track). The official scorer (with its peers) on a copy of the truth without them (in a temporary folder),
           beside the scorer on the truth as it is, per carrying position.

On ../shared/reference-data/weallwalk-dev (two iPhone 6s per walk, one in each trouser pocket,
sharing one annotation of heel strikes):

  clock    For each trace, the offset of each detected step from the annotated heel strike it matches
           (within 0.4 s), as a running median of 20 steps, and the range that median spans over the
           trace, beside the same for the other pocket's phone of the same walk. A detector's timing
           error follows the gait, so both phones drift together; a trace whose offset drifts by
           more than DRIFT s (beyond what a +-0.1 s window absorbs) while its twin's drifts less than
           TWIN times as much has lost its clock against the annotation (the recordings are on a fixed 25 Hz grid: a phone that sampled a little
           slower or dropped rows slides against the annotation's clock). Then the scorer's figures
           with and without such traces.
  vertical The same scorer on the vertical specific force alone, projected with Apple's own Core
           Motion gravity (an oracle: the best attitude there is), against |a|: whether an attitude
           would sharpen the steps. To first order |a| = g + a_dyn.up (|g + d| = g + d.up +
           |d_horizontal|^2 / 2g), so the physics says it would not.
  jolt     The same scorer on |a| + W |w - lowpass_0.3s(w)| (w the raw rotation rate, rad/s; W in
           (m/s^2)/(rad/s), --weight, repeatable): whether the rattle a heel strike gives the phone's
           rotation adds to |a|'s jolt.
"""

import argparse
import csv
import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared/reference-data/weallwalk-dev"
SCORER = ROOT.parent / "shared/tools/score_steps_weallwalk.py"
OXFORD = ROOT.parent / "shared/reference-data/oxford-steps-dev"
OXFORD_SCORER = ROOT.parent / "shared/tools/score_steps.py"
MOTION = ROOT / ".build/release/motion"


def heel_strikes(name: str) -> np.ndarray:
    with open(DATA / f"{name}.events.csv") as f:
        return np.array([float(r[1]) for r in csv.reader(f) if r and r[0] == "step"])


def detect(name: str, tmp: Path) -> np.ndarray:
    inp, out = tmp / f"{name}.csv", tmp / f"{name}.steps.csv"
    with gzip.open(DATA / f"{name}.imu.csv.gz", "rt") as f:
        inp.write_text(f.read())
    subprocess.run([str(MOTION), "steps", str(inp), "-o", str(out)], check=True, capture_output=True)
    inp.unlink()
    with open(out) as f:
        next(f)
        return np.array([float(line.split(",")[0]) for line in f if line.strip()])


def drift_range(detected: np.ndarray, truth: np.ndarray) -> float:
    """The range of the running median (20 steps, every 10) of detection − heel strike."""
    offsets = []
    for t in truth:
        if len(detected) == 0:
            break
        j = int(np.argmin(abs(detected - t)))
        if abs(detected[j] - t) < 0.4:
            offsets.append(detected[j] - t)
    medians = [np.median(offsets[k:k + 20]) for k in range(0, max(len(offsets) - 20, 1), 10)]
    return float(max(medians) - min(medians)) if medians else float("nan")


def twin(name: str) -> str:
    return name.replace("_1L_", "_2R_") if "_1L_" in name else name.replace("_2R_", "_1L_")


def score(cmd: str, tol: float, tmp: Path) -> dict:
    out = tmp / f"score-{tol}.json"
    subprocess.run([sys.executable, str(SCORER), "--quiet", "--jobs", "2", "--tol", str(tol),
                    "--json", str(out), "--cmd", cmd], check=True, capture_output=True)
    return {n: r["detector"] for n, r in json.loads(out.read_text())["results"].items()}


def summary(results: dict, keep) -> str:
    v = [r for n, r in results.items() if keep(n)]
    mape = sum(abs(r["count_err_pct"]) for r in v) / len(v)
    f1 = sum(r["f1"] for r in v) / len(v)
    return f"{len(v):2d} traces  MAPE {mape:.2f} %  mean F1 {f1:.3f}"


def clock(args, tmp: Path) -> None:
    names = sorted(p.name[:-len(".imu.csv.gz")] for p in DATA.glob("*.imu.csv.gz"))
    drift = {n: drift_range(detect(n, tmp), heel_strikes(n)) for n in names}
    lost = sorted(n for n in names if drift[n] > args.drift and drift[twin(n)] < args.twin * drift[n])
    print(f"offset drift of detections against heel strikes (range of the 20-step running median), s")
    for n in sorted(names, key=lambda n: -drift[n])[:args.top]:
        print(f"  {n:16s} {drift[n]:.3f}   twin {twin(n):16s} {drift[twin(n)]:.3f}"
              + ("   <- clock lost" if n in lost else ""))
    print(f"traces whose clock slid against the annotation (> {args.drift} s, twin < {args.twin}x): "
          + (", ".join(lost) or "none"))
    cmd = f"{MOTION} steps {{inp}} -o {{out}}"
    for tol in (0.25, 0.1):
        results = score(cmd, tol, tmp)
        print(f"+-{tol} s  all: {summary(results, lambda n: True)}   without them: "
              f"{summary(results, lambda n: n not in lost)}")


def vertical(args, tmp: Path) -> None:
    if args.write:
        name = Path(args.write[0]).name[:-len(".imu.csv")]
        with gzip.open(DATA / f"{name}.imu.csv.gz", "rt") as f:
            imu = np.loadtxt(f, delimiter=",", skiprows=1, ndmin=2)
        with gzip.open(DATA / f"{name}.coremotion.csv.gz", "rt") as f:
            cm = np.loadtxt(f, delimiter=",", skiprows=1, ndmin=2)
        up = -cm[:, 5:8] / np.linalg.norm(cm[:, 5:8], axis=1, keepdims=True)
        v = (imu[:, 4:7] * up).sum(axis=1)
        zero = np.zeros_like(v)
        np.savetxt(args.write[1], np.c_[imu[:, 0], zero, zero, v], delimiter=",", header="t,ax,ay,az",
                   comments="", fmt="%.6f")
        return
    me = Path(__file__).resolve()
    oracle = (f"{sys.executable} {me} vertical --write {{inp}} {{inp}}.vertical.csv && "
              f"{MOTION} steps {{inp}}.vertical.csv -o {{out}}")
    plain = f"{MOTION} steps {{inp}} -o {{out}}"
    for tol in (0.25, 0.1):
        for label, cmd in (("|a| (what motion steps uses)", plain), ("vertical, Apple's gravity", oracle)):
            print(f"+-{tol} s  {label:30s} {summary(score(cmd, tol, tmp), lambda n: True)}")


def jolt(args, tmp: Path) -> None:
    if args.write:
        with open(args.write[0]) as f:
            d = np.loadtxt(f, delimiter=",", skiprows=1, ndmin=2)
        t, w, a = d[:, 0], d[:, 1:4], d[:, 4:7]
        low, state, previous = np.empty_like(w), w[0].copy(), t[0]
        for k in range(len(t)):
            state += (w[k] - state) * (1 - np.exp(-(t[k] - previous) / 0.3))
            low[k], previous = state, t[k]
        m = np.linalg.norm(a, axis=1) + args.weight[0] * np.linalg.norm(w - low, axis=1)
        zero = np.zeros_like(m)
        np.savetxt(args.write[1], np.c_[t, zero, zero, m], delimiter=",", header="t,ax,ay,az",
                   comments="", fmt="%.6f")
        return
    me = Path(__file__).resolve()
    for tol in (0.25, 0.1):
        print(f"+-{tol} s  {'|a|':12s} {summary(score(f'{MOTION} steps {{inp}} -o {{out}}', tol, tmp), lambda n: True)}")
        for weight in args.weight:
            cmd = (f"{sys.executable} {me} jolt --weight {weight} --write {{inp}} {{inp}}.jolt.csv && "
                   f"{MOTION} steps {{inp}}.jolt.csv -o {{out}}")
            print(f"+-{tol} s  {'|a| + ' + str(weight) + ' |w|':12s} {summary(score(cmd, tol, tmp), lambda n: True)}")


def retrigger(args, tmp: Path) -> None:
    clean = tmp / "oxford-without-retriggers"
    clean.mkdir()
    dropped = {}
    for entry in OXFORD.iterdir():
        if entry.name.endswith(".steps.csv"):
            with open(entry) as f:
                header, *rows = [line for line in f.read().splitlines() if line.strip()]
            times = np.array([float(r.split(",")[0]) for r in rows])
            feet = [r.split(",")[1] for r in rows]
            median = float(np.median(np.diff(times)))
            keep = [rows[0]] + [rows[k] for k in range(1, len(rows))
                                if not (feet[k] == feet[k - 1] and times[k] - times[k - 1] < median)]
            dropped[entry.name[:-len(".steps.csv")]] = len(rows) - len(keep)
            (clean / entry.name).write_text("\n".join([header] + keep) + "\n")
        else:
            (clean / entry.name).symlink_to(entry)
    print("foot-switch re-triggers dropped: " + ", ".join(f"{n} {k}" for n, k in sorted(dropped.items()) if k))
    cmd = f"{MOTION} steps {{inp}} -o {{out}}"
    for label, data in (("truth as it is", OXFORD), ("without re-triggers", clean)):
        r = subprocess.run([sys.executable, str(OXFORD_SCORER), "--peers", "--data", str(data), "--cmd", cmd],
                           check=True, capture_output=True, text=True)
        lines = r.stdout.splitlines()
        start = next(k for k, line in enumerate(lines) if line.startswith("mean over tracks"))
        print(f"\n{label}:\n" + "\n".join(lines[start:]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="check", required=True)
    sub.add_parser("retrigger", help="Oxford: the scorer without the foot switches' re-triggers")
    c = sub.add_parser("clock", help="traces whose clock slid against the annotation")
    c.add_argument("--drift", type=float, default=0.3)
    c.add_argument("--twin", type=float, default=0.5)
    c.add_argument("--top", type=int, default=8)
    v = sub.add_parser("vertical", help="|a| against the vertical specific force (Apple's gravity)")
    v.add_argument("--write", nargs=2, metavar=("IMU", "OUT"), help=argparse.SUPPRESS)
    j = sub.add_parser("jolt", help="|a| against |a| + W times the high-passed rotation rate's magnitude")
    j.add_argument("--weight", type=float, action="append")
    j.add_argument("--write", nargs=2, metavar=("IMU", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.check == "jolt" and not args.weight:
        args.weight = [1.0, 3.0]
    if not MOTION.exists():
        sys.exit(f"{MOTION} is missing: swift build -c release --product motion")
    with tempfile.TemporaryDirectory() as tmp:
        {"retrigger": retrigger, "clock": clock, "vertical": vertical, "jolt": jolt}[args.check](args, Path(tmp))


if __name__ == "__main__":
    main()
