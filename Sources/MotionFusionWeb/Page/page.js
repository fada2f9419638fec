// MotionFusion's web page: the WebAssembly module (scripts/web) reads a dropped recording with the
// reader every `motion` command uses and fuses it with the default filter; this script only moves
// bytes in and numbers out, and draws. Plain JavaScript, no network: the module is inlined in the
// page as base64 by scripts/web.
"use strict";

// What mf_output writes (WebSession.write(into:)), by index.
const OUT = { t: 0, q: 1, rate: 5, gravity: 8, user: 11, bias: 14, heading: 17, initialized: 18, rest: 19,
  disturbance: 20, walking: 21, steps: 22, euler: 23 };
// Event kinds and the order of DeviceOrientation.allCases and MovementDirection.allCases (WebSession.writeEvent).
const EVENT_KINDS = [null, "shake began", "shake ended", "shake cancelled", "orientation", "movement"];
const ORIENTATIONS = ["unknown", "portrait", "portrait upside down", "landscape left", "landscape right", "face up", "face down"];
const DIRECTIONS = ["right", "left", "up", "down", "toward the user", "away from the user"];
const FRAMES = ["xArbitraryZVertical", "xArbitraryCorrectedZVertical", "xMagneticNorthZVertical"];

const $ = (id) => document.getElementById(id);
let mf = null;            // the module's exports
let outputCount = 0;
let run = null;           // the fused recording: { name, n, outputs: Float64Array, events: [...] }
let current = 0;          // the sample shown
let playing = false;
let live = null;          // the live session: { session, out, last, browserQ }

// --- The module -----------------------------------------------------------------------------------

// The four WASI functions the module imports (scripts/web checks there are no others): what it
// writes (Embedded Swift's message before a trap) goes to the console; random bytes seed Swift's hashing.
function wasiImports() {
  const view = () => new DataView(mf.memory.buffer);
  return {
    fd_write(fd, iovs, count, written) {
      let text = "", total = 0;
      for (let i = 0; i < count; i++) {
        const pointer = view().getUint32(iovs + 8 * i, true), length = view().getUint32(iovs + 8 * i + 4, true);
        text += new TextDecoder().decode(new Uint8Array(mf.memory.buffer, pointer, length));
        total += length;
      }
      if (text.trim()) console.error("motionfusion.wasm: " + text.trim());
      view().setUint32(written, total, true);
      return 0;
    },
    fd_seek() { return 70; }, // ESPIPE: the console is not seekable
    fd_close() { return 0; },
    random_get(buffer, length) {
      for (let i = 0; i < length; i += 65536) {
        crypto.getRandomValues(new Uint8Array(mf.memory.buffer, buffer + i, Math.min(65536, length - i)));
      }
      return 0;
    },
  };
}

async function loadModule() {
  const text = $("module").textContent.trim();
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  // Compiled synchronously (browsers allow it up to megabytes): nothing asynchronous stands between
  // the page and its module, which also lets a headless browser's virtual time wait for it.
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { wasi_snapshot_preview1: wasiImports() });
  mf = instance.exports;
  mf._initialize();
  outputCount = mf.mf_output_count();
}

function heapBytes() { return new Uint8Array(mf.memory.buffer); }
function heapDoubles(pointer, count) { return new Float64Array(mf.memory.buffer, pointer, count); }

function recordingMessage(recording) {
  const length = mf.mf_recording_message(recording, 0, 0);
  if (length <= 0) return "";
  const pointer = mf.malloc(length);
  mf.mf_recording_message(recording, pointer, length);
  const text = new TextDecoder().decode(heapBytes().slice(pointer, pointer + length));
  mf.free(pointer);
  return text;
}

// --- Reading and fusing a recording ---------------------------------------------------------------

