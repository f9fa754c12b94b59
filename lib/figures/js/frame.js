// Shared frame of the live figures (lib/figures/js/).
//
// lib/figures/live.py (module_source) joins the palette of lib/figures/_frame.py
// (the constants COLORS and STATE_COLORS, written ahead of this file), this file
// and one figure module (<name>.js, named after lib/figures/<name>.py) into the
// ES module of an anywidget. The figure module defines
// `const FIGURE = {compute, describe, draw}` and ends with
// `export default { render: liveRender(FIGURE) };`. Everything runs in the
// reader's browser: no kernel, no network. Nothing here touches the page before
// render() runs, so tests/test_figures_js.py imports the same module in node.
//
// compute(values, constants) -> data       (the physics, a port of <name>_data)
// describe(data) -> {text, key, rows}      (state label and readout, as <name>_describe)
// draw(data, values) -> [svg, ...]         (one Panel.svg() per panel: elements as data,
//                                           written into the page in place by patchChildren)
// A compute that throws InputError shows "not allowed: <message>", as the
// Python figure does for lib's DynamicsInputError.
// The name, title, controls and constants come from Python (FigureSpec).

class InputError extends Error {}

// ---------------------------------------------------------------- numbers

// Python's format(x, f".{d}f"): round half to even on the exact binary value,
// keep the sign of negative zero and of numbers that round to zero.
function fmt(x, d) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  // toFixed switches to exponent notation from 1e21 on; such a double is a whole number.
  if (a >= 1e21) return (neg ? "-" : "") + BigInt(a).toString() + (d > 0 ? "." + "0".repeat(d) : "");
  let s = a.toFixed(d);
  // toFixed rounds an exact tie up; Python rounds it to even.
  const exact = a.toFixed(Math.min(d + 25, 100));
  const tail = exact.slice(exact.length - 25);
  if (tail === "5" + "0".repeat(24)) {
    const down = exact.slice(0, exact.length - 25);
    const last = Number(down[down.length - 1] === "." ? down[down.length - 2] : down[down.length - 1]);
    if (last % 2 === 0) s = d === 0 ? down.replace(/\.$/, "") : down;
  }
  return (neg ? "-" : "") + s;
}

// |x| in scientific notation with d digits after the point, ties to even
// (Python's rounding): [mantissa string, exponent].
function sci(a, d) {
  let [m, e] = a.toExponential(d).split("e");
  const exact = a.toExponential(Math.min(d + 25, 100)).split("e");
  if (exact[1] === e || Number(exact[1]) === Number(e) - 1) {
    const digits = exact[0];
    if (digits.slice(digits.length - 25) === "5" + "0".repeat(24)) {
      const down = digits.slice(0, digits.length - 25).replace(/\.$/, "");
      if (Number(down[down.length - 1]) % 2 === 0) { m = down; e = exact[1]; }
    }
  }
  return [m, Number(e)];
}

