#!/usr/bin/env python3
"""Splits a Honeykrisp capture run (tools/mesa/capture-hk) into the files of testdata/mesa/hk.

    hk_split.py RUN_DIR OUT_DIR

RUN_DIR holds what one run of hk_capture left: stdout.txt (Mesa's AGX_MESA_DEBUG=shaders dump
with hk_capture's "@@HKCAP" markers), agxdecode.NNNN (one decoded submit per draw, from
ASAHI_MESA_DEBUG=trace), hk_capture.log, device.txt and draws/*.json. OUT_DIR receives
parts/, linked/, submits/ and draws/ plus device.txt and hk_capture.log; testdata/mesa/README.md
describes them. Everything is checked on the way: a part list that does not add up, a bound
binary that is not a concatenation of compiled parts, a draw without its JSON or submit, or
JSON that disagrees with what Mesa compiled stops the split with a message and exit code 1.
Python 3 standard library only.
"""

import json
import os
import re
import shutil
import sys

MARKER = re.compile(r"^@@HKCAP (\S+) (\S+)$")
DECODE_FILE = re.compile(r"^agxdecode: dump command stream to file (\S+)$")
DISASM = re.compile(r"^\s*([0-9a-f]+): ([0-9a-f]+)\s+(\S.*)$")
SECTION = re.compile(
    r"^(Pipeline|Fragment pipeline|Load pipeline|Store pipeline|Partial reload pipeline|"
    r"Partial store pipeline) \(([0-9a-f]+), handle \d+\)$"
)

# Mesa's gl_vert_attrib and gl_frag_result numbering (src/compiler/shader_enums.h).
VERT_ATTRIB_GENERIC0 = 15
FRAG_RESULT_DATA0 = 4

DEVICE_SHORT = {
    "disabled": "off",
    "robust_buffer_access": "rba",
    "robust_buffer_access_2": "rba2",
}

# Internal shaders by their NIR name (src/asahi/lib/agx_nir_prolog_epilog.c,
# src/asahi/lib/agx_bg_eot.c, src/asahi/vulkan/hk_device.c).
NAMED_KINDS = {
    "VS prolog": "vertex prolog",
    "FS prolog": "fragment prolog",
    "FS epilog": "fragment epilog",
    "agx_background": "background",
    "agx_eot": "end-of-tile",
    "empty FS": "internal",
}

# Roles of the programs a decoded submit binds, by the section they appear in
# (src/asahi/lib/decode.c).
SECTION_ROLES = {
    "Pipeline": "vertex",
    "Fragment pipeline": "fragment",
    "Load pipeline": "background",
    "Store pipeline": "end-of-tile",
    "Partial reload pipeline": "partial background",
    "Partial store pipeline": "partial end-of-tile",
}

# Decoded descriptors left out of submits/ (large, and not about the shaders).
SKIPPED = ("Texture state", "Texture", "PBE", "Sampler state", "Sampler", "Border")

# The code agx_fast_link adds around the parts (src/asahi/lib/agx_linker.c): the sample loop
# header, the footer (with the loop count and branch offset patched in) and a lone stop.
LINK_CODE = [
    ("sample-loop header", re.compile(rb"\x62\x00\x00\x00\x62\x04\x01\x00", re.S)),
    (
        "sample-loop footer",
        re.compile(
            rb"\x0e\x04\x00\x20\x84\x00\x00\x00\x52\x2c\x42.\x00\x00\x00\xc0....\x52\x0e\x00\x00\x00\x00\x88\x00",
            re.S,
        ),
    ),
    ("stop", re.compile(rb"\x88\x00", re.S)),
]


class SplitError(Exception):
    pass


def fail(msg):
    raise SplitError(msg)


def slug(text):
    return re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_").lower()


class Function:
    """One compiled function of a compile: its disassembly lines and bytes."""

    def __init__(self, lines):
        self.lines = lines
        self.code = b"".join(bytes.fromhex(DISASM.match(l).group(2)) for l in lines)


