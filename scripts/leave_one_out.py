#!/usr/bin/env python3
"""Leave-one-out check of InertialFrameFilter's defaults on the BROAD trials: for each trial, pick the
parameter set that scores best on the other eight, then score it on the one left out.

    scripts/leave_one_out [--motion PATH] [--data DIR] [--jobs N]

(the wrapper reuses <repo>/.venv-compare; any Python with numpy works too). The grid is small and
physical: accelerometer time constant τ_a ∈ {2, 3, 4} s, magnetometer time constant
τ_m ∈ {9, 15, 20, 30} s and steady-state motion bias sigma ∈ {0.03, 0.05, 0.1} °/s — 36 sets, each run
6D and 9D on every trial through `motion fuse --filter inertial`. The objective of a set on some
trials is mean 9D total RMSE + mean 6D inclination RMSE (BROAD scoring, as compare_accuracy.py).

Printed: per held-out trial the chosen set and its held-out scores, next to the defaults' scores on
that trial; then the means. If the held-out means are close to the defaults' means, the defaults
were not fitted to these trials.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import math
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare_accuracy as ca  # noqa: E402

GRID_TAU_ACC = (2.0, 3.0, 4.0)
GRID_TAU_MAG = (9.0, 15.0, 20.0, 30.0)
GRID_SIGMA_MOTION_DEG = (0.03, 0.05, 0.1)


def config_args(tau_acc, tau_mag, sigma_deg):
    return ("--filter", "inertial", "--accelerometer-time-constant", str(tau_acc),
            "--magnetometer-time-constant", str(tau_mag),
            "--set", f"biasMotionSigma={math.radians(sigma_deg)!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description="Leave-one-out check of the inertial filter's defaults.")
    parser.add_argument("--motion", default=ca.DEFAULT_MOTION)
    parser.add_argument("--data", default=ca.DEFAULT_DATA)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()

    motion = ca.ensure_motion(args.motion)
    data = Path(args.data)
    if not data.is_absolute():
        data = ca.ROOT / data
    paths = sorted(data.glob("*.csv"))
    if not paths:
        ca.fail(f"no BROAD trials in {data}")
    trials = [ca.load_trial(p) for p in paths]

    configs = [("defaults", ("--filter", "inertial"))]
    for tau_acc, tau_mag, sigma in itertools.product(GRID_TAU_ACC, GRID_TAU_MAG, GRID_SIGMA_MOTION_DEG):
        configs.append((f"τa={tau_acc:g} τm={tau_mag:g} σm={sigma:g}°/s", config_args(tau_acc, tau_mag, sigma)))

    # scores[config][trial] = (9D total, 6D inclination)
    scores = {name: {} for name, _ in configs}
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {}
        for index, (name, cli) in enumerate(configs):
            method = ca.Method(f"config{index}", "inertial", name, name, cli)  # key: file-name safe
            for trial in trials:
                for mode in ca.MODES:
                    futures[pool.submit(ca.run_cli, motion, method, mode, trial, Path(tmp))] = (name, trial, mode)
        partial = {}
        for future in concurrent.futures.as_completed(futures):
            name, trial, mode = futures[future]
            s = ca.score(future.result(), trial)
            partial[(name, trial.name, mode)] = s.rmse["total"] if mode == "9D" else s.rmse["inclination"]
        for name, _ in configs:
            for trial in trials:
                scores[name][trial.name] = (partial[(name, trial.name, "9D")], partial[(name, trial.name, "6D")])

    def objective(name, names):
        return (sum(scores[name][n][0] for n in names) + sum(scores[name][n][1] for n in names)) / len(names)

    names = [t.name for t in trials]
    print(f"{'held-out trial':<36}{'chosen on the other eight':<32}{'9D total':>9}{'6D incl.':>9}"
          f"{'defaults 9D':>13}{'6D':>6}")
    held = []
    for left in names:
        rest = [n for n in names if n != left]
        best = min((name for name, _ in configs if name != "defaults"), key=lambda c: objective(c, rest))
        nine, six = scores[best][left]
        d9, d6 = scores["defaults"][left]
        held.append((nine, six))
        print(f"{left:<36}{best:<32}{nine:>9.2f}{six:>9.2f}{d9:>13.2f}{d6:>6.2f}")
    mean9 = sum(h[0] for h in held) / len(held)
    mean6 = sum(h[1] for h in held) / len(held)
    d9 = sum(scores["defaults"][n][0] for n in names) / len(names)
    d6 = sum(scores["defaults"][n][1] for n in names) / len(names)
    print()
    print(f"leave-one-out mean (each trial scored with the set chosen without it): 9D total {mean9:.2f}°, "
          f"6D inclination {mean6:.2f}°")
    print(f"defaults on all nine:                                                   9D total {d9:.2f}°, "
          f"6D inclination {d6:.2f}°")
    best_all = min((name for name, _ in configs if name != "defaults"), key=lambda c: objective(c, names))
    print(f"best grid set on all nine: {best_all}: 9D total "
          f"{sum(scores[best_all][n][0] for n in names) / len(names):.2f}°, 6D inclination "
          f"{sum(scores[best_all][n][1] for n in names) / len(names):.2f}°")
    return 0


if __name__ == "__main__":
    sys.exit(main())
