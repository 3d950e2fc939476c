#!/usr/bin/env python3
"""Checks a ray-tracing scene file (SCENE.toml) and writes it as scene.txt, the line format
rt_scene.c reads (tools/mesa/README.md describes both).

    rt_scene.py SCENE.toml OUT_TXT

Prints the scene's shader files (paths relative to SCENE.toml's directory), one a line, on
stdout. A bad scene gets `FILE:LINE: KEY: message` (without LINE where the key has no line of
its own) on stderr and exit code 1. Python 3.11 standard library only (tomllib).
"""

import math
import re
import struct
import sys
import tomllib
from pathlib import Path, PurePosixPath

# The file extensions glslangValidator takes a ray-tracing stage from, by SCENE.toml key.
STAGE_EXT = {
    "raygen": ".rgen",
    "miss": ".rmiss",
    "callable": ".rcall",
    "closest_hit": ".rchit",
    "any_hit": ".rahit",
    "intersection": ".rint",
}
TOP_KEYS = {"width", "height", "shaders", "hit_group", "geometry", "instance",
            "push_constants", "max_recursion"}
SHADER_KEYS = {"raygen", "miss", "callable"}
HIT_GROUP_KEYS = {"closest_hit", "any_hit", "intersection"}
GEOMETRY_KEYS = {"triangles", "aabbs", "opaque"}
INSTANCE_KEYS = {"geometry", "transform", "custom_index", "mask", "hit_group", "flags"}
IDENTITY = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
# Vulkan's limits: a TLAS instance's custom index and SBT record offset are 24 bits, its mask
# and flags 8 bits (VkAccelerationStructureInstanceKHR); 128 bytes of push constants is the
# smallest maxPushConstantsSize a device may have; 31 is the largest maxRayRecursionDepth.
MAX_U24 = (1 << 24) - 1
MAX_PUSH_WORDS = 32
MAX_RECURSION = 31
MAX_SIDE = 4096

HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_-]+)\s*\]\]?\s*(#.*)?$")
KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


class SceneError(Exception):
    """A bad scene: the key (as `instance[1].transform`) and what was expected."""

    def __init__(self, key, message):
        super().__init__(message)
        self.key = key
        self.message = message


def key_lines(text):
    """The line of every key and array-of-tables entry: ('instance', 1, 'mask') -> 14."""
    lines = {}
    table = ()
    counts = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = HEADER.match(line)
        if m:
            name = m.group(2)
            if m.group(1) == "[[":
                index = counts.get(name, 0)
                counts[name] = index + 1
                table = (name, index)
            else:
                table = (name,)
            lines.setdefault(table, number)
            continue
        m = KEY.match(line)
        if m:
            lines.setdefault(table + (m.group(1),), number)
    return lines


def key_name(path):
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


def check_keys(table, allowed, path):
    for key in table:
        if key not in allowed:
            raise SceneError(path + (key,), f"unknown key; expected one of {', '.join(sorted(allowed))}")


def integer(value, path, lo, hi, what="an integer"):
    if isinstance(value, bool) or not isinstance(value, int):
        raise SceneError(path, f"expected {what}, got {type(value).__name__} {value!r}")
    if not lo <= value <= hi:
        raise SceneError(path, f"{value} is out of range {lo}..{hi}")
    return value


def f32(value, path):
    """The number as the fp32 Vulkan gets (round to nearest even), as its bits."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SceneError(path, f"expected a number, got {type(value).__name__} {value!r}")
    if not math.isfinite(float(value)):
        raise SceneError(path, f"{value} is not finite")
    try:
        bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
    except OverflowError:
        raise SceneError(path, f"{value} does not fit in a 32-bit float") from None
    return bits


def numbers(value, path, count):
    if not isinstance(value, list) or len(value) != count:
        n = len(value) if isinstance(value, list) else type(value).__name__
        raise SceneError(path, f"expected a list of {count} numbers, got {n}")
    return [f32(v, path) for v in value]


def bits_float(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def shader_file(value, path, kind, base):
    if not isinstance(value, str) or not value:
        raise SceneError(path, "expected a file name (a string)")
    rel = PurePosixPath(value)
    if rel.is_absolute() or ".." in rel.parts:
        raise SceneError(path, f"`{value}`: expected a path inside the scene's directory")
    if rel.suffix != STAGE_EXT[kind]:
        raise SceneError(path, f"`{value}`: a {kind} shader's file must end in {STAGE_EXT[kind]}")
    if not (base / rel).is_file():
        raise SceneError(path, f"`{value}`: no such file in {base}")
    return str(rel)


def file_list(value, path, kind, base):
    if not isinstance(value, list):
        raise SceneError(path, "expected a list of file names")
    return [shader_file(v, path + (i,), kind, base) for i, v in enumerate(value)]


def load(path):
    """The scene as a dict of plain values, checked; raises SceneError or tomllib's error."""
    base = path.parent
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    check_keys(doc, TOP_KEYS, ())
    for key in ("width", "height", "shaders", "geometry", "instance"):
        if key not in doc:
            raise SceneError((key,), "missing")
    scene = {
        "width": integer(doc["width"], ("width",), 1, MAX_SIDE),
        "height": integer(doc["height"], ("height",), 1, MAX_SIDE),
        "max_recursion": integer(doc.get("max_recursion", 2), ("max_recursion",), 0, MAX_RECURSION),
    }

    shaders = doc["shaders"]
    if not isinstance(shaders, dict):
        raise SceneError(("shaders",), "expected a table")
    check_keys(shaders, SHADER_KEYS, ("shaders",))
    if "raygen" not in shaders:
        raise SceneError(("shaders", "raygen"), "missing")
    scene["raygen"] = shader_file(shaders["raygen"], ("shaders", "raygen"), "raygen", base)
    scene["miss"] = file_list(shaders.get("miss", []), ("shaders", "miss"), "miss", base)
    scene["callable"] = file_list(shaders.get("callable", []), ("shaders", "callable"), "callable", base)

    groups = doc.get("hit_group", [])
    if not isinstance(groups, list):
        raise SceneError(("hit_group",), "expected an array of tables ([[hit_group]])")
    scene["hit_groups"] = []
    for i, g in enumerate(groups):
        p = ("hit_group", i)
        check_keys(g, HIT_GROUP_KEYS, p)
        if "closest_hit" not in g:
            raise SceneError(p + ("closest_hit",), "missing")
        scene["hit_groups"].append({k: shader_file(g[k], p + (k,), k, base) if k in g else None
                                    for k in ("closest_hit", "any_hit", "intersection")})

    geometries = doc["geometry"]
    if not isinstance(geometries, list) or not geometries:
        raise SceneError(("geometry",), "expected at least one [[geometry]]")
    scene["geometries"] = []
    for i, g in enumerate(geometries):
        p = ("geometry", i)
        check_keys(g, GEOMETRY_KEYS, p)
        opaque = g.get("opaque", True)
        if not isinstance(opaque, bool):
            raise SceneError(p + ("opaque",), f"expected true or false, got {opaque!r}")
        if ("triangles" in g) == ("aabbs" in g):
            raise SceneError(p, "expected exactly one of `triangles` and `aabbs`")
        if "triangles" in g:
            verts = g["triangles"]
            if not isinstance(verts, list) or not verts or len(verts) % 3:
                n = len(verts) if isinstance(verts, list) else type(verts).__name__
                raise SceneError(p + ("triangles",),
                                 f"expected a non-empty list of [x, y, z], three a triangle; got {n}")
            data = [numbers(v, p + ("triangles", j), 3) for j, v in enumerate(verts)]
            scene["geometries"].append({"kind": "triangles", "opaque": opaque,
                                        "count": len(data) // 3, "data": data})
        else:
            boxes = g["aabbs"]
            if not isinstance(boxes, list) or not boxes:
                raise SceneError(p + ("aabbs",), "expected a non-empty list of [minx, miny, minz, maxx, maxy, maxz]")
            data = []
            for j, b in enumerate(boxes):
                box = numbers(b, p + ("aabbs", j), 6)
                if any(bits_float(box[k]) > bits_float(box[k + 3]) for k in range(3)):
                    raise SceneError(p + ("aabbs", j), "a minimum is larger than its maximum")
                data.append(box)
            scene["geometries"].append({"kind": "aabbs", "opaque": opaque, "count": len(data), "data": data})

    instances = doc["instance"]
    if not isinstance(instances, list) or not instances:
        raise SceneError(("instance",), "expected at least one [[instance]]")
    scene["instances"] = []
    for i, inst in enumerate(instances):
        p = ("instance", i)
        check_keys(inst, INSTANCE_KEYS, p)
        if "geometry" not in inst:
            raise SceneError(p + ("geometry",), "missing")
        hit_groups = len(scene["hit_groups"])
        if hit_groups == 0:
            raise SceneError(("hit_group",), "an instance needs at least one [[hit_group]]")
        scene["instances"].append({
            "geometry": integer(inst["geometry"], p + ("geometry",), 0, len(geometries) - 1,
                                "a [[geometry]] index"),
            "transform": numbers(inst.get("transform", IDENTITY), p + ("transform",), 12),
            "custom_index": integer(inst.get("custom_index", 0), p + ("custom_index",), 0, MAX_U24),
            "mask": integer(inst.get("mask", 0xFF), p + ("mask",), 0, 0xFF),
            # The record a ray with SBT offset 0 reaches must exist.
            "hit_group": integer(inst.get("hit_group", 0), p + ("hit_group",), 0, hit_groups - 1,
                                 "a [[hit_group]] index (the instance's SBT record offset)"),
            "flags": integer(inst.get("flags", 0), p + ("flags",), 0, 0xFF,
                             "VkGeometryInstanceFlagsKHR bits"),
        })

    push = doc.get("push_constants", [])
    if not isinstance(push, list) or len(push) > MAX_PUSH_WORDS:
        raise SceneError(("push_constants",), f"expected a list of at most {MAX_PUSH_WORDS} u32")
    scene["push_constants"] = [integer(v, ("push_constants", j), 0, 0xFFFFFFFF, "a u32")
                               for j, v in enumerate(push)]
    return scene


def stages_and_groups(scene):
    """The pipeline's stages (each (kind, file) once) and its groups in SBT order: raygen,
    miss, hit, callable."""
    stages = []

    def stage(kind, file):
        if file is None:
            return -1
        if (kind, file) not in stages:
            stages.append((kind, file))
        return stages.index((kind, file))

    groups = [("general", stage("raygen", scene["raygen"]), -1, -1, -1)]
    groups += [("general", stage("miss", f), -1, -1, -1) for f in scene["miss"]]
    for g in scene["hit_groups"]:
        kind = "procedural" if g["intersection"] else "triangles"
        groups.append((kind, -1, stage("closest_hit", g["closest_hit"]), stage("any_hit", g["any_hit"]),
                       stage("intersection", g["intersection"])))
    groups += [("general", stage("callable", f), -1, -1, -1) for f in scene["callable"]]
    return stages, groups


def spv_name(file):
    return file.replace("/", "_") + ".spv"


def write_txt(scene, out):
    stages, groups = stages_and_groups(scene)
    names = [spv_name(f) for _, f in stages]
    if len(set(names)) != len(set(f for _, f in stages)):
        raise SceneError(("shaders",), "two shader files map to the same SPIR-V name; rename one")
    w = []
    w.append("# A ray-tracing scene as tools/mesa/rt_scene.py writes it for rt_scene.c; floats are")
    w.append("# fp32 bit patterns (SCENE.toml's numbers rounded to nearest even).")
    w.append(f"size {scene['width']} {scene['height']}")
    w.append(f"max_recursion {scene['max_recursion']}")
    w.append(" ".join(["push_constants", str(len(scene["push_constants"]))] +
                      [f"0x{v:08x}" for v in scene["push_constants"]]))
    w.append(f"sbt {1} {len(scene['miss'])} {len(scene['hit_groups'])} {len(scene['callable'])}")
    w.append(f"stages {len(stages)}")
    for i, (kind, file) in enumerate(stages):
        w.append(f"stage {i} {kind} {spv_name(file)} {file}")
    w.append(f"groups {len(groups)}")
    for i, (kind, general, chit, ahit, isec) in enumerate(groups):
        w.append(f"group {i} {kind} {general} {chit} {ahit} {isec}")
    w.append(f"geometries {len(scene['geometries'])}")
    for i, g in enumerate(scene["geometries"]):
        w.append(f"geometry {i} {g['kind']} opaque={int(g['opaque'])} count={g['count']}")
        for row in g["data"]:
            w.append("  " + " ".join(f"0x{b:08x}" for b in row))
    w.append(f"instances {len(scene['instances'])}")
    for i, inst in enumerate(scene["instances"]):
        w.append(f"instance {i} geometry={inst['geometry']} custom_index={inst['custom_index']} "
                 f"mask=0x{inst['mask']:02x} hit_group={inst['hit_group']} flags=0x{inst['flags']:02x}")
        w.append("  " + " ".join(f"0x{b:08x}" for b in inst["transform"]))
    w.append("end")
    out.write_text("\n".join(w) + "\n", encoding="utf-8")
    return sorted(set(f for _, f in stages))


def main(argv):
    if len(argv) != 3:
        print("usage: rt_scene.py SCENE.toml OUT_TXT", file=sys.stderr)
        return 1
    path = Path(argv[1])
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(f"{path}: cannot read: {e}", file=sys.stderr)
        return 1
    try:
        scene = load(path)
        files = write_txt(scene, Path(argv[2]))
    except tomllib.TOMLDecodeError as e:
        print(f"{path}: not TOML: {e}", file=sys.stderr)
        return 1
    except SceneError as e:
        lines = key_lines(text)
        # The key's own line, else that of the nearest enclosing key or table.
        line = next((lines[e.key[:n]] for n in range(len(e.key), 0, -1) if e.key[:n] in lines), None)
        where = f"{path}:{line}" if line else str(path)
        print(f"{where}: {key_name(e.key) or '(top level)'}: {e.message}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{argv[2]}: cannot write: {e}", file=sys.stderr)
        return 1
    for f in files:
        print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
