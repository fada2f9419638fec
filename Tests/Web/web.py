"""scripts/web's helpers (standard library only).

  web.py compare HOST.bin WASM.bin         holds the WebAssembly build's outputs to the host's
  web.py imports MODULE.wasm                prints the module's imports (module.name), one per line
  web.py page PAGE_DIR MODULE.wasm OUT.html the page (index.html) with its script and the module inlined

`compare` reads both output files (driver.c's format) sample by sample and prints how many values are bit-identical and the largest difference of the others,
absolute and relative; it fails when an event differs, a value differs by more than 1e-12
(absolute, or relative to the value's magnitude when that is above 1), or the files differ in
length. (An event's peak counts as a value.)
"""
import math
import struct
import sys


def records(path):
    data = open(path, "rb").read()
    if len(data) < 8:
        sys.exit(f"web.py: {path} is empty")
    (count,) = struct.unpack_from("<d", data, 0)
    count = int(count)
    i, out = 8, [count]
    while i < len(data):
        values = struct.unpack_from(f"<{count}d", data, i)
        i += 8 * count
        (e,) = struct.unpack_from("<d", data, i)
        i += 8
        events = [struct.unpack_from("<4d", data, i + 32 * k) for k in range(int(e))]
        i += 32 * int(e)
        out.append((values, events))
    return out


def same(a, b):
    """Bit-identical, or both NaN (x86 and WebAssembly make NaNs of different signs)."""
    return struct.pack("<d", a) == struct.pack("<d", b) or (math.isnan(a) and math.isnan(b))


def compare(host_path, wasm_path):
    (host_count, *host), (wasm_count, *wasm) = records(host_path), records(wasm_path)
    if host_count != wasm_count:
        sys.exit(f"web.py: the host wrote {host_count} outputs a sample, WebAssembly {wasm_count}")
    if len(host) != len(wasm):
        sys.exit(f"web.py: the host wrote {len(host)} samples, WebAssembly {len(wasm)}")
    identical = total = events = 0
    worst_abs = worst_rel = 0.0
    worst_where = None
    for k, ((hv, he), (wv, we)) in enumerate(zip(host, wasm)):
        # An event's kind, time and orientation or direction must agree exactly; its peak is a value.
        if len(he) != len(we) or any(not all(same(x, y) for x, y in zip(a[:3], b[:3])) for a, b in zip(he, we)):
            sys.exit(f"web.py: sample {k}: events differ: host {he}, WebAssembly {we}")
        events += len(he)
        for j, (a, b) in enumerate(zip(list(hv) + [e[3] for e in he], list(wv) + [e[3] for e in we])):
            total += 1
            if same(a, b):
                identical += 1
                continue
            if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
                sys.exit(f"web.py: sample {k}, output {j}: host {a!r}, WebAssembly {b!r}")
            d = abs(a - b)
            scale = max(1.0, abs(a))
            if d / scale > worst_rel:
                worst_rel, worst_abs, worst_where = d / scale, d, (k, j)
    print(f"{len(host)} samples, {total} values, {events} events: {identical} values bit-identical "
          f"({100 * identical / max(total, 1):.4f} %), largest difference {worst_abs:.3g} "
          f"({worst_rel:.3g} scaled){'' if worst_where is None else f' at sample {worst_where[0]}, output {worst_where[1]}'}")
    if worst_rel > 1e-12:
        sys.exit("web.py: a value differs by more than 1e-12")


def leb128(data, i):
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def imports(path):
    data = open(path, "rb").read()
    if data[:4] != b"\0asm":
        sys.exit(f"web.py: {path} is not a WebAssembly module")
    i = 8
    while i < len(data):
        section, i = data[i], i + 1
        size, i = leb128(data, i)
        if section == 2:
            j = i
            n, j = leb128(data, j)
            for _ in range(n):
                length, j = leb128(data, j)
                module = data[j:j + length].decode()
                j += length
                length, j = leb128(data, j)
                name = data[j:j + length].decode()
                j += length
                kind, j = data[j], j + 1
                if kind == 0:
                    _, j = leb128(data, j)
                elif kind == 1:
                    j += 1
                    flags, j = data[j], j + 1
                    _, j = leb128(data, j)
                    if flags & 1:
                        _, j = leb128(data, j)
                elif kind == 2:
                    flags, j = data[j], j + 1
                    _, j = leb128(data, j)
                    if flags & 1:
                        _, j = leb128(data, j)
                else:
                    j += 2
                print(f"{module}.{name}")
        i += size


def page(folder, module, out):
    import base64
    import pathlib
    html = (pathlib.Path(folder) / "index.html").read_text(encoding="utf-8")
    script = (pathlib.Path(folder) / "page.js").read_text(encoding="utf-8")
    for marker in ("/*MOTIONFUSION_WASM*/", "/*MOTIONFUSION_PAGE_JS*/"):
        if html.count(marker) != 1:
            sys.exit(f"web.py: {folder}/index.html must hold {marker} once")
    if "</script" in script:
        sys.exit("web.py: page.js must not contain </script")
    encoded = base64.b64encode(open(module, "rb").read()).decode()
    html = html.replace("/*MOTIONFUSION_WASM*/", encoded).replace("/*MOTIONFUSION_PAGE_JS*/", script)
    pathlib.Path(out).write_text(html, encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "page":
        page(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 3 and sys.argv[1] == "imports":
        imports(sys.argv[2])
    else:
        sys.exit(__doc__)
