// FIG 5: a two-link finger pressing on a table (lib.models.fingertip, lib.figures.fingertip.fingertip_*).

// lib.models.fingertip.two_link_ik.
function twoLinkIk(xTip, elbow, l1, l2, baseHeight) {
  const dx = xTip; const dy = -baseHeight;
  const r2 = dx * dx + dy * dy;
  const cosQ2 = (r2 - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
  if (cosQ2 > 1.0 + 1e-12 || cosQ2 < -1.0 - 1e-12) {
    const reach = Math.sqrt(Math.max((l1 + l2) ** 2 - baseHeight ** 2, 0.0));
    throw new InputError(`the fingertip cannot reach x_tip = ${fmtG(xTip)} m on the table: the distance from the `
      + `shoulder is ${fmtG(Math.sqrt(r2), 4)} m but the links reach between ${fmtG(Math.abs(l1 - l2), 4)} and `
      + `${fmtG(l1 + l2, 4)} m (|x_tip| <= ${fmtG(reach, 4)} m at base_height = ${fmtG(baseHeight)} m)`);
  }
  const q2Abs = Math.acos(Math.min(Math.max(cosQ2, -1.0), 1.0));
  let best = null;
  for (const q2 of [q2Abs, -q2Abs]) {
    const q1 = Math.atan2(dy, dx) - Math.atan2(l2 * Math.sin(q2), l1 + l2 * Math.cos(q2));
    const elbowY = baseHeight + l1 * Math.sin(q1);
    if (best === null || (elbowY > best[0]) === (elbow === "up")) best = [elbowY, q1, q2];
  }
  return [best[1], best[2]];
}

function twoLinkPoints(q, l1, l2, baseHeight) {
  const elbow = [l1 * Math.cos(q[0]), baseHeight + l1 * Math.sin(q[0])];
  return [[0.0, baseHeight], elbow,
          [elbow[0] + l2 * Math.cos(q[0] + q[1]), elbow[1] + l2 * Math.sin(q[0] + q[1])]];
}

// lib.models.fingertip.contact_jacobian: rows (f_t, f_n) directions, columns joints.
function contactJacobian(q, l1, l2) {
  const s1 = Math.sin(q[0]); const c1 = Math.cos(q[0]);
  const s12 = Math.sin(q[0] + q[1]); const c12 = Math.cos(q[0] + q[1]);
  return [[-l1 * s1 - l2 * s12, -l2 * s12], [l1 * c1 + l2 * c12, l2 * c12]];
}

// -J^T f.
const contactTorques = (J, f) => [-J[0][0] * f[0] + -J[1][0] * f[1], -J[0][1] * f[0] + -J[1][1] * f[1]];

function singularValues(J) {
  const [[a, b], [c, d]] = J;
  const t = a * a + b * b + c * c + d * d;
  const det = Math.abs(a * d - b * c);
  const root = Math.sqrt(Math.max(t * t - 4 * det * det, 0));
  const big = Math.sqrt((t + root) / 2);
  return [big, big > 0 ? det / big : 0];
}

function checkCommon(mu, tauMax) {
  inRange(mu, "mu", 0.0, Infinity, {highOpen: true});
  if (!(tauMax > 0)) throw new InputError(`tau_max must be positive, got ${fmtG(tauMax)}`);
}

// lib.models.fingertip.feasible_force_polygon: the friction cone clipped by the four
// torque half-planes (Sutherland-Hodgman), counter-clockwise from the origin.
function feasibleForcePolygon(J, mu, tauMax) {
  checkCommon(mu, tauMax);
  const [s0, s1] = singularValues(J);
  if (s1 <= 1e-9 * Math.max(s0, 1e-300)) {
    throw new InputError(`the contact Jacobian is singular (singular values ${fmtG(s0, 3)}, ${fmtG(s1, 3)}): `
      + "the finger is stretched or folded and the torque limits do not bound the force");
  }
  const top = 2.0 * Math.sqrt(2.0) * tauMax / s1 + 1.0;
  let polygon = [[0.0, 0.0], [mu * top, top], [-mu * top, top]];
  const rows = [[J[0][0], J[1][0]], [J[0][1], J[1][1]], [-J[0][0], -J[1][0]], [-J[0][1], -J[1][1]]];
  const scale = tauMax;
  for (const row of rows) {
    const clipped = [];
    polygon.forEach((p, i) => {
      const q = polygon[(i + 1) % polygon.length];
      const sp = row[0] * p[0] + row[1] * p[1] - tauMax;
      const sq = row[0] * q[0] + row[1] * q[1] - tauMax;
      if (sp <= 1e-12 * scale) clipped.push(p);
      if ((sp > 1e-12 * scale && sq < -1e-12 * scale) || (sp < -1e-12 * scale && sq > 1e-12 * scale)) {
        const s = sp / (sp - sq);
        clipped.push([p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])]);
      }
    });
    polygon = clipped;
  }
  const vertices = [polygon[0]];
  const tol = 1e-9 * Math.max(top, 1.0);
  for (const p of polygon.slice(1)) {
    const last = vertices[vertices.length - 1];
    if (Math.hypot(p[0] - last[0], p[1] - last[1]) > tol) vertices.push(p);
  }
  if (vertices.length > 1) {
    const last = vertices[vertices.length - 1];
    if (Math.hypot(last[0] - vertices[0][0], last[1] - vertices[0][1]) <= tol) vertices.pop();
  }
  let start = 0;
  vertices.forEach((v, i) => { if (Math.hypot(...v) < Math.hypot(...vertices[start])) start = i; });
  let out = [...vertices.slice(start), ...vertices.slice(0, start)];
  let area2 = 0;
  out.forEach((v, i) => { const w = out[(i + 1) % out.length]; area2 += v[0] * w[1] - w[0] * v[1]; });
  if (area2 < 0) out = [out[0], ...out.slice(1).reverse()];
  return out;
}

