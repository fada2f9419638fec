#!/usr/bin/env python3
"""Draw MotionFusion's results from the CSV files `motion` writes, as titled PNGs with units.

Run it through the wrapper ``scripts/plot`` (it creates / reuses ``<repo>/.venv-plot`` with pinned
matplotlib and numpy):

    scripts/plot attitude ESTIMATE.csv TRUTH.csv -o attitude.png   # roll, pitch, yaw vs truth
    scripts/plot errors ESTIMATE.csv TRUTH.csv -o errors.png       # total, heading, inclination
    scripts/plot bias FUSED.csv -o bias.png                        # gyro bias estimate, rest flags
    scripts/plot magnetometer RAW.csv CALIBRATION.json -o mag.png  # before / after calibration
    scripts/plot events RECORDING.csv EVENTS.csv -o events.png     # events over the accelerometer
    scripts/plot fuse RECORDING.csv -o out.png [-- FUSE OPTIONS]   # one step: motion fuse, then the
                                                                   # attitude and error plots against
                                                                   # the recording's own truth columns

ESTIMATE / FUSED: `motion fuse` output (t,qw,qx,qy,qz,bias_x..,flags). TRUTH: any CSV with
t,qw,qx,qy,qz (scalar first, sensor -> the same earth frame) and optionally `movement` (1 = scored,
shaded in the plots; BROAD trials and `motion simulate` output work as they are). RAW / RECORDING:
the `motion fuse` input format. CALIBRATION: `motion calibrate magnetometer` JSON. EVENTS:
`motion events` output. Errors are BROAD's (see scripts/compare_accuracy.py).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

REST_FLAG = 1 << 5  # FusionFlags.restDetected


def read_csv(path: str) -> dict:
    """Columns by (lower-case) header name; non-numeric fields become NaN, text columns are kept."""
    with open(path) as f:
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
    missing = [k for k in ("t", "qw", "qx", "qy", "qz") if k not in c]
    if missing:
        sys.exit(f"plot: {path} has no column(s) {', '.join(missing)}")
    return np.column_stack([c["qw"], c["qx"], c["qy"], c["qz"]])


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


def plot_bias(args) -> None:
    c = read_csv(args.fused)
    if "bias_x" not in c:
        sys.exit(f"plot: {args.fused} is not `motion fuse` output (no bias_x column)")
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(10, 6), sharex=True, gridspec_kw={"height_ratios": [3, 1]})
    for axis, color in zip("xyz", ("tab:red", "tab:green", "tab:blue")):
        ax.plot(c["t"], np.degrees(c[f"bias_{axis}"]), color=color, lw=1, label=f"bias {axis}")
    ax.set_ylabel("gyroscope bias estimate, °/s")
    ax.legend(loc="upper right")
    ax.grid(alpha=0.3)
    rest = (c["flags"].astype(int) & REST_FLAG) > 0 if "flags" in c else np.zeros(len(c["t"]), bool)
    ax2.fill_between(c["t"], 0, rest.astype(float), step="post", color="tab:gray")
    ax2.set_ylabel("rest")
    ax2.set_yticks([0, 1])
    ax2.set_xlabel("time, s")
    fig.suptitle(args.title or f"Gyroscope bias estimate and rest detection: {Path(args.fused).name}")
    save(fig, args.output)


def plot_magnetometer(args) -> None:
    c = read_csv(args.raw)
    raw = np.column_stack([c["mx"], c["my"], c["mz"]])
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


def plot_fuse(args) -> None:
    """Runs `motion fuse` on a recording that carries its truth (BROAD, `motion simulate`), then
    draws the attitude and error plots: OUT with -attitude and -errors before its extension."""
    import subprocess
    import tempfile
    root = Path(__file__).resolve().parent.parent
    motion = root / ".build/release/motion"
    if not motion.is_file():
        print("building the motion CLI (swift build -c release --product motion) ...", file=sys.stderr)
        subprocess.run(["swift", "build", "-c", "release", "--product", "motion"], cwd=root, check=True)
    out = Path(args.output)
    with tempfile.TemporaryDirectory() as tmp:
        fused = str(Path(tmp) / "fused.csv")
        result = subprocess.run([str(motion), "fuse", args.recording, "-o", fused, *args.fuse_options],
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
            p.add_argument(i)
        p.add_argument("-o", "--output", required=True, help="the PNG to write")
        p.add_argument("--title", help="replace the default title")
    p = sub.add_parser("fuse")
    p.add_argument("recording")
    p.add_argument("-o", "--output", required=True, help="OUT.png: writes OUT-attitude.png and OUT-errors.png")
    p.add_argument("--title", help="replace the default titles")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.fuse_options = extra  # `motion fuse` options after --
    {"fuse": plot_fuse, "attitude": plot_attitude, "errors": plot_errors, "bias": plot_bias,
     "magnetometer": plot_magnetometer, "events": plot_events}[args.kind](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