const expText = (n) => `e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;

// Python's format(x, f".{p}g") (p = 6 for "g"): p significant digits, no trailing zeros.
function fmtG(x, p = 6) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const neg = x < 0 || Object.is(x, -0);
  if (x === 0) return neg ? "-0" : "0";
  const [mant, exp] = sci(Math.abs(x), p - 1);
  const strip = (t) => (t.includes(".") ? t.replace(/\.?0+$/, "") : t);
  if (exp < -4 || exp >= p) return (neg ? "-" : "") + strip(mant) + expText(exp);
  return strip(fmt(x, Math.max(0, p - 1 - exp)));
}

// Python's format(x, f".{d}e").
function fmtE(x, d) {
  const neg = x < 0 || Object.is(x, -0);
  const [mant, exp] = sci(Math.abs(x), d);
  return (neg ? "-" : "") + mant + expText(exp);
}

// lib/figures/_frame.py's vector_text: "(a, b, ...)", what rounds to zero printed as 0.
function vectorText(values, d) {
  const shown = values.map((x) => fmt(Math.abs(x) < 0.5 * 10 ** -d ? 0 : x, d));
  return `(${shown.join(", ")})`;
}

// math.degrees and math.radians of CPython (the same products, so the same doubles).
const RAD_TO_DEG = 180.0 / Math.PI;
const DEG_TO_RAD = Math.PI / 180.0;
const deg = (x) => RAD_TO_DEG * x;
const rad = (x) => DEG_TO_RAD * x;
const sign = (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);

// lib._validation.in_range and positive (the messages lib raises).
function inRange(value, name, low, high, {lowOpen = false, highOpen = false, unit = ""} = {}) {
  const tooLow = lowOpen ? value <= low : value < low;
  const tooHigh = highOpen ? value >= high : value > high;
  if (tooLow || tooHigh) {
    throw new InputError(`${name} must lie in ${lowOpen ? "(" : "["}${fmtG(low)}, ${fmtG(high)}`
      + `${highOpen ? ")" : "]"}${unit}, got ${fmtG(value)}${unit}`);
  }
  return value;
}

// ---------------------------------------------------------------- drawing

const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
  .replace(/"/g, "&quot;");
const num = (v) => (Math.round(v * 100) / 100).toString();

// "Nice" upper bound: 1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of ten.
function niceCeil(value) {
  if (!(value > 0) || !Number.isFinite(value)) return 1.0;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 1.5, 2, 3, 4, 5, 6, 8, 10]) {
    if (step * power >= value * (1 - 1e-12)) return step * power;
  }
  return 10 * power;
}

function niceTicks(lo, hi, count = 5) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw) || raw;
  const ticks = [];
  for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * step; t += step) {
    ticks.push(Math.abs(t) < 1e-12 * step ? 0 : t);
  }
  return ticks;
}

// An SVG element as plain data, {tag, attrs, text} or {tag, attrs, children}:
// the panels are built as data and written into the page by `patchChildren`,
// which changes only the attributes and texts that differ from what is shown
// (a slider move rewrites a few coordinates; no markup is parsed and no
// element is created unless the picture gains one).
const SVG_NS = "http://www.w3.org/2000/svg";
const svgNode = (tag, attrs, content = []) => (typeof content === "string"
  ? {tag, attrs, text: content} : {tag, attrs, children: content});

function patchChildren(parent, nodes) {
  for (let i = 0; i < nodes.length; i++) {
    const want = nodes[i];
    let node = parent.children[i];
    if (!node || node.tagName !== want.tag) {
      const fresh = document.createElementNS(SVG_NS, want.tag);
      if (node) parent.replaceChild(fresh, node); else parent.appendChild(fresh);
      node = fresh;
    }
    const attrs = want.attrs;
    let count = 0;
    for (const name in attrs) {
      const value = String(attrs[name]);
      if (node.getAttribute(name) !== value) node.setAttribute(name, value);
      count += 1;
    }
    if (node.attributes.length !== count) {
      for (const a of [...node.attributes]) if (!(a.name in attrs)) node.removeAttribute(a.name);
    }
    if (want.text !== undefined) {
      if (node.textContent !== want.text) node.textContent = want.text;
    } else {
      patchChildren(node, want.children);
    }
  }
  while (parent.children.length > nodes.length) parent.lastElementChild.remove();
}

// One panel: a data rectangle mapped onto an SVG viewBox of width x height
// pixels (the SVG scales with the page; the text stays the same size
// relative to the picture). With `equal`, one data unit is as long in x as in y.
class Panel {
  constructor({width = 360, height = 300, xlim, ylim, equal = false, axes = true, title = "",
               xlabel = "", ylabel = "", margin, xticks}) {
    this.w = width; this.h = height;
    this.m = margin || (axes ? {l: 46, r: 10, t: title ? 24 : 10, b: 38} : {l: 6, r: 6, t: title ? 24 : 6, b: 6});
    let [x0, x1] = xlim; let [y0, y1] = ylim;
    const pw = width - this.m.l - this.m.r; const ph = height - this.m.t - this.m.b;
    if (equal) {
      const s = Math.min(pw / (x1 - x0), ph / (y1 - y0));
      const cx = (x0 + x1) / 2; const cy = (y0 + y1) / 2;
      x0 = cx - pw / s / 2; x1 = cx + pw / s / 2; y0 = cy - ph / s / 2; y1 = cy + ph / s / 2;
    }
    this.xlim = [x0, x1]; this.ylim = [y0, y1];
    this.sx = pw / (x1 - x0); this.sy = ph / (y1 - y0);
    this.parts = [];
    this.overlay = [];
    this.clipId = `cfclip${Panel.count = (Panel.count || 0) + 1}`;
    this.axes = axes; this.title = title; this.xlabel = xlabel; this.ylabel = ylabel;
    this.xticks = xticks;  // optional [[value, label], ...] in place of numbered ticks
  }
  X(x) { return this.m.l + (x - this.xlim[0]) * this.sx; }
  Y(y) { return this.m.t + (this.ylim[1] - y) * this.sy; }
  pts(xs, ys) {
    const out = [];
    for (let i = 0; i < xs.length; i++) {
      if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) out.push(`${num(this.X(xs[i]))},${num(this.Y(ys[i]))}`);
    }
    return out.join(" ");
  }
  line(xs, ys, {color = "#333", width = 1.5, dash = "", opacity = 1, cap = "butt"} = {}) {
    const attrs = {points: this.pts(xs, ys), fill: "none", stroke: color, "stroke-width": width};
    if (dash) attrs["stroke-dasharray"] = dash;
    Object.assign(attrs, {"stroke-opacity": opacity, "stroke-linecap": cap, "stroke-linejoin": "round"});
    this.parts.push(svgNode("polyline", attrs));
  }
  poly(xs, ys, {fill = "#ccc", opacity = 1, stroke = "none", width = 0} = {}) {
    this.parts.push(svgNode("polygon", {points: this.pts(xs, ys), fill, "fill-opacity": opacity, stroke,
                                        "stroke-width": width}));
  }
  dot(x, y, {color = "#333", r = 4, stroke = "none", shape = "circle"} = {}) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const cx = num(this.X(x)); const cy = num(this.Y(y));
    if (shape === "diamond") {
      this.parts.push(svgNode("polygon", {points: `${cx},${num(cy - r)} ${num(+cx + r)},${cy} ${cx},${num(+cy + r)}`
        + ` ${num(cx - r)},${cy}`, fill: color, stroke}));
    } else {
      this.parts.push(svgNode("circle", {cx, cy, r, fill: color, stroke}));
    }
  }
  // Points as one path of tiny squares (hundreds of simulation steps).
  dots(xs, ys, {color = "#333", size = 2.4, opacity = 0.7} = {}) {
    const d = [];
    for (let i = 0; i < xs.length; i++) {
      if (!Number.isFinite(xs[i]) || !Number.isFinite(ys[i])) continue;
      d.push(`M${num(this.X(xs[i]) - size / 2)} ${num(this.Y(ys[i]) - size / 2)}h${size}v${size}h${-size}z`);
    }
    this.parts.push(svgNode("path", {d: d.join(""), fill: color, "fill-opacity": opacity}));
  }
  arrow(start, vec, {color = "#333", width = 2, label = "", labelSide = 0} = {}) {
    const [x0, y0] = [this.X(start[0]), this.Y(start[1])];
    const [x1, y1] = [this.X(start[0] + vec[0]), this.Y(start[1] + vec[1])];
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len < 0.5) return;
    const ux = (x1 - x0) / len; const uy = (y1 - y0) / len;
    const head = Math.min(11, 0.6 * len); const half = 0.45 * head;
    const bx = x1 - head * ux; const by = y1 - head * uy;
    this.parts.push(svgNode("line", {x1: num(x0), y1: num(y0), x2: num(bx), y2: num(by), stroke: color,
                                     "stroke-width": width}));
    this.parts.push(svgNode("polygon", {points: `${num(x1)},${num(y1)} ${num(bx - half * uy)},${num(by + half * ux)}`
      + ` ${num(bx + half * uy)},${num(by - half * ux)}`, fill: color}));
    if (label) {
      let lx; let ly;
      if (labelSide) {  // beside the middle, +1 left of the arrow
        lx = x0 + 0.55 * (x1 - x0) + labelSide * 14 * uy; ly = y0 + 0.55 * (y1 - y0) - labelSide * 14 * ux;
      } else {  // past the tip
        lx = x1 + 10 * ux; ly = y1 + 10 * uy;
      }
      this.rawText(lx, ly, label, {color, size: 13, anchor: "middle", halo: true});
    }
  }
  rawText(px, py, text, {color = "#333", size = 12, anchor = "start", halo = false, weight = "normal",
                         baseline = "central", italic = false} = {}) {
    const attrs = {x: num(px), y: num(py), fill: color, "font-size": size, "text-anchor": anchor,
                   "dominant-baseline": baseline, "font-weight": weight};
    if (italic) attrs["font-style"] = "italic";
    if (halo) attrs.class = "cf-halo";
    this.parts.push(svgNode("text", attrs, String(text)));
  }
  text(x, y, text, opts = {}) { this.rawText(this.X(x), this.Y(y), text, opts); }
  // corner "below": the items in rows under the x axis (room left by the caller:
  // legendRows).
  legend(items, {corner = "upper left", size = 11} = {}) {
    const lineH = size + 4; const w = 12 + 24 + Math.max(...items.map((i) => i.label.length)) * size * 0.55;
    const h = items.length * lineH + 6;
    const left = corner.endsWith("left") ? this.m.l + 4 : this.w - this.m.r - 4 - w;
    const top = corner.startsWith("upper") ? this.m.t + 4 : this.h - this.m.b - 4 - h;
    const out = this.overlay;
    const below = corner === "below" ? legendRows(items, this.w, size) : null;
    if (!below) {
      out.push(svgNode("rect", {x: num(left), y: num(top), width: num(w), height: num(h), fill: "white",
                                "fill-opacity": "0.85", stroke: "#ccc", rx: "3"}));
    }
    items.forEach((item, i) => {
      let y = top + 3 + lineH * (i + 0.5);
      let at = left;
      if (below) {  // rows under the tick labels
        y = this.h - this.m.b + 26 + lineH * below.row[i];
        at = below.x[i];
      }
      if (item.kind === "dot") {
        out.push(svgNode("circle", {cx: num(at + 16), cy: num(y), r: "3.5", fill: item.color}));
      } else if (item.kind === "box") {
        out.push(svgNode("rect", {x: num(at + 6), y: num(y - 5), width: "20", height: "10", fill: item.color,
                                  "fill-opacity": "0.4", stroke: item.color}));
      } else {
        const attrs = {x1: num(at + 6), y1: num(y), x2: num(at + 26), y2: num(y), stroke: item.color,
                       "stroke-width": "2"};
        if (item.dash) attrs["stroke-dasharray"] = item.dash;
        out.push(svgNode("line", attrs));
      }
      out.push(svgNode("text", {x: num(at + 32), y: num(y), "font-size": size, "dominant-baseline": "central",
                                fill: "#333"}, item.label));
    });
  }
  // The whole panel as an element description (see patchChildren).
  svg(label) {
    const {w, h, m} = this;
    const pw = w - m.l - m.r; const ph = h - m.t - m.b;
    const frame = [];
    if (this.axes) {
      frame.push(svgNode("rect", {x: m.l, y: m.t, width: num(pw), height: num(ph), fill: "none", stroke: "#555"}));
      const xticks = this.xticks
        || niceTicks(this.xlim[0], this.xlim[1]).map((t) => [t, tickLabel(t)]);
      for (const [t, label] of xticks) {
        const x = num(this.X(t));
        frame.push(svgNode("line", {x1: x, y1: m.t + ph, x2: x, y2: m.t + ph + 4, stroke: "#555"}));
        frame.push(svgNode("text", {x, y: m.t + ph + 14, "font-size": "11", "text-anchor": "middle", fill: "#333"},
                           label));
      }
      for (const t of niceTicks(this.ylim[0], this.ylim[1])) {
        const y = num(this.Y(t));
        frame.push(svgNode("line", {x1: m.l - 4, y1: y, x2: m.l, y2: y, stroke: "#555"}));
        frame.push(svgNode("text", {x: m.l - 6, y, "font-size": "11", "text-anchor": "end",
                                    "dominant-baseline": "central", fill: "#333"}, tickLabel(t)));
      }
      if (this.xlabel) {
        frame.push(svgNode("text", {x: num(m.l + pw / 2), y: h - 6, "font-size": "12", "text-anchor": "middle",
                                    fill: "#222"}, this.xlabel));
      }
      if (this.ylabel) {
        frame.push(svgNode("text", {transform: `translate(12 ${num(m.t + ph / 2)}) rotate(-90)`, "font-size": "12",
                                    "text-anchor": "middle", "dominant-baseline": "central", fill: "#222"},
                           this.ylabel));
      }
    }
    if (this.title) {
      frame.push(svgNode("text", {x: num(w / 2), y: "15", "font-size": "13", "text-anchor": "middle", fill: "#222"},
                         this.title));
    }
    return svgNode("svg", {class: "cf-panel", viewBox: `0 0 ${w} ${h}`, role: "img",
                           "aria-label": label || this.title}, [
      svgNode("defs", {}, [svgNode("clipPath", {id: this.clipId}, [
        svgNode("rect", {x: m.l, y: m.t, width: num(pw), height: num(ph)})])]),
      svgNode("g", {"clip-path": `url(#${this.clipId})`}, this.parts),
      ...frame, ...this.overlay]);
  }
}

