// Joint forces and torques of a planar 3R arm: lib.kinematic_tree.rnea and
// joint_wrenches on lib.models.planar_chain.planar_chain_tree
// (lib.figures.rnea_wrenches.rnea_wrenches_*).

// lib.kinematic_tree.rnea for a chain of uniform rods in the plane, in world
// coordinates. Forward pass, base to tip: each joint's origin and its
// acceleration, each link's angular velocity and acceleration, its centre of
// mass and that point's acceleration; the base accelerates at -gravity =
// (0, g), so gravity needs no term of its own. Backward pass, tip to base:
// the force f_i joint i transmits to link i (Newton: the link's m a_c plus
// what link i + 1 pulls with) and the moment about joint i (Euler about the
// joint); its z component is the joint torque tau_i = S_i^T F_i.
function planarRnea(q, qd, qdd, L, m, g) {
  const n = q.length;
  const cross = (a, b) => a[0] * b[1] - a[1] * b[0];
  const links = [];
  let phi = 0; let w = 0; let alpha = 0;
  let o = [0, 0]; let ao = [0, g];
  for (let i = 0; i < n; i++) {
    phi += q[i]; w += qd[i]; alpha += qdd[i];
    const u = [Math.cos(phi), Math.sin(phi)];
    const c = [0.5 * L[i] * u[0], 0.5 * L[i] * u[1]];
    const r = [L[i] * u[0], L[i] * u[1]];
    const ac = [ao[0] - alpha * c[1] - w * w * c[0],
                ao[1] + alpha * c[0] - w * w * c[1]];
    links.push({o, c, r, ac, alpha, inertia: (m[i] * L[i] * L[i]) / 12});
    o = [o[0] + r[0], o[1] + r[1]];
    ao = [ao[0] - alpha * r[1] - w * w * r[0], ao[1] + alpha * r[0] - w * w * r[1]];
  }
  const forces = new Array(n); const tau = new Array(n);
  let f = [0, 0]; let moment = 0;
  for (let i = n - 1; i >= 0; i--) {
    const k = links[i];
    const ma = [m[i] * k.ac[0], m[i] * k.ac[1]];
    moment = k.inertia * k.alpha + cross(k.c, ma) + cross(k.r, f) + moment;
    f = [ma[0] + f[0], ma[1] + f[1]];
    forces[i] = f; tau[i] = moment;
  }
  return {tau, forces, points: [...links.map((k) => k.o), o]};
}

const JOINTS = ["joint1", "joint2", "joint3"];
const sum = (xs) => xs.reduce((s, x) => s + x, 0);

const FIGURE = {
  // lib.figures.rnea_wrenches.rnea_wrenches_data: degrees, one rate, one acceleration.
  compute({q1_deg: q1, q2_deg: q2, q3_deg: q3, qd, qdd},
          {lengths, masses, g, force_scale: scale}) {
    const qDeg = [q1, q2, q3];
    const q = qDeg.map(rad);
    const rates = [qd, qd, qd]; const accs = [qdd, qdd, qdd]; const zero = [0, 0, 0];
    const full = planarRnea(q, rates, accs, lengths, masses, g);
    const gravity = planarRnea(q, zero, zero, lengths, masses, g);
    const motion = planarRnea(q, rates, accs, lengths, masses, 0);
    return {
      q_deg: qDeg, qd, qdd, state: qd === 0 && qdd === 0 ? "static" : "moving",
      tau: full.tau, tau_gravity: gravity.tau, tau_motion: motion.tau,
      forces: full.forces, force_norms: full.forces.map(([x, y]) => Math.hypot(x, y)),
      weight: sum(masses) * g, force_scale: scale,
      arrows: full.forces.map(([x, y]) => [scale * x, scale * y]),
      points: full.points, reach: sum(lengths),
    };
  },
  describe(d) {
    const text = d.state === "static"
      ? "AT REST: gravity alone" : "MOVING: gravity and motion";
    return {text, key: d.state, rows: [
      ["torques tau (N m)", vectorText(d.tau, 2)],
      ["gravity part g(q)", vectorText(d.tau_gravity, 2)],
      ["motion part M qdd + C qd", vectorText(d.tau_motion, 2)],
      ["joint forces |f_i| (N)", vectorText(d.force_norms, 2)],
      ["weight of the arm (N)", fmt(d.weight, 2)],
    ]};
  },
  draw(d) {
    const box = 1.15 * d.reach;
    const title = `forces: 1 N drawn as ${fmtG(1e3 * d.force_scale)} mm`;
    const arm = new Panel({width: 360, height: 340, xlim: [-box, box],
                           ylim: [-box, box], equal: true, axes: false, title});
    const b = 0.08 * d.reach;
    arm.poly([-b, b, b, -b], [0, 0, -0.75 * b, -0.75 * b],
             {fill: COLORS.ground, opacity: 0.35});
    const P = d.points;
    arm.line(P.map((p) => p[0]), P.map((p) => p[1]),
             {color: "#555", width: 6, cap: "round"});
    JOINTS.forEach((key, i) => arm.dot(P[i][0], P[i][1], {color: COLORS[key], r: 6}));
    arm.dot(P[3][0], P[3][1], {color: "#333", r: 3});
    arm.arrow([0.85 * box, 0.9 * box], [0, -0.25 * box],
              {color: COLORS.gravity, width: 1.6, label: "g"});
    JOINTS.forEach((key, i) => arm.arrow(
      P[i], d.arrows[i], {color: COLORS[key], width: 2.4, label: `f${i + 1}`}));
    const parts = [d.tau_gravity, d.tau_motion];
    const top = barTop(parts, d.tau);
    const items = [{kind: "box", color: COLORS.gravity, label: "gravity g(q)"},
                   {kind: "box", color: COLORS.motion, label: "motion M qdd + C qd"},
                   {kind: "line", color: "#000", label: "sum tau"}];
    const rows = legendRows(items, 360).rows;
    const bars = new Panel({
      width: 360, height: 340, xlim: [0.4, 3.6], ylim: [-top, top],
      title: "joint torques (N m)", margin: {l: 46, r: 10, t: 24, b: 26 + 15 * rows},
      xticks: [[1, "joint 1"], [2, "joint 2"], [3, "joint 3"]]});
    stackedBars(bars, parts, [COLORS.gravity, COLORS.motion], d.tau);
    bars.legend(items, {corner: "below"});
    const tau = vectorText(d.tau, 1);
    return [
      arm.svg(`planar three-link arm and the forces across its joints`),
      bars.svg(`joint torques ${tau} N m, split into gravity and motion parts`)];
  },
};

export default { render: liveRender(FIGURE) };