class Compile:
    def __init__(self, index, device, scope_kind, scope, stage):
        self.index = index
        self.device = device
        self.scope_kind = scope_kind  # "device", "pipeline" or "draw"
        self.scope = scope
        self.stage = stage
        self.lines = []
        self.name = None
        self.kind = None
        self.functions = {}  # "main" / "preamble" -> Function
        self.stem = None

    def header(self, key):
        for line in self.lines:
            if line.startswith("decl_function") or line.startswith("impl "):
                break
            if line.startswith(key + ": "):
                return line[len(key) + 2 :]
        return None

    def finish(self):
        where = f"compile {self.index} ({self.stage}, {self.scope_kind} {self.scope})"
        self.name = self.header("name")
        if self.name is not None:
            if self.name not in NAMED_KINDS:
                fail(f"{where}: unknown internal shader {self.name!r}")
            self.kind = NAMED_KINDS[self.name]
        elif self.stage == "MESA_SHADER_VERTEX":
            self.kind = "vertex main"
        elif self.stage == "MESA_SHADER_FRAGMENT":
            self.kind = "fragment main"
        else:
            fail(f"{where}: an API shader of stage {self.stage}")

        # The functions, in the order Mesa compiles and disassembles them (agx_compile_shader_nir
        # in src/asahi/compiler/agx_compile.c walks nir_foreach_function_with_impl).
        names = []
        for line in self.lines:
            m = re.match(r"^decl_function (\S+) ", line)
            if m:
                names.append("preamble" if m.group(1) == "@preamble" else m.group(1))
        blocks, current, expect = [], None, 0
        for line in self.lines:
            m = DISASM.match(line)
            if not m:
                current = None
                continue
            offset, code = int(m.group(1), 16), m.group(2)
            if current is None or offset != expect:
                if offset != 0:
                    fail(f"{where}: disassembly starts at 0x{offset:x}: {line!r}")
                current = []
                blocks.append(current)
            current.append(line)
            expect = offset + len(code) // 2
        if blocks and len(blocks) != len(names):
            fail(f"{where}: {len(blocks)} disassembly blocks for the functions {names}")
        for name, block in zip(names, blocks):
            if name not in ("main", "preamble"):
                fail(f"{where}: unexpected function {name}")
            self.functions[name] = Function(block)


class Draw:
    def __init__(self, index, name, device):
        self.index = index
        self.name = name  # "NN_<name>"
        self.device = device
        self.decode = None
        self.bound = []  # [role, address, bytes, disassembly lines]
        self.last_compile = -1  # index of the last compile before the draw's end


def parse_stdout(path):
    compiles, draws, stray = [], [], []
    device, scope_kind, scope = None, None, None
    current = None
    draw = None
    with open(path, encoding="utf-8", errors="strict") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            m = MARKER.match(line)
            if m:
                current = None
                event, name = m.groups()
                if event == "device-begin":
                    device, scope_kind, scope = name, "device", "device"
                elif event == "device-end":
                    device, scope_kind, scope = None, None, None
                elif event in ("pipeline-begin", "draw-begin"):
                    scope_kind, scope = event.split("-")[0], name
                    if event == "draw-begin":
                        draw = Draw(len(draws), name, device)
                        draws.append(draw)
                elif event in ("pipeline-end", "draw-end"):
                    if scope != name:
                        fail(f"stdout.txt:{lineno}: {event} {name} inside {scope_kind} {scope}")
                    scope_kind, scope = "device", "device"
                    if draw is not None:
                        draw.last_compile = len(compiles) - 1
                    draw = None
                else:
                    fail(f"stdout.txt:{lineno}: unknown marker {line!r}")
                continue
            m = DECODE_FILE.match(line)
            if m:
                current = None
                if draw is None or draw.decode is not None:
                    fail(f"stdout.txt:{lineno}: a decoded submit outside a draw or a second one")
                draw.decode = os.path.basename(m.group(1))
                continue
            m = re.match(r"^shader: (MESA_SHADER_\w+)$", line)
            if m:
                if device is None:
                    fail(f"stdout.txt:{lineno}: a compile outside a device")
                current = Compile(len(compiles), device, scope_kind, scope, m.group(1))
                compiles.append(current)
            if current is None:
                if line.strip():
                    stray.append(f"stdout.txt:{lineno}: {line}")
                continue
            current.lines.append(line)
    if stray:
        fail("lines outside any compile:\n" + "\n".join(stray[:10]))
    for c in compiles:
        c.finish()
    return compiles, draws