// Where the items of a legend "below" go: rows that fit a panel of the given width.
function legendRows(items, width, size = 11) {
  const x = []; const row = [];
  let at = 6; let r = 0;
  for (const item of items) {
    const w = 36 + item.label.length * size * 0.55;
    if (at + w > width - 6 && at > 6) { r += 1; at = 6; }
    x.push(at); row.push(r); at += w;
  }
  return {x, row, rows: r + 1};
}

// Signed stacked bars, one per joint (lib/figures/_frame.py, stacked_bars):
// positive parts stacked up from zero, negative ones down; a black line marks
// the sum. The symmetric limit holding every bar is barTop(parts, total).
function barTop(parts, total) {
  const up = total.map(() => 0); const down = total.map(() => 0);
  for (const part of parts) {
    part.forEach((v, i) => { if (v >= 0) up[i] += v; else down[i] += v; });
  }
  const reach = Math.max(...up, ...down.map((v) => -v), ...total.map(Math.abs));
  return niceCeil(1.1 * reach);
}

function stackedBars(p, parts, colors, total, width = 0.6) {
  const up = total.map(() => 0); const down = total.map(() => 0);
  parts.forEach((part, k) => {
    part.forEach((v, i) => {
      let low; let high;
      if (v >= 0) {
        low = up[i]; high = up[i] + v; up[i] = high;
      } else {
        low = down[i] + v; high = down[i]; down[i] = low;
      }
      const left = i + 1 - width / 2; const right = i + 1 + width / 2;
      p.poly([left, right, right, left], [low, low, high, high],
             {fill: colors[k], opacity: 0.85, stroke: "#333", width: 0.6});
    });
  });
  p.line([0, total.length + 1], [0, 0], {color: "#555", width: 0.8});
  total.forEach((t, i) => p.line([i + 1 - 0.6 * width, i + 1 + 0.6 * width], [t, t],
                                 {color: "#000", width: 2.5}));
}