// Gzip is undone by the browser (the module has no zlib); its errors are worded as the CLI's
// ("cannot read NAME: …"). Unlike the CLI, the browser refuses bytes after the last member.
async function gunzipIfNeeded(name, bytes) {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const cannot = (reason) => new Error(`Error: ${name}: cannot read ${name}: ${reason}`);
  if (typeof DecompressionStream === "undefined") throw cannot("it is gzip-compressed and this browser cannot decompress it: decompress it first");
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  try {
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (e) {
    throw cannot(`the gzip stream is corrupt or cut short (the browser: ${e.message})`);
  }
}

// Fuses a recording in `frame`; returns the run, or throws with the module's words. A recording is
// one file ([{ name, bytes }]) or one file per sensor ({ gyroscope, accelerometer,
// magnetometer? }, each { name, bytes }), as the CLI's INPUT or --gyroscope, --accelerometer and
// --magnetometer. Each file goes into the module's memory as (name, bytes); the module copies them.
async function fuse(files, frame) {
  const copies = [];
  const place = async (file) => {
    const bytes = await gunzipIfNeeded(file.name, file.bytes);
    const nameBytes = new TextEncoder().encode(file.name);
    const data = mf.malloc(Math.max(bytes.length, 1)), name = mf.malloc(Math.max(nameBytes.length, 1));
    copies.push(data, name);
    if (!data || !name) throw new Error(`Error: ${file.name}: too large for the browser's memory (${bytes.length} bytes)`);
    heapBytes().set(bytes, data);
    heapBytes().set(nameBytes, name);
    return [name, nameBytes.length, data, bytes.length];
  };
  let recording;
  try {
    if (files.gyroscope) {
      const g = await place(files.gyroscope), a = await place(files.accelerometer);
      const m = files.magnetometer ? await place(files.magnetometer) : [0, 0, 0, 0];
      recording = mf.mf_recording_open_sensors(frame, ...g, ...a, ...m);
    } else {
      recording = mf.mf_recording_open(frame, ...(await place(files[0])));
    }
  } finally {
    copies.forEach((pointer) => mf.free(pointer));
  }
  if (!recording) throw new Error("Error: the module refused the reference frame " + frame);
  const name = recordingName(files);
  const session = mf.mf_recording_session(recording);
  const out = mf.malloc(8 * outputCount);
  const event = mf.malloc(32);
  if (!out || !event) throw new Error("Error: out of memory");
  let outputs = new Float64Array(outputCount * 4096);
  const events = [];
  let n = 0, status;
  const started = performance.now();
  try {
    while ((status = mf.mf_recording_next(recording)) === 1) {
      if ((n + 1) * outputCount > outputs.length) {
        const larger = new Float64Array(outputs.length * 2);
        larger.set(outputs);
        outputs = larger;
      }
      mf.mf_output(session, out);
      outputs.set(heapDoubles(out, outputCount), n * outputCount);
      const count = mf.mf_event_count(session);
      for (let i = 0; i < count; i++) {
        mf.mf_event(session, i, event);
        const [kind, t, index, peak] = heapDoubles(event, 4);
        events.push({ sample: n, kind, t, index, peak });
      }
      n++;
      if ((n & 0xffff) === 0) {
        $("status").textContent = `${n} samples…`;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
    const message = recordingMessage(recording);
    if (status < 0) throw new Error(message);
    return { name, frame, n, outputs: outputs.subarray(0, n * outputCount), events, message,
      seconds: (performance.now() - started) / 1000 };
  } finally {
    mf.free(out);
    mf.free(event);
    mf.mf_recording_destroy(recording);
  }
}

function showMessage(text, kind) {
  const box = $("message");
  box.textContent = text;
  box.className = text ? kind : "";
}

let busy = false;

async function openRecording(files) {
  if (busy) { showMessage("Error: still reading the last recording; drop the next one when it is done", "error"); return; }
  busy = true;
  try {
    await openRecordingNow(files);
  } finally {
    busy = false;
  }
}

// The file's name, or the sensors' files' names, gyroscope's first (as the CLI names them).
function recordingName(files) {
  return files.gyroscope
    ? [files.gyroscope, files.accelerometer, files.magnetometer].filter(Boolean).map((f) => f.name).join(", ")
    : files[0].name;
}

async function openRecordingNow(files) {
  const name = recordingName(files);
  stopLive();
  showMessage("", "");
  $("status").textContent = `reading ${name}…`;
  const frame = Number($("frame").value);
  let result;
  try {
    result = await fuse(files, frame);
  } catch (e) {
    run = null;
    // A trap leaves the module's stack and heap as they were: start a fresh instance.
    if (e instanceof WebAssembly.RuntimeError) await loadModule();
    const text = e.message.startsWith("Error") ? e.message : "Error: " + name + ": " + e.message;
    showMessage(text, "error");
    $("status").textContent = "";
    writeResult({ name, error: text });
    setTransport();
    drawAll();
    return;
  }
  run = result;
  run.source = files;
  if (run.message) showMessage(run.message.trim(), "note");
  $("status").textContent = `${name}: ${run.n} samples, ${duration(run)} s, fused in ${run.seconds.toFixed(2)} s`;
  current = 0;
  setTransport();
  listEvents();
  drawAll();
  writeResult(summary(run));
}

function duration(r) {
  if (r.n < 2) return "0";
  return (value(r, r.n - 1, OUT.t) - value(r, 0, OUT.t)).toFixed(1);
}

function value(r, k, index) { return r.outputs[k * outputCount + index]; }
function vector(r, k, index) { return [value(r, k, index), value(r, k, index + 1), value(r, k, index + 2)]; }
function quaternion(r, k) { return [0, 1, 2, 3].map((i) => value(r, k, OUT.q + i)); }

// What a test reads (Tests/Web/page.py): the attitude of every 100th sample and the last, exactly
// as the module gave them (JavaScript prints the shortest decimal that reads back to the same double).
function summary(r) {
  const attitudes = [];
  for (let k = 0; k < r.n; k += 100) attitudes.push([k, ...quaternion(r, k)]);
  if (r.n > 0 && (r.n - 1) % 100 !== 0) attitudes.push([r.n - 1, ...quaternion(r, r.n - 1)]);
  return { name: r.name, frame: FRAMES[r.frame], samples: r.n, events: r.events.length, message: r.message,
    steps: r.n ? value(r, r.n - 1, OUT.steps) : 0, attitudes };
}

function writeResult(object) {
  $("result").textContent = JSON.stringify(object);
  document.body.dataset.done = "1";
}

// --- Transport ------------------------------------------------------------------------------------

function setTransport() {
  const scrubber = $("scrubber");
  scrubber.disabled = !run || run.n === 0;
  $("play").disabled = scrubber.disabled;
  scrubber.max = run ? Math.max(run.n - 1, 0) : 0;
  scrubber.value = current;
}

function seek(k) {
  if (!run) return;
  current = Math.max(0, Math.min(run.n - 1, k));
  $("scrubber").value = current;
  drawAll();
}

// Play keeps its own clock in the recording's time, so that it runs in real time whatever the
// sample rate and the display's frame rate: each frame shows the last sample at or before it.
let lastFrameTime = null, playClock = 0;
function tick(now) {
  if (!playing || !run) { lastFrameTime = null; return; }
  if (lastFrameTime === null) {
    playClock = value(run, current, OUT.t);
  } else {
    playClock += (now - lastFrameTime) / 1000;
    let k = current;
    while (k + 1 < run.n && !(value(run, k + 1, OUT.t) > playClock)) k++;
    if (k >= run.n - 1) { playing = false; $("play").textContent = "Play"; }
    seek(k);
  }
  lastFrameTime = now;
  requestAnimationFrame(tick);
}

// --- Drawing: the device as a 3D body -------------------------------------------------------------

// Rotates v by the unit quaternion q = (w, x, y, z): q ⊗ v ⊗ q* (sensor → reference frame).
function rotate(q, v) {
  const [w, x, y, z] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

// The camera looks at the origin from −X, −Y and above (in the north-referenced frame, X north and
// Y west: from the south-east).
const CAMERA = (() => {
  const azimuth = (-135 * Math.PI) / 180, elevation = (28 * Math.PI) / 180;
  const back = [Math.cos(elevation) * Math.cos(azimuth), Math.cos(elevation) * Math.sin(azimuth), Math.sin(elevation)];
  const right = [-Math.sin(azimuth), Math.cos(azimuth), 0];
  const up = [back[1] * right[2] - back[2] * right[1], back[2] * right[0] - back[0] * right[2], back[0] * right[1] - back[1] * right[0]];
  return { back, right, up, distance: 6 };
})();
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

function project(canvas, p) {
  const depth = CAMERA.distance - dot(p, CAMERA.back);
  const scale = (Math.min(canvas.width, canvas.height) * 1.45) / depth;
  return [canvas.width / 2 + dot(p, CAMERA.right) * scale, canvas.height / 2 - dot(p, CAMERA.up) * scale, depth];
}

// A phone: 0.75 wide (x), 1.5 tall (y), 0.12 thick (z); its screen faces +z.
const HALF = [0.75, 1.5, 0.12];
const FACES = [
  { normal: [0, 0, 1], color: [40, 46, 60], screen: true },
  { normal: [0, 0, -1], color: [190, 196, 206] },
  { normal: [1, 0, 0], color: [210, 63, 49] },
  { normal: [-1, 0, 0], color: [160, 160, 168] },
  { normal: [0, 1, 0], color: [46, 155, 74] },
  { normal: [0, -1, 0], color: [160, 160, 168] },
];

function faceCorners(normal) {
  const axis = normal.findIndex((c) => c !== 0);
  const others = [0, 1, 2].filter((i) => i !== axis);
  const corners = [];
  for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
    const p = [0, 0, 0];
    p[axis] = normal[axis] * HALF[axis];
    p[others[0]] = a * HALF[others[0]];
    p[others[1]] = b * HALF[others[1]];
    corners.push(p);
  }
  return corners;
}

function drawBody(canvas, q, label) {
  const g = canvas.getContext("2d");
  g.clearRect(0, 0, canvas.width, canvas.height);
  // The ground grid and the reference frame's axes.
  g.lineWidth = 1;
  g.strokeStyle = "#e3e6eb";
  for (let i = -3; i <= 3; i++) {
    line(g, project(canvas, [i, -3, -1.8]), project(canvas, [i, 3, -1.8]));
    line(g, project(canvas, [-3, i, -1.8]), project(canvas, [3, i, -1.8]));
  }
  const north = (live ? live.frame : run ? run.frame : 2) === 2;
  g.fillStyle = "#5d6575";
  g.font = "13px system-ui, sans-serif";
  const xLabel = north ? "N (X)" : "X";
  const xEnd = project(canvas, [3.3, 0, -1.8]), yEnd = project(canvas, [0, 3.3, -1.8]);
  g.fillText(xLabel, xEnd[0] - 10, xEnd[1]);
  g.fillText(north ? "W (Y)" : "Y", yEnd[0] - 10, yEnd[1]);
  if (!q || q.some((c) => !Number.isFinite(c))) {
    g.fillText(label || "no attitude yet", 12, 20);
    return;
  }
  // Faces, far to near (painter's order), lit from the camera.
  const faces = FACES.map((face) => {
    const corners = faceCorners(face.normal).map((p) => rotate(q, p));
    const normal = rotate(q, face.normal);
    const centre = corners.reduce((s, p) => [s[0] + p[0] / 4, s[1] + p[1] / 4, s[2] + p[2] / 4], [0, 0, 0]);
    return { face, corners, normal, depth: CAMERA.distance - dot(centre, CAMERA.back) };
  }).filter((f) => dot(f.normal, CAMERA.back) > 0).sort((a, b) => b.depth - a.depth);
  for (const { face, corners, normal } of faces) {
    const light = 0.55 + 0.45 * Math.max(0, dot(normal, CAMERA.back));
    const [r, gr, b] = face.color.map((c) => Math.round(c * light));
    g.fillStyle = `rgb(${r},${gr},${b})`;
    g.strokeStyle = "#1d2330";
    g.beginPath();
    corners.map((p) => project(canvas, p)).forEach(([x, y], i) => (i ? g.lineTo(x, y) : g.moveTo(x, y)));
    g.closePath();
    g.fill();
    g.stroke();
    if (face.screen) {
      // The top of the screen (+y), so the device's heading reads at a glance.
      const top = project(canvas, rotate(q, [0, HALF[1] * 0.8, HALF[2]]));
      g.fillStyle = "#9fc2ff";
      g.beginPath();
      g.arc(top[0], top[1], 4, 0, 2 * Math.PI);
      g.fill();
    }
  }
  // The device's axes.
  const origin = project(canvas, [0, 0, 0]);
  [[[1.6, 0, 0], "--x", "x"], [[0, 2.2, 0], "--y", "y"], [[0, 0, 1.2], "--z", "z"]].forEach(([v, colour, name]) => {
    const end = project(canvas, rotate(q, v));
    g.strokeStyle = getComputedStyle(document.body).getPropertyValue(colour);
    g.lineWidth = 2;
    line(g, origin, end);
    g.fillStyle = g.strokeStyle;
    g.fillText(name, end[0] + 4, end[1]);
  });
  g.lineWidth = 1;
}

function line(g, a, b) {
  g.beginPath();
  g.moveTo(a[0], a[1]);
  g.lineTo(b[0], b[1]);
  g.stroke();
}

// --- Drawing: charts ------------------------------------------------------------------------------

function drawChart(canvas, index, scale) {
  const g = canvas.getContext("2d");
  g.clearRect(0, 0, canvas.width, canvas.height);
  if (!run || run.n === 0) return;
  let lo = Infinity, hi = -Infinity;
  for (let k = 0; k < run.n; k++) {
    for (let i = 0; i < 3; i++) {
      const v = value(run, k, index + i) * scale;
      if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    }
  }
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  const pad = 0.08 * (hi - lo);
  lo -= pad; hi += pad;
  const t0 = value(run, 0, OUT.t), t1 = value(run, run.n - 1, OUT.t);
  const span = t1 > t0 ? t1 - t0 : 1;
  const x = (t) => 40 + ((t - t0) / span) * (canvas.width - 50);
  const y = (v) => canvas.height - 14 - ((v - lo) / (hi - lo)) * (canvas.height - 22);
  g.font = "11px system-ui, sans-serif";
  g.fillStyle = "#5d6575";
  g.strokeStyle = "#e3e6eb";
  const label = (v) => (Math.abs(v) < (hi - lo) * 1e-3 ? "0" : v.toPrecision(2));
  for (const v of [lo + pad, (lo + hi) / 2, hi - pad]) {
    line(g, [40, y(v)], [canvas.width - 10, y(v)]);
    g.fillText(label(v), 2, y(v) + 4);
  }
  if (lo < 0 && hi > 0) { g.strokeStyle = "#b8bec9"; line(g, [40, y(0)], [canvas.width - 10, y(0)]); }
  // At most two points per pixel column: the extremes of each column's samples.
  const colours = ["--x", "--y", "--z"].map((c) => getComputedStyle(document.body).getPropertyValue(c));
  const step = Math.max(1, Math.floor(run.n / (canvas.width * 2)));
  for (let i = 0; i < 3; i++) {
    g.strokeStyle = colours[i];
    g.beginPath();
    let started = false;
    for (let k = 0; k < run.n; k += step) {
      const v = value(run, k, index + i) * scale;
      if (!Number.isFinite(v)) continue;
      const px = x(value(run, k, OUT.t)), py = y(v);
      if (started) g.lineTo(px, py); else { g.moveTo(px, py); started = true; }
    }
    g.stroke();
  }
  g.strokeStyle = "#1d2330";
  const now = x(value(run, current, OUT.t));
  line(g, [now, 4], [now, canvas.height - 12]);
}

// --- The readout and the events -------------------------------------------------------------------

function readout(rows) {
  $("readout").innerHTML = rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join("");
}

const fixed = (v, d) => (Number.isFinite(v) ? v.toFixed(d) : "–");
const triple = (v, d, s = 1) => v.map((c) => fixed(c * s, d)).join(", ");

function readoutFor(r, k) {
  const q = quaternion(r, k);
  const [roll, pitch, yaw] = vector(r, k, OUT.euler).map((a) => (a * 180) / Math.PI);
  const heading = value(r, k, OUT.heading);
  readout([
    ["attitude (w, x, y, z)", triple(q, 4)],
    ["roll, pitch, yaw (°)", `${fixed(roll, 1)}, ${fixed(pitch, 1)}, ${fixed(yaw, 1)}`],
    ["heading (°)", heading >= 0 ? fixed(heading, 1) : "not north-referenced"],
    ["rotation rate (rad/s)", triple(vector(r, k, OUT.rate), 3)],
    ["gravity (g)", triple(vector(r, k, OUT.gravity), 3)],
    ["user acceleration (g)", triple(vector(r, k, OUT.user), 3)],
    ["gyroscope bias (°/s)", triple(vector(r, k, OUT.bias), 3, 180 / Math.PI)],
    ["state", [value(r, k, OUT.initialized) ? "initialized" : "initializing", value(r, k, OUT.rest) ? "at rest" : "moving",
      value(r, k, OUT.disturbance) ? "magnetic disturbance" : "", value(r, k, OUT.walking) ? "walking" : ""].filter(Boolean).join(", ")],
    ["steps", fixed(value(r, k, OUT.steps), 0)],
  ]);
}

function describe(e) {
  const kind = EVENT_KINDS[e.kind] || "event";
  if (e.kind === 4) return `${kind}: ${ORIENTATIONS[e.index] || "?"}`;
  if (e.kind === 5) return `${kind} ${DIRECTIONS[e.index] || "?"} (peak ${e.peak.toFixed(2)} g)`;
  return kind;
}

function listEvents() {
  const list = $("events");
  list.innerHTML = "";
  if (!run) return;
  const t0 = run.n ? value(run, 0, OUT.t) : 0;
  run.events.forEach((e) => {
    const item = document.createElement("li");
    item.textContent = `${(e.t - t0).toFixed(2)} s  ${describe(e)}`;
    item.dataset.sample = e.sample;
    item.onclick = () => seek(e.sample);
    list.appendChild(item);
  });
  if (!run.events.length) list.innerHTML = "<li>none</li>";
}

function markEvents() {
  if (!run) return;
  const t = value(run, current, OUT.t);
  let last = null;
  for (const item of $("events").children) {
    const k = Number(item.dataset.sample);
    if (!Number.isFinite(k)) continue;
    const past = k <= current;
    item.classList.toggle("past", past);
    item.classList.toggle("recent", past && t - value(run, k, OUT.t) < 1);
    if (past) last = item;
  }
  if (playing && last) last.scrollIntoView({ block: "nearest" });
}

function drawAll() {
  if (live) return;
  const q = run && run.n ? quaternion(run, current) : null;
  drawBody($("body"), q, run ? null : "drop a recording to see it move");
  drawChart($("gravity"), OUT.gravity, 1);
  drawChart($("user"), OUT.user, 1);
  drawChart($("bias"), OUT.bias, 180 / Math.PI);
  if (run && run.n) {
    $("time").textContent = `${(value(run, current, OUT.t) - value(run, 0, OUT.t)).toFixed(2)} s · ${current + 1}/${run.n}`;
    readoutFor(run, current);
    markEvents();
  } else {
    $("time").textContent = "–";
    readout([]);
  }
}

// --- Live: this device's own sensors, fused by the module -----------------------------------------

// From the W3C DeviceOrientation event's Z-X'-Y'' angles (alpha, beta, gamma; degrees; the device's
// axes are Core Motion's and ours), the quaternion of the device in the browser's earth frame
// (X east, Y north, Z up) turned by −90° about Z into ours (X north, Y west, Z up).
function orientationQuaternion(alpha, beta, gamma) {
  const h = Math.PI / 360;
  const axis = (angle, i) => { const q = [Math.cos(angle * h), 0, 0, 0]; q[i + 1] = Math.sin(angle * h); return q; };
  return multiply(axis(-90, 2), multiply(multiply(axis(alpha, 2), axis(beta, 0)), axis(gamma, 1)));
}

function multiply(a, b) {
  return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3], a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1], a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]];
}