def parse_decode(path, draw):
    """Collects the programs bound in a decoded submit into draw.bound and returns its text for
    submits/: the disassembly (kept in linked/) is replaced by a placeholder line per program,
    and the texture, PBE and sampler descriptors are left out."""
    out, section, pending, block = [], None, None, None
    skipping = False
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f]
    for line in lines:
        if block is not None:
            if DISASM.match(line):
                block[3].append(line)
                continue
            if not block[3] and not line:
                out.append(line)
                continue
            out.append(f"\0{len(draw.bound) - 1}")
            block = None
        if line and not line.startswith(" "):
            m = SECTION.match(line)
            if m:
                section = m.group(1)
            header = line.split(" (")[0]
            skipping = header in SKIPPED or re.match(r"^ts\d+: ?$", line) is not None
            if header in ("Shader", "Preshader"):
                pending = header
        if skipping:
            continue
        out.append(line)
        m = re.match(r"^  Code: 0x([0-9a-f]+)$", line)
        if m and pending:
            if section is None:
                fail(f"{path}: code outside a pipeline section")
            role = SECTION_ROLES[section] + (" preshader" if pending == "Preshader" else "")
            block = [role, int(m.group(1), 16), None, []]
            draw.bound.append(block)
            pending = None
    if block is not None:
        out.append(f"\0{len(draw.bound) - 1}")
    for b in draw.bound:
        b[2] = b"".join(bytes.fromhex(DISASM.match(l).group(2)) for l in b[3])
        if not b[2]:
            fail(f"{path}: no disassembly for the {b[0]} code at 0x{b[1]:x}")
    return out


def decompose(code, candidates):
    """Finds parts (and agx_fast_link's own code) whose concatenation is code. candidates:
    (label, bytes), most preferred first. Returns the list of labels or None."""

    def search(pos, depth):
        if pos == len(code):
            return []
        if depth > 6:
            return None
        for label, part in candidates:
            if part and code.startswith(part, pos):
                rest = search(pos + len(part), depth + 1)
                if rest is not None:
                    return [label] + rest
        for label, pattern in LINK_CODE:
            m = pattern.match(code, pos)
            if m:
                rest = search(m.end(), depth + 1)
                if rest is not None:
                    return [f"({label})"] + rest
        return None

    return search(0, 0)


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def ranges(values):
    """Mesa's bitset print ("15-22", "16,19,24,30") as a set of ints."""
    result = set()
    for item in values.split(","):
        if "-" in item:
            lo, hi = item.split("-")
            result.update(range(int(lo), int(hi) + 1))
        elif item:
            result.add(int(item))
    return result


