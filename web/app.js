// The page: an editor for .gsir text, and the gpuabi-web API (WebAssembly) behind four
// views. Every request and answer is JSON, as crates/gpuabi-web documents.
import init, * as api from "./pkg/gpuabi_web.js";

const $ = (id) => document.getElementById(id);
const call = (f, request) => JSON.parse(f(JSON.stringify(request)));
const el = (tag, props = {}, ...kids) => {
  const e = Object.assign(document.createElement(tag), props);
  for (const k of kids) e.append(k);
  return e;
};

let examples = [];
let lastCompile = null;

function status(text) { $("status").textContent = text; }

// ---- editor ----
function updateGutter() {
  const n = $("source").value.split("\n").length;
  let s = "";
  for (let i = 1; i <= n; i++) s += i + "\n";
  $("gutter").textContent = s;
  $("source").rows = n + 1;
  $("source").style.height = "auto";
}

// Moves the caret to LINE:COLUMN (1-based, columns in bytes as the API counts them).
function goTo(line, column) {
  const ta = $("source");
  const lines = ta.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  const text = lines[line - 1] || "";
  // Byte column to character column.
  let bytes = 0, ch = 0;
  const enc = new TextEncoder();
  while (ch < text.length && bytes < column - 1) { bytes += enc.encode(text[ch]).length; ch++; }
  ta.focus();
  ta.setSelectionRange(offset + ch, offset + ch + 1);
  const lh = parseFloat(getComputedStyle(ta).lineHeight) || 17;
  $("editor").scrollTop = Math.max(0, (line - 5) * lh);
}

function showErrors(error) {
  const ul = $("errors");
  ul.replaceChildren();
  if (!error) return;
  const items = error.kind === "source" ? error.diagnostics
    : error.at ? [error.at] : [{ rendered: error.message }];
  for (const d of items) {
    const text = d.rendered || d.message;
    const b = el("button", { textContent: text, type: "button" });
    if (d.line) {
      b.setAttribute("aria-label", `error at line ${d.line}, column ${d.column}: ${d.message}`);
      b.onclick = () => goTo(d.line, d.column);
    }
    ul.append(el("li", {}, b));
  }
}

// ---- launch flags from an example's `gpuabi run` comment ----
function launchFromComment(source) {
  const lines = source.split("\n").filter((l) => l.startsWith(";"));
  const start = lines.findIndex((l) => /gpuabi run /.test(l));
  if (start < 0) return null;
  let cmd = "";
  for (let i = start; i < lines.length; i++) {
    const l = lines[i].replace(/^;\s*/, "");
    cmd += " " + l.replace(/\\$/, "");
    if (!/\\\s*$/.test(lines[i])) break;
  }
  const words = cmd.trim().split(/\s+/);
  const flags = { grid: "", group: "", kernel: "", buffers: [], args: [], image: "" };
  for (let i = 0; i < words.length; i++) {
    const w = words[i], v = words[i + 1];
    if (w === "--grid" || w === "--global") flags.grid = v;
    else if (w === "--group" || w === "--local") flags.group = v;
    else if (w === "--kernel") flags.kernel = v;
    // The page has no files: a buffer read from a file starts zero-filled here.
    else if (w === "--buffer") flags.buffers.push(v.replace(/^([^=]+=[^:]+):.*$/, "$1"));
    else if (w === "--arg") flags.args.push(v);
    else if (w === "--png") flags.image = v.split(":").slice(0, 2).join(":");
  }
  return flags;
}

function loadExample(name) {
  const e = examples.find((x) => x.name === name);
  if (!e) return;
  $("source").value = e.source;
  updateGutter();
  const f = launchFromComment(e.source);
  if (f) {
    $("grid").value = f.grid; $("group").value = f.group; $("kernel").value = f.kernel;
    $("buffers").value = f.buffers.join("\n"); $("args").value = f.args.join("\n");
    $("image").value = f.image;
  }
  check();
}