function startLive() {
  if (live) { stopLive(); return; }
  live = { frame: Number($("frame").value), session: 0, out: mf.malloc(8 * outputCount), samples: 0, gyroscope: null,
    accelerometer: null, magnetometer: [NaN, NaN, NaN], hasMagnetometer: false, browserQ: null, stop: [] };
  playing = false;
  $("live").textContent = "Stop the sensors";
  $("bodies").classList.add("live");
  $("browserBody").hidden = false;
  showMessage("", "");
  if (!startGenericSensors()) startDeviceMotion();
  // The browser's own orientation: absolute (north-referenced) where it offers that.
  const absolute = "ondeviceorientationabsolute" in window;
  const kind = absolute ? "deviceorientationabsolute" : "deviceorientation";
  const onOrientation = (e) => {
    if (e.alpha === null) return;
    live.browserQ = orientationQuaternion(e.alpha, e.beta, e.gamma);
    $("browserCaption").textContent = `the browser's own orientation (${kind}${e.absolute ? ", north-referenced" : ", its heading arbitrary"})`;
  };
  window.addEventListener(kind, onOrientation);
  live.stop.push(() => window.removeEventListener(kind, onOrientation));
  const draw = () => {
    if (!live) return;
    let q = null;
    if (live.samples > 0) {
      mf.mf_output(live.session, live.out);
      const o = heapDoubles(live.out, outputCount);
      q = [o[1], o[2], o[3], o[4]];
      liveReadout(o);
    }
    drawBody($("body"), q, live.samples ? null : "waiting for the sensors…");
    drawBody($("body2"), live.browserQ, "no " + kind + " events");
    requestAnimationFrame(draw);
  };
  requestAnimationFrame(draw);
}

