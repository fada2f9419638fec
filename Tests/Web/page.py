"""scripts/web's test of the WebAssembly build in a real browser (standard library only).

  page.py CHROMIUM OUT_DIR RECORDING.csv HOST.bin WASM.bin WORK_DIR HOST_DRIVER

OUT_DIR is scripts/web's: motionfusion.html (the page, its module inlined), motionfusion.wasm and
motionfusion-recordings.wasm. In headless Chromium:

1. The page loads RECORDING.csv (`?recording=`) and writes into its DOM the attitude of every 100th
   sample and the last, and the number of samples and events: the attitudes are held to the host
   build's outputs (HOST.bin, driver.c's format, from the same Swift) within 1e-12, as scripts/web
   holds wasmkit's, and to wasmkit's run of the same objects linked as a command (WASM.bin) exactly.
2. motionfusion.wasm, the module without the reader, fuses the same samples (each as the
   recordings module read it, through mf_update) in a small harness page: every output and event of
   every sample must equal the recordings module's bit for bit.
3. The recording split into one file per sensor must give the page the same attitudes and events.
4. A malformed recording, plain and gzip-compressed, must show the host build's words for it
   (HOST_DRIVER run on the same file: the CLI's message).
5. A screenshot of the page at sample 20000 (OUT_DIR/motionfusion-page.png) must be a PNG of the
   window's size.
"""
import gzip
import html
import json
import pathlib
import re
import struct
import subprocess
import sys

from web import records

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         "--allow-file-access-from-files", "--virtual-time-budget=120000"]


def url(page, **files):
    """PAGE.html's address with each file's as a query parameter (recording=, or gyroscope=, …)."""
    query = "&".join(f"{key}={pathlib.Path(path).resolve().as_uri()}" for key, path in files.items())
    return f"{pathlib.Path(page).resolve().as_uri()}?{query}"


def load(chromium, page, recording=None, **files):
    """The result the page writes into its DOM for `recording` (or the sensors' files given by name)."""
    if recording is not None:
        files = {"recording": recording, **files}
    run = subprocess.run([chromium, *FLAGS, "--dump-dom", url(page, **files)], capture_output=True, text=True,
                         timeout=300)
    found = re.search(r'<pre id="result">(.*?)</pre>', run.stdout, re.S)
    if run.returncode != 0 or not found or not found.group(1).strip():
        sys.exit(f"page.py: no result from the page for {', '.join(map(str, files.values()))} "
                 f"(chromium exit {run.returncode}):\n" + run.stderr[-2000:])
    return json.loads(html.unescape(found.group(1)))


def check_attitudes(result, host_path):
    host_count, *host = records(host_path)
    if result.get("error"):
        sys.exit(f"page.py: the page refused the recording: {result['error']}")
    if result["samples"] != len(host):
        sys.exit(f"page.py: the page fused {result['samples']} samples, the host {len(host)}")
    events = sum(len(e) for _, e in host)
    if result["events"] != events:
        sys.exit(f"page.py: the page found {result['events']} events, the host {events}")
    identical = total = 0
    worst = 0.0
    for k, *q in result["attitudes"]:
        expected = host[k][0][1:5]
        for a, b in zip(q, expected):
            total += 1
            if struct.pack("<d", a) == struct.pack("<d", b):
                identical += 1
            elif not (abs(a - b) <= 1e-12):  # a NaN on either side fails too
                sys.exit(f"page.py: sample {k}: the page's attitude {q} is not the host's {list(expected)}")
            worst = max(worst, abs(a - b))
    if worst > 1e-12:
        sys.exit(f"page.py: an attitude component differs from the host's by {worst:.3g}")
    print(f"  page: {result['samples']} samples, {result['events']} events as the host; {len(result['attitudes'])} "
          f"attitudes ({total} components): {identical} bit-identical to the host's, largest difference {worst:.3g}")


