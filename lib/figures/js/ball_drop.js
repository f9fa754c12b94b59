// FIG 4: a ball dropped on the floor, penalty versus impulse contact
// (lib.contact_sim, lib.models.ball_drop, lib.figures.ball_drop.ball_drop_*).

function positive(value, name) {
  if (!(value > 0)) throw new InputError(`${name} must be positive, got ${fmtG(value)}`);
  return value;
}

// lib.contact_sim closed forms.
const naturalFrequency = (k, mass) => Math.sqrt(positive(k, "k") / positive(mass, "mass"));
const criticalOmegaDt = (zeta) => 2.0 * (Math.sqrt(1.0 + zeta * zeta) - zeta);
function stepAmplification(a, zeta) {
  // Spectral radius of [[1 - a^2, d], [-a^2, d]], d = 1 - 2 zeta a (lib: numpy.linalg.eigvals).
  const d = 1.0 - 2.0 * zeta * a;
  const tr = 1.0 - a * a + d; const det = (1.0 - a * a) * d + a * a * d;
  const disc = tr * tr / 4 - det;
  if (disc >= 0) return Math.max(Math.abs(tr / 2 + Math.sqrt(disc)), Math.abs(tr / 2 - Math.sqrt(disc)));
  return Math.sqrt(det);
}
function maxPenetration(v0, k, mass, zeta) {
  const decay = Math.exp(-zeta * Math.acos(zeta) / Math.sqrt(1.0 - zeta * zeta));
  return v0 / naturalFrequency(k, mass) * decay;
}
function effectiveRestitutionNoTension(zeta) {
  const s = Math.sqrt(1.0 - zeta * zeta);
  const theta = Math.PI - Math.atan2(2.0 * zeta * s, 1.0 - 2.0 * zeta * zeta);
  return Math.exp(-zeta * theta / s) * Math.abs(Math.cos(theta) - zeta * Math.sin(theta) / s);
}
const impactSpeed = (h0, g) => Math.sqrt(2.0 * g * h0);
function impulseRestTime(h0, e, g) {
  const t0 = Math.sqrt(2.0 * h0 / g);
  return t0 * (1.0 + e) / (1.0 - e);
}

function checkStep(dt, tEnd) {
  positive(dt, "dt");
  const steps = Math.ceil(tEnd / dt - 1e-9);
  if (steps > 2000000) {
    throw new InputError(`t_end / dt must be at most 2e6 steps for an interactive simulation, got ${steps} steps`);
  }
  return steps;
}

// lib.models.ball_drop.simulate_penalty_drop (semi-implicit Euler, no tension).
function simulatePenaltyDrop(k, dt, zeta, mass, h0, tEnd, g) {
  inRange(zeta, "zeta", 0.0, 1.0, {highOpen: true});
  const steps = checkStep(dt, tEnd);
  const c = 2.0 * zeta * Math.sqrt(k * mass);
  let x = h0; let v = 0.0;
  const limit = 1000.0 * (Math.abs(h0) + v * v / (2.0 * g) + mass * g / k);
  // Preallocated doubles (the same numbers as lib's arrays; far faster than growing arrays).
  const heights = new Float64Array(steps + 1); const gaps = new Float64Array(steps);
  const forces = new Float64Array(steps);
  heights[0] = x;
  let n = 0;
  let touched = false; let inContact = false; let deepest = 0.0; let rebound = -Infinity;
  let restitution = 0.0; let entrySpeed = 0.0; let bounces = 0; let diverged = false;
  for (let i = 0; i < steps; i++) {
    let lam;
    if (x < 0.0) {
      lam = -k * x - c * v;
      if (lam < 0.0) lam = 0.0;
      if (!inContact) { inContact = true; entrySpeed = -v; touched = true; }
      if (-x > deepest) deepest = -x;
    } else {
      lam = 0.0;
      if (inContact) {
        inContact = false;
        bounces += 1;
        if (bounces === 1 && entrySpeed > 0.0) restitution = Math.max(v, 0.0) / entrySpeed;
      }
    }
    gaps[i] = x; forces[i] = lam;
    v += dt * (lam / mass - g);
    x += dt * v;
    heights[i + 1] = x;
    n = i + 1;
    if (touched && !inContact && x > rebound) rebound = x;
    if (Math.abs(x) > limit) { diverged = true; break; }
  }
  return {heights: heights.subarray(0, n + 1), gaps: gaps.subarray(0, n), forces: forces.subarray(0, n),
          max_penetration: deepest, max_rebound: Math.max(rebound, 0.0),
          gained_energy: h0 > 0.0 && rebound > 1.01 * h0, diverged, restitution, bounces, rest_time: Infinity};
}

