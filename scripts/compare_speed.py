#!/usr/bin/env python3
"""Time MotionFusion's filters next to the orientation filters on PyPI, on the same samples in one
run; print ns per sample and the ratios.

Run it through the wrapper ``scripts/compare_speed`` (it creates / reuses ``<repo>/.venv-compare``
with pinned ``vqf``, ``imufusion``, ``ahrs`` and ``numpy``):

    scripts/compare_speed [--input CSV] [--every N] [--motion PATH] [--repeats N]
                          [--python-samples N] [--python-repeats N] [--markdown]
                          [--goals [--host-motion PATH] [--rounds N]]

Data: by default BROAD trial 01 (../shared/reference-data/broad, 285.7 Hz, 56,940 samples); --input
takes any CSV in the `motion fuse` format (t, gx..gz rad/s, ax..az m/s², mx..mz µT). --every N keeps
every N-th sample (N = 3 turns BROAD into 95 Hz). 9D is timed only when the file has mx, my, mz.
Every case runs single stream from a fresh filter, on samples already in memory (converted once,
outside the timer), with Python's garbage collector off; the fastest run counts. The Python-side
cases run at least --repeats (VQF) or --python-repeats (imufusion, ahrs) times and, when that is
quicker, again until 0.5 s of runs have been measured (at most 100 runs), so that fast cases get
enough tries on a busy machine.

What is timed:
- MotionFusion: ``motion bench --input SAME.csv --json --repeats N`` (the bare Swift update loop
  over arrays, best of --repeats runs of at least 0.3 s each) for every filter it knows, Float and
  Double, over the whole recording. Rows with "streams" > 1 (the many-stream engine) go to a
  separate table; the comparisons use the single-stream rows only.
- VQF 2.1.2: ``vqf.VQF(Ts).updateBatch(gyr, acc[, mag])`` and ``vqf.BasicVQF(Ts).updateBatch(...)``,
  the C++ batch loops behind the Python binding, Double, over the whole recording (the time
  includes the binding's allocation of its output arrays, a few ns per sample).
- imufusion 1.3.3 (x-io Fusion, C, float32): ``imufusion.Ahrs`` with ``AhrsSettings(sample_rate =
  1/Ts, gain 0.5, gyroscope_range 2000, acceleration_rejection 10, magnetic_rejection 10,
  rejection_timeout 5)`` and ``settings.convention = CONVENTION_ENU`` set afterwards (the
  constructor ignores ``convention``). imufusion has no batch API (only per-sample ``update*``
  methods), so it is fed one call per sample from Python, as in its examples: ``for g, a in
  zip(gyr, acc): ahrs.update_no_magnetometer(g, a)`` (6D) and ``ahrs.update(g, a, m)`` (9D), with
  the gyroscope in deg/s and the accelerometer in g as the library expects (converted once, outside
  the timer; magnetometer in µT; the sample period comes from the settings' sample_rate).
- ahrs 0.4.0 (pure Python on numpy, float64): ``Madgwick(frequency=1/Ts)`` and
  ``Mahony(frequency=1/Ts)`` through ``q = f.updateIMU(q, g, a)`` (6D) and ``q = f.updateMARG(q, g,
  a, m)`` (9D) in a Python loop, the same calls the library's own batch constructor makes; and
  ``Complementary(gyr=, acc=[, mag=], frequency=1/Ts)``, which has no per-sample method: its
  constructor estimates roll/pitch(/yaw) from the accelerometer (and magnetometer) vectorised over the
  arrays and then blends them with the integrated gyroscope in a Python loop (in 6D only roll and
  pitch). SI units (ahrs normalises the accelerometer and magnetometer itself).
- x-io Fusion 1.3.3's C AHRS itself (``FusionAhrsUpdateNoMagnetometer`` / ``FusionAhrsUpdate``, the
  source from imufusion's source distribution, fetched with pip into a temporary folder), built here
  with ``gcc -O3 -march=native`` beside ``scripts/fusion_ahrs_bench.c`` (the same settings as the
  imufusion case; the samples converted to float deg/s and g before timing), on the whole recording,
  single stream, timed as ``motion bench`` times ours; compared with our default filter in Float and
  Double. Skipped when there is no C compiler or pip cannot fetch the source.
- The classic Madgwick step in C (``scripts/classic_madgwick.c``, written for this project from the
  2010 report's equations: gradient of the gravity (and earth-field) objective, normalized, Euler
  integration, normalization every step, ``1/sqrt``), in float and double, built here with ``gcc -O3
  -march=native``, on the whole recording, single stream; and gyroscope integration alone in C (a
  quaternion product and a normalization per step: the floor of any single-stream filter). The
  classic rows are compared with our madgwick; skipped when there is no C compiler.
- Our complementary filter's step in C (``scripts/complementary_step.c``: everything
  ``ComplementaryFilter``'s usual 6D step does, operation for operation, and its rare other steps
  with libm), float and double, built here with ``gcc -O2`` and ``clang -O2`` (when found; both with
  ``-ffp-contract=off``, so the same operations as ours) and with ``-O3 -march=native`` (which lets
  the compiler fuse multiply-adds), on the whole recording with the same per-sample Δt, timed as
  ``motion bench`` times ours (the best of --repeats runs of at least 0.3 s): how fast compiled C
  runs the exact-decay step on one stream. Its attitude at the end must match ``motion fuse --filter
  complementary --frame nwu --no-magnetometer`` to 1e-9 rad in double and 1e-5 rad in float (with
  ``--precision float``; 1e-4 rad with fused multiply-adds); the script stops otherwise. The test ``ComplementaryCTwinTests`` requires
  the same bits as the Swift filter over usual steps. Skipped when there is no C compiler or the
  timestamps are not regular steps.
- The Python loops dominate those times. So the script also times the same loops with the update
  replaced by a C call that does nothing with its arguments (``itertools.chain(...)`` with the same
  number of arguments, which only stores them) and reports, for the imufusion, Madgwick and Mahony
  rows, both the raw time and the time minus that loop overhead ("minus loop overhead"). The
  Python-loop peers run on the first --python-samples samples (default 20,000; tens of µs per
  sample for ahrs); VQF and MotionFusion run on the whole recording.

--goals adds, in the same run, what the speed work's goals are judged on and a table of them, each
with its value, its goal and whether it is met: one stream against Fusion's C (ours / Fusion: the
default filter at most 1.0×, Madgwick at most 0.9×, from the main bench); the many-stream
engines' speed-up over one stream of the same binary and bench (default filter ≥ 3× portable and
≥ 8× host, Madgwick ≥ 4× and ≥ 10×), for the portable build (the main bench) and for a host
build (``swift build -c release --product motion --scratch-path .build/host-cpu -Xswiftc
-target-cpu -Xswiftc native -Xcc -march=native``, or --host-motion PATH); the estimated Cortex-M4
cycles against Fusion's (``scripts/embedded --opt O --cycles FILE``: default at most 1.5×, Madgwick
at most 1.0×); and the latency at 1 kHz against the operating system's floor measured in the same
bench run (``motion bench --latency --rates 1000 --json``: every path within 25 µs of the floor at
p50 and within 2× its p99). Fusion's C, the portable bench of the two goal filters and the host
bench run --rounds times (default 3; the main bench is the portable one's first round), one after
the other, and each case's fastest counts in the goals table (the comparison tables keep the
main bench's single round, as the peers have): the machine's speed drifts over minutes, and a ratio of
two benches timed at different moments would carry the drift. It takes up to ten minutes more on 2
cores (the host build, the first time, scripts/embedded and the rounds are most of it).

Ratios are the peer's time divided by ours (> 1: ours is faster): against the comparable filter of
ours (inertial for VQF, BasicVQF and imufusion's AHRS; madgwick, mahony, complementary for ahrs's
namesakes), Double, and against the default filter, inertial, Double. --markdown prints the same
tables as Markdown (for the README).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from csv import DictReader
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import recording_columns as rc

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_INPUT = "../shared/reference-data/broad/01_undisturbed_slow_rotation_A.csv"
DEFAULT_MOTION = ".build/release/motion"
GRAVITY = 9.80665  # m/s² per g, for imufusion's accelerometer in g
MODES = ("6D", "9D")


def fail(message: str) -> None:
    print(f"compare_speed: {message}", file=sys.stderr)
    sys.exit(1)


def load(path: Path, every: int):
    with open(path) as f:
        header = f.readline().strip().split(",")
    data = np.genfromtxt(path, delimiter=",", skip_header=1, ndmin=2)
    col = {name: i for i, name in enumerate(header)}
    missing = [c for c in rc.INERTIAL if c not in col]
    if missing:
        fail(f"{path}: missing columns {', '.join(missing)}")
    data = data[::every]
    if len(data) < 3:
        fail(f"{path}: fewer than 3 samples (after --every {every})")
    t = np.ascontiguousarray(data[:, col[rc.TIME]])
    gyr = np.ascontiguousarray(data[:, [col[c] for c in rc.GYROSCOPE]])
    acc = np.ascontiguousarray(data[:, [col[c] for c in rc.ACCELEROMETER]])
    mag = None
    if all(c in col for c in rc.MAGNETOMETER):
        mag = np.ascontiguousarray(data[:, [col[c] for c in rc.MAGNETOMETER]])
    return t, gyr, acc, mag


# ---------------------------------------------------------------------------------------------
# Timing


def best_of(repeats: int, run, min_total: float = 0.5, max_runs: int = 100) -> float:
    """Best wall time of calls of run(), in s: at least `repeats` runs, and more (up to `max_runs`)
    until `min_total` s have been measured, so that fast cases get enough tries on a busy machine.
    run() prepares its own state (a fresh filter) and returns a callable that does the timed work;
    the garbage collector is off while it runs (as in timeit)."""
    best, total, runs = float("inf"), 0.0, 0
    while runs < repeats or (total < min_total and runs < max_runs):
        work = run()
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            work()
            elapsed = time.perf_counter() - start
        finally:
            gc.enable()
        best, total, runs = min(best, elapsed), total + elapsed, runs + 1
    return best


# The per-sample Python loops, one function per shape, so that a peer's update and the no-op
# baseline run through the very same bytecode (apart from what the update itself does).

def loop_2(update, a, b):
    for x, y in zip(a, b):
        update(x, y)


def loop_3(update, a, b, c):
    for x, y, z in zip(a, b, c):
        update(x, y, z)


def loop_q3(update, q, a, b):
    for x, y in zip(a, b):
        q = update(q, x, y)
    return q


def loop_q4(update, q, a, b, c):
    for x, y, z in zip(a, b, c):
        q = update(q, x, y, z)
    return q


# Baselines for the q-threaded loops: same bytecode count, but the result is not fed back (a chain
# object fed back would make a 20,000-long linked list of them).

def loop_q3_baseline(update, q, a, b):
    for x, y in zip(a, b):
        r = update(q, x, y)  # noqa: F841
    return q


def loop_q4_baseline(update, q, a, b, c):
    for x, y, z in zip(a, b, c):
        r = update(q, x, y, z)  # noqa: F841
    return q


NOOP = itertools.chain  # a C callable taking any number of arguments; it only stores them


@dataclass
class Method:
    key: str          # e.g. "VQF", "imufusion", "ahrs-Madgwick", "ours-inertial-Double"
    label: str
    kind: str         # "peer", "overhead", "ours"
    comparable: str | None = None   # our filter to compare with
    samples: int = 0
    ns: dict = field(default_factory=dict)       # mode -> ns per sample
    net_of: str | None = None                     # key of the baseline method to subtract
    ours_scalar: str = "Double"                   # which of our scalars the ratios compare with


def time_vqf(cls, ts, gyr, acc, mag, repeats):
    def run():
        estimator = cls(ts)
        if mag is None:
            return lambda: estimator.updateBatch(gyr, acc)
        return lambda: estimator.updateBatch(gyr, acc, mag)
    return best_of(repeats, run) / len(gyr) * 1e9


def imufusion_ahrs(imufusion, ts):
    settings = imufusion.AhrsSettings(sample_rate=1.0 / ts, gain=0.5, gyroscope_range=2000.0,
                                      acceleration_rejection=10.0, magnetic_rejection=10.0,
                                      rejection_timeout=5.0)
    settings.convention = imufusion.CONVENTION_ENU  # the constructor ignores `convention`
    if settings.convention != imufusion.CONVENTION_ENU:
        fail("imufusion: could not set the ENU convention")
    ahrs = imufusion.Ahrs()
    ahrs.set_settings(settings)
    return ahrs


def run_peers(args, ts, gyr, acc, mag):
    """Times every peer; returns the list of Methods (peers and loop overheads) in display order."""
    import vqf

    methods: list[Method] = []
    modes = [m for m in MODES if m == "6D" or mag is not None]
    n = len(gyr)

    for cls, name in ((vqf.VQF, "VQF"), (vqf.BasicVQF, "BasicVQF")):
        method = Method(name, f"VQF 2.1.2 {name}.updateBatch (C++)", "peer", "inertial", n)
        for mode in modes:
            method.ns[mode] = time_vqf(cls, ts, gyr, acc, mag if mode == "9D" else None, args.repeats)
        methods.append(method)

    p = min(args.python_samples, n)
    if p == 0:
        return methods
    pg, pa = gyr[:p], acc[:p]
    pm = mag[:p] if mag is not None else None
    reps = args.python_repeats

    def per_sample(run):
        return best_of(reps, run) / p * 1e9

    # Loop overheads (the same loops around a no-op C call).
    q0 = np.array([1.0, 0.0, 0.0, 0.0])
    loop_fusion = Method("loop-fusion", "Python loop overhead, f(g, a[, m])", "overhead", None, p)
    loop_q = Method("loop-q", "Python loop overhead, q = f(q, g, a[, m])", "overhead", None, p)
    for mode in modes:
        if mode == "6D":
            loop_fusion.ns[mode] = per_sample(lambda: lambda: loop_2(NOOP, pg, pa))
            loop_q.ns[mode] = per_sample(lambda: lambda: loop_q3_baseline(NOOP, q0, pg, pa))
        else:
            loop_fusion.ns[mode] = per_sample(lambda: lambda: loop_3(NOOP, pg, pa, pm))
            loop_q.ns[mode] = per_sample(lambda: lambda: loop_q4_baseline(NOOP, q0, pg, pa, pm))

    # imufusion: gyroscope in deg/s, accelerometer in g (converted outside the timer).
    import imufusion

    fg = np.ascontiguousarray(np.degrees(pg))
    fa = np.ascontiguousarray(pa / GRAVITY)
    fusion = Method("imufusion", "imufusion 1.3.3 Ahrs (C), Python loop", "peer", "inertial", p,
                    net_of="loop-fusion")
    for mode in modes:
        if mode == "6D":
            def run():
                ahrs = imufusion_ahrs(imufusion, ts)
                return lambda: loop_2(ahrs.update_no_magnetometer, fg, fa)
        else:
            def run():
                ahrs = imufusion_ahrs(imufusion, ts)
                return lambda: loop_3(ahrs.update, fg, fa, pm)
        fusion.ns[mode] = per_sample(run)
    methods.append(fusion)

    # ahrs: Madgwick and Mahony per sample; Complementary through its constructor.
    from ahrs.filters import Complementary, Madgwick, Mahony

    for cls, comparable in ((Madgwick, "madgwick"), (Mahony, "mahony")):
        name = cls.__name__
        method = Method(f"ahrs-{name}", f"ahrs 0.4.0 {name} (Python)", "peer", comparable,
                        p, net_of="loop-q")
        for mode in modes:
            if mode == "6D":
                def run(cls=cls):
                    estimator = cls(frequency=1.0 / ts)
                    return lambda: loop_q3(estimator.updateIMU, q0, pg, pa)
            else:
                def run(cls=cls):
                    estimator = cls(frequency=1.0 / ts)
                    return lambda: loop_q4(estimator.updateMARG, q0, pg, pa, pm)
            method.ns[mode] = per_sample(run)
        methods.append(method)

    method = Method("ahrs-Complementary", "ahrs 0.4.0 Complementary (Python)",
                    "peer", "complementary", p)
    for mode in modes:
        m = pm if mode == "9D" else None
        method.ns[mode] = per_sample(
            lambda m=m: lambda: Complementary(gyr=pg, acc=pa, mag=m, frequency=1.0 / ts))
    methods.append(method)

    methods.extend([loop_fusion, loop_q])
    return methods


def find_c_compiler(rows: str):
    """gcc (or cc); None, saying that `rows` are skipped, when there is none."""
    import shutil

    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        print(f"compare_speed: no C compiler: {rows} are skipped", file=sys.stderr)
    return compiler


def run_c_bench(binary: Path, folder: Path, args, ts, gyr, acc, mag) -> dict:
    """Writes the samples for a C bench (int64 n, double dt, then n rows of gx gy gz ax ay az mx my
    mz; zeros without a magnetometer) into `folder`, runs `binary SAMPLES REPEATS`, and reads its
    lines "<case> <mode> <scalar> <ns per sample>" into {(case, mode, scalar): ns}."""
    import struct

    rows = np.hstack([gyr, acc, mag if mag is not None else np.zeros_like(gyr)]).astype("<f8")
    samples = folder / "samples.bin"
    samples.write_bytes(struct.pack("<qd", len(gyr), ts) + rows.tobytes())
    result = subprocess.run([str(binary), str(samples), str(args.repeats)], capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"{binary.name} failed:\n{result.stderr}")
    cases: dict = {}
    for line in result.stdout.split("\n"):
        if line.strip():
            case, mode, scalar, ns = line.split()
            cases[(case, mode, scalar)] = float(ns)
    return cases


def run_classic_c(args, ts, gyr, acc, mag):
    """The classic Madgwick step and bare gyroscope integration in C (scripts/classic_madgwick.c),
    built with gcc -O3 -march=native, on the same samples; [] when no C compiler is found."""
    compiler = find_c_compiler("the classic C Madgwick rows")
    if compiler is None:
        return []
    n = len(gyr)
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / "classic_madgwick"
        subprocess.run([compiler, "-O3", "-march=native", "-o", str(binary),
                        str(ROOT / "scripts" / "classic_madgwick.c"), "-lm"], check=True)
        cases = run_c_bench(binary, Path(tmp), args, ts, gyr, acc, mag)
    methods = []
    for scalar in ("float", "double"):
        method = Method(f"C-madgwick-{scalar}", f"classic Madgwick in C, {scalar} (gcc -O3 -march=native)",
                        "peer", "madgwick", n)
        for mode in MODES:
            if mode == "6D" or mag is not None:
                method.ns[mode] = cases[("classic-madgwick", mode, scalar)]
        methods.append(method)
    for scalar in ("float", "double"):
        method = Method(f"C-integration-{scalar}",
                        f"gyroscope integration alone in C, {scalar} (the floor of one stream)", "reference",
                        None, n)
        method.ns["6D"] = cases[("gyro-integration", "-", scalar)]
        methods.append(method)
    return methods


def run_fusion_c(args, ts, gyr, acc, mag, folder: Path):
    """x-io Fusion's C AHRS (imufusion 1.3.3's source distribution, fetched with pip into `folder`, a
    temporary folder, never kept) built with gcc -O3 -march=native beside scripts/fusion_ahrs_bench.c,
    on the same samples, timed as `motion bench` times ours. Returns ([its Method], a function that
    times it again and gives {mode: ns}); ([], None) when there is no C compiler or the source cannot
    be fetched."""
    compiler = find_c_compiler("the x-io Fusion C rows")
    if compiler is None:
        return [], None
    folder = Path(folder) / "fusion"
    folder.mkdir()
    fetched = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary",
                              "imufusion", "imufusion==1.3.3", "-d", str(folder)], capture_output=True, text=True)
    if fetched.returncode != 0:
        print(f"compare_speed: pip download imufusion==1.3.3 failed; the x-io Fusion C rows are skipped:\n"
              f"{fetched.stderr}", file=sys.stderr)
        return [], None
    subprocess.run(["tar", "-xzf", str(folder / "imufusion-1.3.3.tar.gz"), "-C", str(folder)], check=True)
    source = folder / "imufusion-1.3.3" / "Fusion"
    binary = folder / "fusion_ahrs_bench"
    subprocess.run([compiler, "-O3", "-march=native", "-I", str(source), "-o", str(binary),
                    str(ROOT / "scripts" / "fusion_ahrs_bench.c"), *sorted(str(c) for c in source.glob("*.c")),
                    "-lm"], check=True)

    def again() -> dict:
        cases = run_c_bench(binary, folder, args, ts, gyr, acc, mag)
        return {mode: cases[("fusion-ahrs", mode, "float")] for mode in MODES if mode == "6D" or mag is not None}

    method = Method("C-fusion-ahrs", "x-io Fusion 1.3.3 C AHRS, float (gcc -O3 -march=native)", "peer", "inertial",
                    len(gyr), ours_scalar="Float")
    method.ns.update(again())
    return [method], again


def run_complementary_c(args, motion: Path, csv: Path, t, gyr, acc):
    """Our complementary filter's step in C (scripts/complementary_step.c), 6D, float and double, built
    with gcc -O2 and, when found, clang -O2 (both with -ffp-contract=off: the same operations as
    ours), and with -O3 -march=native (which lets the compiler fuse multiply-adds), on the same
    samples with the same per-sample Δt, timed as `motion bench` times ours. Its attitude at the end
    must match `motion fuse --filter complementary`: to 1e-9 rad in double, and in float to 1e-5 rad
    (1e-4 with fused multiply-adds) against `--precision float`, which starts from its own Float
    initialization. [] when no C compiler is
    found or the timestamps are not regular steps (motion fuse would treat them differently)."""
    import shutil
    import struct

    compiler = find_c_compiler("the C complementary rows")
    if compiler is None:
        return []
    n = len(t)
    dt = np.concatenate([[0.0], np.diff(t)])
    if not (np.all(np.isfinite(t)) and np.all(dt[1:] > 0) and np.all(dt[1:] <= 1.0)):
        print("compare_speed: timestamps repeat, go back or jump by more than 1 s: the C complementary rows"
              " are skipped", file=sys.stderr)
        return []
    tau = 1.0  # ComplementaryFilter's default accelerometer time constant (motion fuse's default)
    finals = {}
    with tempfile.TemporaryDirectory() as tmp:
        for precision in ("double", "float"):
            fused = Path(tmp) / f"fused-{precision}.csv"
            result = subprocess.run([str(motion), "fuse", str(csv), "-o", str(fused), "--filter",
                                     "complementary", "--frame", "nwu", "--no-magnetometer", "--precision",
                                     precision], capture_output=True, text=True)
            if result.returncode != 0:
                fail(f"motion fuse failed:\n{result.stderr}")
            with fused.open() as handle:
                header = handle.readline().strip().split(",")
            indices = [header.index(name) for name in rc.TRUTH]
            finals[precision] = np.loadtxt(fused, delimiter=",", skiprows=1, usecols=indices)
        q = finals["double"]
        rows = np.hstack([dt[:, None], gyr, acc]).astype("<f8")
        samples = Path(tmp) / "samples.bin"
        samples.write_bytes(struct.pack("<q5d", n, tau, *q[0]) + rows.tobytes())
        builds = [(compiler, ("-O2", "-ffp-contract=off")), (compiler, ("-O3", "-march=native"))]
        clang = shutil.which("clang")  # LLVM, as Swift: the Swift toolchain ships it
        if clang is not None:
            builds += [(clang, ("-O2", "-ffp-contract=off")), (clang, ("-O3", "-march=native"))]
        outputs = {}
        for cc, flags in builds:
            name = f"{Path(cc).name} {' '.join(flags)}"
            binary = Path(tmp) / "complementary_step"
            build = subprocess.run([cc, *flags, "-o", str(binary), str(ROOT / "scripts" / "complementary_step.c"),
                                    "-lm"], capture_output=True, text=True)
            if build.returncode != 0:
                fail(f"building scripts/complementary_step.c with {name} failed:\n{build.stderr}")
            result = subprocess.run([str(binary), str(samples), str(args.repeats)], capture_output=True, text=True)
            if result.returncode != 0:
                fail(f"complementary_step ({name}) failed:\n{result.stderr}")
            outputs[name] = result.stdout

    def angle(a, b):  # rad between the rotations of two unit quaternions, as Quaternion.angle(to:)
        minus, plus = np.linalg.norm(a - b), np.linalg.norm(a + b)
        return 4 * float(np.arctan2(min(minus, plus), max(minus, plus)))

    methods = []
    for name, text in outputs.items():
        ns, final = {}, {}
        for line in text.split("\n"):
            parts = line.split()
            if len(parts) == 4 and parts[0] == "complementary":
                ns[parts[2]] = float(parts[3])
            elif len(parts) == 6 and parts[0] == "final":
                final[parts[1]] = np.array([float(v) for v in parts[2:]])
        if set(ns) != {"float", "double"} or set(final) != {"float", "double"}:
            fail(f"complementary_step printed something unexpected:\n{text}")
        off = {scalar: angle(final[scalar], finals[scalar][-1]) for scalar in final}
        # Fused multiply-adds round differently; in float the heading (not corrected in 6D) keeps that.
        float_bound = 1e-4 if "-march=native" in name else 1e-5
        if off["double"] > 1e-9 or off["float"] > float_bound:
            fail(f"complementary_step ({name}) ends {off['double']:.3g} rad (double) and {off['float']:.3g} rad"
                 f" (float) from motion fuse's attitude (more than 1e-9 and {float_bound:g} rad): it no longer"
                 " computes our filter")
        print(f"C complementary step ({name}): final attitude {off['double']:.2g} rad (double) and "
              f"{off['float']:.2g} rad (float) from motion fuse --filter complementary", file=sys.stderr)
        fused_note = ", fused multiply-adds" if "-march=native" in name else ""
        for scalar in ("float", "double"):
            method = Method(f"C-complementary-{scalar}-{name}",
                            f"our complementary step in C, {scalar} ({name.replace(' -ffp-contract=off', '')}"
                            f"{fused_note})", "peer", "complementary", n)
            method.ns["6D"] = ns[scalar]
            method.ours_scalar = "Float" if scalar == "float" else "Double"
            methods.append(method)
    return methods


def write_input_csv(path: Path, t, gyr, acc, mag) -> None:
    """The samples as a `motion fuse` input CSV (what `motion bench --input` and `motion fuse` read)."""
    arrays = [t[:, None], gyr, acc] + ([mag] if mag is not None else [])
    header = rc.header(rc.SENSORS if mag is not None else rc.INERTIAL)
    np.savetxt(path, np.hstack(arrays), delimiter=",", header=header, comments="", fmt="%.17g")


def run_ours(args, motion: Path, csv: Path, extra: tuple = ()):
    """(single, many) rows of ``motion bench --input CSV --json`` (and ``extra`` arguments): dicts
    with filter, scalar, mode, streams and ns; the step detector's rows left out."""
    command = [str(motion), "bench", "--input", str(csv), "--json", "--repeats", str(args.repeats), *extra]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"{' '.join(command)} failed:\n{result.stderr}")
    try:
        rows = json.loads(result.stdout)
    except json.JSONDecodeError as error:
        fail(f"motion bench --json printed something that is not JSON ({error}):\n{result.stdout[:500]}")
    if not isinstance(rows, list):
        fail("motion bench --json did not print a JSON array")
    single, many = [], []
    for row in rows:
        if not isinstance(row, dict):
            continue
        try:
            entry = {"filter": str(row["filter"]), "scalar": str(row.get("scalar", "?")),
                     "mode": str(row.get("mode", "?")), "streams": int(row.get("streams", 1)),
                     "lanes": int(row.get("lanes", 0)),
                     "ns": float(row["nsPerSample"])}
        except (KeyError, TypeError, ValueError):
            print(f"compare_speed: ignoring motion bench row {row}", file=sys.stderr)
            continue
        if entry["mode"] == "accel":
            continue  # the step detector (StepDetector): no peer here to compare it with
        (single if entry["streams"] == 1 else many).append(entry)
    return single, many