// The session, once it is known whether a magnetometer feeds it: a frame that needs one falls back
// to the arbitrary, uncorrected one without it (nothing north-referenced is shown then).
function liveSession() {
  if (live.session) return true;
  if (live.frame !== 0 && !live.hasMagnetometer) {
    live.frame = 0;
    showMessage("This browser gives no magnetometer: the live attitude is in an arbitrary frame (6D), its heading not north-referenced", "note");
  }
  live.session = mf.mf_create(live.frame);
  return live.session !== 0;
}

function feedLive(t) {
  if (!live || !live.gyroscope || !live.accelerometer || !liveSession()) return;
  const [g, a, m] = [live.gyroscope, live.accelerometer, live.magnetometer];
  mf.mf_update(live.session, t, g[0], g[1], g[2], a[0], a[1], a[2], m[0], m[1], m[2]);
  live.samples++;
}

// The Generic Sensor API (Chrome on Android): rad/s, m/s² of specific force, µT, in the device's axes.
// False when the browser has none or refuses them; devicemotion is tried then, as on a sensor's
// error before its first reading.
function startGenericSensors() {
  if (typeof Gyroscope !== "function" || typeof Accelerometer !== "function") return false;
  const sensors = [];
  try {
    const gyroscope = new Gyroscope({ frequency: 100 }), accelerometer = new Accelerometer({ frequency: 100 });
    accelerometer.onreading = () => { live.accelerometer = [accelerometer.x, accelerometer.y, accelerometer.z]; };
    gyroscope.onreading = () => { live.gyroscope = [gyroscope.x, gyroscope.y, gyroscope.z]; feedLive(gyroscope.timestamp / 1000); };
    sensors.push(gyroscope, accelerometer);
    if (typeof Magnetometer === "function") {
      const magnetometer = new Magnetometer({ frequency: 50 });
      magnetometer.onreading = () => { live.magnetometer = [magnetometer.x, magnetometer.y, magnetometer.z]; };
      sensors.push(magnetometer);
      live.hasMagnetometer = true;
    }
  } catch (e) {
    return false;
  }
  for (const sensor of sensors) {
    sensor.onerror = (e) => {
      if (!live) return;
      if (typeof Magnetometer === "function" && sensor instanceof Magnetometer) { live.hasMagnetometer = false; return; }
      if (live.samples === 0) {
        live.stop.forEach((stop) => stop());
        live.stop = [];
        startDeviceMotion();
      } else {
        showMessage("Error: the " + sensor.constructor.name + " sensor: " + e.error.message, "error");
      }
    };
    sensor.start();
    live.stop.push(() => sensor.stop());
  }
  return true;
}