def check_same_objects(result, wasm_path):
    _, *wasm = records(wasm_path)
    for k, *q in result["attitudes"]:
        # Equal as numbers: JSON has no −0 (JSON.stringify(-0) is "0"), and a NaN is no attitude.
        if any(not (a == b) for a, b in zip(q, wasm[k][0][1:5])):
            sys.exit(f"page.py: sample {k}: Chromium's attitude {q} is not wasmkit's {list(wasm[k][0][1:5])}")
    print(f"  page: all {len(result['attitudes'])} attitudes equal to wasmkit's run of the same objects")


HARNESS = """<!doctype html><meta charset="utf-8"><pre id="result"></pre><script>
"use strict";
const decode = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
async function main() {
  let reader;
  const wasi = { fd_write: () => 0, fd_seek: () => 70, fd_close: () => 0,
    random_get(p, n) { crypto.getRandomValues(new Uint8Array(reader.memory.buffer, p, n)); return 0; } };
  // Compiled synchronously, as the page does (headless Chromium's virtual time does not wait for
  // an asynchronous compilation).
  const instantiate = (text, imports) => new WebAssembly.Instance(new WebAssembly.Module(decode(text)), imports).exports;
  reader = instantiate("__RECORDINGS_B64__", { wasi_snapshot_preview1: wasi });
  const motion = instantiate("__MOTION_B64__", {});
  reader._initialize(); motion._initialize();
  const bytes = new Uint8Array(await (await fetch(new URLSearchParams(location.search).get("recording"))).arrayBuffer());
  const data = reader.malloc(bytes.length);
  new Uint8Array(reader.memory.buffer).set(bytes, data);
  const recording = reader.mf_recording_open(__FRAME__, 0, 0, data, bytes.length);
  const session = reader.mf_recording_session(recording), own = motion.mf_create(__FRAME__);
  const count = reader.mf_output_count();
  const out = reader.malloc(8 * count), sample = reader.malloc(80), event = reader.malloc(32);
  const ownOut = motion.malloc(8 * count), ownEvent = motion.malloc(32);
  const same = (a, b, n) => a.every((x, i) => x === b[i]);
  let samples = 0, events = 0, differing = 0, first = null;
  while (reader.mf_recording_next(recording) === 1) {
    reader.mf_recording_sample(recording, sample);
    const s = new Float64Array(reader.memory.buffer, sample, 10);
    const n = motion.mf_update(own, ...s);
    reader.mf_output(session, out);
    motion.mf_output(own, ownOut);
    let equal = same(new Uint8Array(reader.memory.buffer, out, 8 * count), new Uint8Array(motion.memory.buffer, ownOut, 8 * count))
      && n === reader.mf_event_count(session);
    for (let i = 0; equal && i < n; i++) {
      reader.mf_event(session, i, event); motion.mf_event(own, i, ownEvent);
      equal = same(new Uint8Array(reader.memory.buffer, event, 32), new Uint8Array(motion.memory.buffer, ownEvent, 32));
    }
    events += n;
    if (!equal) { differing++; if (first === null) first = samples; }
    samples++;
  }
  document.getElementById("result").textContent = JSON.stringify({ samples, events, differing, first,
    message: reader.mf_recording_message(recording, 0, 0) });
}
main().catch((e) => { document.getElementById("result").textContent = JSON.stringify({ error: String(e) }); });
</script>"""


def check_device_motion_module(chromium, out_dir, recording, work, expected_samples):
    import base64
    out_dir = pathlib.Path(out_dir)
    harness = pathlib.Path(work) / "harness.html"
    # (Placeholders with underscores, which base64 never contains.)
    harness.write_text(HARNESS.replace("__FRAME__", "2")
                       .replace("__RECORDINGS_B64__", base64.b64encode((out_dir / "motionfusion-recordings.wasm").read_bytes()).decode())
                       .replace("__MOTION_B64__", base64.b64encode((out_dir / "motionfusion.wasm").read_bytes()).decode()),
                       encoding="utf-8")
    result = load(chromium, harness, recording)
    if result.get("error"):
        sys.exit(f"page.py: the harness failed: {result['error']}")
    if result["samples"] != expected_samples or result["differing"] != 0:
        sys.exit(f"page.py: motionfusion.wasm through mf_update: {result}")
    print(f"  page: motionfusion.wasm (no reader) fed the {result['samples']} samples through mf_update: every output "
          f"and all {result['events']} events bit-identical to the recordings module's")


