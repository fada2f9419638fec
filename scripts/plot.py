#!/usr/bin/env python3
"""Draw MotionFusion's results from the CSV files `motion` writes, as titled PNGs with units.

Run it through the wrapper ``scripts/plot`` (it uses ``scripts/python-env plot``: ``<repo>/.venv-plot``
with the pins of ``scripts/requirements/plot.txt``):

    scripts/plot attitude ESTIMATE.csv TRUTH.csv -o attitude.png   # roll, pitch, yaw vs truth
    scripts/plot errors ESTIMATE.csv TRUTH.csv -o errors.png       # total, heading, inclination
    scripts/plot bias FUSED.csv -o bias.png                        # gyro bias estimate, rest flags
    scripts/plot bias OLD.csv NEW.csv --label old --label new \
        --imu RAW.csv --truth TRUTH.csv -o bias.png                # several estimates, the truth's bias
                                                                   # and the heading error over time
    scripts/plot magnetometer RAW.csv CALIBRATION.json -o mag.png  # before / after calibration
    scripts/plot magnetometer RAW.csv -o mag.png [-- OPTIONS]      # the online calibration: motion
                                                                   # device-motion's calibrated field
                                                                   # and its accuracy over time
    scripts/plot events RECORDING.csv EVENTS.csv -o events.png     # events over the accelerometer
    scripts/plot fuse RECORDING.csv -o out.png [-- FUSE OPTIONS]   # one step: motion fuse, then the
                                                                   # attitude and error plots against
                                                                   # the recording's own truth columns

ESTIMATE / FUSED: `motion fuse` output (t,qw,qx,qy,qz,bias_x..,flags). TRUTH: any CSV with
t,qw,qx,qy,qz (scalar first, sensor -> the same earth frame) and optionally `movement` (1 = scored,
shaded in the plots; BROAD trials and `motion simulate` output work as they are). RAW / RECORDING:
the `motion fuse` input format. CALIBRATION: `motion calibrate magnetometer` JSON. EVENTS:
`motion events` output. Without CALIBRATION, `magnetometer` runs `motion device-motion RAW -o …
--reference-frame xMagneticNorthZVertical` (OPTIONS after -- are passed on, e.g. --calibration) and
draws the raw and the calibrated field (coloured by accuracy) on their spheres, their strengths over
time and the accuracy over time. Errors are BROAD's (see scripts/compare_accuracy.py). Any input file may be
gzipped (NAME.csv.gz), as the tyrex-dev trials are.

bias --imu RAW --truth TRUTH adds the bias the truth implies: gyroscope minus the truth's angular rate
in the sensor frame (from consecutive truth quaternions: ω = 2·vec(q_k* ⊗ q_k+1)/Δt to first order; the
rotation vector of q_k* ⊗ q_k+1 over Δt is used), the gyroscope taken at the middle of each truth
step, only where both truth samples are finite; its median over a sliding 10 s window (every 0.5 s),
dashed in the axis's colour. --truth alone adds the heading error panel: the angle about the vertical
of q_est ⊗ q_truth⁻¹, less its constant offset (the circular mean over the scored samples: the truth's
`score` column, else `movement`, else all, as ../shared/tools/score_tyrex.py removes it).
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import recording_columns as rc

REST_FLAG = 1 << 5  # FusionFlags.restDetected


def read_csv(path: str) -> dict:
    """Columns by (lower-case) header name; non-numeric fields become NaN, text columns are kept."""
    with (gzip.open(path, "rt") if str(path).endswith(".gz") else open(path)) as f:
        header = [h.strip().lower() for h in f.readline().strip().split(",")]
        rows = [line.rstrip("\n").split(",") for line in f if line.strip()]
    columns = {}
    for i, name in enumerate(header):
        values = [r[i] if i < len(r) else "" for r in rows]
        try:
            columns[name] = np.array([float(v) if v != "" else math.nan for v in values])
        except ValueError:
            columns[name] = np.array(values, dtype=object)
    return columns


def quaternions(c: dict, path: str) -> np.ndarray:
    missing = [k for k in (rc.TIME,) + rc.TRUTH if k not in c]
    if missing:
        sys.exit(f"plot: {path} has no column(s) {', '.join(missing)}")
    return np.column_stack([c[k] for k in rc.TRUTH])


def multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    w1, x1, y1, z1 = a.T
    w2, x2, y2, z2 = b.T
    return np.column_stack([
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    ])


def euler_zyx(q: np.ndarray) -> np.ndarray:
    """Yaw, pitch, roll (intrinsic Z-Y'-X'', degrees) of sensor -> earth quaternions."""
    w, x, y, z = q.T
    roll = np.arctan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = np.arcsin(np.clip(2 * (w * y - z * x), -1, 1))
    yaw = np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return np.degrees(np.column_stack([yaw, pitch, roll]))


def errors(q_est: np.ndarray, q_ref: np.ndarray) -> dict:
    conj = q_ref * np.array([1, -1, -1, -1])
    e = multiply(q_est, conj)
    w = np.abs(e[:, 0])
    return {
        "total": np.degrees(2 * np.arccos(np.clip(w, 0, 1))),
        "heading": np.degrees(2 * np.arctan2(np.abs(e[:, 3]), w)),
        "inclination": np.degrees(2 * np.arccos(np.clip(np.sqrt(e[:, 0] ** 2 + e[:, 3] ** 2), 0, 1))),
    }


def shade_movement(ax, t: np.ndarray, movement) -> None:
    if movement is None:
        return
    inside = movement > 0.5
    edges = np.flatnonzero(np.diff(np.concatenate([[0], inside.astype(int), [0]])))
    for start, end in zip(edges[::2], edges[1::2]):
        ax.axvspan(t[start], t[end - 1], color="0.9", zorder=0)


def aligned(est: dict, ref: dict):
    """The truth rows at the estimate's timestamps (nearest row)."""
    t = est["t"]
    index = np.clip(np.searchsorted(ref["t"], t), 0, len(ref["t"]) - 1)
    return index


def save(fig, path: str) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    print(f"wrote {path}")


def plot_attitude(args) -> None:
    est, ref = read_csv(args.estimate), read_csv(args.truth)
    q_est = quaternions(est, args.estimate)
    q_ref = quaternions(ref, args.truth)[aligned(est, ref)]
    a, b = euler_zyx(q_est), euler_zyx(q_ref)
    fig, axes = plt.subplots(3, 1, figsize=(10, 7), sharex=True)
    movement = ref.get("movement")
    movement = movement[aligned(est, ref)] if movement is not None else None
    for ax, i, name in zip(axes, (2, 1, 0), ("roll (about x)", "pitch (about y)", "yaw (about z)")):
        shade_movement(ax, est["t"], movement)
        ax.plot(est["t"], b[:, i], color="black", lw=1.2, label="truth")
        ax.plot(est["t"], a[:, i], color="tab:red", lw=0.8, label="estimate")
        ax.set_ylabel(f"{name}, °")
        ax.grid(alpha=0.3)
    axes[0].legend(loc="upper right")
    axes[-1].set_xlabel("time, s")
    fig.suptitle(args.title or f"Attitude (aerospace Z-Y'-X'' angles): {Path(args.estimate).name} vs truth")
    save(fig, args.output)


def plot_errors(args) -> None:
    est, ref = read_csv(args.estimate), read_csv(args.truth)
    index = aligned(est, ref)
    err = errors(quaternions(est, args.estimate), quaternions(ref, args.truth)[index])
    movement = ref.get("movement")
    movement = movement[index] if movement is not None else None
    scored = (movement > 0.5) if movement is not None else np.ones(len(index), bool)
    fig, axes = plt.subplots(3, 1, figsize=(10, 7), sharex=True)
    for ax, name in zip(axes, ("total", "heading", "inclination")):
        shade_movement(ax, est["t"], movement)
        e = err[name]
        ok = scored & np.isfinite(e)
        rmse = math.sqrt(np.mean(e[ok] ** 2)) if ok.any() else math.nan
        ax.plot(est["t"], e, color="tab:blue", lw=0.8)
        ax.set_ylabel(f"{name} error, °")
        ax.set_title(f"{name}: RMSE {rmse:.2f}° over the shaded movement phase", fontsize=9, loc="left")
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("time, s")
    fig.suptitle(args.title or f"Orientation error (BROAD's measures): {Path(args.estimate).name}")
    save(fig, args.output)


AXIS_COLORS = ("tab:red", "tab:green", "tab:blue")
FILE_STYLES = ("-", ":", "-.", (0, (5, 1, 1, 1, 1, 1)))  # one per FUSED file; dashed is the truth's
BIAS_WINDOW = 10.0  # s, the sliding median of the truth-derived bias
BIAS_STEP = 0.5  # s, where that median is evaluated


def gyroscope(c: dict, path: str) -> np.ndarray:
    """gx, gy, gz in rad/s; a header unit (deg/s, °/s, dps) after the name is honoured."""
    columns = []
    for axis in rc.GYROSCOPE:
        names = [n for n in c if n == axis or n.startswith(axis + " (") or n.startswith(axis + "[")
                 or n.startswith(axis + " [")]
        if not names:
            sys.exit(f"plot: {path} has no {axis} column")
        unit = names[0][len(axis):].strip(" ()[]")
        scale = math.pi / 180 if unit in ("deg/s", "°/s", "dps") else 1.0
        if unit not in ("", "rad/s", "deg/s", "°/s", "dps"):
            sys.exit(f"plot: {path}: unknown gyroscope unit {unit!r}")
        columns.append(c[names[0]] * scale)
    return np.column_stack(columns)


def truth_rate(t: np.ndarray, q: np.ndarray):
    """The truth's angular rate in the sensor frame over each step k -> k+1 (q sensor -> earth):
    the rotation vector of q_k* ⊗ q_k+1 divided by the step. Returns the steps' middle times and the
    rates (rad/s); steps with a non-finite quaternion or a non-positive Δt are left out."""
    conj = q[:-1] * np.array([1, -1, -1, -1])
    d = multiply(conj, q[1:])
    d *= np.where(d[:, :1] < 0, -1.0, 1.0)  # the shorter way round
    dt = np.diff(t)
    ok = np.all(np.isfinite(d), axis=1) & (dt > 0)
    d, dt, mid = d[ok], dt[ok], (t[:-1][ok] + t[1:][ok]) / 2
    norm = np.linalg.norm(d[:, 1:], axis=1)
    angle = 2 * np.arctan2(norm, d[:, 0])
    scale = np.where(norm > 1e-15, angle / np.maximum(norm, 1e-300), 2.0)  # -> 2·vec for tiny angles
    return mid, d[:, 1:] * (scale / dt)[:, None]


def sliding_median(t: np.ndarray, values: np.ndarray, window: float, step: float):
    """Median of the values within ±window/2 of centres every `step` s; NaN where the window holds
    less than a tenth of its span's samples (gaps in the truth)."""
    if len(t) < 2:
        return np.array([]), np.empty((0, values.shape[1]))
    centres = np.arange(t[0], t[-1] + step / 2, step)
    lo = np.searchsorted(t, centres - window / 2)
    hi = np.searchsorted(t, centres + window / 2)
    typical = window / np.median(np.diff(t))
    out = np.full((len(centres), values.shape[1]), math.nan)
    for i, (a, b) in enumerate(zip(lo, hi)):
        if b - a >= 0.1 * typical:
            out[i] = np.median(values[a:b], axis=0)
    return centres, out


def truth_bias(imu_path: str, truth: dict, truth_path: str):
    """The truth-derived gyroscope bias (rad/s), median over a sliding 10 s window."""
    imu = read_csv(imu_path)
    if "t" not in imu:
        sys.exit(f"plot: {imu_path} has no t column")
    gyro = gyroscope(imu, imu_path)
    mid, rate = truth_rate(truth["t"], quaternions(truth, truth_path))
    inside = (mid >= imu["t"][0]) & (mid <= imu["t"][-1])
    mid, rate = mid[inside], rate[inside]
    g = np.column_stack([np.interp(mid, imu["t"], gyro[:, i]) for i in range(3)])
    ok = np.all(np.isfinite(g), axis=1)
    return sliding_median(mid[ok], (g - rate)[ok], BIAS_WINDOW, BIAS_STEP)


def heading_error(est: dict, est_path: str, ref: dict, ref_path: str):
    """Signed heading error (degrees) of the estimate against the truth at the estimate's rows, less
    its constant offset (circular mean over the scored samples), and that offset."""
    index = aligned(est, ref)
    q_ref = quaternions(ref, ref_path)[index]
    e = multiply(quaternions(est, est_path), q_ref * np.array([1, -1, -1, -1]))
    e *= np.where(e[:, :1] < 0, -1.0, 1.0)
    h = 2 * np.arctan2(e[:, 3], e[:, 0])  # angle about the vertical of e = e_heading(z) ⊗ e_incl
    scored = np.isfinite(h)
    for column in ("score", "movement"):
        if column in ref:
            scored &= ref[column][index] > 0.5
            break
    offset = math.atan2(np.mean(np.sin(h[scored])), np.mean(np.cos(h[scored]))) if scored.any() else 0.0
    error = np.degrees(np.angle(np.exp(1j * (h - offset))))
    rmse = math.sqrt(np.mean(error[scored] ** 2)) if scored.any() else math.nan
    return error, math.degrees(offset), rmse


def plot_bias(args) -> None:
    fused = args.fused
    labels = args.label or []
    if len(labels) > len(fused):
        sys.exit(f"plot: {len(labels)} --label for {len(fused)} FUSED file(s)")
    labels = labels + [Path(f).name for f in fused[len(labels):]]
    if args.imu and not args.truth:
        sys.exit("plot: --imu needs --truth (the truth-derived bias is gyro minus the truth's rate)")
    runs = []
    for path in fused:
        c = read_csv(path)
        if "bias_x" not in c:
            sys.exit(f"plot: {path} is not `motion fuse` output (no bias_x column)")
        runs.append(c)
    truth = read_csv(args.truth) if args.truth else None
    if truth is not None:
        quaternions(truth, args.truth)  # the columns are there

    panels = ["bias"] + (["heading"] if truth is not None else []) + ["rest"]
    ratios = {"bias": 3, "heading": 2, "rest": 1 if len(runs) == 1 else 0.6 + 0.4 * len(runs)}
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 6 + 2.5 * (truth is not None)), sharex=True,
                             gridspec_kw={"height_ratios": [ratios[p] for p in panels]})
    panel = dict(zip(panels, axes))

    ax = panel["bias"]
    several = len(runs) > 1
    for c, label, style in zip(runs, labels, itertools.cycle(FILE_STYLES)):
        for axis, color in zip("xyz", AXIS_COLORS):
            name = f"bias {axis}: {label}" if several else f"bias {axis}"
            ax.plot(c["t"], np.degrees(c[f"bias_{axis}"]), color=color, lw=1.3 if style == ":" else 1,
                    ls=style, label=name)
    if args.imu:
        centres, bias = truth_bias(args.imu, truth, args.truth)
        for i, (axis, color) in enumerate(zip("xyz", AXIS_COLORS)):
            ax.plot(centres, np.degrees(bias[:, i]), color=color, lw=1.2, ls="--", alpha=0.8,
                    label=f"truth {axis} ({BIAS_WINDOW:g} s median)")
    ax.set_ylabel("gyroscope bias estimate, °/s")
    ax.legend(loc="upper right", fontsize=8 if several or args.imu else None, ncol=2 if several or args.imu else 1)
    ax.grid(alpha=0.3)

    if truth is not None:
        ax = panel["heading"]
        for k, (c, label, style) in enumerate(zip(runs, labels, itertools.cycle(FILE_STYLES))):
            error, offset, rmse = heading_error(c, fused[k], truth, args.truth)
            ax.plot(c["t"], error, color=f"C{k}", lw=1.2 if style == ":" else 0.8, ls=style,
                    label=f"{label}: RMSE {rmse:.2f}° (offset {offset:+.1f}° removed)")
        ax.axhline(0, color="black", lw=0.6)
        ax.set_ylabel("heading error, °")
        ax.legend(loc="upper right", fontsize=8)
        ax.grid(alpha=0.3)

    ax = panel["rest"]
    for k, (c, label) in enumerate(zip(runs, labels)):
        rest = (c["flags"].astype(int) & REST_FLAG) > 0 if "flags" in c else np.zeros(len(c["t"]), bool)
        base = len(runs) - 1 - k
        ax.fill_between(c["t"], base, base + (0.8 if several else 1.0) * rest.astype(float), step="post",
                        color="tab:gray")
    ax.set_ylabel("rest")
    if several:
        ax.set_yticks([len(runs) - 1 - k + 0.4 for k in range(len(runs))], labels, fontsize=8)
    else:
        ax.set_yticks([0, 1])
    ax.set_xlabel("time, s")

    if args.title:
        title = args.title
    elif truth is not None:
        title = (f"Gyroscope bias estimate{' (truth dashed)' if args.imu else ''}, heading error and rest: "
                 + " vs ".join(labels))
    else:
        title = "Gyroscope bias estimate and rest detection: " + " vs ".join(labels)
    fig.suptitle(title)
    save(fig, args.output)