function tickLabel(t) {
  const r = Math.round(t * 1e6) / 1e6;
  return String(r).replace("-", "\u2212");
}

// Circular sector polygon (the friction cone in a plane).
function fan(center, axisAngle, halfAngle, radius, n = 40) {
  const xs = [center[0]]; const ys = [center[1]];
  for (let i = 0; i < n; i++) {
    const a = axisAngle - halfAngle + (2 * halfAngle * i) / (n - 1);
    xs.push(center[0] + radius * Math.cos(a)); ys.push(center[1] + radius * Math.sin(a));
  }
  xs.push(center[0]); ys.push(center[1]);
  return [xs, ys];
}

// ---------------------------------------------------------------- controls

// A control spec (from Python, lib/figures/live.py):
//   {name, label, unit, kind: "range" | "log" | "choice", min, max, step, digits, options}
// "log": the slider moves the base-10 exponent; the value is 10**exponent.
function controlValue(spec, input) {
  if (spec.kind === "choice") return input.value;
  const v = Number(input.value);
  if (spec.kind === "log") return Number((10 ** v).toPrecision(12));
  if (spec.kind === "int") return Math.round(v);
  return Number(v.toFixed(spec.decimals ?? 6));
}

function showValue(spec, value) {
  if (spec.kind === "choice") return value;
  if (spec.kind === "log") return fmtE(value, 2);
  if (spec.kind === "int") return String(value);
  return fmt(value, spec.digits ?? 2);
}

