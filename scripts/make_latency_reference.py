"""Write Reference/magnetometer_latency.csv: how long each recording's magnetometer lags its
gyroscope, for the BROAD trials (../shared/reference-data/broad) and the phone trials
(../shared/reference-data/tyrex-dev), measured without any attitude filter.

Method: the earth's field is fixed, so in the sensor frame it changes as dm/dt = -w x m. A
magnetometer d seconds late reads m(t) = m_true(t - d), whose derivative is -w(t - d) x m(t). For
each trial the script finds the d (bounded to [-50, 150] ms, scipy.optimize.minimize_scalar) that
minimizes the mean of |dm/dt + w(t - d) x m(t)|^2 over the samples turning faster than 0.5 rad/s,
with dm/dt from central differences (numpy.gradient) and w(t - d) by linear interpolation. A field
that is mostly the sensor's own (BROAD trial 32, a magnet attached to the sensor) does not follow
this law; its row is written but the test does not use it.
InertialFrameFilterLatencyTests holds InertialFrameFilter's online estimate to these numbers."""
import gzip, io, json, sys
from pathlib import Path

import numpy as np
import scipy
from scipy.optimize import minimize_scalar
import recording_columns as rc

repo = Path(__file__).resolve().parent.parent
shared = repo.parent / "shared" / "reference-data"


def lag(t, gyr, mag):
    dmdt = np.gradient(mag, t, axis=0)
    turning = np.linalg.norm(gyr, axis=1) > 0.5

    def cost(d):
        late = np.column_stack([np.interp(t - d, t, gyr[:, k]) for k in range(3)])
        r = (dmdt + np.cross(late, mag))[turning]
        return float(np.mean(np.sum(r * r, axis=1)))

    res = minimize_scalar(cost, bounds=(-0.05, 0.15), method="bounded", options={"xatol": 1e-5})
    return res.x, int(turning.sum())


rows = ["dataset,trial,rate_hz,turning_samples,lag_ms"]
for path in sorted((shared / "broad").glob("*.csv")):
    a = np.genfromtxt(path, delimiter=",", names=True)
    t = a[rc.TIME]
    gyr = np.column_stack([a[c] for c in rc.GYROSCOPE])
    mag = np.column_stack([a[c] for c in rc.MAGNETOMETER])
    d, n = lag(t, gyr, mag)
    rows.append(f"broad,{path.stem},{1 / np.median(np.diff(t)):.1f},{n},{1000 * d:.3f}")
    print(rows[-1], flush=True)
for line in open(shared / "tyrex-dev" / "manifest.jsonl"):
    m = json.loads(line)
    text = gzip.open(shared / "tyrex-dev" / f"{m['trial']}.imu.csv.gz", "rt").read()
    a = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=1, ndmin=2)
    d, n = lag(a[:, 0], a[:, 1:4], a[:, 7:10])
    rows.append(f"tyrex,{m['trial']},{m['rate_hz']:.1f},{n},{1000 * d:.3f}")
    print(rows[-1], flush=True)
out = repo / "Reference" / "magnetometer_latency.csv"
out.write_text("\n".join(rows) + "\n")
print(f"wrote {out} ({len(rows) - 1} trials; numpy {np.__version__}, scipy {scipy.__version__})")