def ours_methods(single, samples) -> tuple[list[Method], dict]:
    """One Method per (filter, scalar), Double first; and a lookup (filter, scalar, mode) -> ns."""
    lookup = {}
    methods: dict[tuple, Method] = {}
    for row in single:
        key = (row["filter"], row["scalar"], row["mode"])
        lookup.setdefault(key, row["ns"])
        method = methods.setdefault((row["filter"], row["scalar"]), Method(
            f"ours-{row['filter']}-{row['scalar']}", f"MotionFusion {row['filter']} {row['scalar']}",
            "ours", None, samples))
        method.ns.setdefault(row["mode"], row["ns"])
    order = {"Double": 0, "Float": 1}
    filters = list(dict.fromkeys(f for f, _ in methods))
    ordered = sorted(methods.items(), key=lambda item: (filters.index(item[0][0]), order.get(item[0][1], 2)))
    return [m for _, m in ordered], lookup


# ---------------------------------------------------------------------------------------------
# Tables


class Table:
    def __init__(self, title: str, headers: list[str], align: str):
        self.title, self.headers, self.align = title, headers, align  # align: "l"/"r" per column
        self.rows: list[list[str]] = []
        self.notes: list[str] = []

    def add(self, *cells):
        self.rows.append([str(c) for c in cells])

    def text(self) -> str:
        widths = [max(len(r[i]) for r in [self.headers] + self.rows) for i in range(len(self.headers))]

        def line(cells):
            parts = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, self.align)]
            return "  ".join(parts).rstrip()

        out = [self.title, line(self.headers), "  ".join("-" * w for w in widths)]
        out += [line(r) for r in self.rows]
        out += self.notes
        return "\n".join(out)

    def markdown(self) -> str:
        def esc(cell):
            return cell.strip().replace("|", "\\|")

        out = [f"**{self.title}**", "", "| " + " | ".join(esc(h) for h in self.headers) + " |",
               "|" + "|".join("---:" if a == "r" else "---" for a in self.align) + "|"]
        out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in self.rows]
        if self.notes:
            out += [""] + [n.strip() for n in self.notes]
        return "\n".join(out)