// devicemotion (other phones; iOS asks for permission): rotationRate in °/s about the device's Z
// (alpha), X (beta) and Y (gamma); accelerationIncludingGravity, which the W3C specification makes
// specific force (+9.81 on z lying face up; not checked here on an iPhone). No magnetometer.
function startDeviceMotion() {
  if (typeof DeviceMotionEvent !== "function") {
    showMessage("Error: this browser has no motion sensors (Gyroscope and Accelerometer, or devicemotion)", "error");
    return;
  }
  live.hasMagnetometer = false;
  const onMotion = (e) => {
    const r = e.rotationRate, a = e.accelerationIncludingGravity;
    if (!r || !a || r.alpha === null || a.x === null) return;
    const radians = Math.PI / 180;
    live.gyroscope = [r.beta * radians, r.gamma * radians, r.alpha * radians];
    live.accelerometer = [a.x, a.y, a.z];
    feedLive(e.timeStamp / 1000);
  };
  const begin = () => {
    if (!live) return;  // stopped while the permission was asked
    window.addEventListener("devicemotion", onMotion);
    live.stop.push(() => window.removeEventListener("devicemotion", onMotion));
  };
  if (typeof DeviceMotionEvent.requestPermission === "function") {
    DeviceMotionEvent.requestPermission()
      .then((state) => (state === "granted" ? begin() : showMessage("Error: motion sensors: permission " + state, "error")))
      .catch((e) => showMessage("Error: motion sensors: " + e.message, "error"));
  } else {
    begin();
  }
}