function buildControl(spec, value, onChange, uid) {
  const wrap = document.createElement("div");
  wrap.className = "cf-control";
  const id = `${uid}-${spec.name}`;
  const unit = spec.unit ? ` (${spec.unit})` : "";
  if (spec.kind === "choice") {
    const group = document.createElement("fieldset");
    group.className = "cf-choice";
    group.innerHTML = `<legend>${esc(spec.label)}</legend>` + spec.options.map((o) =>
      `<label><input type="radio" name="${id}" value="${esc(o)}"${o === value ? " checked" : ""}`
      + ` data-name="${spec.name}"><span>${esc(o)}</span></label>`).join("");
    group.addEventListener("change", () => onChange());
    wrap.appendChild(group);
    return {wrap, get: () => group.querySelector("input:checked").value,
            set: (v) => { for (const r of group.querySelectorAll("input")) r.checked = r.value === v; }};
  }
  const position = spec.kind === "log" ? Math.log10(value) : value;
  // The slider's name is its label; the value it shows is announced by the slider itself
  // (aria-valuetext), so the <output> beside the label is hidden from screen readers (it
  // would make the name change with every step, and is a live region of its own).
  wrap.innerHTML = `<label for="${id}"><span class="cf-label">${esc(spec.label)}${esc(unit)}</span>`
    + `<output for="${id}" aria-hidden="true"></output></label><input id="${id}" type="range"`
    + ` data-name="${spec.name}" data-kind="${spec.kind}"`
    + ` min="${spec.min}" max="${spec.max}" step="${spec.step}" value="${position}">`;
  const input = wrap.querySelector("input");
  const out = wrap.querySelector("output");
  // A screen reader announces the value the reader sees (a log slider's position is an exponent).
  const show = () => {
    out.textContent = showValue(spec, controlValue(spec, input)) + (spec.unit ? ` ${spec.unit}` : "");
    input.setAttribute("aria-valuetext", out.textContent);
  };
  input.addEventListener("input", () => { show(); onChange(); });
  show();
  return {wrap, get: () => controlValue(spec, input),
          set: (v) => { input.value = spec.kind === "log" ? Math.log10(v) : v; show(); }};
}