def fmt_ns(ns) -> str:
    if ns is None:
        return "–"
    return f"{ns:,.0f}" if ns >= 1000 else f"{ns:.1f}" if ns >= 10 else f"{ns:.2f}"


def fmt_ratio(ratio) -> str:
    if ratio is None:
        return "–"
    return f"{ratio:,.0f}×" if ratio >= 100 else f"{ratio:.1f}×" if ratio >= 10 else f"{ratio:.2f}×"


def fmt_samples(n: int) -> str:
    return f"{n:,}"


def net_ns(method: Method, mode: str, by_key: dict):
    if method.net_of is None or mode not in method.ns:
        return None
    base = by_key.get(method.net_of)
    if base is None or mode not in base.ns:
        return None
    return method.ns[mode] - base.ns[mode]


def build_tables(methods, ours, lookup, many, modes, python_samples, total):
    by_key = {m.key: m for m in methods}
    timing = Table("ns per sample, single stream (lower is faster)",
                   ["method", "samples"] + [f"{mode} ns" for mode in modes], "lr" + "r" * len(modes))
    for m in methods + ours:
        timing.add(m.label, fmt_samples(m.samples), *[fmt_ns(m.ns.get(mode)) for mode in modes])
        if m.net_of:
            timing.add("  … minus loop overhead", fmt_samples(m.samples),
                       *[fmt_ns(net_ns(m, mode, by_key)) for mode in modes])
    notes = ["  VQF and MotionFusion: the whole recording. Every case: the fastest of several runs."]
    if python_samples:
        span = (f"all {python_samples:,} samples" if python_samples == total
                else f"the first {python_samples:,} samples (--python-samples)")
        notes += textwrap.wrap(
            f"imufusion and ahrs: {span}, fed one at a time from a Python loop (imufusion has no batch"
            " API; ahrs is Python itself; Complementary through its constructor, whose loop is Python)."
            " \"minus loop overhead\" = raw minus the same loop around a no-op C call (itertools.chain"
            " with the same arguments). imufusion computes in float32, VQF and ahrs in float64.",
            width=96, initial_indent="  ", subsequent_indent="  ")
    else:
        notes += ["  imufusion and ahrs skipped (--python-samples 0)."]
    timing.notes = notes

    ratio = Table("Ratios: peer ns / our ns, ours in Double unless marked Float (> 1: ours is faster)",
                  ["peer method", "comparable"] + [f"{m} ×" for m in modes]
                  + [f"inertial {m} ×" for m in modes], "ll" + "r" * (2 * len(modes)))
    ratio.notes = ["  \"comparable\": our filter of the same kind (columns 3-4; in Float where it says so,"
                   " for our complementary step in C, float); inertial: our default filter, Double."]
    if "ahrs-Complementary" in by_key:
        ratio.notes.append("  ahrs's Complementary blends Euler angles (roll and pitch only in 6D), ours"
                           " quaternions.")

    def ratio_cells(peer_ns: dict, filter_name, scalar="Double"):
        cells = []
        for mode in modes:
            ours_ns = lookup.get((filter_name, scalar, mode)) if filter_name else None
            p = peer_ns.get(mode)
            cells.append(fmt_ratio(p / ours_ns if p is not None and ours_ns else None))
        return cells

    for m in methods:
        if m.kind != "peer":
            continue
        comparable = m.comparable if m.comparable and any(k[0] == m.comparable for k in lookup) else None
        compared = (comparable or "–") if comparable is None or m.ours_scalar == "Double" \
            else f"{comparable} {m.ours_scalar}"
        ratio.add(m.label, compared, *ratio_cells(m.ns, comparable, m.ours_scalar),
                  *ratio_cells(m.ns, "inertial"))
        if m.net_of:
            net = {mode: net_ns(m, mode, by_key) for mode in modes}
            net = {k: v for k, v in net.items() if v is not None}
            ratio.add("  … minus loop overhead", comparable or "–", *ratio_cells(net, comparable),
                      *ratio_cells(net, "inertial"))

    many_table = None
    if many:
        many_table = Table("Many-stream rows of motion bench (not in the comparisons above)",
                           ["filter", "scalar", "mode", "streams", "lanes", "ns/sample", "M samples/s",
                            "× one stream"],
                           "lllrrrrr")
        for row in many:
            single = lookup.get((row["filter"], row["scalar"], row["mode"]))
            many_table.add(row["filter"], row["scalar"], row["mode"], row["streams"], row["lanes"] or "?",
                           fmt_ns(row["ns"]),
                           f"{1e3 / row['ns']:,.1f}" if row["ns"] > 0 else "–",
                           fmt_ratio(single / row["ns"] if single and row["ns"] > 0 else None))
        many_table.notes = ["  lanes: the lanes per vector motion bench ran (its default: the widest for"
                            " madgwick, one vector register's for inertial);"
                            " ns/sample and M samples/s as motion bench reports nsPerSample (1000 / ns);"
                            " × one stream: the same filter's single-stream ns in this run / these ns"
                            " (the engine's speed-up per core)."]
    return timing, ratio, many_table