function check() {
  const a = call(api.check, { source: $("source").value });
  showErrors(a.ok ? null : a.error);
  status(a.ok ? `ok: ${a.result.functions} function(s), kernels ${a.result.kernels.map((k) => k.name).join(", ")}` : a.error.message);
  return a.ok;
}

// ---- compile ----
function targetRequest() {
  const t = { target: $("target").value };
  if ($("wave").value) t.wave = Number($("wave").value);
  return t;
}

function compile() {
  const t0 = performance.now();
  const a = call(api.compile, { source: $("source").value, ...targetRequest() });
  const ms = performance.now() - t0;
  showErrors(a.ok ? null : a.error);
  if (!a.ok) { status(a.error.message); return; }
  lastCompile = a.result;
  status(`compiled for ${a.result.target} wave${a.result.wave} in ${ms.toFixed(0)} ms`);
  renderAssembly(a.result);
  renderFrameList(a.result);
}

function renderAssembly(r) {
  const lines = r.assembly.split("\n");
  const callAt = new Map(r.calls.map((c, i) => [c.line, i]));
  const costAt = new Set(r.calls.flatMap((c) => c.instructions.map((x) => x.line)));
  const pre = $("asm");
  pre.replaceChildren();
  lines.forEach((text, i) => {
    const n = i + 1;
    const span = el("span", { id: `asm-${n}` });
    if (callAt.has(n)) {
      const k = r.calls[callAt.get(n)];
      span.className = "call";
      span.append(el("a", { href: `#frame-${callAt.get(n)}`, textContent: text,
        title: `call of ${k.callee} under ${k.abi}: show its frame`,
        onclick: (ev) => { ev.preventDefault(); showFrame(callAt.get(n)); selectTab("tab-frames"); } }));
    } else {
      if (costAt.has(n)) span.className = "cost";
      span.textContent = text;
    }
    pre.append(span, "\n");
  });
  const fns = r.functions.length, calls = r.calls.length;
  $("asm-summary").textContent = `${lines.length} lines, ${fns} function(s), ${calls} call site(s) (blue: calls, linked to their frames; yellow: the instructions calls cost).`;
}

function renderFrameList(r) {
  const ol = $("frame-list");
  ol.replaceChildren();
  r.calls.forEach((k, i) => {
    ol.append(el("li", {}, el("button", { type: "button", id: `frame-${i}`,
      textContent: `${k.caller} → ${k.callee} (${k.abi}) at source ${k.source[0]}:${k.source[1]}, listing line ${k.line}`,
      onclick: () => showFrame(i) })));
  });
  $("frame").replaceChildren();
  if (!r.calls.length) $("frame").textContent = "No calls in this module.";
}

function table(header, rows) {
  const t = el("table");
  t.append(el("tr", {}, ...header.map((h) => el("th", { textContent: h }))));
  for (const r of rows) t.append(el("tr", {}, ...r.map((c) => el("td", { textContent: String(c) }))));
  return t;
}

function asmLink(line, text) {
  return el("a", { href: `#asm-${line}`, textContent: text ?? `line ${line}`, onclick: (ev) => {
    ev.preventDefault(); selectTab("tab-asm");
    document.querySelectorAll("#asm .here").forEach((e) => e.classList.remove("here"));
    const s = $(`asm-${line}`); s.classList.add("here"); s.scrollIntoView({ block: "center" });
  } });
}

