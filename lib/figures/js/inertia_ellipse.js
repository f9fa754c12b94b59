// The mass a planar 2R arm's tip feels in each direction
// (lib.figures.inertia_ellipse.inertia_ellipse_*: M from lib.tree_dynamics.crba,
// J from lib.models.planar_chain.planar_chain_tip, W = J M^-1 J^T from
// lib.contact_lcp.delassus), here from the arm's closed forms:
//   M11 = m1 l1^2/3 + m2 (l1^2 + l2^2/3 + l1 l2 cos q2),
//   M12 = m2 (l2^2/3 + l1 l2 cos q2 / 2),   M22 = m2 l2^2/3;
//   J = [[-l1 s1 - l2 s12, -l2 s12], [l1 c1 + l2 c12, l2 c12]],  det J = l1 l2 sin q2.
// The tip's inertia Lambda = W^-1 has the eigenvalues m_min = 1 / w_max and
// m_max = 1 / w_min, with w_max = tr W / 2 + r, r = |((W11 - W22) / 2, W12)|,
// and w_min = det W / w_max, det W = det(J)^2 / det(M) (no cancellation near
// the singular postures, sin q2 = 0, where m_max is unbounded).

const ELLIPSE_POINTS = 73;
const SINGULAR_SIN = 1e-9;

// numpy.linspace(0, 2 pi, ELLIPSE_POINTS): cos and sin of each angle.
function unitCircle() {
  const step = (2 * Math.PI) / (ELLIPSE_POINTS - 1);
  const t = Array.from({length: ELLIPSE_POINTS}, (_, i) => i * step);
  t[ELLIPSE_POINTS - 1] = 2 * Math.PI;
  return [t.map(Math.cos), t.map(Math.sin)];
}

// A 2 x 2 matrix applied to the unit circle, shifted by `at`.
function image(A, scale = 1, at = [0, 0]) {
  const [c, s] = unitCircle();
  return [0, 1].map((i) => c.map(
    (_, k) => at[i] + scale * (A[i][0] * c[k] + A[i][1] * s[k])));
}

// A direction (deg) in [0, 180); within 1e-9 deg of 180 it is 0 (as in lib).
function direction(angle) {
  const a = ((angle % 180) + 180) % 180;
  return a < 1e-9 || a > 180 - 1e-9 ? 0 : a;
}

// The symmetric 2 x 2 matrix [[a, b], [b, c]]: its eigenvalues, ascending.
function eig2(a, b, c) {
  const big = 0.5 * (a + c) + Math.hypot(0.5 * (a - c), b);
  return [(a * c - b * b) / big, big];
}

function armMass(L, m, q2) {
  const [l1, l2] = L; const [m1, m2] = m;
  const c2 = Math.cos(q2);
  const M12 = m2 * (l2 * l2 / 3 + l1 * l2 * c2 / 2);
  return [[m1 * l1 * l1 / 3 + m2 * (l1 * l1 + l2 * l2 / 3 + l1 * l2 * c2), M12],
          [M12, m2 * l2 * l2 / 3]];
}

// Whole degrees, 180 shown as 0 (lib's _angle_text).
const angleText = (a) => { const t = fmt(a, 0); return t === "180" ? "0" : t; };