// ---------------------------------------------------------------- the widget

// Keys that move a slider or a radio button. In JupyterLab the notebook around the
// figure cancels them (cell navigation): they stop at the controls.
const CONTROL_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp",
                              "PageDown"]);

// The readout rows [label, value], changing only the cells whose text differs.
function patchRows(body, rows) {
  while (body.rows.length > rows.length) body.lastElementChild.remove();
  while (body.rows.length < rows.length) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    tr.append(th, document.createElement("td"));
    body.appendChild(tr);
  }
  rows.forEach(([label, value], i) => {
    const [th, td] = body.rows[i].cells;
    if (th.textContent !== label) th.textContent = label;
    if (td.textContent !== value) td.textContent = value;
  });
}

function liveRender(FIGURE) {
  return function render({model, el}) {
    const uid = `cf${Math.random().toString(36).slice(2, 9)}`;
    const root = document.createElement("div");
    const name = model.get("name");
    root.className = `cf-live cf-${name}`;
    root.dataset.figure = name;
    const specs = model.get("controls");
    const constants = model.get("constants") || {};
    const start = model.get("values");
    // One named group: a screen reader says which figure a control belongs to.
    root.setAttribute("role", "group");
    root.setAttribute("aria-labelledby", `${uid}-title`);
    root.innerHTML = `<div class="cf-title" id="${uid}-title">${esc(model.get("title"))}</div>`
      // data-lm-suppress-shortcuts: in JupyterLab, keys pressed on a control (arrows on a
      // slider) are not the notebook's keyboard shortcuts (see also CONTROL_KEYS).
      + '<div class="cf-controls" data-lm-suppress-shortcuts="true"></div>'
      + '<div class="cf-body"><div class="cf-pictures" aria-live="off"></div>'
      // The readout is announced as it changes, and can be focused (it scrolls when it is
      // wider than the column).
      + '<div class="cf-side"><div class="cf-state" role="status"></div>'
      + '<table class="cf-readout" tabindex="0" aria-live="polite" aria-label="Readout"><tbody></tbody>'
      + "</table></div></div>";
    const box = root.querySelector(".cf-controls");
    box.addEventListener("keydown", (event) => { if (CONTROL_KEYS.has(event.key)) event.stopPropagation(); });
    const pictures = root.querySelector(".cf-pictures");
    const state = root.querySelector(".cf-state");
    const body = root.querySelector(".cf-readout tbody");
    const controls = {};
    let frame = 0;
    let echoing = false;
    const update = (fromModel = false) => {
      const values = {};
      for (const spec of specs) values[spec.name] = controls[spec.name].get();
      root.dataset.values = JSON.stringify(values);
      let text; let key; let rows = [];
      let data = null;
      try {
        data = FIGURE.compute(values, constants);
        ({text, key, rows} = FIGURE.describe(data));
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        text = `not allowed: ${err.message}`; key = "error";
      }
      state.textContent = text;
      // The state in words, in the text colour; its colour marks it (frame.css).
      state.style.setProperty("--cf-key", STATE_COLORS[key] || "#333");
      state.dataset.key = key;
      patchRows(body, rows);
      // A refused setting keeps the last picture, greyed out.
      if (data) {
        const panels = FIGURE.draw(data, values);
        // Clip ids stable across redraws (only coordinates change) and unique in the page.
        panels.forEach((panel, i) => {
          const id = `${uid}-clip${i}`;
          panel.children[0].children[0].attrs.id = id;
          panel.children[1].attrs["clip-path"] = `url(#${id})`;
        });
        patchChildren(pictures, panels);
      }
      pictures.classList.toggle("cf-stale", !data);
      frame += 1;
      root.dataset.frame = String(frame);
      // Tell the kernel, if there is one (in the static page there is none
      // and save_changes does nothing).
      echoing = true;
      try {
        if (!fromModel) model.set("values", values);
        model.set("state_text", text);
        model.set("readout", rows);
      } finally {
        echoing = false;
      }
      model.save_changes();
    };
    for (const spec of specs) {
      controls[spec.name] = buildControl(spec, start[spec.name], () => update(), uid);
      box.appendChild(controls[spec.name].wrap);
    }
    const fromKernel = () => {
      if (echoing) return;
      const values = model.get("values");
      for (const spec of specs) {
        if (values[spec.name] !== undefined) controls[spec.name].set(values[spec.name]);
      }
      update(true);
    };
    model.on("change:values", fromKernel);
    el.appendChild(root);
    update(true);
    return () => model.off("change:values", fromKernel);
  };
}
