#!/usr/bin/env python3
"""Generate attitude-filter reference data (PyPI ``ahrs`` 0.4.0) for MotionFusion.

Run through the wrapper ``scripts/make_filter_reference`` (it creates / reuses
the pinned virtualenv ``<repo>/.venv-reference``, ``scripts/requirements/reference.txt``).  Writes
``<repo>/Reference/filter_*.csv``; see the "Attitude filter reference data"
section of ``Reference/README.md``.

What it does
  1. Simulates a seeded IMU/MARG recording (3000 samples, irregular time
     steps) from a known true attitude in the NWU earth frame and writes it to
     ``filter_inputs.csv``.
  2. Reads that CSV back (so the filters see exactly the doubles that Swift
     will parse) and runs ahrs's Madgwick, Mahony and Complementary filters on
     it, with an explicit per-step ``dt = t[k] - t[k-1]`` and an explicit
     initial attitude, writing one CSV per run.
  3. Checks its own output: unit quaternions, effective earth frames (gravity
     to +z; magnetic north to +x for Madgwick/Complementary, +y for Mahony),
     agreement with an independent re-implementation of the documented
     equations, and the numerical conditioning of every run.  It stops with an
     error if a check fails.

Quaternions are Hamilton, scalar first (w, x, y, z), and map sensor-frame
vectors to the earth frame: v_earth = q (x) v_sensor (x) q*.  Floats are
written with ``repr(float(x))``.  The output is deterministic.
"""

from __future__ import annotations

import csv
import math
import sys
import warnings
from pathlib import Path

import numpy as np

import ahrs
from ahrs.filters import Complementary, Madgwick, Mahony
import recording_columns as rc

AHRS_VERSION = "0.4.0"
NUMPY_VERSION = "2.4.6"

SEED = 20261201
N = 3000
DT_MIN, DT_MAX = 0.008, 0.012
REST_END = 3.0          # true angular velocity and linear acceleration are 0 before this
RAMP_END = 5.0          # smooth (C1) ramp of the motion envelope from REST_END to RAMP_END
G = 9.81                # m/s^2
GYRO_BIAS = np.array([0.01, -0.02, 0.015])   # rad/s, constant
GYRO_NOISE = 0.005      # rad/s (1 sigma, per axis)
ACC_NOISE = 0.05        # m/s^2
MAG_NOISE = 0.3         # uT
B_EARTH_NWU = np.array([20.0, 0.0, -45.0])   # uT: north, west, up components
RPY0 = (0.1, -0.2, 0.3)  # initial true attitude (roll, pitch, yaw) in NWU, rad

# Angular velocity (body frame): per axis a sum of sines A*sin(2*pi*f*t + phi).
# Amplitudes are fixed; frequencies and phases come from the seeded generator.
OMEGA_AMPLITUDES = np.array([[1.2, 0.7, 0.4],    # x
                             [1.0, 0.6, 0.35],   # y
                             [0.9, 0.5, 0.3]])   # z    (rad/s)
LIN_ACC_AMPLITUDES = np.array([[0.3, 0.15],
                               [0.3, 0.15],
                               [0.2, 0.1]])      # m/s^2, earth frame

MADGWICK_BETAS = (0.1, 0.033)
MAHONY_KP, MAHONY_KI = 1.0, 0.3         # ahrs 0.4.0 defaults
COMPLEMENTARY_GAIN = 0.9                # ahrs 0.4.0 default (weight of the gyro path)

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = REPO_ROOT / "Reference"

NOTES: list[str] = []


def note(msg: str) -> None:
    NOTES.append(msg)
    print(msg)


def check(cond: bool, msg: str) -> None:
    if not cond:
        raise SystemExit(f"CHECK FAILED: {msg}")
    note(f"ok: {msg}")


def fmt(x) -> str:
    v = float(x)
    if not math.isfinite(v):
        raise ValueError(f"non-finite value {v!r}")
    return repr(v)