const FIGURE = {
  // lib.figures.inertia_ellipse.inertia_ellipse_data: degrees, m, kg.
  compute({q1_deg: q1d, q2_deg: q2d}, {lengths: L, masses, mass_scale: scale, cap}) {
    const [l1, l2] = L;
    const q1 = rad(q1d); const q2 = rad(q2d);
    const M = armMass(L, masses, q2);
    const c1 = Math.cos(q1); const s1 = Math.sin(q1);
    const c12 = Math.cos(q1 + q2); const s12 = Math.sin(q1 + q2);
    const J = [[-l1 * s1 - l2 * s12, -l2 * s12], [l1 * c1 + l2 * c12, l2 * c12]];
    const tip = [l1 * c1 + l2 * c12, l1 * s1 + l2 * s12];
    const detM = M[0][0] * M[1][1] - M[0][1] * M[1][0];
    const Minv = [[M[1][1] / detM, -M[0][1] / detM], [-M[1][0] / detM, M[0][0] / detM]];
    const JMi = [0, 1].map((i) => [0, 1].map(
      (k) => J[i][0] * Minv[0][k] + J[i][1] * Minv[1][k]));
    const W = [0, 1].map((i) => [0, 1].map(
      (j) => JMi[i][0] * J[j][0] + JMi[i][1] * J[j][1]));
    const detJ = l1 * l2 * Math.sin(q2);
    const halfDiff = 0.5 * (W[0][0] - W[1][1]);
    const r = Math.hypot(halfDiff, W[0][1]);
    const wMax = 0.5 * (W[0][0] + W[1][1]) + r;
    const singular = Math.abs(detJ) < SINGULAR_SIN * l1 * l2;
    const wMin = singular ? 0 : (detJ * detJ) / detM / wMax;
    const [c2, s2] = r > 0 ? [halfDiff / r, W[0][1] / r] : [1, 0];
    const light = [[0.5 * (1 + c2), 0.5 * s2], [0.5 * s2, 0.5 * (1 - c2)]];
    const mMin = 1 / wMax;
    const mMax = singular ? Infinity : 1 / wMin;
    const drawn = Math.min(mMax, cap);
    // Lambda as drawn: m_min on the lightest direction, m_max (at most cap) across it.
    const shown = [0, 1].map((i) => [0, 1].map(
      (j) => mMin * light[i][j] + drawn * ((i === j ? 1 : 0) - light[i][j])));
    const lightDeg = direction(deg(0.5 * Math.atan2(s2, c2)));
    const zero = armMass(L, masses, 0);
    return {
      q_deg: [q1d, q2d], M, M_eig: eig2(M[0][0], M[0][1], M[1][1]), M_ellipse: image(M),
      M_top: eig2(zero[0][0], zero[0][1], zero[1][1])[1], J, W, singular,
      m_min: mMin, m_max: mMax, light_deg: lightDeg,
      heavy_deg: direction(lightDeg + 90),
      mass_scale: scale, cap, tip_ellipse: image(shown, scale, tip),
      points: [[0, 0], [l1 * c1, l1 * s1], tip], reach: l1 + l2,
    };
  },
  describe(d) {
    const light = `${angleText(d.light_deg)} deg`;
    const heavy = `${angleText(d.heavy_deg)} deg`;
    const M = d.M;
    const text = d.singular
      ? `tip feels ${fmt(d.m_min, 2)} kg to unbounded (J singular)`
      : `tip feels ${fmt(d.m_min, 2)} to ${fmt(d.m_max, 2)} kg`;
    const most = d.singular ? `unbounded along ${heavy}`
      : `${fmt(d.m_max, 2)} kg along ${heavy}`;
    return {text, key: d.singular ? "singular" : "static", rows: [
      ["heaviest push (tip)", most],
      ["lightest push (tip)", `${fmt(d.m_min, 2)} kg along ${light}`],
      ["eigenvalues of M (kg m^2)", vectorText(d.M_eig, 3)],
      ["M_11, M_12, M_22 (kg m^2)", vectorText([M[0][0], M[0][1], M[1][1]], 3)],
    ]};
  },
  draw(d) {
    const box = 1.15 * d.reach;
    const scale = `1 kg drawn as ${fmtG(1e3 * d.mass_scale)} mm`;
    const arm = new Panel({width: 360, height: 340, xlim: [-box, box],
                           ylim: [-box, box], equal: true, axes: false,
                           title: `${scale}; dashed: heaviest`});
    const E = d.tip_ellipse;
    arm.poly(E[0], E[1], {fill: COLORS.inertial, opacity: 0.25, stroke: COLORS.inertial,
                          width: 1.5});
    const P = d.points; const tip = P[2];
    const h = rad(d.heavy_deg); const half = d.mass_scale * Math.min(d.m_max, d.cap);
    const u = [half * Math.cos(h), half * Math.sin(h)];
    arm.line([tip[0] - u[0], tip[0] + u[0]], [tip[1] - u[1], tip[1] + u[1]],
             {color: COLORS.inertial, width: 1.2, dash: "5 4"});
    const b = 0.08 * d.reach;
    arm.poly([-b, b, b, -b], [0, 0, -0.75 * b, -0.75 * b],
             {fill: COLORS.ground, opacity: 0.35});
    arm.line(P.map((p) => p[0]), P.map((p) => p[1]),
             {color: "#555", width: 6, cap: "round"});
    arm.dot(P[0][0], P[0][1], {color: COLORS.joint1, r: 6});
    arm.dot(P[1][0], P[1][1], {color: COLORS.joint2, r: 6});
    arm.dot(tip[0], tip[1], {color: "#333", r: 3});
    const top = niceCeil(1.1 * d.M_top);
    const joint = new Panel({width: 360, height: 340, xlim: [-top, top],
                             ylim: [-top, top], equal: true,
                             title: "M applied to unit joint accelerations",
                             xlabel: "joint 1 (kg m^2)", ylabel: "joint 2 (kg m^2)"});
    joint.line([-top, top], [0, 0], {color: "#555", width: 0.8});
    joint.line([0, 0], [-top, top], {color: "#555", width: 0.8});
    const ME = d.M_ellipse;
    joint.poly(ME[0], ME[1], {fill: COLORS.joint2, opacity: 0.25, stroke: COLORS.joint2,
                              width: 1.5});
    const q = `(${fmt(d.q_deg[0], 0)}, ${fmt(d.q_deg[1], 0)})`;
    const most = d.singular ? "unbounded" : `${fmt(d.m_max, 2)} kg`;
    return [
      arm.svg(`two-link arm at q = ${q} deg; the tip's inertia ellipse:`
              + ` ${fmt(d.m_min, 2)} kg along ${angleText(d.light_deg)} deg,`
              + ` ${most} along ${angleText(d.heavy_deg)} deg`),
      joint.svg("the ellipse of M in joint space, eigenvalues"
                + ` ${vectorText(d.M_eig, 3)} kg m^2`)];
  },
};

export default { render: liveRender(FIGURE) };