function showFrame(i) {
  const k = lastCompile.calls[i];
  const f = $("frame");
  f.replaceChildren(
    el("h3", { textContent: `${k.caller} calls ${k.callee} under ${k.abi}` }),
    el("p", {}, "Source ", el("a", { href: "#", textContent: `${k.source[0]}:${k.source[1]}`,
      onclick: (ev) => { ev.preventDefault(); goTo(k.source[0], k.source[1]); } }),
      ", the call at listing ", asmLink(k.line),
      `; stack pointer ${k.stack_pointer}; ${k.scratch_param_bytes} bytes of parameters in scratch; register limit ${k.limit[0]} SGPRs, ${k.limit[1]} VGPRs.`),
    el("h4", { textContent: "Parameters" }),
    table(["ABI name", "IR name", "kind", "class", "location", "return", "handed back"],
      k.params.map((p) => [p.name, p.ir_name ? "%" + p.ir_name : "", p.kind, p.class, p.location, p.is_return ? "yes" : "", p.needs_explicit_preservation ? "yes" : ""])),
    el("h4", { textContent: "Registers" }),
    table(["", "SGPRs", "VGPRs"], [
      ["preserved by the callee", k.preserved.sgpr.join(" ") || "—", k.preserved.vgpr.join(" ") || "—"],
      ["clobbered by the call", k.clobbered.sgpr.join(" ") || "—", k.clobbered.vgpr.join(" ") || "—"]]),
    el("h4", { textContent: `Instructions the call cost (${k.overhead.parameter_copies} copies, ${k.overhead.call_linkage} linkage, ${k.overhead.spills} spills)` }),
    el("p", {}, ...k.instructions.flatMap((x) => [asmLink(x.line, `${x.line} (${x.cost})`), " "])),
  );
  const callee = lastCompile.functions.findIndex((fn) => fn.name === k.callee);
  if (callee >= 0 && lastCompile.callee_saves[callee].length) {
    f.append(el("h4", { textContent: `Saves and restores in ${k.callee}` }),
      el("p", {}, ...lastCompile.callee_saves[callee].flatMap((l) => [asmLink(l), " "])));
  }
  f.querySelector("h3").tabIndex = -1;
  f.querySelector("h3").focus();
}

// ---- run ----
const lines = (id) => $(id).value.split("\n").map((s) => s.trim()).filter(Boolean);

function bytesOf(hex) {
  const b = new Uint8Array(hex.length / 2);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(hex.substr(i * 2, 2), 16);
  return b;
}

function bufferTable(bytes, format) {
  const dv = new DataView(bytes.buffer);
  const rows = [];
  const maxRows = 64;
  for (let off = 0; off < bytes.length && rows.length < maxRows; off += 16) {
    const row = [off.toString(16).padStart(8, "0")];
    for (let w = off; w < off + 16; w += 4) {
      if (w + 4 > bytes.length) { row.push(""); continue; }
      if (format === "hex") row.push(Array.from(bytes.slice(w, w + 4), (x) => x.toString(16).padStart(2, "0")).join(" "));
      else if (format === "i32") row.push(dv.getInt32(w, true));
      else if (format === "f32") row.push(dv.getFloat32(w, true));
      else row.push(dv.getUint32(w, true));
    }
    rows.push(row);
  }
  const t = table(["offset", "+0", "+4", "+8", "+12"], rows);
  return bytes.length > maxRows * 16 ? [t, el("p", { textContent: `(first ${maxRows * 16} of ${bytes.length} bytes)` })] : [t];
}

function imageOf(bytes, spec) {
  const m = /^([^:]+):(\d+)x(\d+)$/.exec(spec);
  if (!m) return null;
  const [w, h] = [Number(m[2]), Number(m[3])];
  if (bytes.length < w * h * 4) return el("p", { className: "error", textContent: `${spec}: the buffer has ${bytes.length} bytes, not ${w * h * 4}` });
  const c = el("canvas", { width: w, height: h });
  c.setAttribute("role", "img");
  c.setAttribute("aria-label", `buffer ${m[1]} as a ${w}×${h} image`);
  c.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(bytes.slice(0, w * h * 4)), w, h), 0, 0);
  return c;
}

function runPanel(title, result, extra) {
  const div = el("div", {}, el("h3", { textContent: title }));
  if (!result) return div;
  if (result.Err) {
    const e = result.Err;
    div.append(el("p", { className: "error", textContent: e.message }));
    if (e.at) div.append(el("a", { href: "#", textContent: `go to ${e.at[0]}:${e.at[1]}`, onclick: (ev) => { ev.preventDefault(); goTo(e.at[0], e.at[1]); } }));
    return div;
  }
  const r = result.Ok;
  extra(div, r);
  const spec = $("image").value.trim();
  for (const b of r.buffers) {
    const bytes = bytesOf(b.hex);
    div.append(el("h4", { textContent: `buffer ${b.name} (${bytes.length} bytes)` }));
    if (spec && spec.split(":")[0] === b.name) { const img = imageOf(bytes, spec); if (img) div.append(img); }
    div.append(...bufferTable(bytes, $("format").value));
  }
  return div;
}