function liveReadout(o) {
  const [roll, pitch, yaw] = [o[OUT.euler], o[OUT.euler + 1], o[OUT.euler + 2]].map((a) => (a * 180) / Math.PI);
  readout([
    ["live samples", String(live.samples)],
    ["roll, pitch, yaw (°)", `${fixed(roll, 1)}, ${fixed(pitch, 1)}, ${fixed(yaw, 1)}`],
    ["heading (°)", o[OUT.heading] >= 0 ? fixed(o[OUT.heading], 1) : "not north-referenced"],
    ["gravity (g)", triple([o[8], o[9], o[10]], 3)],
    ["user acceleration (g)", triple([o[11], o[12], o[13]], 3)],
    ["gyroscope bias (°/s)", triple([o[14], o[15], o[16]], 3, 180 / Math.PI)],
  ]);
}

function stopLive() {
  if (!live) return;
  live.stop.forEach((stop) => stop());
  mf.free(live.out);
  if (live.session) mf.mf_destroy(live.session);
  live = null;
  $("live").textContent = "Use this device's sensors";
  $("bodies").classList.remove("live");
  $("browserBody").hidden = true;
  drawAll();
}

// --- Wiring ---------------------------------------------------------------------------------------

// One file is a recording; two or three are one file per sensor, told apart by their names
// ("gyro", "acc", "mag" anywhere in them, any case).
async function openFiles(list) {
  const read = async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
  if (list.length === 1) return openRecording([await read(list[0])]);
  const usage = "Error: drop one recording file (a CSV with t,gx,gy,gz,ax,ay,az[,mx,my,mz], plain or gzip-compressed), "
    + "or one file per sensor (t,x,y,z) whose names say which: one with \"gyro\", one with \"acc\", optionally one with \"mag\"";
  const roles = { gyroscope: /gyro/i, accelerometer: /acc/i, magnetometer: /mag/i };
  const files = {};
  for (const file of list) {
    const matches = Object.keys(roles).filter((role) => roles[role].test(file.name));
    if (matches.length !== 1 || files[matches[0]]) {
      showMessage(`${usage}; ${file.name} ${matches.length === 1 ? "repeats a sensor" : "names " + (matches.length ? "several sensors" : "none")}`, "error");
      return;
    }
    files[matches[0]] = await read(file);
  }
  if (list.length > 3 || !files.gyroscope || !files.accelerometer) { showMessage(usage, "error"); return; }
  return openRecording(files);
}

