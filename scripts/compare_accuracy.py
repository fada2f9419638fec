#!/usr/bin/env python3
"""Compare MotionFusion's filters (through the `motion fuse` CLI) with VQF 2.1.2 on the BROAD trials.

Run it through the wrapper ``scripts/compare_accuracy`` (it creates / reuses the virtualenv
``<repo>/.venv-compare`` with pinned ``vqf`` and ``numpy``), or directly with a Python that has
numpy (and vqf, unless ``--only`` leaves VQF out):

    scripts/compare_accuracy [--motion PATH] [--data DIR] [--only madgwick,vqf,...] [--jobs N] [--rate HZ]

Scoring follows BROAD (example_code/broad_utils.py in github.com/dlaidig/broad): with the estimate
q_est and the optical truth q_ref, both sensor -> ENU (y = magnetic north), scalar first, the
earth-frame error quaternion is e = q_est (x) q_ref^-1 and

    total       = 2 acos |e_w|
    heading     = 2 atan(|e_z| / |e_w|)
    inclination = 2 acos sqrt(e_w^2 + e_z^2)

each an RMSE in degrees over the samples with movement == 1 and finite truth. 9D estimates report all
three, 6D estimates (no magnetometer; heading unobservable) only the inclination. The inclination of e
does not change when the estimate is rotated about the vertical, so a 6D estimate's arbitrary heading
does not enter it.

--rate HZ scores the trials decimated to about HZ (see `decimate`): every method gets the same
decimated samples, written to a temporary CSV for the CLI and handed to VQF as arrays.

Output: one fixed-width table per metric (rows: trials and their mean; columns: methods), then a
Markdown table of the means that can be pasted into a README.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import recording_columns as rc

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MOTION = ".build/release/motion"
DEFAULT_DATA = "../shared/reference-data/broad"
VQF_VERSION = "2.1.2"
EXTRA_ARGS: list = []  # --extra: appended to every `motion fuse` command (parameter studies)
NOMINAL_RATE = 2000.0 / 7.0  # Hz, BROAD's sampling rate (285.714 Hz)

# The BROAD CSV columns this script uses (the README of the reference data describes them all).
INPUT_COLUMNS = rc.SENSORS + rc.TRUTH + (rc.MOVEMENT,)
OUTPUT_COLUMNS = (rc.TIME,) + rc.TRUTH


@dataclass(frozen=True)
class Method:
    key: str          # unique id, also accepted by --only
    family: str       # inertial, madgwick, mahony, complementary, vqf (accepted by --only)
    label: str        # column header in the tables
    summary: str      # row label in the Markdown summary
    cli_args: tuple   # arguments after `motion fuse IN -o OUT`; None for VQF


METHODS = (
    Method("inertial", "inertial", "Inertial", "MotionFusion InertialFrameFilter (defaults)",
           ("--filter", "inertial")),
    Method("madgwick-broad", "madgwick", "Madg β0.12", "MotionFusion Madgwick (β = 0.12)",
           ("--filter", "madgwick", "--beta", "0.12")),
    Method("madgwick-default", "madgwick", "Madg def", "MotionFusion Madgwick (defaults)",
           ("--filter", "madgwick")),
    Method("mahony-broad", "mahony", "Mah BROAD", "MotionFusion Mahony (Kp = 0.74, Ki = 0.0012)",
           ("--filter", "mahony", "--kp", "0.74", "--ki", "0.0012")),
    Method("mahony-default", "mahony", "Mah def", "MotionFusion Mahony (defaults)",
           ("--filter", "mahony")),
    Method("complementary", "complementary", "Compl def", "MotionFusion complementary (defaults)",
           ("--filter", "complementary")),
    Method("vqf", "vqf", "VQF", f"VQF {VQF_VERSION} (defaults)", None),
)

MODES = ("9D", "6D")
METRICS = (  # (mode, metric name, table title)
    ("9D", "total", "9D total error"),
    ("9D", "heading", "9D heading error"),
    ("9D", "inclination", "9D inclination error"),
    ("6D", "inclination", "6D inclination error"),
)


def fail(message: str, status: int = 2) -> "NoReturn":  # noqa: F821
    print(f"compare_accuracy: error: {message}", file=sys.stderr)
    sys.exit(status)


# --------------------------------------------------------------------------------------------------
# Input


@dataclass
class Trial:
    name: str
    path: Path
    t: np.ndarray
    gyr: np.ndarray
    acc: np.ndarray
    mag: np.ndarray
    q_ref: np.ndarray
    scored: np.ndarray  # bool: movement == 1 and finite truth
    movement: np.ndarray  # the movement column (1 = movement phase)


def read_csv_columns(path: Path, wanted) -> dict:
    with open(path, newline="") as f:
        header = f.readline().strip().split(",")
    missing = [c for c in wanted if c not in header]
    if missing:
        raise ValueError(f"{path}: missing column(s) {', '.join(missing)} (header: {','.join(header)})")
    idx = [header.index(c) for c in wanted]
    data = np.loadtxt(path, delimiter=",", skiprows=1, usecols=idx, dtype=np.float64, ndmin=2)
    return {c: data[:, i] for i, c in enumerate(wanted)}


def load_trial(path: Path) -> Trial:
    cols = read_csv_columns(path, INPUT_COLUMNS)

    def stack(*names):
        return np.ascontiguousarray(np.column_stack([cols[n] for n in names]), dtype=np.float64)

    q_ref = stack(*rc.TRUTH)
    scored = (cols[rc.MOVEMENT] == 1) & np.all(np.isfinite(q_ref), axis=1)
    return Trial(path.stem, path, cols[rc.TIME], stack(*rc.GYROSCOPE), stack(*rc.ACCELEROMETER),
                 stack(*rc.MAGNETOMETER), q_ref, scored, cols[rc.MOVEMENT])


def decimation_factor(rate_hz: float) -> int:
    """The integer k of --rate: BROAD's 285.714 Hz is not a multiple of 100 or 50 Hz, so the trials
    are decimated by the nearest whole factor (100 Hz -> 3, 95.24 Hz; 50 Hz -> 6, 47.62 Hz)."""
    return max(1, round(NOMINAL_RATE / rate_hz))


def slerp_half(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The rotation halfway between a and b (rows, scalar first): slerp at 1/2, which is the
    normalised sum once b is put in a's hemisphere. NaN where either is NaN."""
    b = np.where(np.sum(a * b, axis=1, keepdims=True) < 0, -b, b)
    s = a + b
    return s / np.linalg.norm(s, axis=1, keepdims=True)