function run() {
  const req = {
    source: $("source").value, grid: $("grid").value.trim(),
    buffers: lines("buffers"), args: lines("args"), interpreter: $("use-interp").checked,
  };
  if ($("group").value.trim()) req.group = $("group").value.trim();
  if ($("kernel").value.trim()) req.kernel = $("kernel").value.trim();
  if ($("use-sim").checked) req.target = targetRequest();
  status("running…");
  setTimeout(() => {
    const t0 = performance.now();
    const a = call(api.run, req);
    const ms = performance.now() - t0;
    showErrors(a.ok ? null : a.error);
    selectTab("tab-run");
    if (!a.ok) { status(a.error.message); $("run-interp").replaceChildren(); $("run-sim").replaceChildren(); return; }
    const r = a.result;
    status(`ran @${r.kernel} in ${ms.toFixed(0)} ms`);
    $("compare").textContent = r.identical === true ? "Interpreter and simulator left identical buffers."
      : r.difference ? `Buffer ${r.difference.buffer} differs at byte ${r.difference.offset}: interpreter ${r.difference.interpreter}, compiled ${r.difference.simulator}.` : "";
    $("compare").className = r.identical === true ? "ok" : "error";
    $("run-interp").replaceChildren(runPanel("Interpreter", r.interpreter, (div, o) =>
      div.append(el("p", { textContent: `${o.invocations} invocation(s), ${o.steps} instruction(s)` }))));
    $("run-sim").replaceChildren(runPanel(`Simulator${r.simulator && r.simulator.Ok ? ` (${r.simulator.Ok.target} wave${r.simulator.Ok.wave})` : ""}`, r.simulator, (div, o) => {
      div.append(el("p", { textContent: `${o.stats.waves} wave(s); ${o.checked_returns} call return(s) checked against their callees' ABIs; ${o.violations.length} contract violation(s)` }));
      if (o.violations.length) {
        const ul = el("ul");
        for (const v of o.violations) ul.append(el("li", {}, v.at ? el("a", { href: "#", textContent: `${v.at[0]}:${v.at[1]}`, onclick: (ev) => { ev.preventDefault(); goTo(v.at[0], v.at[1]); } }) : "", " " + v.message));
        div.append(ul);
      }
      const s = o.stats;
      div.append(el("h4", { textContent: "statistics (--stats)" }), table(["count", "value"], [
        ["wave instructions", s.by_class.reduce((x, y) => x + y, 0)],
        ...o.classes.map((c, i) => ["  " + c, s.by_class[i]]),
        ["lane instructions", s.lane_instructions], ["calls", s.calls],
        ["scratch bytes loaded/stored", `${s.scratch_bytes_loaded}/${s.scratch_bytes_stored}`],
        ["buffer accesses out of range", s.buffer_out_of_range], ["LDS dwords out of range", s.lds_out_of_range],
        ["barriers released", s.barriers], ["scheduling hints (no-ops)", s.scheduling_hints], ["waits (no-ops)", s.waits]]));
      const cell = (e, l) => `${e} [${l}]`;
      const total = (x) => x.callee_saves + x.parameter_copies + x.call_linkage + x.spills;
      if (o.sites.length) {
        div.append(el("h4", { textContent: "call-ABI overhead per function, executed [static]" }),
          table(["function", "callee saves", "param copies", "linkage", "spills", "total"], o.functions.map((f) =>
            [f.function, cell(f.executed.callee_saves, f.listed.callee_saves), cell(f.executed.parameter_copies, f.listed.parameter_copies),
              cell(f.executed.call_linkage, f.listed.call_linkage), cell(f.executed.spills, f.listed.spills), cell(total(f.executed), total(f.listed))])),
          el("h4", { textContent: "per call site, executed [static]" }),
          table(["call site", "caller", "callee", "param copies", "linkage", "spills", "total"], o.sites.map((k) =>
            [`${k.site[0]}:${k.site[1]}`, k.caller, k.callee, cell(k.executed.parameter_copies, k.listed.parameter_copies),
              cell(k.executed.call_linkage, k.listed.call_linkage), cell(k.executed.spills, k.listed.spills), cell(total(k.executed), total(k.listed))])));
      }
    }));
  }, 0);
}