def prolog_components(prolog):
    """{(slot, component)} a vertex prolog hands to the main shader: its NIR's export_agx bases
    from AGX_ABI_VIN_ATTRIB(0) = 16 on, in 16-bit halves (src/asahi/lib/agx_abi.h)."""
    result = set()
    for line in prolog.lines:
        if line.startswith("block0") or line.startswith("   0: "):
            break
        m = re.search(r"@export_agx \(.*\) \(base=(\d+)\)$", line)
        if m and int(m.group(1)) >= 16:
            index = (int(m.group(1)) - 16) // 2
            result.add((index // 4, index % 4))
    return result


def exported_halves(part):
    """The export_agx bases (16-bit halves) of a part's NIR."""
    result = set()
    for line in part.lines:
        if line.startswith("block0") or line.startswith("   0: "):
            break
        m = re.search(r"@export_agx \(.*\) \(base=(\d+)\)$", line)
        if m:
            result.add(int(m.group(1)))
    return result


def check_json(draw, data, vertex_main, fragment_main, vertex_prolog, fragment_prolog):
    where = f"draws/{draw.name}.json"
    for key in ("vertex", "fragment"):
        if key not in data:
            fail(f"{where}: no {key!r}")
    if data["vertex"]["robustness"] != draw.device:
        fail(f"{where}: robustness {data['vertex']['robustness']} on the {draw.device} device")
    locations = {i["location"] for i in data["vertex"]["shader_inputs"]}
    attributes = {a["location"] for a in data["vertex"]["attributes"]}
    if not locations <= attributes:
        fail(f"{where}: shader inputs {sorted(locations - attributes)} have no attribute")
    read = vertex_main.header("inputs_read")
    if read is None or {v - VERT_ATTRIB_GENERIC0 for v in ranges(read)} != locations:
        fail(f"{where}: shader_inputs at {sorted(locations)}, but the vertex shader Mesa compiled "
             f"reads inputs_read: {read}")
    # A static vertex input leaves the prolog empty (hk_flush_dynamic_state's static_vi).
    if data["vertex"].get("static_vertex_input", False) != (vertex_prolog is None):
        fail(f"{where}: static_vertex_input is {data['vertex'].get('static_vertex_input', False)}, but "
             f"the draw's vertex prolog is {'empty' if vertex_prolog is None else 'not empty'}")
    if vertex_prolog is not None:
        slots = {loc: slot for slot, loc in enumerate(sorted(locations))}
        wanted = {(slots[i["location"]], "xyzw".index(c))
                  for i in data["vertex"]["shader_inputs"] for c in i["components"]}
        if prolog_components(vertex_prolog) != wanted:
            fail(f"{where}: shader_inputs say the vertex shader reads {sorted(wanted)} (slot, component), "
                 f"the prolog Mesa compiled exports {sorted(prolog_components(vertex_prolog))}")
    written = fragment_main.header("outputs_written")
    outputs = {o["location"] + FRAG_RESULT_DATA0 for o in data["fragment"]["shader_outputs"]}
    if written is None or ranges(written) != outputs:
        fail(f"{where}: shader_outputs {sorted(outputs)}, but the fragment shader Mesa compiled has "
             f"outputs_written: {written}")
    if len(data["fragment"]["attachments"]) == 0:
        fail(f"{where}: no attachments")
    # Honeykrisp compiles a fragment prolog when the sample mask leaves out one of the
    # rasterization samples (hk_flush_dynamic_state; no statistics or cull distances here).
    all_samples = (1 << data["fragment"]["samples"]) - 1
    masked = data["fragment"].get("sample_mask", 0xffffffff) & all_samples != all_samples
    if masked != (fragment_prolog is not None):
        fail(f"{where}: sample_mask {data['fragment'].get('sample_mask')}, but the draw "
             f"{'has no' if fragment_prolog is None else 'has a'} fragment prolog")
    # w_is_one: the compiled shader writes location 0's x, y and z but not its w, which
    # agx_nir_lower_fs_output_to_epilog leaves out when it is the constant 1.0.
    exports = exported_halves(fragment_main)
    for o in data["fragment"]["shader_outputs"]:
        if o["location"] != 0 or o.get("index", 0) != 0:
            if "w_is_one" in o:
                fail(f"{where}: w_is_one on an output other than location 0")
            continue
        step = o["bits"] // 16
        xyz = all(8 + c * step in exports for c in range(3))
        if o.get("w_is_one", False) != (xyz and 8 + 3 * step not in exports):
            fail(f"{where}: w_is_one is {o.get('w_is_one', False)}, but the fragment shader Mesa "
                 f"compiled exports halves {sorted(exports)}")


def split(run_dir, out_dir):
    compiles, draws = parse_stdout(os.path.join(run_dir, "stdout.txt"))
    if not draws:
        fail("no draws in stdout.txt")

    for sub in ("parts", "linked", "submits", "draws"):
        os.makedirs(os.path.join(out_dir, sub))

    # parts/: one file set per compile (a compile with a preamble has two parts); a compile
    # whose whole text is that of an earlier one (the same shader on another device, say) is
    # listed but not written again.
    part_code = []  # (compile, function name, part name, bytes)
    index = ["# part | kind | device | compiled for | bytes | instructions | files"]
    first_of_text = {}
    for c in compiles:
        scope = c.scope if c.scope_kind != "device" else "device"
        what = slug(c.name) if c.kind == "internal" else slug(c.kind)
        c.stem = f"{c.index:03d}_{DEVICE_SHORT[c.device]}_{slug(scope)}_{what}"
        text = "\n".join(c.lines).rstrip("\n") + "\n"
        files = first_of_text.setdefault(text, c.stem)
        if files == c.stem:
            write(os.path.join(out_dir, "parts", c.stem + ".txt"), text)
        event = {"device": "device creation", "pipeline": "pipeline ", "draw": "draw "}[c.scope_kind]
        event += "" if c.scope_kind == "device" else c.scope
        if not c.functions:
            index.append(f"{c.stem} | {c.kind} | {c.device} | {event} | 0 | 0 | {files}")
        for fname in ("main", "preamble"):
            fn = c.functions.get(fname)
            if fn is None:
                continue
            suffix = "" if fname == "main" else ".preamble"
            label = c.stem + suffix
            kind = c.kind if fname == "main" else f"preamble (of the {c.kind})"
            if files == c.stem:
                write(os.path.join(out_dir, "parts", label + ".dis"), "\n".join(fn.lines) + "\n")
                write_bytes(os.path.join(out_dir, "parts", label + ".bin"), fn.code)
            index.append(f"{label} | {kind} | {c.device} | {event} | {len(fn.code)} | {len(fn.lines)} | "
                         f"{files}{suffix}")
            part_code.append((c, fname, label, fn.code))
    write(os.path.join(out_dir, "parts", "index.txt"), "\n".join(index) + "\n")

    # linked/ and submits/: what each draw's submit bound.
    linked_index = ["# draw | role | address | file | bytes | = parts in order ((...) is code agx_fast_link adds)"]
    seen = {}  # (role, bytes) -> file stem
    for draw in draws:
        if draw.decode is None:
            fail(f"draw {draw.name}: no decoded submit")
        decode_path = os.path.join(run_dir, draw.decode)
        text = parse_decode(decode_path, draw)
        roles = [b[0] for b in draw.bound]
        for needed in ("vertex", "fragment"):
            if roles.count(needed) != 1:
                fail(f"draw {draw.name}: {roles.count(needed)} {needed} programs bound in {draw.decode}")

        # Parts compiled on this device up to the end of this draw, newest first.
        last = draw.last_compile
        candidates = [
            (label, code) for c, fname, label, code in reversed(part_code)
            if c.device == draw.device and c.index <= last
        ]
        # The programs first, then the preshaders, each preferring the preamble of the
        # compile whose main its program uses.
        used = {}  # role -> compiles whose main parts the role's program concatenates
        order = sorted(range(len(draw.bound)), key=lambda i: draw.bound[i][0].endswith(" preshader"))
        lines_out = {}
        for i in order:
            role, address, code, lines = draw.bound[i]
            preferred = []
            if role.endswith(" preshader"):
                owners = used.get(role[: -len(" preshader")], [])
                preferred = [(label, pcode) for c, fname, label, pcode in part_code
                             if fname == "preamble" and c in owners]
            labels = decompose(code, preferred + candidates)
            if labels is None:
                fail(f"draw {draw.name}: the {role} code at 0x{address:x} ({len(code)} bytes) is no "
                     f"concatenation of parts compiled before it")
            used[role] = [c for c, fname, label, _ in part_code if fname == "main" and label in labels]
            key = (role, code)
            if key not in seen:
                stem = f"{draw.name}.{slug(role)}"
                seen[key] = stem
                write_bytes(os.path.join(out_dir, "linked", stem + ".bin"), code)
                write(os.path.join(out_dir, "linked", stem + ".dis"), "\n".join(lines) + "\n")
            lines_out[i] = (f"{draw.name} | {role} | 0x{address:x} | {seen[key]} | {len(code)} | "
                            f"= {' + '.join(labels)}")
        linked_index.extend(lines_out[i] for i in range(len(draw.bound)))
        mains = {}
        for role in ("vertex", "fragment"):
            for c in used[role]:
                if c.kind in ("vertex main", "fragment main", "vertex prolog", "fragment prolog"):
                    mains[c.kind] = c
        stems = [seen[(b[0], b[2])] for b in draw.bound]
        text = [f"  [disassembly: linked/{stems[int(l[1:])]}.dis]" if l.startswith("\0") else l for l in text]
        write(os.path.join(out_dir, "submits", draw.name + ".txt"), "\n".join(text) + "\n")
        for kind in ("vertex main", "fragment main"):
            if kind not in mains:
                fail(f"draw {draw.name}: no {kind} among the parts bound")

        json_path = os.path.join(run_dir, "draws", draw.name + ".json")
        if not os.path.exists(json_path):
            fail(f"draw {draw.name}: no draws/{draw.name}.json")
        with open(json_path, encoding="utf-8") as f:
            data = json.load(f)
        check_json(draw, data, mains["vertex main"], mains["fragment main"], mains.get("vertex prolog"),
                   mains.get("fragment prolog"))
        shutil.copyfile(json_path, os.path.join(out_dir, "draws", draw.name + ".json"))
    write(os.path.join(out_dir, "linked", "index.txt"), "\n".join(linked_index) + "\n")

    extra = set(os.listdir(os.path.join(run_dir, "draws"))) - {d.name + ".json" for d in draws}
    if extra:
        fail(f"draws/ has JSON for draws that were not recorded: {sorted(extra)}")
    for name in ("device.txt", "hk_capture.log"):
        shutil.copyfile(os.path.join(run_dir, name), os.path.join(out_dir, name))
    print(f"hk_split: {len(compiles)} compiles, {len(part_code)} parts, {len(draws)} draws, "
          f"{len(seen)} distinct bound binaries")


def main(argv):
    if len(argv) != 3:
        print("usage: hk_split.py RUN_DIR OUT_DIR", file=sys.stderr)
        return 2
    try:
        split(argv[1], argv[2])
    except (SplitError, OSError, ValueError, KeyError) as e:
        print(f"hk_split: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
