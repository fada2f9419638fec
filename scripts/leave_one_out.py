#!/usr/bin/env python3
"""Leave-one-out check of InertialFrameFilter's defaults on the BROAD trials and the tyrex-dev phone
trials: for each trial, pick the parameter set that scores best on all the other trials, then score it
on the one left out; and leave one dataset out: choose on BROAD, score on the phones, and vice versa.

    scripts/leave_one_out [--datasets broad,tyrex] [--motion PATH] [--data DIR] [--tyrex-data DIR]
                          [--jobs N] [--cache FILE] [--criterion vqf|sum]
                          [--tau-acc LIST] [--tau-mag LIST] [--sigma-motion LIST]

(the wrapper reuses <repo>/.venv-compare; any Python with numpy and vqf works too). The grid is small
and physical: accelerometer time constant τ_a ∈ {2, 3, 4} s, magnetometer time constant
τ_m ∈ {9, 15, 20, 30} s and steady-state motion bias sigma σ_m ∈ {0.05, 0.1, 0.15, 0.2} °/s — 48 sets,
each run 6D and 9D on every trial through `motion fuse --filter inertial` (σ_m goes in as rad/s through
--set biasMotionSigma=...), and the defaults too.

Scores: BROAD as compare_accuracy.py scores it (RMSE over the movement phase); the phones as
../shared/tools/score_tyrex.py scores them (its functions are imported: RMSE over the scored samples,
9D with the constant heading offset removed per trial, the 6D input without the magnetometer columns).
Per trial and set: 9D total error and 6D inclination error. VQF 2.1.2 (defaults) is scored the same way.

Criterion of a set on some trials (--criterion vqf, the default): for each dataset among them,
mean 9D total / VQF's mean 9D total + mean 6D inclination / VQF's mean 6D inclination, VQF's means
taken over the same trials; summed over the datasets, so BROAD's 9 trials and the 36 phone trials weigh
equally. --criterion sum: mean 9D total + mean 6D inclination, summed over the datasets (the earlier
BROAD-only objective: `--datasets broad --criterion sum --sigma-motion 0.03,0.05,0.1` is the old run).

The score matrix (every set × every trial × 9D/6D, and VQF's) is cached in a JSON file (--cache,
default /tmp/motionfusion-leave-one-out.json), keyed by the command and the trial and tied to the
motion binary's SHA-256; a re-run with the same binary only reads it. Runs go --jobs at a time.

Printed: per dataset, each held-out trial with the set chosen without it and its held-out scores,
next to the defaults' and VQF's; the means; how often each set was chosen; then leave-one-dataset-out.
If the held-out means are close to the defaults' means, the defaults were not fitted to these trials.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import gzip
import hashlib
import importlib.metadata
import itertools
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare_accuracy as ca  # noqa: E402
import recording_columns as rc

DATASETS = ("broad", "tyrex")
DATASET_TITLES = {"broad": "BROAD", "tyrex": "tyrex-dev phones"}
DEFAULT_TYREX = "../shared/reference-data/tyrex-dev"
DEFAULT_TOOLS = "../shared/tools"
DEFAULT_CACHE = "/tmp/motionfusion-leave-one-out.json"
GRID_TAU_ACC = (2.0, 3.0, 4.0)
GRID_TAU_MAG = (9.0, 15.0, 20.0, 30.0)
GRID_SIGMA_MOTION_DEG = (0.05, 0.1, 0.15, 0.2)
DEFAULTS = "defaults"
VQF = "VQF"
CACHE_VERSION = 1


def config_args(tau_acc, tau_mag, sigma_deg):
    return ("--filter", "inertial", "--accelerometer-time-constant", f"{tau_acc:g}",
            "--magnetometer-time-constant", f"{tau_mag:g}",
            "--set", f"biasMotionSigma={math.radians(sigma_deg)!r}")


def number_list(text: str) -> tuple:
    try:
        values = tuple(float(v) for v in text.split(",") if v.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text}")
    if not values or not all(math.isfinite(v) and v > 0 for v in values):
        raise argparse.ArgumentTypeError(f"give positive numbers: {text}")
    return values


def resolve(path: str) -> Path:
    p = Path(path)
    return (p if p.is_absolute() else ca.ROOT / p).resolve()


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --------------------------------------------------------------------------------------------------
# Trials: loaded only when a cell of theirs is missing from the cache


class Trials:
    """The trials of both datasets by (dataset, name), loaded on first use; the phone trials' inputs
    are written to `folder` (the 6D input without the magnetometer columns, as score_tyrex.py runs it)."""

    def __init__(self, broad_paths: dict, tyrex_manifest: dict, tyrex_dir: Path, tyrex, folder: Path):
        self.broad_paths, self.tyrex_manifest, self.tyrex_dir = broad_paths, tyrex_manifest, tyrex_dir
        self.tyrex, self.folder, self.loaded = tyrex, folder, {}

    def get(self, dataset: str, name: str):
        key = (dataset, name)
        if key not in self.loaded:
            if dataset == "broad":
                self.loaded[key] = ca.load_trial(self.broad_paths[name])
            else:
                d = self.tyrex.load(self.tyrex_dir, name, self.tyrex_manifest[name])
                d["path9"] = self.folder / f"{name}.9D.csv"
                d["path6"] = self.folder / f"{name}.6D.csv"
                d["path9"].write_text(d["text"])
                d["path6"].write_text("\n".join(",".join(line.split(",")[:7])
                                                for line in d["text"].splitlines()) + "\n")
                self.loaded[key] = d
        return self.loaded[key]


def scores_of(values: dict) -> dict:
    return {"total": values["total"], "heading": values["heading"],
            "inclination": values["inclination"], "nonfinite": int(values.get("nonfinite", 0))}


def run_cell(motion: Path, trials: Trials, dataset: str, name: str, mode: str, cli: tuple,
             tmpdir: Path, index: int) -> dict:
    """One `motion fuse` run, scored: {total, heading, inclination, nonfinite}."""
    if dataset == "broad":
        trial = trials.get(dataset, name)
        method = ca.Method(f"set{index}", "inertial", "", "", cli)  # key: file-name safe
        result = ca.score(ca.run_cli(motion, method, mode, trial, tmpdir), trial)
        return scores_of({**result.rmse, "nonfinite": result.nonfinite})
    d = trials.get(dataset, name)
    out = tmpdir / f"{name}.set{index}.{mode}.csv"
    command = [str(motion), "fuse", str(d["path9"] if mode == "9D" else d["path6"]), "-o", str(out), *cli]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"`{shlex.join(command)}` exited with status {result.returncode}:\n"
                           f"{result.stderr.strip()}")
    cols = ca.read_csv_columns(out, ca.OUTPUT_COLUMNS)
    out.unlink()
    if len(cols["t"]) != len(d["t"]):
        raise RuntimeError(f"{shlex.join(command)}: {len(cols['t'])} output rows for {len(d['t'])} input rows")
    q = np.column_stack([cols[c] for c in rc.TRUTH])
    return scores_of(trials.tyrex.errors(q, d["quat"], d["score"], mode == "9D"))


def run_vqf_cells(trials: Trials, dataset: str, name: str) -> dict:
    if dataset == "broad":
        trial = trials.get(dataset, name)
        quats = ca.run_vqf(trial)
        results = {mode: ca.score(quats[mode], trial) for mode in ca.MODES}
        return {mode: scores_of({**r.rmse, "nonfinite": r.nonfinite}) for mode, r in results.items()}
    d = trials.get(dataset, name)
    return {mode: scores_of(trials.tyrex.errors(trials.tyrex.run_peer("vqf", d, mode == "6D"), d["quat"],
                                                d["score"], mode == "9D"))
            for mode in ca.MODES}


# --------------------------------------------------------------------------------------------------
# Cache


def load_cache(path: Path, fingerprint: dict) -> dict:
    try:
        cached = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        print(f"leave_one_out: ignoring the unreadable cache {path}: {error}", file=sys.stderr)
        return {}
    if cached.get("fingerprint") != fingerprint:
        print(f"leave_one_out: the cache {path} is for another motion binary, vqf or data folder; "
              "starting afresh",
              file=sys.stderr)
        return {}
    return cached.get("cells", {})


def save_cache(path: Path, fingerprint: dict, cells: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"fingerprint": fingerprint, "cells": cells}, sort_keys=True))
    os.replace(tmp, path)


def cell_key(dataset: str, name: str, mode: str, cli) -> str:
    return f"{dataset}|{name}|{mode}|{shlex.join(cli) if cli is not None else VQF}"


# --------------------------------------------------------------------------------------------------
# Choosing


class Matrix:
    """scores[(setting, dataset, trial)] = (9D total, 6D inclination); settings include defaults and VQF."""

    def __init__(self, scores: dict, criterion: str):
        self.scores, self.criterion = scores, criterion

    def means(self, setting: str, dataset: str, names) -> tuple:
        rows = [self.scores[(setting, dataset, n)] for n in names]
        return (float(np.mean([r[0] for r in rows])), float(np.mean([r[1] for r in rows])))

    def objective(self, setting: str, members: dict) -> float:
        """members: dataset -> trial names. NaN (a divergence) counts as the worst."""
        value = 0.0
        for dataset, names in members.items():
            if not names:
                continue
            nine, six = self.means(setting, dataset, names)
            if self.criterion == "vqf":
                v9, v6 = self.means(VQF, dataset, names)
                nine, six = nine / v9, six / v6
            value += nine + six
        return value if math.isfinite(value) else math.inf

    def choose(self, settings, members: dict) -> str:
        return min(settings, key=lambda s: self.objective(s, members))


# --------------------------------------------------------------------------------------------------
# Main


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Leave-one-out check of the inertial filter's defaults on BROAD and the phone trials.")
    parser.add_argument("--datasets", default="broad,tyrex",
                        help="comma-separated: broad, tyrex (default: both; broad alone is the old check)")
    parser.add_argument("--motion", default=ca.DEFAULT_MOTION)
    parser.add_argument("--data", default=ca.DEFAULT_DATA, help="BROAD trials (default: %(default)s)")
    parser.add_argument("--tyrex-data", default=DEFAULT_TYREX,
                        help="phone trials with manifest.jsonl (default: %(default)s)")
    parser.add_argument("--tools", default=DEFAULT_TOOLS, help="folder of score_tyrex.py (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="motion fuse runs in parallel")
    parser.add_argument("--cache", default=DEFAULT_CACHE,
                        help="JSON file of the score matrix, reused while the motion binary is the same "
                             "(default: %(default)s); --cache '' keeps nothing")
    parser.add_argument("--criterion", choices=("vqf", "sum"), default="vqf",
                        help="vqf: per dataset, means relative to VQF's, summed over datasets (default); "
                             "sum: mean 9D total + mean 6D inclination, summed over datasets")
    parser.add_argument("--tau-acc", type=number_list, default=GRID_TAU_ACC, metavar="LIST",
                        help="grid of accelerometer time constants, s (default: 2,3,4)")
    parser.add_argument("--tau-mag", type=number_list, default=GRID_TAU_MAG, metavar="LIST",
                        help="grid of magnetometer time constants, s (default: 9,15,20,30)")
    parser.add_argument("--sigma-motion", type=number_list, default=GRID_SIGMA_MOTION_DEG, metavar="LIST",
                        help="grid of biasMotionSigma, °/s (default: 0.05,0.1,0.15,0.2)")
    args = parser.parse_args()
    started = time.monotonic()

    datasets = [d.strip().lower() for d in args.datasets.split(",") if d.strip()]
    unknown = [d for d in datasets if d not in DATASETS]
    if unknown or not datasets:
        ca.fail(f"--datasets: choose from {', '.join(DATASETS)} (got {args.datasets!r})")
    datasets = [d for d in DATASETS if d in datasets]

    motion = ca.ensure_motion(args.motion)
    names: dict = {}
    broad_paths: dict = {}
    manifest: dict = {}
    tyrex_module = None
    tyrex_dir = resolve(args.tyrex_data)
    if "broad" in datasets:
        data = resolve(args.data)
        broad_paths = {p.stem: p for p in sorted(data.glob("*.csv"))}
        if not broad_paths:
            ca.fail(f"no BROAD trials in {data}")
        names["broad"] = list(broad_paths)
    if "tyrex" in datasets:
        tools = resolve(args.tools)
        if not (tools / "score_tyrex.py").is_file():
            ca.fail(f"no score_tyrex.py in {tools} (--tools)")
        if not (tyrex_dir / "manifest.jsonl").is_file():
            ca.fail(f"no manifest.jsonl in {tyrex_dir} (--tyrex-data)")
        sys.path.insert(0, str(tools))
        import score_tyrex as tyrex_module  # noqa: E402
        manifest = {m["trial"]: m for m in map(json.loads, (tyrex_dir / "manifest.jsonl").read_text().splitlines())}
        names["tyrex"] = list(manifest)
    try:
        import vqf  # noqa: F401
    except ImportError:
        ca.fail(f"the vqf package is not installed in {sys.executable}; run scripts/leave_one_out "
                f"(it sets up .venv-compare) or `pip install vqf=={ca.VQF_VERSION}`")

    grid = [(f"τa={a:g} τm={m:g} σm={s:g}°/s", config_args(a, m, s))
            for a, m, s in itertools.product(args.tau_acc, args.tau_mag, args.sigma_motion)]
    settings = [(DEFAULTS, ("--filter", "inertial"))] + grid
    grid_names = [name for name, _ in grid]

    fingerprint = {"version": CACHE_VERSION, "motion_sha256": sha256(motion),
                   "vqf": importlib.metadata.version("vqf"), "numpy": np.__version__,
                   "broad": str(resolve(args.data)), "tyrex": str(tyrex_dir)}
    cache_path = Path(args.cache) if args.cache else None
    cells = load_cache(cache_path, fingerprint) if cache_path else {}

    scores: dict = {}
    todo = []
    vqf_todo = []
    for dataset in datasets:
        for name in names[dataset]:
            if not all(cell_key(dataset, name, mode, None) in cells for mode in ca.MODES):
                vqf_todo.append((dataset, name))
            for index, (setting, cli) in enumerate(settings):
                for mode in ca.MODES:
                    if cell_key(dataset, name, mode, cli) not in cells:
                        todo.append((index, setting, cli, dataset, name, mode))
    total_cells = sum(len(names[d]) for d in datasets) * len(ca.MODES) * (len(settings) + 1)

    with tempfile.TemporaryDirectory(prefix="leave_one_out.") as tmp:
        tmpdir = Path(tmp)
        trials = Trials(broad_paths, manifest, tyrex_dir, tyrex_module, tmpdir)
        last_save = time.monotonic()
        if vqf_todo:
            print(f"VQF on {len(vqf_todo)} trials ...", file=sys.stderr, flush=True)
        for dataset, name in vqf_todo:
            for mode, values in run_vqf_cells(trials, dataset, name).items():
                cells[cell_key(dataset, name, mode, None)] = values
        if todo:
            print(f"{len(todo)} motion fuse runs, {max(1, args.jobs)} at a time ...", file=sys.stderr, flush=True)
        todo.sort(key=lambda job: (job[3], job[4]))  # trial by trial: each loaded once, in order
        tick = time.monotonic()
        try:
            with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
                futures = {}
                for job in todo:
                    index, setting, cli, dataset, name, mode = job
                    trials.get(dataset, name)  # loaded here, once, before the runs that read it
                    futures[pool.submit(run_cell, motion, trials, dataset, name, mode, cli, tmpdir, index)] = job
                for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
                    index, setting, cli, dataset, name, mode = futures[future]
                    try:
                        cells[cell_key(dataset, name, mode, cli)] = future.result()
                    except RuntimeError:
                        for f in futures:  # before the pool's exit waits for them
                            f.cancel()
                        raise
                    if time.monotonic() - last_save > 30:
                        if cache_path:
                            save_cache(cache_path, fingerprint, cells)
                        last_save = time.monotonic()
                        elapsed = time.monotonic() - tick
                        print(f"  {done}/{len(todo)} runs, {elapsed:.0f} s, about "
                              f"{(len(todo) - done) * elapsed / done:.0f} s to go", file=sys.stderr, flush=True)
        except RuntimeError as error:
            ca.fail(str(error), status=1)
        finally:
            if cache_path and (todo or vqf_todo):
                save_cache(cache_path, fingerprint, cells)

    for dataset in datasets:
        for name in names[dataset]:
            for setting, cli in settings + [(VQF, None)]:
                nine = cells[cell_key(dataset, name, "9D", cli)]["total"]
                six = cells[cell_key(dataset, name, "6D", cli)]["inclination"]
                scores[(setting, dataset, name)] = (nine, six)
    matrix = Matrix(scores, args.criterion)
    spent = time.monotonic() - started

    # ---- header
    print("Leave-one-out check of InertialFrameFilter's defaults (motion fuse --filter inertial)")
    for dataset in datasets:
        where = resolve(args.data) if dataset == "broad" else tyrex_dir
        print(f"  {DATASET_TITLES[dataset]}: {len(names[dataset])} trials in {where}")
    print(f"  grid: τ_a ∈ {{{', '.join(f'{v:g}' for v in args.tau_acc)}}} s, "
          f"τ_m ∈ {{{', '.join(f'{v:g}' for v in args.tau_mag)}}} s, "
          f"σ_m ∈ {{{', '.join(f'{v:g}' for v in args.sigma_motion)}}} °/s: {len(grid)} sets, each 9D and 6D")
    if args.criterion == "vqf":
        print("  criterion: per dataset, mean 9D total / VQF's + mean 6D inclination / VQF's (VQF 2.1.2 "
              "on the same trials), summed over datasets")
    else:
        print("  criterion: mean 9D total + mean 6D inclination, summed over datasets")
    print("  scores: RMSE, degrees; BROAD as compare_accuracy, phones as score_tyrex (9D heading offset removed)")
    computed = len(todo) + len(vqf_todo) * len(ca.MODES)
    print(f"  score matrix: {total_cells} cells (sets and VQF × trials × 9D/6D), {computed} computed "
          f"({len(todo)} motion fuse runs), {total_cells - computed} read from "
          f"{cache_path if cache_path else 'no cache'}; {spent:.1f} s")
    same = [n for n in grid_names if all(scores[(n, d, t)] == scores[(DEFAULTS, d, t)]
                                          for d in datasets for t in names[d])]
    if same:
        print(f"  the defaults score as {same[0]} on every trial")
    print()

    all_members = {d: names[d] for d in datasets}

    # ---- leave one trial out
    held: dict = {d: {} for d in datasets}
    chosen = collections.Counter()
    for dataset in datasets:
        width = max(len("held-out trial"), *(len(n) for n in names[dataset])) + 2
        setting_width = max(len(n) for n in grid_names) + 2
        others = "chosen on the other trials"
        print(f"{DATASET_TITLES[dataset]}: each trial scored with the set chosen on all other trials "
              f"({'both datasets' if len(datasets) > 1 else 'this dataset'})")
        header = (f"{'held-out trial':<{width}}{others:<{max(setting_width, len(others) + 2)}}"
                  f"{'9D total':>9}{'6D incl':>9}{'defaults 9D':>13}{'6D':>6}{'VQF 9D':>9}{'6D':>6}")
        print(header)
        print("-" * len(header))
        for left in names[dataset]:
            members = {d: [n for n in names[d] if not (d == dataset and n == left)] for d in datasets}
            best = matrix.choose(grid_names, members)
            chosen[best] += 1
            nine, six = scores[(best, dataset, left)]
            d9, d6 = scores[(DEFAULTS, dataset, left)]
            v9, v6 = scores[(VQF, dataset, left)]
            held[dataset][left] = (nine, six)
            print(f"{left:<{width}}{best:<{max(setting_width, len(others) + 2)}}{nine:>9.2f}{six:>9.2f}"
                  f"{d9:>13.2f}{d6:>6.2f}{v9:>9.2f}{v6:>6.2f}")
        print("-" * len(header))
        n = len(names[dataset])
        l9 = float(np.mean([h[0] for h in held[dataset].values()]))
        l6 = float(np.mean([h[1] for h in held[dataset].values()]))
        d9, d6 = matrix.means(DEFAULTS, dataset, names[dataset])
        v9, v6 = matrix.means(VQF, dataset, names[dataset])
        best_here = matrix.choose(grid_names, {dataset: names[dataset]})
        b9, b6 = matrix.means(best_here, dataset, names[dataset])
        print(f"mean over the {n} trials (9D total / 6D inclination, degrees; in brackets relative to VQF):")

        def line(label, nine, six):
            print(f"  {label:<60}{nine:6.2f} / {six:.2f}   ({nine / v9:.2f} / {six / v6:.2f})")
        line("leave-one-out (each trial with the set chosen without it)", l9, l6)
        line("defaults", d9, d6)
        line(f"VQF {ca.VQF_VERSION} (defaults)", v9, v6)
        line(f"best grid set on this dataset alone: {best_here}", b9, b6)
        print()

    print("Sets chosen in the leave-one-trial-out runs:")
    for setting, count in chosen.most_common():
        print(f"  {count:3d} × {setting}")
    best_all = matrix.choose(grid_names, all_members)
    print(f"Best grid set on all trials: {best_all}"
          + "".join(f"; {DATASET_TITLES[d]} {matrix.means(best_all, d, names[d])[0]:.2f} / "
                    f"{matrix.means(best_all, d, names[d])[1]:.2f}" for d in datasets))
    print()

    # ---- leave one dataset out
    if len(datasets) > 1:
        print("Leave one dataset out: the set chosen on one dataset, scored on the other "
              "(mean 9D total / 6D inclination, degrees)")
        width = max(len(DATASET_TITLES[d]) for d in datasets) + 2
        setting_width = max(len(n) for n in grid_names) + 2
        print(f"  {'chosen on':<{width}}{'set':<{setting_width}}{'scored on':<{width}}"
              f"{'chosen set':<14}{'defaults':<14}VQF")
        for train in datasets:
            for test in datasets:
                if test == train:
                    continue
                best = matrix.choose(grid_names, {train: names[train]})
                cells_ = [matrix.means(s, test, names[test]) for s in (best, DEFAULTS, VQF)]
                print(f"  {DATASET_TITLES[train]:<{width}}{best:<{setting_width}}{DATASET_TITLES[test]:<{width}}"
                      + "".join(f"{f'{a:.2f} / {b:.2f}':<14}" for a, b in cells_).rstrip())
        print()
    print(f"Finished in {time.monotonic() - started:.1f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
