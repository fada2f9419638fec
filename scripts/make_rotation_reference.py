#!/usr/bin/env python3
"""Generate scipy-based rotation reference data for MotionFusion's Swift tests.

Run through the wrapper ``scripts/make_rotation_reference`` (it creates a
pinned virtualenv).  Writes CSV files into ``<repo>/Reference/``.

Conventions (see Reference/README.md):
  * Hamilton quaternions written scalar first (qw, qx, qy, qz); scipy stores
    them scalar last and the script converts.
  * Unless stated otherwise quaternions are canonical (w >= 0, scipy's
    ``as_quat(canonical=True)``).
  * A rotation maps sensor-frame vectors to earth frame: v_earth = R v_sensor,
    R = scipy ``as_matrix()``, written row-major r00, r01, ..., r22.
  * Floats are written with ``repr(float(x))`` (shortest round-trip form).

The output is deterministic: every random draw comes from
``numpy.random.default_rng(SEED + k)`` with a fixed ``k`` per file.
"""

from __future__ import annotations

import math
import sys
import warnings
from pathlib import Path

import numpy as np
import scipy
from scipy.spatial.transform import Rotation

SCIPY_VERSION = "1.17.1"
SEED = 20261122

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = REPO_ROOT / "Reference"

INTRINSIC_SEQUENCES = [
    "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX",
    "XYX", "XZX", "YXY", "YZY", "ZXZ", "ZYZ",
]

# Collected facts printed at the end (used for the README / report).
NOTES: list[str] = []


# ----------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------

def fmt(x) -> str:
    """Shortest round-trip representation of a float."""
    v = float(x)
    if not math.isfinite(v):
        raise ValueError(f"non-finite value {v!r}")
    return repr(v)


def quat_sf(rot: Rotation, canonical: bool = True) -> list[float]:
    """Scalar-first quaternion of a single rotation."""
    q = rot.as_quat(canonical=canonical)
    return [float(q[3]), float(q[0]), float(q[1]), float(q[2])]


def unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def rotation_angle_between(r1: Rotation, r2: Rotation) -> float:
    return float((r1 * r2.inv()).magnitude())


def hamilton_mul(p, q):
    """Hamilton product of scalar-first quaternions."""
    pw, px, py, pz = p
    qw, qx, qy, qz = q
    return np.array([
        pw * qw - px * qx - py * qy - pz * qz,
        pw * qx + px * qw + py * qz - pz * qy,
        pw * qy - px * qz + py * qw + pz * qx,
        pw * qz + px * qy - py * qx + pz * qw,
    ])


def hamilton_rotate(q_sf, v):
    """v' = q (x) v (x) q* with scalar-first Hamilton quaternions."""
    qv = np.array([0.0, v[0], v[1], v[2]])
    qc = np.array([q_sf[0], -q_sf[1], -q_sf[2], -q_sf[3]])
    return hamilton_mul(hamilton_mul(q_sf, qv), qc)[1:]