# ---------------------------------------------------------------------------------------------
# Goals (--goals)

HOST_SCRATCH = ".build/host-cpu"
LANE_GOALS = {("inertial", "portable"): 3.0, ("inertial", "host"): 8.0,
              ("madgwick", "portable"): 4.0, ("madgwick", "host"): 10.0}


def build_host_motion() -> Path:
    """The motion CLI built for this machine's CPU (its own scratch folder; a no-op when current)."""
    env = {k: v for k, v in os.environ.items() if k != "MOTIONFUSION_TESTABLE_RELEASE"}
    command = ["swift", "build", "-c", "release", "--product", "motion", "--scratch-path", HOST_SCRATCH,
               "-Xswiftc", "-target-cpu", "-Xswiftc", "native", "-Xcc", "-march=native"]
    print(f"building the host-CPU motion CLI ({' '.join(command)}) ...", file=sys.stderr)
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"the host-CPU build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return ROOT / HOST_SCRATCH / "release" / "motion"


def keep_fastest(kept: list, fresh: list) -> None:
    """Lowers each row of ``kept`` (rows of ``run_ours``) to the same case's ns in ``fresh`` where
    that is faster; a case only ``fresh`` has is added."""
    index = {(r["filter"], r["scalar"], r["mode"], r["streams"]): r for r in kept}
    for row in fresh:
        key = (row["filter"], row["scalar"], row["mode"], row["streams"])
        if key in index:
            index[key]["ns"] = min(index[key]["ns"], row["ns"])
        else:
            kept.append(row)