def motion_binary() -> Path:
    """The release `motion` CLI, built if it is missing."""
    import subprocess
    root = Path(__file__).resolve().parent.parent
    motion = root / ".build/release/motion"
    if not motion.is_file():
        print("building the motion CLI (swift build -c release --product motion) ...", file=sys.stderr)
        subprocess.run(["swift", "build", "-c", "release", "--product", "motion"], cwd=root, check=True)
    return motion


ACCURACY_LEVELS = ("uncalibrated", "low", "medium", "high")
ACCURACY_COLORS = {"uncalibrated": "0.6", "low": "tab:red", "medium": "tab:orange", "high": "tab:green"}


def raw_field(c: dict, path: str) -> np.ndarray:
    missing = [k for k in (rc.TIME,) + rc.MAGNETOMETER if k not in c]
    if missing:
        sys.exit(f"plot: {path} has no column(s) {', '.join(missing)} (the field in µT, plain names)")
    return np.column_stack([c[k] for k in rc.MAGNETOMETER])


def plot_online_magnetometer(args) -> None:
    """The online calibration as `motion device-motion` reports it (Core Motion's calibrated field)."""
    import subprocess
    import tempfile
    c = read_csv(args.raw)
    raw = raw_field(c, args.raw)
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "device-motion.csv")
        result = subprocess.run([str(motion_binary()), "device-motion", args.raw, "-o", out,
                                 "--reference-frame", "xMagneticNorthZVertical", *args.extra_options],
                                capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"plot: motion device-motion failed:\n{result.stderr}")
        dm = read_csv(out)
    if "field_accuracy" not in dm:
        sys.exit("plot: motion device-motion wrote no field_accuracy column (an older motion?)")
    field = np.column_stack([dm["field_x"], dm["field_y"], dm["field_z"]])
    accuracy = np.array([str(a) for a in dm["field_accuracy"]])
    seen = np.linalg.norm(field, axis=1) > 0  # rows without a magnetometer reading carry zero
    t, field, accuracy = dm["t"][seen], field[seen], accuracy[seen]
    finite = np.all(np.isfinite(raw), axis=1)
    t_raw, raw = c["t"][finite], raw[finite]

    calibrated = accuracy != "uncalibrated"
    fig = plt.figure(figsize=(13, 9))
    grid = fig.add_gridspec(4, 2, height_ratios=[3, 1.1, 1.1, 0.45])
    step = max(1, len(raw) // 3000)
    ax = fig.add_subplot(grid[0, 0], projection="3d")
    ax.scatter(*raw[::step].T, s=1, alpha=0.5, color="tab:blue")
    ax.set_title("raw field", fontsize=10)
    ax = fig.add_subplot(grid[0, 1], projection="3d")
    shown, levels = field[calibrated], accuracy[calibrated]
    step = max(1, len(shown) // 3000)
    for level in ACCURACY_LEVELS[1:]:
        pick = levels[::step] == level
        if pick.any():
            ax.scatter(*shown[::step][pick].T, s=1, alpha=0.6, color=ACCURACY_COLORS[level], label=level)
    if calibrated.any():
        r = float(np.median(np.linalg.norm(shown, axis=1)))
        u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 25), np.linspace(0, np.pi, 13))
        ax.plot_wireframe(r * np.cos(u) * np.sin(v), r * np.sin(u) * np.sin(v), r * np.cos(v),
                          color="black", lw=0.3, alpha=0.4)
        ax.set_title(f"calibrated field once accepted (sphere: its median strength, {r:.1f} µT)", fontsize=10)
        ax.legend(loc="upper left", fontsize=8, markerscale=6)
    else:
        ax.set_title("calibrated field: no calibration was accepted", fontsize=10)
    for a in fig.axes:
        a.set_box_aspect((1, 1, 1))
        a.set_xlabel("x, µT")
        a.set_ylabel("y, µT")
        a.set_zlabel("z, µT")

    ax = fig.add_subplot(grid[1, :])
    ax.plot(t_raw, np.linalg.norm(raw, axis=1), color="tab:blue", lw=0.8)
    ax.set_ylabel("|raw|, µT")
    ax.grid(alpha=0.3)
    below = fig.add_subplot(grid[2, :], sharex=ax)
    strength = np.where(calibrated, np.linalg.norm(field, axis=1), np.nan)
    below.plot(t, strength, color="black", lw=0.8)
    below.set_ylabel("|calibrated|, µT")
    below.grid(alpha=0.3)
    timeline = fig.add_subplot(grid[3, :], sharex=ax)
    level = np.array([ACCURACY_LEVELS.index(a) if a in ACCURACY_LEVELS else 0 for a in accuracy])
    for k, name in enumerate(ACCURACY_LEVELS):
        timeline.fill_between(t, 0, 1, where=level == k, step="post", color=ACCURACY_COLORS[name],
                              label=name, linewidth=0)
    first = np.flatnonzero(level > 0)
    note = f"; first accepted at {t[first[0]]:.1f} s" if len(first) else "; never accepted"
    timeline.set_yticks([])
    timeline.set_xlabel("time, s")
    timeline.set_ylabel("accuracy", rotation=0, ha="right", va="center")
    timeline.legend(loc="upper left", bbox_to_anchor=(1.0, 1.3), fontsize=7)
    fig.suptitle(args.title or f"Online magnetometer calibration: {Path(args.raw).name}{note}")
    save(fig, args.output)