def elementary(axis: str, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    if axis == "X":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "Y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


class CsvOut:
    """Tiny CSV writer: header + rows, LF endings, no quoting needed."""

    def __init__(self, name: str, header: list[str]):
        self.name = name
        self.header = header
        self.rows: list[str] = []

    def add(self, *fields) -> None:
        if len(fields) != len(self.header):
            raise ValueError(f"{self.name}: expected {len(self.header)} fields, got {len(fields)}")
        out = []
        for f in fields:
            if isinstance(f, str):
                if any(ch in f for ch in ",\"\n\r"):
                    raise ValueError(f"{self.name}: bad characters in {f!r}")
                out.append(f)
            elif isinstance(f, (bool, np.bool_)):
                out.append("1" if f else "0")
            elif isinstance(f, (int, np.integer)):
                out.append(str(int(f)))
            else:
                out.append(fmt(f))
        self.rows.append(",".join(out))

    def write(self) -> None:
        path = OUT_DIR / self.name
        text = ",".join(self.header) + "\n" + "".join(r + "\n" for r in self.rows)
        with open(path, "w", encoding="ascii", newline="") as fh:
            fh.write(text)
        print(f"wrote {path.relative_to(REPO_ROOT)}: {len(self.rows)} data rows")


def is_tait_bryan(seq: str) -> bool:
    return seq[0] != seq[2]


# ----------------------------------------------------------------------------
# 1. rotations.csv
# ----------------------------------------------------------------------------

def build_rotations() -> list[tuple[str, Rotation]]:
    rng = np.random.default_rng(SEED)
    rots: list[tuple[str, Rotation]] = []

    rots.append(("identity", Rotation.identity()))

    # Exact 180 degree rotations: quaternion with w exactly 0.
    half_turns = [
        ("180 deg about +x", [1, 0, 0]),
        ("180 deg about +y", [0, 1, 0]),
        ("180 deg about +z", [0, 0, 1]),
        ("180 deg about (1 1 1)/sqrt3", [1, 1, 1]),
        ("180 deg about (1 1 0)/sqrt2", [1, 1, 0]),
        ("180 deg about (1 -1 0)/sqrt2", [1, -1, 0]),
        ("180 deg about (0 1 1)/sqrt2", [0, 1, 1]),
    ]
    for label, axis in half_turns:
        u = unit(axis)
        rots.append((label, Rotation.from_quat([u[0], u[1], u[2], 0.0])))

    axis123 = unit([1, 2, 3])
    rots.append(("180 deg minus 1e-9 rad about (1 2 3)/norm",
                 Rotation.from_rotvec((math.pi - 1e-9) * axis123)))

    for name, axis in (("x", [1, 0, 0]), ("y", [0, 1, 0]), ("z", [0, 0, 1])):
        rots.append((f"90 deg about +{name}",
                     Rotation.from_rotvec(math.pi / 2 * np.array(axis, dtype=float))))

    for angle, text in ((1e-9, "1e-9"), (1e-12, "1e-12")):
        rots.append((f"{text} rad about +x", Rotation.from_rotvec([angle, 0.0, 0.0])))
        rots.append((f"{text} rad about (1 2 3)/norm", Rotation.from_rotvec(angle * axis123)))

    # Near-gimbal-lock rotations built from Euler angles.
    hp = math.pi / 2
    zyx = [
        ("ZYX pitch=+pi/2", hp),
        ("ZYX pitch=-pi/2", -hp),
        ("ZYX pitch=pi/2-1e-9", hp - 1e-9),
        ("ZYX pitch=pi/2-1e-6", hp - 1e-6),
        ("ZYX pitch=-(pi/2-1e-9)", -(hp - 1e-9)),
    ]
    for label, mid in zyx:
        rots.append((f"{label} (a1=0.3 a3=-0.7)", Rotation.from_euler("ZYX", [0.3, mid, -0.7])))
    zxy = [
        ("ZXY pitch=+pi/2", hp),
        ("ZXY pitch=-pi/2", -hp),
        ("ZXY pitch=pi/2-1e-9", hp - 1e-9),
    ]
    for label, mid in zxy:
        rots.append((f"{label} (a1=1.1 a3=0.4)", Rotation.from_euler("ZXY", [1.1, mid, 0.4])))

    randoms = Rotation.random(300, rng=rng)
    for i in range(len(randoms)):
        rots.append(("random", randoms[i]))
    return rots


def write_rotations(rots) -> None:
    out = CsvOut("rotations.csv",
                 ["id", "label", "qw", "qx", "qy", "qz",
                  "r00", "r01", "r02", "r10", "r11", "r12", "r20", "r21", "r22",
                  "rvx", "rvy", "rvz"])
    probe = np.array([0.3, -1.2, 2.5])
    max_conv_err = 0.0
    for idx, (label, rot) in enumerate(rots):
        q = quat_sf(rot)
        assert q[0] >= 0.0
        m = rot.as_matrix()
        rv = rot.as_rotvec()
        assert np.linalg.norm(rv) <= math.pi + 1e-15
        # Convention self-check: Hamilton q (x) v (x) q* == R v == rot.apply(v).
        e1 = np.max(np.abs(hamilton_rotate(q, probe) - m @ probe))
        e2 = np.max(np.abs(rot.apply(probe) - m @ probe))
        max_conv_err = max(max_conv_err, e1, e2)
        out.add(idx, label, *q, *m.reshape(-1), *rv)
    assert max_conv_err < 1e-14, max_conv_err
    NOTES.append(f"rotations: Hamilton q*v*q^-1 (scalar-first) vs as_matrix() @ v "
                 f"max abs diff {max_conv_err:.3g} (convention check)")
    out.write()


# ----------------------------------------------------------------------------
# 2. euler.csv
# ----------------------------------------------------------------------------

def write_euler(rots) -> None:
    out = CsvOut("euler.csv", ["id", "sequence", "a1", "a2", "a3", "gimbal_lock"])
    n_lock = 0
    max_rt_normal = 0.0
    max_rt_lock = 0.0
    lock_third_nonzero = 0
    for idx, (label, rot) in enumerate(rots):
        for seq in INTRINSIC_SEQUENCES:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                angles = rot.as_euler(seq)
            lock = False
            for w in caught:
                if issubclass(w.category, UserWarning) and "Gimbal lock" in str(w.message):
                    lock = True
                else:
                    raise RuntimeError(f"unexpected warning: {w.message}")
            rt = rotation_angle_between(Rotation.from_euler(seq, angles), rot)
            if lock:
                n_lock += 1
                max_rt_lock = max(max_rt_lock, rt)
                if angles[2] != 0.0:
                    lock_third_nonzero += 1
            else:
                max_rt_normal = max(max_rt_normal, rt)
            assert all(-math.pi <= a <= math.pi for a in angles)
            if is_tait_bryan(seq):
                assert -math.pi / 2 <= angles[1] <= math.pi / 2
            else:
                assert 0.0 <= angles[1] <= math.pi
            out.add(idx, seq, *angles, lock)
    NOTES.append(f"euler: {n_lock} rows flagged gimbal_lock; third angle nonzero in "
                 f"{lock_third_nonzero} of them")
    NOTES.append(f"euler: round-trip from_euler(as_euler(R)) vs R, max angle error "
                 f"{max_rt_normal:.3g} rad (no lock), {max_rt_lock:.3g} rad (lock rows)")

    # Core Motion / aerospace matrix conventions (checked, documented in README).
    yaw, pitch, roll = 0.7, -0.4, 1.9
    cm = elementary("Z", yaw) @ elementary("X", pitch) @ elementary("Y", roll)
    aero = elementary("Z", yaw) @ elementary("Y", pitch) @ elementary("X", roll)
    e_cm = np.max(np.abs(cm - Rotation.from_euler("ZXY", [yaw, pitch, roll]).as_matrix()))
    e_aero = np.max(np.abs(aero - Rotation.from_euler("ZYX", [yaw, pitch, roll]).as_matrix()))
    assert e_cm < 1e-15 and e_aero < 1e-15, (e_cm, e_aero)
    NOTES.append("euler: from_euler('ZXY',[y,p,r]) == Rz(y)Rx(p)Ry(r) and "
                 "from_euler('ZYX',[y,p,r]) == Rz(y)Ry(p)Rx(r) verified")
    out.write()


# ----------------------------------------------------------------------------
# 3. euler_to_rotation.csv
# ----------------------------------------------------------------------------

def write_euler_to_rotation() -> None:
    rng = np.random.default_rng(SEED + 3)
    out = CsvOut("euler_to_rotation.csv",
                 ["id", "sequence", "a1", "a2", "a3", "qw", "qx", "qy", "qz"])
    row = 0
    hp = math.pi / 2
    for seq in INTRINSIC_SEQUENCES:
        tb = is_tait_bryan(seq)
        triples = []
        for _ in range(40):
            a1 = rng.uniform(-math.pi, math.pi)
            a2 = rng.uniform(-hp, hp) if tb else rng.uniform(0.0, math.pi)
            a3 = rng.uniform(-math.pi, math.pi)
            triples.append((a1, a2, a3))
        if tb:
            triples += [
                (0.3, 2.0, -0.7),      # a2 outside [-pi/2, pi/2]
                (4.0, 0.5, -0.7),      # a1 outside [-pi, pi]
                (-5.0, -2.5, 3.9),     # all outside
                (0.3, hp, -0.7),       # gimbal lock
                (0.3, -hp, -0.7),      # gimbal lock
            ]
        else:
            triples += [
                (0.3, -1.0, -0.7),     # a2 outside [0, pi]
                (4.0, 1.0, -0.7),      # a1 outside [-pi, pi]
                (-5.0, 4.0, 3.9),      # all outside
                (0.3, 0.0, -0.7),      # gimbal lock
                (0.3, math.pi, -0.7),  # gimbal lock
            ]
        for a1, a2, a3 in triples:
            rot = Rotation.from_euler(seq, [a1, a2, a3])
            # independent check with elementary matrices
            m = elementary(seq[0], a1) @ elementary(seq[1], a2) @ elementary(seq[2], a3)
            assert np.max(np.abs(m - rot.as_matrix())) < 1e-14
            out.add(row, seq, a1, a2, a3, *quat_sf(rot))
            row += 1
    out.write()


# ----------------------------------------------------------------------------
# 4. Wahba: wahba_vectors.csv + wahba_solutions.csv
# ----------------------------------------------------------------------------

def own_wahba(a, b, w) -> Rotation:
    """Independent SVD solution of Wahba's problem with raw (un-normalised) vectors."""
    B = (w[:, None] * a).T @ b
    u, _, vt = np.linalg.svd(B)
    d = np.sign(np.linalg.det(u) * np.linalg.det(vt))
    return Rotation.from_matrix(u @ np.diag([1.0, 1.0, d]) @ vt)


def write_wahba() -> None:
    rng = np.random.default_rng(SEED + 4)
    vec_out = CsvOut("wahba_vectors.csv", ["case", "weight", "ax", "ay", "az", "bx", "by", "bz"])
    sol_out = CsvOut("wahba_solutions.csv", ["case", "n", "qw", "qx", "qy", "qz", "rssd", "label"])

    def random_units(n):
        return np.array([unit(rng.normal(size=3)) for _ in range(n)])

    cases: list[tuple[str, np.ndarray, np.ndarray, np.ndarray]] = []

    ns = [2, 3, 5, 10, 50]
    sigmas = [0.0, 0.001, 0.05]
    for i in range(30):
        n = ns[i % 5]
        sigma = sigmas[(i // 5) % 3]
        nonunit = i >= 15
        ones = i % 3 == 0
        r_true = Rotation.random(rng=rng)
        b = random_units(n)
        if nonunit:
            b = b * rng.uniform(0.5, 3.0, size=(n, 1))
        a = r_true.apply(b) + sigma * rng.normal(size=(n, 3))
        w = np.ones(n) if ones else rng.uniform(0.1, 5.0, size=n)
        label = (f"random n={n} sigma={sigma:g} lengths={'0.5..3' if nonunit else 'unit'} "
                 f"weights={'ones' if ones else 'random'}")
        cases.append((label, a, b, w))

    # edge cases
    r_true = Rotation.random(rng=rng)
    b = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    cases.append(("edge: exactly two perpendicular unit vectors sigma=0", r_true.apply(b), b, np.ones(2)))

    for sigma in (0.0, 0.001):
        r_true = Rotation.random(rng=rng)
        b1 = unit(rng.normal(size=3))
        perp = unit(np.cross(b1, rng.normal(size=3)))
        b2 = Rotation.from_rotvec(math.radians(1.0) * perp).apply(b1)
        b = np.array([b1, b2])
        a = r_true.apply(b) + sigma * rng.normal(size=(2, 3))
        cases.append((f"edge: two vectors 1 deg apart sigma={sigma:g}", a, b, np.ones(2)))

    diag = Rotation.from_quat(np.append(unit([1, 1, 1]), 0.0))
    for n, sigma in ((3, 0.0), (5, 0.001)):
        b = random_units(n)
        a = diag.apply(b) + sigma * rng.normal(size=(n, 3))
        cases.append((f"edge: true rotation 180 deg about (1 1 1)/sqrt3 n={n} sigma={sigma:g}",
                      a, b, np.ones(n)))

    for n, sigma in ((3, 0.0), (10, 0.001)):
        b = random_units(n)
        a = b + sigma * rng.normal(size=(n, 3))
        cases.append((f"edge: true rotation identity n={n} sigma={sigma:g}", a, b, np.ones(n)))

    r_true = Rotation.random(rng=rng)
    b = random_units(5)
    a = r_true.apply(b) + 0.05 * rng.normal(size=(5, 3))
    w = np.ones(5)
    w[0] = 1000.0
    cases.append(("edge: one weight 1000x the others n=5 sigma=0.05", a, b, w))

    r_true = Rotation.random(rng=rng)
    b = random_units(4)
    a = 2.0 * r_true.apply(b)
    cases.append(("edge: a = 2 R b (length mismatch) n=4 sigma=0", a, b, np.ones(4)))

    max_own = 0.0
    max_rssd_rel = 0.0
    max_rssd_exact = 0.0
    norm_diff = []
    for case, (label, a, b, w) in enumerate(cases):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a non-unique solution would warn
            rot, rssd = Rotation.align_vectors(a, b, weights=w)
        rot = Rotation.from_quat(rot.as_quat())
        # independent check: raw-vector SVD solution
        max_own = max(max_own, rotation_angle_between(rot, own_wahba(a, b, w)))
        direct = math.sqrt(float(np.sum(w * np.sum((a - rot.apply(b)) ** 2, axis=1))))
        if direct < 1e-12:  # exact fit: scipy's rssd is a cancellation residue
            max_rssd_exact = max(max_rssd_exact, abs(rssd - direct))
        else:
            max_rssd_rel = max(max_rssd_rel, abs(rssd - direct) / direct)
        # would normalising the vectors change the answer?
        an = a / np.linalg.norm(a, axis=1, keepdims=True)
        bn = b / np.linalg.norm(b, axis=1, keepdims=True)
        rot_n, _ = Rotation.align_vectors(an, bn, weights=w)
        norm_diff.append((rotation_angle_between(rot, rot_n), label))

        for i in range(len(w)):
            vec_out.add(case, w[i], *a[i], *b[i])
        sol_out.add(case, len(w), *quat_sf(rot), rssd, label)

    assert max_own < 1e-12, max_own
    NOTES.append(f"wahba: scipy align_vectors vs own SVD of B=sum w a b^T (raw vectors): "
                 f"max angle diff {max_own:.3g} rad")
    NOTES.append(f"wahba: scipy rssd vs direct sqrt(sum w|a-Rb|^2): max rel diff "
                 f"{max_rssd_rel:.3g} (noisy cases), max abs diff {max_rssd_exact:.3g} (exact-fit cases)")
    big = max(norm_diff)
    NOTES.append(f"wahba: normalising a,b first would change the solution by up to "
                 f"{big[0]:.3g} rad (case '{big[1]}')")
    vec_out.write()
    sol_out.write()


# ----------------------------------------------------------------------------
# 5. quaternion averaging: average_inputs.csv + average_results.csv
# ----------------------------------------------------------------------------

def write_average() -> None:
    rng = np.random.default_rng(SEED + 5)
    in_out = CsvOut("average_inputs.csv", ["case", "weight", "qw", "qx", "qy", "qz"])
    res_out = CsvOut("average_results.csv", ["case", "n", "qw", "qx", "qy", "qz", "label"])

    def cluster(center: Rotation, n: int, spread_deg: float) -> np.ndarray:
        qs = []
        for _ in range(n):
            axis = unit(rng.normal(size=3))
            angle = math.radians(spread_deg) * rng.uniform(0.0, 1.0)
            qs.append((center * Rotation.from_rotvec(angle * axis)).as_quat())
        return np.array(qs)

    cases: list[tuple[str, np.ndarray, np.ndarray]] = []  # (label, quats scalar-last, weights)
    k = 0
    for spread in (1.0, 10.0, 60.0):
        for n in (2, 3, 10, 100):
            ones = k % 2 == 0
            k += 1
            q = cluster(Rotation.random(rng=rng), n, spread)
            w = np.ones(n) if ones else rng.uniform(0.1, 5.0, size=n)
            cases.append((f"cluster spread={spread:g}deg n={n} weights={'ones' if ones else 'random'}", q, w))
    q = cluster(Rotation.random(rng=rng), 20, 90.0)
    cases.append(("cluster spread=90deg n=20 weights=ones", q, np.ones(20)))
    q = cluster(Rotation.random(rng=rng), 7, 30.0)
    w = 10.0 ** rng.uniform(-2.0, 2.0, size=7)
    cases.append(("cluster spread=30deg n=7 weights=1e-2..1e2", q, w))

    # edge cases
    single = Rotation.random(rng=rng).as_quat(canonical=True)
    cases.append(("edge: single quaternion (written with w<0)", -single[None, :], np.ones(1)))
    qq = Rotation.random(rng=rng).as_quat(canonical=True)
    cases.append(("edge: q and -q (same rotation)", np.array([qq, -qq]), np.ones(2)))
    center = Rotation.random(rng=rng)
    axis = unit(rng.normal(size=3))
    for deg in (20.0, 170.0):
        d = Rotation.from_rotvec(math.radians(deg) / 2 * axis)
        q = np.array([(center * d).as_quat(), (center * d.inv()).as_quat()])
        cases.append((f"edge: two rotations symmetric about the mean ({deg:g} deg apart)", q, np.ones(2)))
    center = Rotation.random(rng=rng)
    q = np.array([(center * Rotation.from_rotvec(math.radians(40.0) * unit(rng.normal(size=3)))).as_quat()
                  for _ in range(3)])
    cases.append(("edge: two of three weights tiny (1e-6)", q, np.array([1.0, 1e-6, 1e-6])))

    max_own = 0.0
    max_sign = 0.0
    min_gap = math.inf
    n_neg = 0
    n_total = 0
    for case, (label, q, w) in enumerate(cases):
        n = len(w)
        # random signs (exactly as written); the single/q,-q edge cases keep their signs
        if label.startswith("edge: single") or label.startswith("edge: q and -q"):
            signs = np.ones(n)
        else:
            signs = np.where(rng.uniform(size=n) < 0.5, -1.0, 1.0)
        q_signed = q * signs[:, None]
        rots = Rotation.concatenate([Rotation.from_quat(x) for x in q_signed])
        stored = rots.as_quat()  # scalar-last, non-canonical, exactly what scipy averages
        mean = rots.mean(weights=w)

        # independent check: eigenvector of sum w q q^T (sign invariant)
        K = (w[:, None] * stored).T @ stored
        evals, evecs = np.linalg.eigh(K)
        own = Rotation.from_quat(evecs[:, -1])
        max_own = max(max_own, rotation_angle_between(mean, own))
        if n > 1:
            min_gap = min(min_gap, (evals[-1] - evals[-2]) / evals[-1])
        canon = Rotation.concatenate([Rotation.from_quat(x) for x in stored * np.sign(stored[:, 3:4])])
        max_sign = max(max_sign, rotation_angle_between(mean, canon.mean(weights=w)))

        for i in range(n):
            qi = stored[i]
            n_neg += qi[3] < 0
            n_total += 1
            in_out.add(case, w[i], qi[3], qi[0], qi[1], qi[2])
        res_out.add(case, n, *quat_sf(mean), label)

    assert max_own < 1e-12, max_own
    NOTES.append(f"average: scipy mean vs own top eigenvector of sum w q q^T: max angle "
                 f"diff {max_own:.3g} rad; vs mean of sign-canonicalised inputs {max_sign:.3g} rad")
    NOTES.append(f"average: {n_neg}/{n_total} written inputs have w<0; smallest relative "
                 f"eigen-gap (l1-l2)/l1 = {min_gap:.3g}")
    in_out.write()
    res_out.write()


# ----------------------------------------------------------------------------
# 6. rotation_between.csv
# ----------------------------------------------------------------------------

def write_rotation_between() -> None:
    rng = np.random.default_rng(SEED + 6)
    out = CsvOut("rotation_between.csv",
                 ["case", "fx", "fy", "fz", "tx", "ty", "tz", "qw", "qx", "qy", "qz"])
    pairs: list[tuple[np.ndarray, np.ndarray]] = []

    f = rng.normal(size=3) * 1.7
    pairs.append((f, f.copy()))                                   # 0: f = t
    t = rng.normal(size=3)
    pairs.append((2.0 * t, t))                                    # 1: f = 2t
    f = rng.normal(size=3) * 1.3
    perp = unit(np.cross(f, rng.normal(size=3)))
    pairs.append((f, 0.6 * Rotation.from_rotvec(1e-8 * perp).apply(f)))   # 2: 1e-8 rad apart
    pairs.append((np.array([2.0, 0.0, 0.0]), np.array([0.0, 0.5, 0.0])))  # 3: perpendicular axes
    f = rng.normal(size=3)
    t = np.cross(f, rng.normal(size=3)) * 0.8
    pairs.append((f, t))                                          # 4: perpendicular, random
    f = rng.normal(size=3)
    perp = unit(np.cross(f, rng.normal(size=3)))
    pairs.append((f, 1.4 * Rotation.from_rotvec((math.pi - 0.01) * perp).apply(f)))  # 5: 180-0.01 rad
    f = rng.normal(size=3)
    perp = unit(np.cross(f, rng.normal(size=3)))
    pairs.append((f, 0.9 * Rotation.from_rotvec((math.pi - 1e-4) * perp).apply(f)))  # 6: 180-1e-4 rad
    for _ in range(40):
        f = rng.normal(size=3) * rng.uniform(0.2, 5.0)
        t = rng.normal(size=3) * rng.uniform(0.2, 5.0)
        pairs.append((f, t))

    max_angle_err = 0.0
    max_axis_err = 0.0
    max_map_err = 0.0
    for case, (f, t) in enumerate(pairs):
        cross = np.cross(f, t)
        theta = math.atan2(float(np.linalg.norm(cross)), float(np.dot(f, t)))
        assert theta < math.pi - 1e-5, "antiparallel pairs are excluded"
        rot, _ = Rotation.align_vectors([t], [f])
        angle = float(rot.magnitude())
        max_angle_err = max(max_angle_err, abs(angle - theta))
        if theta > 1e-6:
            axis = unit(rot.as_rotvec())
            max_axis_err = max(max_axis_err, float(np.linalg.norm(axis - unit(cross))))
        max_map_err = max(max_map_err, float(np.linalg.norm(rot.apply(unit(f)) - unit(t))))
        out.add(case, *f, *t, *quat_sf(rot))
    assert max_angle_err < 1e-12 and max_axis_err < 1e-8 and max_map_err < 1e-12, (
        max_angle_err, max_axis_err, max_map_err)
    NOTES.append(f"rotation_between: |angle(q) - angle(f,t)| max {max_angle_err:.3g} rad; "
                 f"|axis - unit(f x t)| max {max_axis_err:.3g}; |q f^ - t^| max {max_map_err:.3g}")
    out.write()


# ----------------------------------------------------------------------------

def main() -> int:
    if scipy.__version__ != SCIPY_VERSION:
        print(f"error: scipy {SCIPY_VERSION} required, found {scipy.__version__}", file=sys.stderr)
        return 1
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    print(f"scipy {scipy.__version__}, numpy {np.__version__}, python {sys.version.split()[0]}")
    rots = build_rotations()
    write_rotations(rots)
    write_euler(rots)
    write_euler_to_rotation()
    write_wahba()
    write_average()
    write_rotation_between()
    for note in NOTES:
        print("check:", note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