// lib.models.ball_drop.simulate_impulse_drop (exact flight, Newton restitution at impacts).
function simulateImpulseDrop(e, dt, mass, h0, tEnd, g) {
  inRange(e, "e", 0.0, 1.0);
  const steps = checkStep(dt, tEnd);
  let x = h0; let v = 0.0;
  const heights = new Float64Array(steps + 1); const gaps = new Float64Array(steps);
  const forces = new Float64Array(steps);
  heights[0] = x;
  let resting = false; let restTime = Infinity; let bounces = 0; let firstRatio = 0.0;
  let rebound = -Infinity; let touched = false;
  const weight = mass * g;
  for (let i = 0; i < steps; i++) {
    if (resting) {  // at rest on the floor from step i on
      gaps.fill(0.0, i); forces.fill(weight, i); heights.fill(0.0, i + 1);
      break;
    }
    let xNew = x + v * dt - 0.5 * g * dt * dt;
    let vNew = v - g * dt;
    if (xNew >= 0.0) {
      gaps[i] = x; forces[i] = 0.0;
    } else {
      const tau = (v + Math.sqrt(Math.max(v * v + 2.0 * g * x, 0.0))) / g;
      const vMinus = v - g * tau;
      const vPlus = -e * vMinus;
      touched = true;
      gaps[i] = 0.0; forces[i] = mass * (vPlus - vMinus) / dt;
      if (bounces === 0) firstRatio = vMinus < 0.0 ? vPlus / -vMinus : 0.0;
      if (vPlus < g * dt) {
        resting = true; restTime = i * dt + tau; xNew = 0.0; vNew = 0.0;
      } else {
        bounces += 1;
        const rest = dt - tau;
        xNew = vPlus * rest - 0.5 * g * rest * rest;
        vNew = vPlus - g * rest;
      }
    }
    x = xNew; v = vNew;
    heights[i + 1] = x;
    if (touched && x > rebound) rebound = x;
  }
  return {heights, gaps, forces, max_penetration: 0.0, max_rebound: Math.max(rebound, 0.0),
          gained_energy: rebound > 1.01 * h0, diverged: false, restitution: firstRatio, bounces, rest_time: restTime};
}

// The last simulations, by the parameters they depend on: a control that does not
// change the simulation (e for the penalty model, k and zeta for the impulse
// model) and going back to a setting redraw without simulating again.
const simulations = new Map();
function cached(key, run) {
  let r = simulations.get(key);
  if (r === undefined) {
    r = run();
    if (simulations.size >= 32) simulations.delete(simulations.keys().next().value);
  } else {
    simulations.delete(key);  // most recently used last
  }
  simulations.set(key, r);
  return r;
}

// Every step-th index, at most `limit` of them (lib.figures.ball_drop._downsample).
function downsample(n, limit = 800) {
  const step = Math.max(1, Math.ceil(n / limit));
  const out = [];
  for (let i = 0; i < n; i += step) out.push(i);
  return out;
}