def write_csv(name: str, header: list[str], rows) -> int:
    path = OUT_DIR / name
    n = 0
    with open(path, "w", newline="") as fh:
        fh.write(",".join(header) + "\n")
        for row in rows:
            if len(row) != len(header):
                raise ValueError(f"{name}: row has {len(row)} fields, header {len(header)}")
            fh.write(",".join(fmt(v) for v in row) + "\n")
            n += 1
    print(f"wrote {name}: {n} rows")
    return n


# ----------------------------------------------------------------------------
# own quaternion helpers (independent of ahrs)
# ----------------------------------------------------------------------------

def qmul(p, q):
    pw, px, py, pz = p
    qw, qx, qy, qz = q
    return np.array([
        pw * qw - px * qx - py * qy - pz * qz,
        pw * qx + px * qw + py * qz - pz * qy,
        pw * qy - px * qz + py * qw + pz * qx,
        pw * qz + px * qy - py * qx + pz * qw,
    ])


def qconj(q):
    return np.array([q[0], -q[1], -q[2], -q[3]])


def qrot(q, v):
    """q (x) (0, v) (x) q*  (sensor -> earth)."""
    return qmul(qmul(q, np.array([0.0, *v])), qconj(q))[1:]


def qaxis(axis: int, angle: float):
    q = np.zeros(4)
    q[0] = math.cos(angle / 2.0)
    q[1 + axis] = math.sin(angle / 2.0)
    return q


def qexp_rotvec(r):
    """Unit quaternion of the rotation vector r (angle |r|)."""
    th = float(np.linalg.norm(r))
    if th == 0.0:
        return np.array([1.0, 0.0, 0.0, 0.0])
    return np.array([math.cos(th / 2.0), *(math.sin(th / 2.0) * r / th)])


def quat_to_matrix(q):
    """Rotation matrix of a unit quaternion (same polynomial form as ahrs's to_DCM)."""
    w, x, y, z = q
    return np.array([
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y)],
    ])


def dmatrix_dq(q):
    """Partial derivatives dR/dq_j (j = w, x, y, z) of quat_to_matrix."""
    w, x, y, z = q
    return [
        np.array([[0.0, -2 * z, 2 * y], [2 * z, 0.0, -2 * x], [-2 * y, 2 * x, 0.0]]),
        np.array([[0.0, 2 * y, 2 * z], [2 * y, -4 * x, -2 * w], [2 * z, 2 * w, -4 * x]]),
        np.array([[-4 * y, 2 * x, 2 * w], [2 * x, 0.0, 2 * z], [-2 * w, 2 * z, -4 * y]]),
        np.array([[-4 * z, -2 * w, 2 * x], [2 * w, -4 * z, 2 * y], [2 * x, 2 * y, 0.0]]),
    ]


def angle_between(p, q) -> float:
    """Rotation angle (rad) between two unit quaternions."""
    d = abs(float(np.dot(p, q)))
    return 2.0 * math.acos(min(1.0, d))


# ----------------------------------------------------------------------------
# 1. synthetic inputs
# ----------------------------------------------------------------------------

def envelope(t):
    s = np.clip((t - REST_END) / (RAMP_END - REST_END), 0.0, 1.0)
    return s * s * (3.0 - 2.0 * s)