// ---- ACO ----
function aco(ev) {
  if (ev) ev.preventDefault();
  const q = { target: $("aco-target").value, policy: $("aco-policy").value,
    payload: Number($("aco-payload").value) || 0, hit_attribs: Number($("aco-hit").value) || 0 };
  if ($("aco-wave").value) q.wave = Number($("aco-wave").value);
  const lim = $("aco-limit").value.trim();
  if (lim) q.limit = lim.split(",").map(Number);
  const abi = $("aco-abi").value === "toml" ? $("aco-toml").value : $("aco-abi").value;
  const out = $("aco-out");
  out.replaceChildren();
  const stage = $("aco-stage").value;
  const ranges = call(api.aco_ranges, { ...q, abi });
  // A stage brings RADV's signature and the stage's own ABI.
  const assignReq = { ...q, ...(stage ? { stage } : { sig: $("aco-sig").value, abi }) };
  const assigned = call(api.aco_assign, assignReq);
  for (const [title, a] of [["aco ranges", ranges], ["aco assign", assigned]]) {
    out.append(el("h3", { textContent: title + (title === "aco assign" && stage ? ` --stage ${stage}` : "") }));
    if (!a.ok) { out.append(el("p", { className: "error", textContent: a.error.message })); continue; }
    const pic = el("div");
    pic.innerHTML = a.result.svg; // gpuabi's own SVG renderer, not user HTML
    out.append(pic, el("pre", { textContent: a.result.text }));
  }
}

// ---- tabs, keys ----
function selectTab(id) {
  for (const t of document.querySelectorAll("[role=tab]")) {
    const on = t.id === id;
    t.setAttribute("aria-selected", on); t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
}

function wire() {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  tabs.forEach((t, i) => {
    t.onclick = () => selectTab(t.id);
    t.onkeydown = (ev) => {
      const d = ev.key === "ArrowRight" ? 1 : ev.key === "ArrowLeft" ? -1 : 0;
      if (!d) return;
      const n = tabs[(i + d + tabs.length) % tabs.length];
      selectTab(n.id); n.focus();
    };
  });
  $("example").onchange = () => loadExample($("example").value);
  $("compile").onclick = compile;
  $("run").onclick = run;
  $("aco").onsubmit = aco;
  $("source").oninput = updateGutter;
  // Tab inserts two spaces in the editor; Escape then Tab leaves it, as in other editors.
  let escaped = false;
  $("source").onkeydown = (ev) => {
    if (ev.key === "Escape") { escaped = true; return; }
    if (ev.key === "Tab" && !escaped && !ev.shiftKey) {
      ev.preventDefault();
      const ta = ev.target, s = ta.selectionStart;
      ta.setRangeText("  ", s, ta.selectionEnd, "end");
    }
    escaped = false;
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); if (ev.shiftKey) run(); else compile(); }
  });
}

async function main() {
  await init();
  examples = JSON.parse(api.examples());
  for (const e of examples) $("example").append(el("option", { textContent: e.name }));
  wire();
  const first = examples.find((e) => e.name === "raytrace.gsir") ? "raytrace.gsir" : examples[0].name;
  $("example").value = first;
  loadExample(first);
  compile();
  // `#run`, `#frames` and `#aco` open the page on that view, done (for links and tests).
  if (location.hash === "#run") run();
  if (location.hash === "#frames" && lastCompile && lastCompile.calls.length) { showFrame(0); selectTab("tab-frames"); }
  if (location.hash === "#aco") { aco(); selectTab("tab-aco"); }
}

main().catch((e) => status(`cannot start: ${e}`));