// lib.models.fingertip.max_normal_force: the LP "max f_n" over the polygon. Its
// optimum is a vertex; lib solves it with HiGHS, here the vertices are scanned.
function maxNormalForce(J, mu, tauMax, polygon) {
  let f = polygon[0];
  for (const v of polygon) if (v[1] > f[1]) f = v;
  f = [f[0] + 0.0, f[1] + 0.0];  // as lib.figures.fingertip.fingertip_data: no -0.0
  const torques = contactTorques(J, f);
  const tol = 1e-7 * tauMax;
  const limiting = torques.map((t) => Math.abs(Math.abs(t) - tauMax) <= tol);
  const coneActive = Math.abs(Math.abs(f[0]) - mu * f[1]) <= 1e-7 * Math.max(1.0, f[1]) && f[1] > 0.0;
  return {force: f, normal: f[1], torques, limiting, coneActive};
}

// lib.models.fingertip.force_state.
function forceState(J, f, mu, tauMax) {
  checkCommon(mu, tauMax);
  const torques = contactTorques(J, f);
  const tol = 1e-12 * Math.max(1.0, Math.abs(f[0]), Math.abs(f[1]));
  const over = torques.map((t) => Math.abs(t) > tauMax * (1.0 + 1e-12));
  const parts = [];
  if (f[1] < -tol) parts.push("table must pull");
  else if (Math.abs(f[0]) > mu * f[1] + tol) parts.push("outside friction cone");
  if (over[0] && over[1]) parts.push("joints 1 and 2 over limit");
  else if (over[0]) parts.push("joint 1 over limit");
  else if (over[1]) parts.push("joint 2 over limit");
  return {label: parts.length ? parts.join("; ") : "feasible", torques, over};
}

function pressCapacity(J) {
  const lever = Math.max(Math.abs(J[1][0]), Math.abs(J[1][1]));
  const biggest = Math.max(...J.flat().map(Math.abs));
  if (lever <= 1e-12 * Math.max(biggest, 1e-300)) {
    throw new InputError("no joint torque resists a vertical fingertip force (J_c[1, :] = 0): "
      + "the pressing capacity is unbounded in this singular posture");
  }
  return 1.0 / lever;
}

// Half width (N) of the force space: it holds every force the sliders can demand.
const EXTENT = 7.0;