def make_inputs():
    rng = np.random.default_rng(SEED)
    dts = rng.uniform(DT_MIN, DT_MAX, N - 1)
    t = np.concatenate([[0.0], np.cumsum(dts)])

    om_freq = rng.uniform(0.1, 0.9, OMEGA_AMPLITUDES.shape)          # Hz
    om_phase = rng.uniform(0.0, 2.0 * math.pi, OMEGA_AMPLITUDES.shape)
    la_freq = rng.uniform(0.2, 1.5, LIN_ACC_AMPLITUDES.shape)
    la_phase = rng.uniform(0.0, 2.0 * math.pi, LIN_ACC_AMPLITUDES.shape)

    def omega(tt):
        s = np.sin(2.0 * math.pi * om_freq * tt + om_phase)
        return envelope(tt) * np.sum(OMEGA_AMPLITUDES * s, axis=1)

    def lin_acc(tt):
        s = np.sin(2.0 * math.pi * la_freq * tt + la_phase)
        return envelope(tt) * np.sum(LIN_ACC_AMPLITUDES * s, axis=1)

    # True attitude (sensor -> NWU).  Over step k (t[k-1] -> t[k]) the body rate
    # is held at omega(midpoint); the attitude integrates that exactly, and the
    # true gyro sample k is that same rate.
    q0 = qmul(qmul(qaxis(2, RPY0[2]), qaxis(1, RPY0[1])), qaxis(0, RPY0[0]))
    q_true = np.zeros((N, 4))
    w_true = np.zeros((N, 3))
    q_true[0] = q0
    w_true[0] = omega(0.0)
    for k in range(1, N):
        dt = t[k] - t[k - 1]
        w = omega(0.5 * (t[k - 1] + t[k]))
        w_true[k] = w
        q = qmul(q_true[k - 1], qexp_rotvec(w * dt))
        q_true[k] = q / np.linalg.norm(q)

    gyr = w_true + GYRO_BIAS + rng.normal(0.0, GYRO_NOISE, (N, 3))
    acc = np.zeros((N, 3))
    mag = np.zeros((N, 3))
    up = np.array([0.0, 0.0, G])
    for k in range(N):
        R = quat_to_matrix(q_true[k])
        acc[k] = R.T @ (up + lin_acc(t[k]))
        mag[k] = R.T @ B_EARTH_NWU
    acc += rng.normal(0.0, ACC_NOISE, (N, 3))
    mag += rng.normal(0.0, MAG_NOISE, (N, 3))

    peak = np.max(np.abs(w_true), axis=0)
    note(f"inputs: t_end = {float(t[-1])!r} s, dt in [{np.min(np.diff(t)):.6f}, {np.max(np.diff(t)):.6f}] s, "
         f"peak |omega_true| per axis = {peak.round(3).tolist()} rad/s, "
         f"peak |omega_true| = {np.max(np.linalg.norm(w_true, axis=1)):.3f} rad/s")
    return t, gyr, acc, mag, q_true, q0