def plot_magnetometer(args) -> None:
    if args.calibration is None:
        plot_online_magnetometer(args)
        return
    if args.extra_options:
        sys.exit("plot: options after -- are for motion device-motion, which a CALIBRATION file replaces")
    raw = raw_field(read_csv(args.raw), args.raw)
    raw = raw[np.all(np.isfinite(raw), axis=1)]
    cal = json.loads(Path(args.calibration).read_text())
    hard = np.array(cal["hardIron"])
    soft = np.array(cal["softIron"])
    fixed = (soft @ (raw - hard).T).T
    fig = plt.figure(figsize=(12, 5))
    for k, (data, name) in enumerate(((raw, "raw"), (fixed, "calibrated"))):
        ax = fig.add_subplot(1, 3, k + 1, projection="3d")
        step = max(1, len(data) // 3000)
        ax.scatter(*data[::step].T, s=1, alpha=0.5)
        ax.set_title(name)
        ax.set_xlabel("x, µT")
        ax.set_ylabel("y, µT")
        ax.set_zlabel("z, µT")
    ax = fig.add_subplot(1, 3, 3)
    ax.hist(np.linalg.norm(raw, axis=1), bins=60, alpha=0.6, label="raw")
    ax.hist(np.linalg.norm(fixed, axis=1), bins=60, alpha=0.6, label="calibrated")
    ax.set_xlabel("field norm, µT")
    ax.set_ylabel("samples")
    ax.legend()
    fig.suptitle(args.title or f"Magnetometer before and after calibration: {Path(args.raw).name}")
    save(fig, args.output)


def plot_events(args) -> None:
    c = read_csv(args.recording)
    ev = read_csv(args.events)
    g0 = 9.80665
    fig, ax = plt.subplots(figsize=(11, 5))
    for axis, color in zip("xyz", ("tab:red", "tab:green", "tab:blue")):
        ax.plot(c["t"], c[f"a{axis}"] / g0, color=color, lw=0.7, label=f"specific force {axis}")
    ax.set_xlabel("time, s")
    ax.set_ylabel("accelerometer, g")
    ax.grid(alpha=0.3)
    colors = {"shakeBegan": "tab:purple", "shakeEnded": "tab:purple", "shakeCancelled": "black",
              "orientation": "tab:orange", "movement": "tab:brown"}
    top = ax.get_ylim()[1]
    for t, name, value in zip(ev["t"], ev["event"], ev.get("value", [""] * len(ev["t"]))):
        ax.axvline(t, color=colors.get(name, "gray"), lw=0.8, ls="--")
        label = name if not isinstance(value, str) or not value or value == "nan" else f"{name}: {value}"
        ax.text(t, top, label, rotation=90, fontsize=7, va="top", ha="right")
    ax.legend(loc="lower right")
    fig.suptitle(args.title or f"Motion events over the accelerometer: {Path(args.recording).name}")
    save(fig, args.output)


def plot_steps(args) -> None:
    """The acceleration's magnitude over a stretch of a recording, with the steps `motion steps`
    found (STEPS, its t column) and, given --truth, the true ones: a CSV whose t column lists them
    (Oxford's .steps.csv) or WeAllWalk's .events.csv (its `step` rows)."""
    c = read_csv(args.recording)
    t = c["t"]
    magnitude = np.sqrt(c["ax"] ** 2 + c["ay"] ** 2 + c["az"] ** 2)
    start = args.start if args.start is not None else t[0]
    end = args.end if args.end is not None else min(t[-1], start + 20)
    keep = (t >= start) & (t <= end)
    found = read_csv(args.steps)["t"]
    found = found[(found >= start) & (found <= end)]
    fig, ax = plt.subplots(figsize=(12, 4.5))
    ax.plot(t[keep], magnitude[keep], color="tab:blue", lw=0.7, label="|a|, m/s²")
    low, high = np.nanmin(magnitude[keep]), np.nanmax(magnitude[keep])
    ax.vlines(found, low, high, color="tab:red", lw=1.0, label=f"detected ({len(found)})")
    if args.truth:
        truth = read_csv(args.truth)
        times = truth["t"] if "t" in truth else truth["t_start"][truth["kind"] == "step"].astype(float)
        times = times[(times >= start) & (times <= end)]
        ax.plot(times, np.full(len(times), low), "k^", ms=6, label=f"true ({len(times)})")
    ax.set_xlabel("time, s")
    ax.set_ylabel("specific force magnitude, m/s²")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper right")
    fig.suptitle(args.title or f"Steps: {Path(args.recording).name}, {start:g}–{end:g} s")
    save(fig, args.output)


def plot_fuse(args) -> None:
    """Runs `motion fuse` on a recording that carries its truth (BROAD, `motion simulate`), then
    draws the attitude and error plots: OUT with -attitude and -errors before its extension."""
    import subprocess
    import tempfile
    motion = motion_binary()
    out = Path(args.output)
    with tempfile.TemporaryDirectory() as tmp:
        fused = str(Path(tmp) / "fused.csv")
        result = subprocess.run([str(motion), "fuse", args.recording, "-o", fused, *args.extra_options],
                                capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"plot: motion fuse failed:\n{result.stderr}")
        for kind, draw in (("attitude", plot_attitude), ("errors", plot_errors)):
            sub = argparse.Namespace(estimate=fused, truth=args.recording, title=args.title,
                                     output=str(out.with_name(f"{out.stem}-{kind}{out.suffix or '.png'}")))
            draw(sub)


def main() -> int:
    parser = argparse.ArgumentParser(description="Plot MotionFusion results (PNG).")
    sub = parser.add_subparsers(dest="kind", required=True)
    for name, inputs in (("attitude", ("estimate", "truth")), ("errors", ("estimate", "truth")),
                         ("bias", ("fused",)), ("magnetometer", ("raw", "calibration")),
                         ("events", ("recording", "events"))):
        p = sub.add_parser(name)
        for i in inputs:
            if name == "bias":
                p.add_argument(i, nargs="+", help="`motion fuse` output; several draw over each other "
                                                  "(e.g. before and after a change)")
            elif name == "magnetometer" and i == "calibration":
                p.add_argument(i, nargs="?", help="`motion calibrate magnetometer` JSON; without it, the "
                                                  "online calibration of `motion device-motion`")
            else:
                p.add_argument(i)
        p.add_argument("-o", "--output", required=True, help="the PNG to write")
        p.add_argument("--title", help="replace the default title")
        if name == "bias":
            p.add_argument("--label", action="append",
                           help="name of a FUSED file in the legends, in their order (repeat; default: "
                                "the file name)")
            p.add_argument("--truth", help="CSV (or .csv.gz) with t,qw,qx,qy,qz sensor -> earth: adds the "
                                           "heading error panel")
            p.add_argument("--imu", help="the fused input (CSV or .csv.gz with t,gx,gy,gz): with --truth, "
                                         "draws the truth-derived bias (gyro - truth rate, 10 s median)")
    p = sub.add_parser("steps")
    p.add_argument("recording", help="the recording (t,ax,ay,az; .gz too)")
    p.add_argument("steps", help="`motion steps` output")
    p.add_argument("--truth", help="true steps: a CSV with a t column, or WeAllWalk's .events.csv")
    p.add_argument("--from", dest="start", type=float, help="start, s (default: the recording's)")
    p.add_argument("--to", dest="end", type=float, help="end, s (default: 20 s after the start)")
    p.add_argument("-o", "--output", required=True, help="the PNG to write")
    p.add_argument("--title", help="replace the default title")
    p = sub.add_parser("fuse")
    p.add_argument("recording")
    p.add_argument("-o", "--output", required=True, help="OUT.png: writes OUT-attitude.png and OUT-errors.png")
    p.add_argument("--title", help="replace the default titles")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.extra_options = extra  # `motion fuse` / `motion device-motion` options after --
    {"fuse": plot_fuse, "attitude": plot_attitude, "errors": plot_errors, "bias": plot_bias,
     "magnetometer": plot_magnetometer, "events": plot_events, "steps": plot_steps}[args.kind](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
