"""Write Reference/tyrex_vqf.csv: VQF 2.1.2 (defaults, VQF(Ts).updateBatch) on every trial of
../shared/reference-data/tyrex-dev, scored by ../shared/tools/score_tyrex.py's functions (9D total
RMSE with the constant heading offset removed, the same with the offset kept, 6D inclination RMSE,
degrees, over the scored samples), and the 9D total and 6D inclination again on the uncalibrated
gyroscope (score_tyrex.py --raw-gyro: the constant bias the dataset's converter removed is added back).
The Swift test PhoneTrialTests holds InertialFrameFilter to these numbers."""
import json, sys
from pathlib import Path

repo = Path(__file__).resolve().parent.parent
tools = repo.parent / "shared" / "tools"
sys.path.insert(0, str(tools))
import score_tyrex as S  # noqa: E402
import vqf  # noqa: E402

import importlib.metadata
assert importlib.metadata.version("vqf") == "2.1.2"
data = S.HOLD
manifest = [json.loads(l) for l in open(data / "manifest.jsonl")]
rows = ["trial,motion,disturbed,vqf_total_9d,vqf_inclination_6d,vqf_total_9d_heading_kept,"
        "vqf_total_9d_raw_gyro,vqf_inclination_6d_raw_gyro"]
for m in manifest:
    d = S.load(data, m["trial"], m)
    nine_errors = S.errors(S.run_peer("vqf", d, False), d["quat"], d["score"], True)
    nine, kept = nine_errors["total"], nine_errors["total_no_heading_removal"]
    six = S.errors(S.run_peer("vqf", d, True), d["quat"], d["score"], False)["inclination"]
    raw = S.load(data, m["trial"], m, raw_gyro=True)
    nine_raw = S.errors(S.run_peer("vqf", raw, False), raw["quat"], raw["score"], True)["total"]
    six_raw = S.errors(S.run_peer("vqf", raw, True), raw["quat"], raw["score"], False)["inclination"]
    motion = m['trial'].split('_')[-1]
    rows.append(f"{m['trial']},{motion},{int(m['disturbed'])},{nine:.6f},{six:.6f},{kept:.6f},"
                f"{nine_raw:.6f},{six_raw:.6f}")
    print(rows[-1], flush=True)
out = repo / "Reference" / "tyrex_vqf.csv"
out.write_text("\n".join(rows) + "\n")
print(f"wrote {out} ({len(rows) - 1} trials)")