def read_inputs():
    with open(OUT_DIR / "filter_inputs.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    header = rows[0]
    assert header == list(rc.SENSORS), header
    data = np.array([[float(v) for v in r] for r in rows[1:]])
    return data[:, 0], data[:, 1:4], data[:, 4:7], data[:, 7:10]


# ----------------------------------------------------------------------------
# 2. ahrs runs
# ----------------------------------------------------------------------------

def steps(t):
    """Per-step dt exactly as Swift computes it: t[k] - t[k-1] in double."""
    return [float(t[k]) - float(t[k - 1]) for k in range(1, len(t))]


def run_madgwick(t, gyr, acc, mag, q0, beta):
    f = Madgwick(gain=beta)
    assert f.gain == beta
    f.Dt = float("nan")       # any use of self.Dt instead of dt= would produce NaN
    Q = np.zeros((len(t), 4))
    Q[0] = q0
    for k, dt in enumerate(steps(t), start=1):
        if mag is None:
            Q[k] = f.updateIMU(Q[k - 1], gyr[k], acc[k], dt=dt)
        else:
            Q[k] = f.updateMARG(Q[k - 1], gyr[k], acc[k], mag[k], dt=dt)
    return Q


def run_mahony(t, gyr, acc, mag, q0):
    f = Mahony(k_P=MAHONY_KP, k_I=MAHONY_KI)   # fresh object: bias state starts at 0
    assert f.k_P == MAHONY_KP and f.k_I == MAHONY_KI
    assert np.array_equal(f.b, np.zeros(3))
    f.Dt = float("nan")
    Q = np.zeros((len(t), 4))
    B = np.zeros((len(t), 3))
    Q[0] = q0
    B[0] = f.b
    for k, dt in enumerate(steps(t), start=1):
        if mag is None:
            Q[k] = f.updateIMU(Q[k - 1], gyr[k], acc[k], dt=dt)
        else:
            Q[k] = f.updateMARG(Q[k - 1], gyr[k], acc[k], mag[k], dt=dt)
        B[k] = f.b
    return Q, B


def run_complementary(t, gyr, acc, mag, w0):
    """ahrs 0.4.0's Complementary has no per-sample method; its batch loop uses
    ``W[i] = (W[i-1] + gyr[i]*self.Dt)*gain + W_am[i]*(1-gain)`` with a constant
    Dt.  To get per-step dt through ahrs's own code we pass Dt = 1.0 and
    gyr'[k] = gyr[k]*dt_k (row 0 unused): gyr'[k]*1.0 is bit-identical to
    gyr[k]*dt_k, so this is exactly the formula with Dt = dt_k."""
    dts = steps(t)
    gyr_scaled = np.array(gyr, dtype=float, copy=True)
    for k, dt in enumerate(dts, start=1):
        gyr_scaled[k] = gyr[k] * dt
    f = Complementary(gyr=gyr_scaled, acc=np.array(acc), mag=None if mag is None else np.array(mag),
                      gain=COMPLEMENTARY_GAIN, Dt=1.0, w0=np.array(w0, dtype=float))
    assert f.Dt == 1.0 and f.gain == COMPLEMENTARY_GAIN
    W = np.array(f.W)
    Q = np.array(f.Q)
    return Q, W


# ----------------------------------------------------------------------------
# 3. independent re-implementation of the documented equations (the memo)
# ----------------------------------------------------------------------------

def own_madgwick(t, gyr, acc, mag, q0, beta):
    Q = np.zeros((len(t), 4))
    Q[0] = q0
    ez = np.array([0.0, 0.0, 1.0])
    for k, dt in enumerate(steps(t), start=1):
        q = Q[k - 1] / np.linalg.norm(Q[k - 1])
        w = gyr[k]
        if np.linalg.norm(w) == 0:
            Q[k] = q
            continue
        qdot = 0.5 * qmul(q, np.array([0.0, *w]))
        an = np.linalg.norm(acc[k])
        if an > 0:
            a = acc[k] / an
            R = quat_to_matrix(q)
            dR = dmatrix_dq(q)
            # objective: predicted sensor-frame reference minus measurement
            refs = [(ez, a)]
            if mag is not None:
                m = mag[k] / np.linalg.norm(mag[k])
                h = R @ m                                   # measured field in earth frame
                b = np.array([math.hypot(h[0], h[1]), 0.0, h[2]])   # NWU: north along +x
                refs.append((b, m))
            f = np.concatenate([R.T @ d - s for d, s in refs])
            J = np.vstack([np.column_stack([dR[j].T @ d for j in range(4)]) for d, _ in refs])
            if np.linalg.norm(f) > 0:
                grad = J.T @ f
                qdot = qdot - beta * grad / np.linalg.norm(grad)
        qn = q + qdot * dt
        Q[k] = qn / np.linalg.norm(qn)
    return Q


def own_mahony(t, gyr, acc, mag, q0):
    Q = np.zeros((len(t), 4))
    B = np.zeros((len(t), 3))
    Q[0] = q0
    b = np.zeros(3)
    ez = np.array([0.0, 0.0, 1.0])
    for k, dt in enumerate(steps(t), start=1):
        q = Q[k - 1] / np.linalg.norm(Q[k - 1])
        w = np.array(gyr[k])
        if np.linalg.norm(w) == 0:
            Q[k], B[k] = q, b
            continue
        an = np.linalg.norm(acc[k])
        if an > 0:
            R = quat_to_matrix(q)
            a = acc[k] / an
            e = np.cross(a, R.T @ ez)                       # measured x estimated
            if mag is not None:
                m = mag[k] / np.linalg.norm(mag[k])
                h = R @ m
                vm = R.T @ np.array([0.0, math.hypot(h[0], h[1]), h[2]])   # ENU: north along +y
                vm = vm / np.linalg.norm(vm)
                e = e + np.cross(m, vm)
            b = b - MAHONY_KI * e * dt                      # bias first ...
            w = w - b + MAHONY_KP * e                       # ... then the corrected rate
        qn = q + 0.5 * qmul(q, np.array([0.0, *w])) * dt
        Q[k] = qn / np.linalg.norm(qn)
        B[k] = b
    return Q, B


def own_complementary(t, gyr, acc, mag, w0):
    W = np.zeros((len(t), 3))
    W[0] = w0
    for k, dt in enumerate(steps(t), start=1):
        a = acc[k] / np.linalg.norm(acc[k])
        roll = math.atan2(a[1], a[2])
        pitch = math.atan2(-a[0], math.sqrt(a[1] ** 2 + a[2] ** 2))
        g = COMPLEMENTARY_GAIN
        if mag is None:
            W[k, 0] = (W[k - 1, 0] + gyr[k][0] * dt) * g + roll * (1.0 - g)
            W[k, 1] = (W[k - 1, 1] + gyr[k][1] * dt) * g + pitch * (1.0 - g)
            W[k, 2] = 0.0
        else:
            m = mag[k] / np.linalg.norm(mag[k])
            by = m[1] * math.cos(roll) - m[2] * math.sin(roll)
            bx = m[0] * math.cos(pitch) + math.sin(pitch) * (m[1] * math.sin(roll) + m[2] * math.cos(roll))
            yaw = math.atan2(-by, bx)
            W[k] = (W[k - 1] + gyr[k] * dt) * g + np.array([roll, pitch, yaw]) * (1.0 - g)
    Q = np.array([qmul(qmul(qaxis(2, w[2]), qaxis(1, w[1])), qaxis(0, w[0])) for w in W])
    return Q, W


def branch_margins(acc, mag):
    """Smallest distance of the complementary filter's atan2 arguments from the
    +-pi branch cut (angle distance from pi of the acc/mag angles)."""
    out = {}
    a = acc / np.linalg.norm(acc, axis=1)[:, None]
    roll = np.arctan2(a[:, 1], a[:, 2])
    pitch = np.arctan2(-a[:, 0], np.sqrt(a[:, 1] ** 2 + a[:, 2] ** 2))
    out["roll"] = float(np.min(math.pi - np.abs(roll)))
    if mag is not None:
        m = mag / np.linalg.norm(mag, axis=1)[:, None]
        by = m[:, 1] * np.cos(roll) - m[:, 2] * np.sin(roll)
        bx = m[:, 0] * np.cos(pitch) + np.sin(pitch) * (m[:, 1] * np.sin(roll) + m[:, 2] * np.cos(roll))
        yaw = np.arctan2(-by, bx)
        out["yaw"] = float(np.min(math.pi - np.abs(yaw)))
    return out


# ----------------------------------------------------------------------------
# main
# ----------------------------------------------------------------------------

def main() -> None:
    if ahrs.__version__ != AHRS_VERSION or np.__version__ != NUMPY_VERSION:
        raise SystemExit(f"need ahrs {AHRS_VERSION} and numpy {NUMPY_VERSION}, "
                         f"have ahrs {ahrs.__version__}, numpy {np.__version__}")
    warnings.simplefilter("error")     # any numpy/ahrs warning is a failure
    note(f"versions: ahrs {ahrs.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}")

    # ---- inputs ------------------------------------------------------------
    t_mem, gyr_mem, acc_mem, mag_mem, q_true, q0 = make_inputs()
    write_csv("filter_inputs.csv", list(rc.SENSORS),
              (np.concatenate([[t_mem[k]], gyr_mem[k], acc_mem[k], mag_mem[k]]) for k in range(N)))
    t, gyr, acc, mag = read_inputs()
    check(np.array_equal(t, t_mem) and np.array_equal(gyr, gyr_mem) and np.array_equal(acc, acc_mem)
          and np.array_equal(mag, mag_mem), "filter_inputs.csv reads back bit-identical")
    dts = np.array(steps(t))
    check(bool(np.all(dts > 0)), "timestamps strictly increasing")
    note(f"q0 = {[repr(float(v)) for v in q0]} (true attitude at t=0 in NWU, rpy = {RPY0})")

    # ---- ahrs runs ---------------------------------------------------------
    qcols = [rc.TIME, *rc.TRUTH]
    runs = {}   # name -> (Q, extra, extra_cols, mag_or_None)
    for beta in MADGWICK_BETAS:
        suffix = "" if beta == 0.1 else f"_beta{beta}"
        runs[f"madgwick_imu{suffix}"] = (run_madgwick(t, gyr, acc, None, q0, beta), None, [], None, beta)
    runs["madgwick_marg"] = (run_madgwick(t, gyr, acc, mag, q0, 0.1), None, [], mag, 0.1)
    for kind, m in (("imu", None), ("marg", mag)):
        Q, B = run_mahony(t, gyr, acc, m, q0)
        runs[f"mahony_{kind}"] = (Q, B, ["bx", "by", "bz"], m, None)
    # Extra: Mahony MARG started from the true initial attitude expressed in ENU
    # (its own frame), to show its steady state and bias estimate.
    q0_enu = qmul(qaxis(2, math.pi / 2), q0)
    Q, B = run_mahony(t, gyr, acc, mag, q0_enu)
    runs["mahony_marg_q0enu"] = (Q, B, ["bx", "by", "bz"], mag, None)
    note(f"q0_enu = qz(90 deg) (x) q0 = {[repr(float(v)) for v in q0_enu]}")
    for kind, m in (("imu", None), ("marg", mag)):
        Q, W = run_complementary(t, gyr, acc, m, RPY0)
        runs[f"complementary_{kind}"] = (Q, W, ["roll", "pitch", "yaw"], m, None)

    counts = {}
    for name, (Q, extra, cols, _, _) in runs.items():
        rows = (np.concatenate([[t[k]], Q[k], [] if extra is None else extra[k]]) for k in range(N))
        counts[name] = write_csv(f"filter_ahrs_{name}.csv", qcols + cols, rows)

    # ---- self-checks -------------------------------------------------------
    for name, (Q, *_rest) in runs.items():
        dev = float(np.max(np.abs(np.linalg.norm(Q, axis=1) - 1.0)))
        check(dev < 1e-12, f"{name}: all quaternions unit (max | |q|-1 | = {dev:.1e})")
    for name in ("madgwick_imu", "madgwick_marg", "mahony_imu", "mahony_marg"):
        check(np.array_equal(runs[name][0][0], q0), f"{name}: row 0 is exactly q0")
    check(np.array_equal(runs["mahony_marg_q0enu"][0][0], q0_enu), "mahony_marg_q0enu: row 0 is exactly q0_enu")
    for name in ("complementary_imu", "complementary_marg"):
        d = float(np.max(np.abs(runs[name][0][0] - q0)))
        check(np.array_equal(runs[name][1][0], np.array(RPY0)) and d < 1e-15,
              f"{name}: row 0 angles are exactly rpy0 and its quaternion equals q0 to {d:.1e}")

    # Independent re-implementation of the memo's equations.
    own = {}
    for beta in MADGWICK_BETAS:
        suffix = "" if beta == 0.1 else f"_beta{beta}"
        own[f"madgwick_imu{suffix}"] = (own_madgwick(t, gyr, acc, None, q0, beta), None)
    own["madgwick_marg"] = (own_madgwick(t, gyr, acc, mag, q0, 0.1), None)
    own["mahony_imu"] = own_mahony(t, gyr, acc, None, q0)
    own["mahony_marg"] = own_mahony(t, gyr, acc, mag, q0)
    own["mahony_marg_q0enu"] = own_mahony(t, gyr, acc, mag, q0_enu)
    own["complementary_imu"] = own_complementary(t, gyr, acc, None, RPY0)
    own["complementary_marg"] = own_complementary(t, gyr, acc, mag, RPY0)
    for name, (Q, extra, *_r) in runs.items():
        oq, oe = own[name]
        dq = float(np.max(np.abs(oq - Q)))
        de = 0.0 if extra is None else float(np.max(np.abs(oe - extra)))
        check(dq < 1e-12 and de < 1e-12,
              f"{name}: independent re-implementation of the memo matches ahrs "
              f"(max |dq| = {dq:.1e}, max |d state| = {de:.1e})")

    # Conditioning: perturb all inputs (relative 1e-12, and dt via t) and rerun
    # ahrs; the outputs must move far less than the 1e-9 comparison tolerance.
    prng = np.random.default_rng(SEED + 1)
    def pert(x):
        return x * (1.0 + 1e-12 * prng.standard_normal(x.shape))
    tp = t + np.concatenate([[0.0], 1e-15 * prng.standard_normal(N - 1)])
    gp, ap, mp = pert(gyr), pert(acc), pert(mag)
    pr = {}
    for beta in MADGWICK_BETAS:
        suffix = "" if beta == 0.1 else f"_beta{beta}"
        pr[f"madgwick_imu{suffix}"] = (run_madgwick(tp, gp, ap, None, q0, beta), None)
    pr["madgwick_marg"] = (run_madgwick(tp, gp, ap, mp, q0, 0.1), None)
    pr["mahony_imu"] = run_mahony(tp, gp, ap, None, q0)
    pr["mahony_marg"] = run_mahony(tp, gp, ap, mp, q0)
    pr["mahony_marg_q0enu"] = run_mahony(tp, gp, ap, mp, q0_enu)
    pr["complementary_imu"] = run_complementary(tp, gp, ap, None, RPY0)
    pr["complementary_marg"] = run_complementary(tp, gp, ap, mp, RPY0)
    for name, (Q, extra, *_r) in runs.items():
        pq, pe = pr[name]
        dq = float(np.max(np.abs(pq - Q)))
        de = 0.0 if extra is None else float(np.max(np.abs(pe - extra)))
        check(dq < 1e-10 and de < 1e-10,
              f"{name}: well conditioned: 1e-12 relative input perturbation moves the output by "
              f"{dq:.1e} (state {de:.1e})")
    for kind, m in (("imu", None), ("marg", mag)):
        mg = branch_margins(acc[1:], None if m is None else m[1:])
        check(min(mg.values()) > 1e-6,
              f"complementary_{kind}: acc/mag angles stay away from the atan2 branch cut "
              f"(min distance from +-pi: " + ", ".join(f"{k} {v:.1e}" for k, v in mg.items()) + ")")

    # Effective frames.
    ez = np.array([0.0, 0.0, 1.0])
    half = N // 2
    for name, (Q, *_r) in runs.items():
        ang = np.array([math.acos(max(-1.0, min(1.0, float(qrot(Q[k], acc[k] / np.linalg.norm(acc[k])) @ ez))))
                        for k in range(1, N)])
        med = float(np.median(ang))
        check(med < math.radians(5.0),
              f"{name}: gravity: q (x) acc (x) q* points to earth +z (median angle {math.degrees(med):.2f} deg, "
              f"95th pct {math.degrees(float(np.percentile(ang, 95))):.2f} deg)")

    def heading_stats(Q, lo):
        hs = np.array([qrot(Q[k], mag[k] / np.linalg.norm(mag[k])) for k in range(lo, N)])
        return hs, np.degrees(np.arctan2(hs[:, 1], hs[:, 0]))

    for name in ("madgwick_marg", "complementary_marg"):
        hs, hd = heading_stats(runs[name][0], half)
        check(abs(float(np.median(hd))) < 3.0 and float(np.median(hs[:, 2])) < 0,
              f"{name}: earth-frame mag points to +x (north) and down: median azimuth "
              f"{float(np.median(hd)):.2f} deg from +x, median z {float(np.median(hs[:, 2])):.3f}  => NWU")
    hs, hd = heading_stats(runs["mahony_marg_q0enu"][0], half)
    check(abs(float(np.median(hd)) - 90.0) < 3.0 and float(np.median(hs[:, 2])) < 0,
          f"mahony_marg_q0enu: earth-frame mag points to +y (north) and down: median azimuth "
          f"{float(np.median(hd)):.2f} deg from +x, median z {float(np.median(hs[:, 2])):.3f}  => ENU")

    # Attitude error against the truth (NWU; Mahony MARG compared in ENU).
    q_enu_from_nwu = qaxis(2, math.pi / 2)
    def err_deg(Q, conv=None, lo=half):
        ref = q_true if conv is None else np.array([qmul(conv, q) for q in q_true])
        return np.degrees([angle_between(Q[k], ref[k]) for k in range(lo, N)])
    e = err_deg(runs["madgwick_marg"][0])
    check(float(np.median(e)) < 3.0, f"madgwick_marg vs truth in NWU, second half: median {np.median(e):.2f} deg, max {np.max(e):.2f} deg")
    e = err_deg(runs["mahony_marg_q0enu"][0], q_enu_from_nwu)
    check(float(np.median(e)) < 3.0, f"mahony_marg_q0enu vs truth mapped to ENU (qz(90deg) (x) q_true), second half: "
          f"median {np.median(e):.2f} deg, max {np.max(e):.2f} deg")
    e_enu = err_deg(runs["mahony_marg"][0], q_enu_from_nwu)
    e_nwu = err_deg(runs["mahony_marg"][0])
    check(float(np.median(e_enu)) < 30.0 and float(np.median(e_nwu)) > 60.0,
          f"mahony_marg (started at the NWU truth, 90 deg off in its frame) is pulled towards ENU: second half "
          f"median error {np.median(e_enu):.1f} deg vs ENU truth, {np.median(e_nwu):.1f} deg vs NWU truth "
          f"(slow: the horizontal field is small and the k_I loop overshoots)")
    e = err_deg(runs["complementary_marg"][0])
    note(f"complementary_marg vs truth in NWU, second half: median {np.median(e):.2f} deg, max {np.max(e):.2f} deg")
    rest = int(np.searchsorted(t, REST_END))
    e = err_deg(runs["complementary_marg"][0], lo=1)[: rest - 1]
    check(float(np.max(e)) < 3.0, f"complementary_marg vs truth in NWU during the rest phase: max {np.max(e):.2f} deg")
    check(bool(np.all(runs["complementary_imu"][1][1:, 2] == 0.0)),
          "complementary_imu: yaw state is exactly 0 from row 1 on (only roll/pitch are filtered)")
    # Mahony bias state
    last = t > t[-1] - 5.0
    for name in ("mahony_imu", "mahony_marg", "mahony_marg_q0enu"):
        bm = runs[name][1][last].mean(axis=0)
        note(f"{name}: mean bias state over the last 5 s = {bm.round(4).tolist()} (true gyro bias {GYRO_BIAS.tolist()})")
    bm = runs["mahony_marg_q0enu"][1][last].mean(axis=0)
    check(float(np.max(np.abs(bm - GYRO_BIAS))) < 0.01,
          "mahony_marg_q0enu: bias state estimates the gyro bias with the same sign (b -> +bias)")

    print("\nrow counts:", counts)
    print(f"{len(NOTES)} notes; all checks passed.")


if __name__ == "__main__":
    main()