def decimate(trial: Trial, k: int, folder: Path) -> Trial:
    """The trial at 1/k of its rate, as a new Trial whose CSV (t, gyroscope, accelerometer,
    magnetometer: no truth) is written to `folder`.

    The samples are cut into consecutive windows of k (a last, incomplete window is dropped). Each
    output sample is the mean of its window for the gyroscope (the mean rate times k*Ts is the
    window's rotation to first order, so the integrated attitude is kept), the accelerometer and the
    magnetometer; its time is the mean of the window's times, the window's centre. The truth is taken
    at that centre too: for odd k the middle sample itself; for even k the centre falls halfway
    between the two middle samples and the truth is their slerp at 1/2 (NaN if either is NaN). A
    sample is scored when the movement flag at the centre is 1 (odd k: the middle sample's; even k:
    both middle samples') and its truth is finite, so the scored phase keeps its times.
    """
    n = (len(trial.t) // k) * k
    if n == 0:
        raise ValueError(f"{trial.path}: fewer than {k} samples, nothing to decimate")

    def mean(a):
        return a[:n].reshape(n // k, k, *a.shape[1:]).mean(axis=1)

    t = mean(trial.t)
    gyr, acc, mag = mean(trial.gyr), mean(trial.acc), mean(trial.mag)
    middle = np.arange(n // k) * k + (k - 1) // 2  # the middle sample, or the first of the two
    if k % 2:
        q_ref = trial.q_ref[middle]
        moving = trial.movement[middle] == 1
    else:
        q_ref = slerp_half(trial.q_ref[middle], trial.q_ref[middle + 1])
        moving = (trial.movement[middle] == 1) & (trial.movement[middle + 1] == 1)
    scored = moving & np.all(np.isfinite(q_ref), axis=1)
    path = folder / f"{trial.name}.csv"
    # %.17g reads back as the same doubles, so the CLI sees exactly the arrays VQF gets.
    np.savetxt(path, np.column_stack([t, gyr, acc, mag]), fmt="%.17g", delimiter=",",
               header=rc.header(rc.SENSORS), comments="")
    return Trial(trial.name, path, t, np.ascontiguousarray(gyr), np.ascontiguousarray(acc),
                 np.ascontiguousarray(mag), np.ascontiguousarray(q_ref), scored,
                 moving.astype(np.float64))


def sample_period(t: np.ndarray) -> float:
    """Mean step of the (uniform) time column; the column is rounded, so use the whole span."""
    return float((t[-1] - t[0]) / (len(t) - 1))


# --------------------------------------------------------------------------------------------------
# Scoring (BROAD)


def quat_multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    aw, ax, ay, az = a.T
    bw, bx, by, bz = b.T
    return np.column_stack((
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ))


def error_angles(q_est: np.ndarray, q_ref: np.ndarray) -> dict:
    """Per-sample BROAD error angles in degrees: total, heading, inclination."""
    q_est = q_est / np.linalg.norm(q_est, axis=1)[:, None]
    q_ref = q_ref / np.linalg.norm(q_ref, axis=1)[:, None]
    q_ref_inv = q_ref * np.array([1.0, -1.0, -1.0, -1.0])
    e = quat_multiply(q_est, q_ref_inv)
    ew, ez = np.abs(e[:, 0]), np.abs(e[:, 3])
    with np.errstate(invalid="ignore", divide="ignore"):
        total = 2.0 * np.arccos(np.clip(ew, -1.0, 1.0))
        heading = 2.0 * np.arctan2(ez, ew)  # = 2 atan(|e_z| / |e_w|), also for e_w = 0
        inclination = 2.0 * np.arccos(np.clip(np.sqrt(ew ** 2 + ez ** 2), -1.0, 1.0))
    return {"total": np.degrees(total), "heading": np.degrees(heading),
            "inclination": np.degrees(inclination)}


def rmse(values: np.ndarray) -> float:
    return float(np.sqrt(np.mean(values ** 2))) if len(values) else math.nan


@dataclass
class Score:
    rmse: dict          # metric -> RMSE, degrees
    max_total: float    # largest total error in the scored samples, degrees
    nonfinite: int      # scored samples whose estimate is not finite


def score(q_est: np.ndarray, trial: Trial) -> Score:
    q_est = q_est[trial.scored]
    q_ref = trial.q_ref[trial.scored]
    finite = np.all(np.isfinite(q_est), axis=1)
    angles = error_angles(q_est, q_ref)
    # A non-finite estimate makes the RMSE non-finite (as in BROAD): never hide a divergence.
    values = {m: rmse(a) for m, a in angles.items()}
    max_total = float(np.max(angles["total"][finite])) if finite.any() else math.nan
    return Score(values, max_total, int((~finite).sum()))


# --------------------------------------------------------------------------------------------------
# Estimators


def cli_command(motion: Path, method: Method, mode: str, input_path, output_path) -> list:
    command = [str(motion), "fuse", str(input_path), "-o", str(output_path), *method.cli_args,
               *EXTRA_ARGS]
    if mode == "6D":
        command.append("--no-magnetometer")
    return command


def run_cli(motion: Path, method: Method, mode: str, trial: Trial, tmpdir: Path) -> np.ndarray:
    out = tmpdir / f"{trial.name}.{method.key}.{mode}.csv"
    command = cli_command(motion, method, mode, trial.path, out)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"`{shlex.join(command)}` exited with status {result.returncode}:\n"
                           f"{result.stderr.strip()}")
    cols = read_csv_columns(out, OUTPUT_COLUMNS)
    out.unlink()
    if len(cols["t"]) != len(trial.t):
        raise RuntimeError(f"{method.key} {mode} on {trial.name}: {len(cols['t'])} output rows "
                           f"for {len(trial.t)} input rows")
    if not np.allclose(cols["t"], trial.t, rtol=0, atol=1e-5):
        raise RuntimeError(f"{method.key} {mode} on {trial.name}: output t does not match input t")
    return np.column_stack([cols[c] for c in rc.TRUTH])


def run_vqf(trial: Trial) -> dict:
    from vqf import VQF
    vqf = VQF(sample_period(trial.t))
    out = vqf.updateBatch(trial.gyr, trial.acc, trial.mag)
    # VQF's quaternions are scalar first and map sensor -> ENU (VQF's earth frame: x east, y north
    # by the magnetic field, z up), the same convention as BROAD's truth.
    return {"9D": np.asarray(out["quat9D"], dtype=np.float64),
            "6D": np.asarray(out["quat6D"], dtype=np.float64)}


# --------------------------------------------------------------------------------------------------
# Output


DIGITS = [2]  # decimals printed; --digits sets it


def fmt(value: float, width: int) -> str:
    if value is None:
        return "—".rjust(width)
    if not math.isfinite(value):
        return "nan".rjust(width)
    return f"{value:{width}.{DIGITS[0]}f}"


def print_metric_table(title, trials, methods, results, mode, metric):
    name_width = max(len("mean"), *(len(t.name) for t in trials))
    col_width = max(9, *(len(m.label) for m in methods))
    print(f"{title} — RMSE, degrees")
    header = "trial".ljust(name_width) + "".join(" " + m.label.rjust(col_width) for m in methods)
    print(header)
    print("-" * len(header))
    for trial in trials:
        cells = [results[(m.key, mode, trial.name)].rmse[metric] for m in methods]
        print(trial.name.ljust(name_width) + "".join(" " + fmt(c, col_width) for c in cells))
    print("-" * len(header))
    means = [mean_over_trials(results, m, mode, metric, trials) for m in methods]
    print("mean".ljust(name_width) + "".join(" " + fmt(c, col_width) for c in means))
    print()


def mean_over_trials(results, method, mode, metric, trials) -> float:
    return float(np.mean([results[(method.key, mode, t.name)].rmse[metric] for t in trials]))


def print_markdown_summary(trials, methods, results, rate_note=""):
    print(f"Mean of per-trial RMSE (degrees) over the {len(trials)} BROAD trials "
          f"({', '.join(t.name[:2] for t in trials)}){rate_note}:")
    print()
    print("| method | 9D total | 9D heading | 9D inclination | 6D inclination |")
    print("|---|---|---|---|---|")
    for m in methods:
        cells = [mean_over_trials(results, m, mode, metric, trials) for mode, metric, _ in METRICS]
        print(f"| {m.summary} | " + " | ".join(fmt(c, 0).strip() for c in cells) + " |")


# --------------------------------------------------------------------------------------------------
# Main


def select_methods(only: str | None) -> list:
    if not only:
        return list(METHODS)
    wanted = [w.strip().lower() for w in only.split(",") if w.strip()]
    known = {m.key for m in METHODS} | {m.family for m in METHODS}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        fail(f"--only: unknown method(s) {', '.join(unknown)}; choose from "
             f"{', '.join(sorted(known))}")
    return [m for m in METHODS if m.key in wanted or m.family in wanted]


def ensure_motion(path_arg: str) -> Path:
    motion = Path(path_arg)
    if not motion.is_absolute():
        motion = ROOT / motion
    if motion.is_file() and os.access(motion, os.X_OK):
        return motion
    if path_arg != DEFAULT_MOTION:
        fail(f"--motion {path_arg}: no executable at {motion}")
    print(f"{motion} is missing: building it with `swift build -c release --product motion` ...",
          file=sys.stderr)
    result = subprocess.run(["swift", "build", "-c", "release", "--product", "motion"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0 or not motion.is_file():
        sys.stderr.write(result.stdout[-4000:])
        fail("building the motion CLI failed")
    return motion


def main() -> int:
    parser = argparse.ArgumentParser(
        description="BROAD accuracy of MotionFusion's filters (via the motion CLI) and VQF.")
    parser.add_argument("--motion", default=DEFAULT_MOTION,
                        help=f"the motion CLI (default: {DEFAULT_MOTION}, relative to the repository "
                             "root; built with `swift build -c release --product motion` if missing)")
    parser.add_argument("--data", default=DEFAULT_DATA,
                        help=f"folder of BROAD trial CSVs (default: {DEFAULT_DATA}, relative to the "
                             "repository root)")
    parser.add_argument("--only", metavar="LIST",
                        help="comma-separated methods to run: families inertial, madgwick, mahony, "
                             "complementary, vqf, or single variants "
                             + ", ".join(m.key for m in METHODS if m.key != m.family))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                        help="CLI runs in parallel (default: number of CPUs)")
    parser.add_argument("--extra", metavar="ARGS", default="",
                        help="extra arguments appended to every `motion fuse` command, e.g. "
                             "\"--set biasRestSigma=0.001\" (for parameter studies)")
    parser.add_argument("--rate", type=float, metavar="HZ",
                        help="score the trials decimated to about HZ: by the whole factor "
                             "k = round(285.714 / HZ), each sample the mean of k (100 -> k = 3, "
                             "95.24 Hz; 50 -> k = 6, 47.62 Hz); the same samples go to every method")
    parser.add_argument("--digits", type=int, default=2, choices=range(0, 10), metavar="N",
                        help="decimals printed in the tables (default 2; 4 shows whether a change "
                             "that should not move the scores moved them)")
    args = parser.parse_args()
    DIGITS[0] = args.digits
    if args.rate is not None and not (math.isfinite(args.rate) and args.rate > 0):
        fail(f"--rate {args.rate:g}: give a rate in Hz above 0")
    EXTRA_ARGS.extend(shlex.split(args.extra))

    started = time.monotonic()
    methods = select_methods(args.only)
    if not methods:
        fail("--only selected no method")

    data = Path(args.data)
    if not data.is_absolute():
        data = ROOT / data
    data = data.resolve()
    if not data.is_dir():
        fail(f"BROAD data folder not found: {data}\n"
             "  It is the shared reference data (../shared/reference-data/broad from the repository "
             "root); pass --data DIR to use another folder.")
    paths = sorted(data.glob("*.csv"))
    if not paths:
        fail(f"no *.csv trial files in {data}")

    if any(m.family == "vqf" for m in methods):
        try:
            import vqf  # noqa: F401
        except ImportError:
            fail(f"the vqf package is not installed in {sys.executable}; run scripts/compare_accuracy "
                 f"(it sets up .venv-compare) or `pip install vqf=={VQF_VERSION}`")

    cli_methods = [m for m in methods if m.cli_args is not None]
    motion = ensure_motion(args.motion) if cli_methods else None

    try:
        trials = [load_trial(p) for p in paths]
    except (OSError, ValueError) as error:
        fail(str(error))

    decimation = None
    if args.rate is not None:
        k = decimation_factor(args.rate)
        decimation = tempfile.TemporaryDirectory(prefix="compare_accuracy.decimated.")
        try:
            trials = [decimate(t, k, Path(decimation.name)) for t in trials]
        except ValueError as error:
            fail(str(error))
        rate = 1.0 / float(np.mean([sample_period(t.t) for t in trials]))
        rate_note = f", decimated by {k} to {rate:.2f} Hz"

    print(f"BROAD trials: {data} ({len(trials)} trials)")
    if decimation is not None:
        print(f"BROAD decimated by {k}: {rate:.2f} Hz (asked {args.rate:g} Hz; each sample the mean of "
              f"{k}, truth at the window's centre{', slerped' if k % 2 == 0 else ''})")
    for t in trials:
        print(f"  {t.name}: {len(t.t)} samples, {t.scored.sum()} scored, "
              f"Ts = {sample_period(t.t) * 1e3:.7f} ms")
    print()
    if cli_methods:
        print("Commands (INPUT = " + ("decimated trial CSV" if decimation is not None else "trial CSV")
              + ", OUT = temporary file):")
        for m in cli_methods:
            for mode in MODES:
                print(f"  {m.label:<10} {mode}: "
                      + shlex.join(cli_command(motion.relative_to(ROOT) if motion.is_relative_to(ROOT)
                                               else motion, m, mode, "INPUT.csv", "OUT.csv")))
    if any(m.family == "vqf" for m in methods):
        import vqf as vqf_module
        print(f"  {'VQF':<10} 9D/6D: vqf.VQF(Ts).updateBatch(gyr, acc, mag) -> quat9D, quat6D "
              f"(vqf from {Path(vqf_module.__file__).parent})")
    print()

    results: dict = {}
    notes: list = []
    timings: dict = {}
    with tempfile.TemporaryDirectory(prefix="compare_accuracy.") as tmp:
        tmpdir = Path(tmp)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {}
            for m in cli_methods:
                for mode in MODES:
                    for trial in trials:
                        futures[pool.submit(run_cli, motion, m, mode, trial, tmpdir)] = (m, mode, trial)
            tick = time.monotonic()
            for future in concurrent.futures.as_completed(futures):
                m, mode, trial = futures[future]
                try:
                    q_est = future.result()
                except RuntimeError as error:
                    for f in futures:
                        f.cancel()
                    fail(str(error), status=1)
                results[(m.key, mode, trial.name)] = score(q_est, trial)
            if cli_methods:
                timings["motion CLI"] = time.monotonic() - tick

    if any(m.family == "vqf" for m in methods):
        tick = time.monotonic()
        for trial in trials:
            quats = run_vqf(trial)
            for mode in MODES:
                results[("vqf", mode, trial.name)] = score(quats[mode], trial)
        timings["VQF"] = time.monotonic() - tick

    for mode, metric, title in METRICS:
        print_metric_table(title, trials, methods, results, mode, metric)

    # Things worth a look: divergence (non-finite output) and very large errors.
    for m in methods:
        for mode in MODES:
            for trial in trials:
                s = results[(m.key, mode, trial.name)]
                if s.nonfinite:
                    notes.append(f"{m.label} {mode} on {trial.name}: {s.nonfinite} scored samples "
                                 "with a non-finite quaternion")
                elif mode == "9D" and s.max_total > 45.0:
                    notes.append(f"{m.label} {mode} on {trial.name}: total error reaches "
                                 f"{s.max_total:.1f}°")
        if m.family == "vqf":
            total = mean_over_trials(results, m, "9D", "total", trials)
            if total > 20.0:
                notes.append(f"VQF 9D mean total error {total:.1f}° is far above the expected "
                             "≈3°: check the frame and quaternion order")
    if notes:
        print("Notes:")
        for n in notes:
            print(f"  - {n}")
        print()

    print_markdown_summary(trials, methods, results, rate_note if decimation is not None else "")
    if decimation is not None:
        decimation.cleanup()
    print()
    spent = ", ".join(f"{k} {v:.1f} s" for k, v in timings.items())
    print(f"Finished in {time.monotonic() - started:.1f} s ({spent}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
