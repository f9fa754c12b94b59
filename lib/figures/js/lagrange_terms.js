// The terms of the Lagrange equations of a planar 2R arm of uniform rods
// (lib.figures.lagrange_terms.lagrange_terms_*: M from lib.kinematic_tree,
// the Christoffel symbols from lib.tree_dynamics.coriolis_matrix, g from
// lib.kinematic_tree.gravity_torques), here from the arm's closed forms:
//   M11 = m1 l1^2/3 + m2 (l1^2 + l2^2/3 + l1 l2 cos q2),
//   M12 = m2 (l2^2/3 + l1 l2 cos q2 / 2),   M22 = m2 l2^2/3;
// only q2 enters M, so with b = m2 l1 l2 sin q2 / 2 the Christoffel symbols
// c_ijk = (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) / 2 are
//   c_112 = c_121 = c_122 = -b,  c_211 = b,  every other one 0;
// gravity g1 = g ((m1/2 + m2) l1 cos q1 + m2 l2/2 cos(q1 + q2)),
//         g2 = g m2 l2/2 cos(q1 + q2).
function twoLinkTerms(q, L, m, g) {
  const [l1, l2] = L; const [m1, m2] = m;
  const c2 = Math.cos(q[1]); const s2 = Math.sin(q[1]);
  const M12 = m2 * (l2 * l2 / 3 + l1 * l2 * c2 / 2);
  const M = [[m1 * l1 * l1 / 3 + m2 * (l1 * l1 + l2 * l2 / 3 + l1 * l2 * c2), M12],
             [M12, m2 * l2 * l2 / 3]];
  const b = m2 * l1 * l2 * s2 / 2;
  const christoffel = [[[0, -b], [-b, -b]], [[b, 0], [0, 0]]];
  const c12 = Math.cos(q[0] + q[1]);
  const gravity = [g * ((m1 / 2 + m2) * l1 * Math.cos(q[0]) + m2 * l2 / 2 * c12),
                   g * m2 * l2 / 2 * c12];
  const elbow = [l1 * Math.cos(q[0]), l1 * Math.sin(q[0])];
  const tip = [elbow[0] + l2 * Math.cos(q[0] + q[1]),
               elbow[1] + l2 * Math.sin(q[0] + q[1])];
  return {M, christoffel, gravity, points: [[0, 0], elbow, tip]};
}

//: The four terms of each joint's torque: data key, colour key, legend label.
const TERMS = [["tau_inertial", "inertial", "M qdd"],
               ["tau_centrifugal", "centrifugal", "centrifugal"],
               ["tau_coriolis", "coriolis", "Coriolis"],
               ["tau_gravity", "gravity", "gravity g(q)"]];

const FIGURE = {
  // lib.figures.lagrange_terms.lagrange_terms_data: degrees, rad/s, rad/s^2.
  compute({q1_deg: q1, q2_deg: q2, qd1, qd2, qdd1, qdd2}, {lengths, masses, g}) {
    const qDeg = [q1, q2]; const qd = [qd1, qd2]; const qdd = [qdd1, qdd2];
    const t = twoLinkTerms(qDeg.map(rad), lengths, masses, g);
    const c = t.christoffel;
    const inertial = [0, 1].map((i) => t.M[i][0] * qdd[0] + t.M[i][1] * qdd[1]);
    const centrifugal = [0, 1].map(
      (i) => c[i][0][0] * qd[0] ** 2 + c[i][1][1] * qd[1] ** 2);
    const coriolis = [0, 1].map((i) => 2 * c[i][0][1] * qd[0] * qd[1]);
    const moving = [...qd, ...qdd].some((x) => x !== 0);
    return {
      q_deg: qDeg, qd, qdd, state: moving ? "moving" : "static", M: t.M, christoffel: c,
      tau_inertial: inertial, tau_centrifugal: centrifugal, tau_coriolis: coriolis,
      tau_gravity: t.gravity,
      tau: [0, 1].map((i) => inertial[i] + centrifugal[i] + coriolis[i] + t.gravity[i]),
      points: t.points, reach: lengths[0] + lengths[1],
    };
  },
  describe(d) {
    const c = d.christoffel; const M = d.M;
    return {text: `tau = ${vectorText(d.tau, 2)} N m`, key: d.state, rows: [
      ["inertial M qdd (N m)", vectorText(d.tau_inertial, 2)],
      ["centrifugal (N m)", vectorText(d.tau_centrifugal, 2)],
      ["Coriolis (N m)", vectorText(d.tau_coriolis, 2)],
      ["gravity g(q) (N m)", vectorText(d.tau_gravity, 2)],
      ["c_122, c_211 (kg m^2)", vectorText([c[0][1][1], c[1][0][0]], 3)],
      ["M_11, M_12, M_22 (kg m^2)", vectorText([M[0][0], M[0][1], M[1][1]], 3)],
    ]};
  },
  draw(d) {
    const box = 1.15 * d.reach;
    const arm = new Panel({width: 360, height: 340, xlim: [-box, box],
                           ylim: [-box, box], equal: true, axes: false,
                           title: "the arm (gravity down)"});
    const b = 0.08 * d.reach;
    arm.poly([-b, b, b, -b], [0, 0, -0.75 * b, -0.75 * b],
             {fill: COLORS.ground, opacity: 0.35});
    const P = d.points;
    arm.line(P.map((p) => p[0]), P.map((p) => p[1]),
             {color: "#555", width: 6, cap: "round"});
    arm.dot(P[0][0], P[0][1], {color: COLORS.joint1, r: 6});
    arm.dot(P[1][0], P[1][1], {color: COLORS.joint2, r: 6});
    arm.dot(P[2][0], P[2][1], {color: "#333", r: 3});
    arm.arrow([0.85 * box, 0.9 * box], [0, -0.25 * box],
              {color: COLORS.gravity, width: 1.6, label: "g"});
    const parts = TERMS.map(([key]) => d[key]);
    const top = barTop(parts, d.tau);
    const items = [
      ...TERMS.map(([, color, label]) => ({kind: "box", color: COLORS[color], label})),
      {kind: "line", color: "#000", label: "sum tau"}];
    const rows = legendRows(items, 360).rows;
    const bars = new Panel({
      width: 360, height: 340, xlim: [0.4, 2.6], ylim: [-top, top],
      title: "terms of the joint torques (N m)",
      margin: {l: 46, r: 10, t: 24, b: 26 + 15 * rows},
      xticks: [[1, "joint 1"], [2, "joint 2"]]});
    stackedBars(bars, parts, TERMS.map(([, color]) => COLORS[color]), d.tau);
    bars.legend(items, {corner: "below"});
    const tau = vectorText(d.tau, 1);
    const q = `(${fmt(d.q_deg[0], 0)}, ${fmt(d.q_deg[1], 0)})`;
    return [arm.svg(`planar two-link arm at q = ${q} deg`),
            bars.svg(`joint torques ${tau} N m split into inertial, centrifugal,`
                     + " Coriolis and gravity terms")];
  },
};

export default { render: liveRender(FIGURE) };