const FIGURE = {
  compute({x_tip: xTip, elbow, mu, tau_max: tauMax, f_t: fT, f_n: fN}, {l1, l2, base_height: baseHeight}) {
    const q = twoLinkIk(xTip, elbow, l1, l2, baseHeight);
    const J = contactJacobian(q, l1, l2);
    const polygon = feasibleForcePolygon(J, mu, tauMax);
    const best = maxNormalForce(J, mu, tauMax, polygon);
    const status = forceState(J, [fT, fN], mu, tauMax);
    const limiting = ["shoulder (joint 1)", "elbow (joint 2)"].filter((_, i) => best.limiting[i]);
    return {x_tip: xTip, elbow, mu, tau_max: tauMax, force: [fT, fN], q, points: twoLinkPoints(q, l1, l2, baseHeight),
            jacobian: J, polygon, optimum: best.force, max_normal: best.normal, limiting, cone_active: best.coneActive,
            label: status.label, torques: status.torques, press_capacity: pressCapacity(J)};
  },
  describe(d) {
    const tau = d.torques;
    let limited;
    if (d.limiting.length) limited = d.limiting.join(", ") + (d.cone_active ? " + friction cone" : "");
    else limited = d.cone_active ? "friction cone" : "-";
    return {text: d.label.toUpperCase(), key: d.label === "feasible" ? "feasible" : "infeasible", rows: [
      ["joint angles", `(${fmt(deg(d.q[0]), 1)}, ${fmt(deg(d.q[1]), 1)}) deg`],
      ["torques -J_c^T f_c", `(${fmt(tau[0], 2)}, ${fmt(tau[1], 2)}) N m`],
      ["max normal force (LP)", `${fmt(d.max_normal, 2)} N at f_t = ${fmt(d.optimum[0], 2)} N`],
      ["limited by", limited],
      ["straight-down force per N m", `${fmt(d.press_capacity, 2)} N/(N m)`],
    ]};
  },
  draw(d) {
    const pts = d.points;
    const arm = new Panel({width: 360, height: 260, xlim: [-1.0, 1.0], ylim: [-0.15, 1.1], equal: true, axes: false,
                           title: "finger (1 N drawn as 0.1 m)"});
    arm.poly([-1.2, 1.2, 1.2, -1.2], [-0.3, -0.3, 0, 0], {fill: COLORS.ground, opacity: 0.3});
    arm.line([-1.2, 1.2], [0, 0], {color: COLORS.ground, width: 2});
    arm.line(pts.map((p) => p[0]), pts.map((p) => p[1]), {color: "#555", width: 6, cap: "round"});
    arm.dot(...pts[0], {color: COLORS.joint1, r: 6});
    arm.dot(...pts[1], {color: COLORS.joint2, r: 5.5});
    arm.dot(...pts[2], {color: "#333", r: 3.5});
    arm.arrow(pts[2], [0.1 * d.force[0], 0.1 * d.force[1]], {color: COLORS.push, width: 2.4, label: "f_c"});

    const E = EXTENT;
    const space = new Panel({width: 360, height: 330, xlim: [-E, E], ylim: [-0.15 * E, 1.3 * E], equal: true,
                             title: "force space", xlabel: "f_t (N)", ylabel: "f_n (N)"});
    const gamma = Math.atan(d.mu);
    const [fx, fy] = fan([0, 0], Math.PI / 2, gamma, 2 * E);
    space.poly(fx, fy, {fill: COLORS.cone, opacity: 0.15});
    d.jacobian[0].forEach((_, j) => {
      const col = [d.jacobian[0][j], d.jacobian[1][j]];
      const norm = Math.hypot(...col);
      if (norm < 1e-12) return;
      const dir = [-col[1] / norm, col[0] / norm];
      for (const s of [-1, 1]) {
        const base = [s * d.tau_max * col[0] / norm ** 2, s * d.tau_max * col[1] / norm ** 2];
        space.line([base[0] - 4 * E * dir[0], base[0] + 4 * E * dir[0]], [base[1] - 4 * E * dir[1], base[1] + 4 * E * dir[1]],
                   // Dashed for the shoulder, dotted for the elbow (as the static picture).
                   {color: COLORS[j === 0 ? "joint1" : "joint2"], dash: j === 0 ? "6 4" : "2 3",
                    width: j === 0 ? 1.1 : 1.4});
      }
    });
    const poly = d.polygon;
    space.poly(poly.map((p) => p[0]), poly.map((p) => p[1]), {fill: COLORS.feasible, opacity: 0.35,
                                                               stroke: COLORS.feasible, width: 1.5});
    space.line([-E, E], [0, 0], {color: COLORS.ground, width: 1});
    space.dot(...d.optimum, {color: "#000", r: 5});
    space.dot(...d.force, {color: COLORS.push, r: 6, stroke: "#000", shape: "diamond"});
    space.legend([{label: "|tau_1| = tau_max", color: COLORS.joint1, dash: "6 4"},
                  {label: "|tau_2| = tau_max", color: COLORS.joint2, dash: "2 3"},
                  {label: "feasible forces", color: COLORS.feasible, kind: "box"},
                  {label: "LP optimum: max f_n", color: "#000", kind: "dot"},
                  {label: "demanded f_c", color: COLORS.push, kind: "dot"}], {size: 10});
    return [arm.svg(`two-link finger touching the table at x = ${fmt(d.x_tip, 2)} m`),
            space.svg(`force space: ${d.label}`)];
  },
};

export default { render: liveRender(FIGURE) };