def by_key(rows: list, streams: int) -> dict:
    """(filter, scalar, mode) -> ns of the rows of ``run_ours`` with ``streams`` streams."""
    return {(r["filter"], r["scalar"], r["mode"]): r["ns"] for r in rows if r["streams"] == streams}


def run_latency(motion: Path) -> dict:
    """``motion bench --latency --rates 1000 --json``: path -> row."""
    command = [str(motion), "bench", "--latency", "--rates", "1000", "--json"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode not in (0, 1):  # 1: a case lost a sample (reported in the table)
        fail(f"{' '.join(command)} failed:\n{result.stderr}")
    return {row["path"]: row for row in json.loads(result.stdout)}


def run_embedded() -> dict:
    """``scripts/embedded --opt O``: firmware (default, madgwick, fusion, ...) -> estimated
    Cortex-M4 cycles per sample, from the table it writes with ``--cycles``."""
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "cycles.tsv"
        command = [str(ROOT / "scripts" / "embedded"), "--opt", "O", "--cycles", str(table)]
        print("running scripts/embedded --opt O (a few minutes) ...", file=sys.stderr)
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"scripts/embedded failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
        if not table.is_file():
            fail(f"scripts/embedded wrote no {table.name} (--cycles)")
        with open(table, newline="") as f:
            cycles = {row["firmware"]: float(row["cycles"]) for row in DictReader(f, delimiter="\t")}
    for name in ("default", "madgwick", "fusion"):
        if name not in cycles:
            fail(f"scripts/embedded wrote no estimated cycles for {name}")
    return cycles


def goals_table(fusion_ns: dict, portable: tuple, host: tuple, latency: dict, cycles: dict, rounds: int) -> Table:
    """The goals of the speed work: ``portable`` and ``host`` are (one stream, 256 streams) ns by
    (filter, scalar, mode), each case the fastest of ``rounds`` interleaved rounds (the portable
    one's first round is the run's main bench)."""
    table = Table("Goals of the speed work, this run", ["area", "measure", "value", "goal", ""], "lllll")

    def verdict(ok):
        return "met" if ok else "missed"

    single, _ = portable
    for name, limit in (("inertial", 1.0), ("madgwick", 0.9)):
        for scalar in ("Double", "Float"):
            for mode in MODES:
                ours = single.get((name, scalar, mode))
                peer = fusion_ns.get(mode)
                if ours is None or peer is None:
                    continue
                r = ours / peer
                table.add("one stream", f"{name} {scalar} {mode} / Fusion C", f"{r:.2f}×", f"≤ {limit:g}×",
                          verdict(r <= limit))
    for build, (one, many) in (("portable", portable), ("host", host)):
        for name in ("inertial", "madgwick"):
            goal = LANE_GOALS[(name, build)]
            for scalar in ("Float", "Double"):
                for mode in MODES:
                    key = (name, scalar, mode)
                    if key not in one or key not in many:
                        continue
                    r = one[key] / many[key]
                    table.add("many lanes", f"{name} {scalar} {mode}, 256 streams, {build}: × one stream",
                              f"{r:.2f}×", f"≥ {goal:g}×", verdict(r >= goal))
    fusion_cycles = cycles["fusion"]
    for firmware, name, limit in (("default", "inertial", 1.5), ("madgwick", "madgwick", 1.0)):
        r = cycles[firmware] / fusion_cycles
        table.add("Cortex-M4", f"{name} estimated cycles / Fusion's ({cycles[firmware]:.1f} / {fusion_cycles:.1f})",
                  f"{r:.2f}×", f"≤ {limit:g}×", verdict(r <= limit))
    floor = latency.get("floor")
    for path in ("handler", "stream", "pull"):
        row = latency.get(path)
        if floor is None or row is None:
            continue
        if floor["p50us"] is None or row["p50us"] is None:  # nothing delivered (the JSON's null)
            table.add("latency 1 kHz", f"{path}: nothing delivered, {row['lost']} lost", "–", "≤ 25 µs", verdict(False))
            continue
        above = row["p50us"] - floor["p50us"]
        times = row["p99us"] / floor["p99us"] if floor["p99us"] > 0 else float("inf")
        lost = f", {row['lost']} lost" if row["lost"] else ""
        table.add("latency 1 kHz", f"{path} p50 − floor's ({row['p50us']:.1f} − {floor['p50us']:.1f} µs){lost}",
                  f"{above:+.1f} µs", "≤ 25 µs", verdict(above <= 25 and not row["lost"]))
        table.add("latency 1 kHz", f"{path} p99 / floor's ({row['p99us']:.1f} / {floor['p99us']:.1f} µs)",
                  f"{times:.2f}×", "≤ 2×", verdict(times <= 2))
    met = sum(1 for r in table.rows if r[-1] == "met")
    table.notes = [f"  {met} of {len(table.rows)} met. One stream: ours / Fusion's C ns on the same samples (< 1:"
                   f" ours is faster). Lanes: the same binary's one-stream ns / its 256-stream ns. Each case the"
                   f" fastest of {rounds} interleaved round(s) of the three benches (portable: the run's main bench"
                   f" is the first)."]
    relay = latency.get("relay")
    if floor is not None and relay is not None and floor["p50us"] is not None and relay["p50us"] is not None:
        over = [f"{path} {latency[path]['p50us'] - relay['p50us']:+.1f} µs" for path in ("handler", "stream")
                if path in latency and latency[path]["p50us"] is not None]
        table.notes.append(
            f"  Latency: a second thread woken by the floor's reader (the relay, no manager) takes p50"
            f" {relay['p50us'] - floor['p50us']:+.1f} µs over the floor; over the relay: {', '.join(over) or 'no path'}.")
    handovers = []
    for path, own in (("handler", "relay-queue"), ("stream", "relay-stream")):
        bare, full = latency.get(own), latency.get(path)
        if floor is None or bare is None or floor["p50us"] is None or bare["p50us"] is None:
            continue
        text = f"{own} {bare['p50us'] - floor['p50us']:+.1f} µs over the floor"
        if full is not None and full["p50us"] is not None:
            text += f" ({path} {full['p50us'] - bare['p50us']:+.1f} µs over it)"
        handovers.append(text)
    if handovers:
        table.notes.append("  Latency: the handovers alone (no manager): " + "; ".join(handovers) + ".")
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", default=DEFAULT_INPUT, help="CSV in the motion fuse format")
    parser.add_argument("--every", type=int, default=1, help="keep every N-th sample")
    parser.add_argument("--motion", default=DEFAULT_MOTION, help="the motion CLI (release build)")
    parser.add_argument("--repeats", type=int, default=7,
                        help="runs per case for VQF (at least) and motion bench; the fastest counts "
                             "(default: 7)")
    parser.add_argument("--python-samples", type=int, default=20000,
                        help="samples (from the start) for the Python-loop peers, imufusion and ahrs; "
                             "0 skips them (default: 20000)")
    parser.add_argument("--python-repeats", type=int, default=3,
                        help="runs per case (at least) for the Python-loop peers (default: 3)")
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument("--goals", action="store_true",
                        help="also measure what the speed goals are judged on (host-CPU build, Cortex-M4 "
                             "cycles, latency) and print the goals table")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --goals: rounds of x-io Fusion's C, the portable and the host bench of "
                             "the two goal filters, interleaved; each case's fastest counts (default: 3)")
    parser.add_argument("--host-motion", help="with --goals: a motion CLI built for this CPU (default: "
                                              f"built into {HOST_SCRATCH})")
    args = parser.parse_args()
    if args.every < 1 or args.repeats < 1 or args.python_repeats < 1 or args.python_samples < 0 or args.rounds < 1:
        fail("--every, --repeats, --python-repeats and --rounds must be at least 1, --python-samples at least 0")
    if args.rounds != parser.get_default("rounds") and not args.goals:
        fail("--rounds applies to --goals only")

    path = Path(args.input)
    if not path.is_absolute():
        path = ROOT / path
    if not path.is_file():
        fail(f"input not found: {path} (pass --input CSV)")
    motion = Path(args.motion)
    if not motion.is_absolute():
        motion = ROOT / motion
    if args.motion == DEFAULT_MOTION:
        # Always through the package's plain release build (a no-op when it is current): after
        # scripts/test, .build/release holds the build compiled for testing (-enable-testing,
        # asserts on; MOTIONFUSION_TESTABLE_RELEASE), which must not be the one timed.
        env = {k: v for k, v in os.environ.items() if k != "MOTIONFUSION_TESTABLE_RELEASE"}
        print("building the motion CLI (swift build -c release --product motion) ...", file=sys.stderr)
        subprocess.run(["swift", "build", "-c", "release", "--product", "motion"], cwd=ROOT, check=True, env=env,
                       stdout=subprocess.DEVNULL)
    elif not motion.is_file():
        fail(f"--motion {args.motion}: no executable at {motion}")

    t, gyr, acc, mag = load(path, args.every)
    ts = float(np.median(np.diff(t)))
    modes = [m for m in MODES if m == "6D" or mag is not None]
    python_samples = min(args.python_samples, len(t))
    print(f"data: {path.name}, every {args.every}: {len(t):,} samples at {1 / ts:.1f} Hz"
          + ("" if mag is not None else " (no magnetometer: 6D only)"))

    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "input.csv"
        write_input_csv(csv, t, gyr, acc, mag)
        single, many = run_ours(args, motion, csv)
        if not single:
            fail("motion bench printed no single-stream rows")
        fusion_methods, fusion_again = run_fusion_c(args, ts, gyr, acc, mag, Path(tmp))
        methods = (fusion_methods + run_classic_c(args, ts, gyr, acc, mag)
                   + run_complementary_c(args, motion, csv, t, gyr, acc))
        goals = None
        if args.goals:
            fusion = next((m for m in methods if m.key == "C-fusion-ahrs"), None)
            if fusion is None:
                fail("--goals needs x-io Fusion's C (a C compiler and pip)")
            host_motion = Path(args.host_motion).resolve() if args.host_motion else build_host_motion()
            if not host_motion.is_file():
                fail(f"--host-motion: no executable at {host_motion}")
            lanes = ("--filter", "inertial", "--filter", "madgwick", "--streams", "1", "--streams", "256")
            host_single, host_many = run_ours(args, host_motion, csv, lanes)
            # More rounds of the three benches the ratios divide, one after the other, each case's
            # fastest counting: the machine's speed drifts over minutes (by up to 2x on a shared
            # machine of this type), and a ratio of two benches taken at different moments carries
            # that drift; with interleaved rounds each bench's fastest comes from a quiet moment.
            # Into copies: the comparison tables keep the main bench's and the peers' single round.
            fusion_ns = dict(fusion.ns)
            portable_single, portable_many = [dict(r) for r in single], [dict(r) for r in many]
            for round_number in range(2, args.rounds + 1):
                print(f"goals: round {round_number} of {args.rounds} (Fusion C, portable, host) ...", file=sys.stderr)
                for mode, ns in fusion_again().items():
                    fusion_ns[mode] = min(fusion_ns[mode], ns)
                for rows, binary in (((portable_single, portable_many), motion), ((host_single, host_many), host_motion)):
                    for kept, fresh in zip(rows, run_ours(args, binary, csv, lanes)):
                        keep_fastest(kept, fresh)
            _, portable_lookup = ours_methods(portable_single, len(t))
            portable = (portable_lookup, by_key(portable_many, 256))
            host = (by_key(host_single, 1), by_key(host_many, 256))
            latency = run_latency(motion)
            goals = (fusion_ns, portable, host, latency, run_embedded())
    methods += run_peers(args, ts, gyr, acc, mag)
    ours, lookup = ours_methods(single, len(t))
    if goals:
        fusion_ns, portable, host, latency, cycles = goals
        goals = goals_table(fusion_ns, portable, host, latency, cycles, args.rounds)
    timing, ratio, many_table = build_tables(methods, ours, lookup, many, modes, python_samples, len(t))

    tables = [timing, ratio] + ([many_table] if many_table else []) + ([goals] if goals else [])
    print()
    print("\n\n".join(t.markdown() if args.markdown else t.text() for t in tables))
    if not many_table:
        print()
        print("(motion bench printed no many-stream rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