async function main() {
  try {
    await loadModule();
  } catch (e) {
    showMessage("Error: the WebAssembly module did not load: " + e.message, "error");
    writeResult({ error: e.message });
    return;
  }
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); openFiles([...e.dataTransfer.files]); });
  $("file").addEventListener("change", (e) => openFiles([...e.target.files]));
  $("scrubber").addEventListener("input", (e) => { playing = false; $("play").textContent = "Play"; seek(Number(e.target.value)); });
  $("play").addEventListener("click", () => {
    playing = !playing;
    $("play").textContent = playing ? "Pause" : "Play";
    if (playing) { if (run && current >= run.n - 1) seek(0); requestAnimationFrame(tick); }
  });
  $("frame").addEventListener("change", () => { if (run && run.source) openRecording(run.source); });
  $("live").addEventListener("click", startLive);
  window.addEventListener("keydown", (e) => {
    // Focused controls keep their own keys (the scrubber steps by itself; the frame menu changes).
    if (["INPUT", "SELECT", "BUTTON", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === "ArrowRight") seek(current + (e.shiftKey ? 100 : 1));
    if (e.key === "ArrowLeft") seek(current - (e.shiftKey ? 100 : 1));
  });
  drawAll();
  // ?recording=URL or ?gyroscope=URL&accelerometer=URL[&magnetometer=URL], [&frame=N][&at=SAMPLE]:
  // open a recording at that address (what Tests/Web/page.py does; a page opened from a file reads
  // other files only where the browser allows it).
  const parameters = new URLSearchParams(location.search);
  if (parameters.has("frame")) $("frame").value = parameters.get("frame");
  const sensorParameters = ["gyroscope", "accelerometer", "magnetometer"].filter((p) => parameters.has(p));
  if (parameters.has("recording") || sensorParameters.length) {
    if (parameters.has("recording") && sensorParameters.length) {
      showMessage("Error: give recording= or the sensors' files (gyroscope=, accelerometer=, magnetometer=), not both", "error");
      writeResult({ error: "both recording= and sensor files" });
      return;
    }
    const fetchFile = async (address) => {
      let response;
      try {
        response = await fetch(address);
      } catch (e) {
        throw new Error(`cannot read ${address}: ${e.message}`);
      }
      if (!response.ok) throw new Error(`cannot read ${address}: ${response.status} ${response.statusText}`);
      return { name: address.split("/").pop(), bytes: new Uint8Array(await response.arrayBuffer()) };
    };
    let files;
    try {
      if (parameters.has("recording")) {
        files = [await fetchFile(parameters.get("recording"))];
      } else {
        if (!parameters.has("gyroscope") || !parameters.has("accelerometer")) throw new Error("give gyroscope= and accelerometer=");
        files = {};
        for (const p of sensorParameters) files[p] = await fetchFile(parameters.get(p));
      }
    } catch (e) {
      showMessage(`Error: ${e.message}`, "error");
      writeResult({ error: e.message });
      return;
    }
    await openRecording(files);
    if (parameters.has("at")) seek(Number(parameters.get("at")));
  } else {
    document.body.dataset.done = "1";
  }
}

main();