def check_sensor_files(chromium, page, recording, work, result):
    """The recording split into one file per sensor (its cells copied as they are) must give the
    page the same attitudes as the one file: the reader's documented equivalence."""
    import csv
    work = pathlib.Path(work)
    names = {"gyro": ["gx", "gy", "gz"], "acc": ["ax", "ay", "az"], "mag": ["mx", "my", "mz"]}
    paths = {key: work / f"split_{key}.csv" for key in names}
    with open(recording, newline="") as f:
        rows = csv.DictReader(f)
        outs = {key: open(paths[key], "w", newline="") for key in names}
        for key in names:
            outs[key].write("t,x,y,z\n")
        for row in rows:
            for key, columns in names.items():
                outs[key].write(",".join([row["t"]] + [row[c] for c in columns]) + "\n")
        for out in outs.values():
            out.close()
    split = load(chromium, page, gyroscope=paths["gyro"], accelerometer=paths["acc"], magnetometer=paths["mag"])
    if split.get("attitudes") != result["attitudes"] or split.get("events") != result["events"]:
        sys.exit(f"page.py: the recording in one file per sensor gives the page other results: {str(split)[:300]}")
    print(f"  page: the same recording as three sensor files (split_gyro.csv, split_acc.csv, split_mag.csv): "
          f"the same {len(split['attitudes'])} attitudes and {split['events']} events")


def check_errors(chromium, page, work, driver):
    work = pathlib.Path(work)
    bad = work / "malformed.csv"
    bad.write_text("t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.8\n0.01,abc,0,0,0,0,9.8\n")
    host = subprocess.run([driver, "2", bad.name], stdin=open(bad, "rb"), capture_output=True)
    expected = host.stderr.decode().strip()
    if host.returncode == 0 or not expected.startswith("Error: "):
        sys.exit(f"page.py: the host build did not refuse {bad.name}: {expected!r}")
    compressed = work / "malformed.csv.gz"
    compressed.write_bytes(gzip.compress(bad.read_bytes()))
    for path, name in ((bad, bad.name), (compressed, compressed.name)):
        shown = load(chromium, page, path).get("error", "")
        # The page names the file as dropped (the compressed one by its own name).
        if shown != expected.replace(bad.name, name, 1):
            sys.exit(f"page.py: for {path.name} the page shows {shown!r}, the host build says {expected!r}")
    print(f"  page: a malformed recording, plain and gzip-compressed, shows the CLI's words: {expected}")


def screenshot(chromium, page, recording, out):
    address = url(page, recording=recording) + "&at=20000"
    run = subprocess.run([chromium, *FLAGS, "--window-size=1400,1000", f"--screenshot={out}", address],
                         capture_output=True, text=True, timeout=300)
    data = pathlib.Path(out).read_bytes() if pathlib.Path(out).exists() else b""
    if run.returncode != 0 or data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"page.py: no screenshot (chromium exit {run.returncode}):\n{run.stderr[-2000:]}")
    width, height = struct.unpack(">II", data[16:24])
    if (width, height) != (1400, 1000):
        sys.exit(f"page.py: the screenshot is {width} × {height}, not 1400 × 1000")
    print(f"  page: screenshot at sample 20000: {out} ({width} × {height}, {len(data)} bytes)")


if __name__ == "__main__":
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    chromium, out_dir, recording, host_bin, wasm_bin, work, driver = sys.argv[1:]
    page = pathlib.Path(out_dir) / "motionfusion.html"
    result = load(chromium, page, recording)
    check_attitudes(result, host_bin)
    check_same_objects(result, wasm_bin)
    check_device_motion_module(chromium, out_dir, recording, work, result["samples"])
    check_sensor_files(chromium, page, recording, work, result)
    check_errors(chromium, page, work, driver)
    screenshot(chromium, page, recording, pathlib.Path(out_dir) / "motionfusion-page.png")
