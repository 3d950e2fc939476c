// Loads the built page's WebAssembly (web/dist, from `bash web/build.sh`) in Node, compiles
// and runs examples/raytrace.gsir for gfx1100 with the README's launch, and compares the
// image with the PNG `gpuabi run` writes for the same launch (out/raytrace.png; the test
// runs the README's command first when that file is missing or older than the example).
//
//   node --test web/test/
//
// Prints the time of compiling the ray tracer in WebAssembly: the first compilation and the
// fastest of GPUABI_WEB_COMPILE_RUNS (default 5).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dist = join(root, "web", "dist");
const png = join(root, "out", "raytrace.png");
const example = join(root, "examples", "raytrace.gsir");

// The README's first command, as its flags.
const launch = {
  grid: "128,128", group: "8,8",
  buffers: ["image=64K", "scene=1K"], args: ["width=128", "height=128"],
};

async function loadApi() {
  const js = join(dist, "pkg", "gpuabi_web.js");
  assert.ok(existsSync(js), `${js} is missing: run bash web/build.sh first`);
  const api = await import(js);
  api.initSync({ module: readFileSync(join(dist, "pkg", "gpuabi_web_bg.wasm")) });
  return api;
}

const call = (f, request) => JSON.parse(f(JSON.stringify(request)));

// RGBA8 pixels of a non-interlaced 8-bit RGBA PNG (what `gpuabi run --png` writes).
function decodePng(file) {
  const data = readFileSync(file);
  assert.deepEqual([...data.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], "PNG signature");
  let pos = 8, width = 0, height = 0;
  const idat = [];
  while (pos < data.length) {
    const len = data.readUInt32BE(pos);
    const type = data.toString("latin1", pos + 4, pos + 8);
    const body = data.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = body.readUInt32BE(0); height = body.readUInt32BE(4);
      assert.deepEqual([body[8], body[9], body[12]], [8, 6, 0], "8-bit RGBA, not interlaced");
    } else if (type === "IDAT") idat.push(body);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= 4 ? out[y * stride + x - 4] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= 4 && y > 0 ? out[(y - 1) * stride + x - 4] : 0;
      let v;
      switch (filter) {
        case 0: v = 0; break;
        case 1: v = a; break;
        case 2: v = b; break;
        case 3: v = (a + b) >> 1; break;
        case 4: { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
          v = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; break; }
        default: assert.fail(`PNG filter ${filter}`);
      }
      out[y * stride + x] = (line[x] + v) & 255;
    }
  }
  return { width, height, pixels: out };
}

function cliImage() {
  if (!existsSync(png) || statSync(png).mtimeMs < statSync(example).mtimeMs) {
    execFileSync("cargo", ["run", "--release", "-q", "--", "run", "examples/raytrace.gsir",
      "--grid", "128,128", "--group", "8,8", "--buffer", "image=64K", "--buffer", "scene=1K",
      "--arg", "width=128", "--arg", "height=128", "--target", "gfx1100", "--compare",
      "--png", "image:128x128:out/raytrace.png"], { cwd: root, stdio: "inherit" });
  }
  return decodePng(png);
}

test("the ray tracer renders in WebAssembly as gpuabi run renders it", async () => {
  const api = await loadApi();
  const source = readFileSync(example, "utf8");
  const a = call(api.run, { source, ...launch, target: { target: "gfx1100" } });
  assert.equal(a.ok, true, JSON.stringify(a.error));
  const sim = a.result.simulator.Ok;
  assert.ok(sim, JSON.stringify(a.result.simulator));
  assert.equal(sim.violations.length, 0);
  assert.equal(a.result.identical, true, "the interpreter and the simulator agree");
  const image = Buffer.from(sim.buffers.find((b) => b.name === "image").hex, "hex");
  const want = cliImage();
  assert.equal(want.width * want.height * 4, image.length);
  const first = want.pixels.findIndex((x, i) => x !== image[i]);
  assert.equal(first, -1, `first differing byte ${first}`);
});

test("a source error is reported at its line and column", async () => {
  const api = await loadApi();
  const a = call(api.check, { source: "fn @k() kernel {\n  %x = add i32 %y, 1\n  ret\n}\n" });
  assert.equal(a.ok, false);
  const d = a.error.diagnostics[0];
  assert.deepEqual([d.line, d.column], [2, "  %x = add i32 %y, 1".indexOf("%y") + 1]);
});

test("compiling the ray tracer in WebAssembly (timing)", async () => {
  const api = await loadApi();
  const source = readFileSync(example, "utf8");
  const runs = Number(process.env.GPUABI_WEB_COMPILE_RUNS || 5);
  let best = Infinity, first = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const a = call(api.compile, { source, target: "gfx1100" });
    const ms = performance.now() - t0;
    if (i === 0) first = ms;
    best = Math.min(best, ms);
    assert.equal(a.ok, true);
    assert.ok(a.result.calls.length > 0);
  }
  console.log(`raytrace.gsir compiled for gfx1100 in WebAssembly: first ${first.toFixed(1)} ms, fastest of ${runs} ${best.toFixed(1)} ms`);
});