const FIGURE = {
  // lib.figures.ball_drop.ball_drop_data.
  compute({model, k, dt, zeta, e}, {mass, h0, g}) {
    const v0 = impactSpeed(h0, g);
    const out = {model, k, dt, zeta, e, mass, h0, v0};
    let r;
    if (model === "penalty") {
      r = cached(`penalty ${k} ${dt} ${zeta} ${mass} ${h0} ${g}`,
                 () => simulatePenaltyDrop(k, dt, zeta, mass, h0, 2.5, g));
      const omega = naturalFrequency(k, mass);
      const sag = mass * g / k;
      Object.assign(out, {omega, omega_dt: omega * dt, critical_omega_dt: criticalOmegaDt(zeta),
        amplification: stepAmplification(omega * dt, zeta),
        penetration_predicted: maxPenetration(v0, k, mass, zeta) + sag,
        restitution_predicted: effectiveRestitutionNoTension(zeta),
        depth_scale: v0 / omega + 2.0 * sag, force_scale: k * (v0 / omega + 2.0 * sag)});
    } else {
      const predicted = e < 1.0 ? impulseRestTime(h0, e, g) : Infinity;
      const tEnd = Math.min(Math.max(2.5, 1.1 * predicted + 0.3), 20.0);
      r = cached(`impulse ${e} ${dt} ${mass} ${h0} ${tEnd} ${g}`,
                 () => simulateImpulseDrop(e, dt, mass, h0, tEnd, g));
      Object.assign(out, {rest_predicted: predicted, rest_simulated: r.rest_time, t_end: tEnd,
                          depth_scale: 1e-3, force_scale: 2.0 * mass * v0 / dt + mass * g});
    }
    const keep = downsample(r.heights.length);
    const keepF = downsample(r.forces.length);
    Object.assign(out, {steps: r.forces.length, max_penetration: r.max_penetration, max_rebound: r.max_rebound,
      gained_energy: r.gained_energy, diverged: r.diverged, restitution_measured: r.restitution, bounces: r.bounces,
      t: keep.map((i) => i * dt), height: keep.map((i) => r.heights[i]),
      gap: keepF.map((i) => r.gaps[i]), force: keepF.map((i) => r.forces[i])});
    if (model === "penalty") {
      if (out.omega_dt >= out.critical_omega_dt || r.diverged) out.status = "unstable";
      else if (r.gained_energy) out.status = "energy gain";
      else out.status = "stable";
    } else {
      out.status = Number.isFinite(r.rest_time) ? "rest" : "bouncing";
    }
    return out;
  },
  describe(d) {
    if (d.model === "penalty") {
      const labels = {"stable": "PENALTY: stable", "energy gain": "PENALTY: energy gained (rose above start)",
                      "unstable": "PENALTY: BLOWN UP (omega_n dt past the limit)"};
      return {text: labels[d.status], key: d.status, rows: [
        ["omega_n = sqrt(k/m)", `${fmt(d.omega, 1)} rad/s`],
        ["omega_n dt", fmt(d.omega_dt, 3)],
        ["stability limit of omega_n dt", fmt(d.critical_omega_dt, 3)],
        ["growth per step in contact", fmt(d.amplification, 3)],
        ["max penetration: sim / damped peak + sag",
         `${fmt(1e3 * d.max_penetration, 2)} / ${fmt(1e3 * d.penetration_predicted, 2)} mm`],
        ["restitution: sim / closed form", `${fmt(d.restitution_measured, 3)} / ${fmt(d.restitution_predicted, 3)}`],
        ["highest rebound", `${fmt(d.max_rebound, 3)} m`],
        ["steps", String(d.steps)],
      ]};
    }
    const rest = d.rest_simulated;
    return {text: d.status === "rest" ? "IMPULSE: at rest" : "IMPULSE: still bouncing", key: d.status, rows: [
      ["restitution e", fmt(d.e, 2)],
      ["predicted rest time t0 (1+e)/(1-e)", `${fmt(d.rest_predicted, 3)} s`],
      ["simulated rest time", Number.isFinite(rest) ? `${fmt(rest, 3)} s` : "still bouncing"],
      ["bounces resolved", String(d.bounces)],
      ["steps", String(d.steps)],
    ]};
  },
  draw(d) {
    const penalty = d.model === "penalty";
    const color = COLORS[d.model];
    const top = Math.max(1.3 * d.h0, 0.2);
    let t = d.t; let tLabel = "time (s)"; let tMax = 2.5;
    if (!penalty) { t = t.map((x) => x / d.rest_predicted); tLabel = "time / predicted rest time"; tMax = 1.1; }
    const clip = (x, lo, hi) => Math.min(Math.max(x, lo), hi);
    const ph = new Panel({width: 400, height: 200, xlim: [0, tMax], ylim: [-0.05 * top, top],
                          title: `${d.model} contact: height`, xlabel: tLabel, ylabel: "height (m)"});
    ph.line([0, tMax], [d.h0, d.h0], {color: "#999", dash: "2 3", width: 1});
    ph.line([0, tMax], [0, 0], {color: COLORS.ground, width: 1});
    ph.line(t, d.height.map((h) => clip(h, -top, top)), {color, width: 1.4});
    const depth = d.height.map((h) => Math.max(-h, 0.0));
    const pd = new Panel({width: 400, height: 170, xlim: [0, tMax], ylim: [0, 1.25], xlabel: tLabel,
                          ylabel: penalty ? "depth / bound" : "penetration (mm)"});
    if (penalty) {
      pd.line(t, depth.map((x) => clip(x / d.depth_scale, 0, 2)), {color, width: 1.2});
    } else {
      pd.line(t, depth.map((x) => clip(1e3 * x, 0, 200)), {color, width: 1.2});
      pd.text(tMax / 2, 0.62, "rigid floor: no penetration", {color: "#777", size: 12, anchor: "middle"});
    }
    const fUnit = d.force_scale; const fTop = 1.25;
    const gapUnit = penalty ? 1e3 * d.depth_scale : 1.0;
    const [low, high] = penalty ? [-1.25, 0.2] : [-2.0, 10.0];
    const pc = new Panel({width: 360, height: 330, xlim: [low, high], ylim: [-0.03 * fTop, fTop],
                          title: "complementarity", xlabel: penalty ? "gap / depth bound" : "gap phi (mm)",
                          ylabel: "force / bound"});
    pc.line([high, 0, 0], [0, 0, fTop], {color: COLORS.rigid, width: 3, opacity: 0.6});
    if (penalty) {
      const dl = fTop * fUnit / d.k;
      pc.line([0, -1e3 * dl / gapUnit], [0, d.k * dl / fUnit], {color: COLORS.penalty, dash: "6 4", width: 1.2});
    }
    const gx = []; const fy = [];
    d.gap.forEach((gp, i) => {
      const x = 1e3 * gp / gapUnit; const y = d.force[i] / fUnit;
      if (x > low && x < high && y <= fTop) { gx.push(x); fy.push(y); }
    });
    pc.dots(gx, fy, {color});
    const items = [{label: "rigid: 0 <= f_n _|_ phi >= 0", color: COLORS.rigid}];
    if (penalty) items.push({label: "penalty: f_n = k delta", color: COLORS.penalty, dash: "6 4"});
    items.push({label: "simulation steps", color, kind: "dot"});
    pc.legend(items, {corner: "upper right", size: 10});
    return [ph.svg(`height of the ball over time, ${d.model} contact`),
            pd.svg(`penetration into the floor over time, ${d.model} contact`),
            pc.svg(`contact force against gap, ${d.model} contact`)];
  },
};

export default { render: liveRender(FIGURE) };
