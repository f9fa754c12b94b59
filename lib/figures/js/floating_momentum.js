// A free-floating planar robot without gravity: the base angle that keeps the
// momentum zero while the arm turns (lib.figures.floating_momentum.floating_momentum_*:
// lib.tree_dynamics.centroidal_momentum_matrix integrated by quadrature), here in
// closed form. The base (a box: mass m0, I0 = m0 (w^2 + h^2) / 12) and the arm (a
// rod: m1, I1 = m1 l^2 / 12, its centre a = l / 2 from the joint, the joint r = w / 2
// from the base's centre) with the reduced mass mu = m0 m1 / (m0 + m1): the
// angular momentum about the centre of mass is
//   k = (C + D cos q) theta' + (A + B cos q) q',
//   A = I1 + mu a^2,  B = mu r a,  C = I0 + I1 + mu (r^2 + a^2),  D = 2 mu r a,
// so k = 0 from rest gives theta(q) = -q / 2 - (A - C / 2) F(q) with
//   F(q) = int_0^q ds / (C + D cos s)
//        = 2 / sqrt(C^2 - D^2) atan2(sqrt(C - D) sin(q/2), sqrt(C + D) cos(q/2)).

const CURVE_POINTS = 61;
const CURVE_FROM = -150;
const CURVE_TO = 150;
const CURVE_LIMIT = 120;
const VIEW = 0.8;

function robot(m0, [w, h], m1, l) {
  const I0 = (m0 * (w * w + h * h)) / 12; const I1 = (m1 * l * l) / 12;
  const mu = (m0 * m1) / (m0 + m1); const r = w / 2; const a = l / 2;
  const A = I1 + mu * a * a; const B = mu * r * a;
  const C = I0 + I1 + mu * (r * r + a * a); const D = 2 * mu * r * a;
  const theta = (q) => -q / 2 - (A - C / 2) * (2 / Math.sqrt(C * C - D * D))
    * Math.atan2(Math.sqrt(C - D) * Math.sin(q / 2),
                 Math.sqrt(C + D) * Math.cos(q / 2));
  return {I0, I1, r, a, A, B, C, D, theta};
}

const cross = (u, v) => u[0] * v[1] - u[1] * v[0];
const turn = (t, [x, y]) => [Math.cos(t) * x - Math.sin(t) * y,
                             Math.sin(t) * x + Math.cos(t) * y];
const plus = (u, v) => [u[0] + v[0], u[1] + v[1]];
const times = (s, u) => [s * u[0], s * u[1]];

// lib's _signed: a sign and d decimals; what rounds to zero prints as 0.
const signed = (v, d) => (Math.abs(v) < 0.5 * 10 ** -d ? fmt(0, d)
  : (v > 0 ? "+" : "") + fmt(v, d));

const FIGURE = {
  // lib.figures.floating_momentum.floating_momentum_data: degrees, kg, m.
  compute({q_deg: qDeg, arm_mass: m1},
          {base_mass: m0, base_size: size, arm_length: l}) {
    const R = robot(m0, size, m1, l);
    const q = rad(qDeg); const theta = R.theta(q);
    const Abase = R.C + R.D * Math.cos(q); const Aarm = R.A + R.B * Math.cos(q);
    const rate = -Aarm / Abase;
    const total = m0 + m1;
    // the arm's centre from the base's centre (base frame) and its rate of change
    const rho = [R.r + R.a * Math.cos(q), R.a * Math.sin(q)];
    const rhoDot = [-R.a * Math.sin(q), R.a * Math.cos(q)];
    const d = turn(theta, rho);
    const base = times(-m1 / total, d);  // the centre of mass at the origin
    const arm = plus(base, d);
    const com = times(1 / total, plus(times(m0, base), times(m1, arm)));
    // the arm at 1 rad/s, the base turning at `rate`, sliding so that p = 0
    const dDot = plus(times(rate, [-d[1], d[0]]), turn(theta, rhoDot));
    const v0 = times(-m1 / total, dDot); const v1 = plus(v0, dDot);
    const k = R.I0 * rate + R.I1 * (rate + 1)
      + m0 * cross(plus(base, times(-1, com)), v0)
      + m1 * cross(plus(arm, times(-1, com)), v1);
    const p = plus(times(m0, v0), times(m1, v1));
    const [w, h] = size;
    const box = [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]];
    const joint = plus(base, turn(theta, [R.r, 0]));
    const start = [-(m1 / total) * (R.r + R.a), 0];
    const curveQ = Array.from({length: CURVE_POINTS},
      (_, i) => CURVE_FROM + (i * (CURVE_TO - CURVE_FROM)) / (CURVE_POINTS - 1));
    return {
      q_deg: qDeg, arm_mass: m1, theta_deg: deg(theta), rate,
      A_base: Abase, A_arm: Aarm,
      pose: [base[0], base[1], theta], com, momentum: [k, p[0], p[1]],
      corners: box.map((c) => plus(base, turn(theta, c))), joint,
      tip: plus(joint, [l * Math.cos(theta + q), l * Math.sin(theta + q)]),
      start_corners: box.map((c) => plus(start, c)),
      curve_q_deg: curveQ, curve_theta_deg: curveQ.map((x) => deg(R.theta(rad(x)))),
    };
  },
  describe(d) {
    const theta = d.theta_deg;
    return {text: `arm ${signed(d.q_deg, 0)} deg, base ${signed(theta, 1)} deg`,
            key: d.q_deg !== 0 ? "moving" : "static", rows: [
      ["base angle theta (deg)", signed(theta, 1)],
      ["arm angle in the world (deg)", signed(d.q_deg + theta, 1)],
      ["base turn per arm turn dtheta/dq", signed(d.rate, 3)],
      ["k_z at dq/dt = 1 rad/s (kg m^2/s)",
       vectorText([d.momentum[0]], 3).slice(1, -1)],
      ["p at dq/dt = 1 rad/s (kg m/s)", vectorText(d.momentum.slice(1), 3)],
      ["centre of mass (m)", vectorText(d.com, 3)],
    ]};
  },
  draw(d) {
    const body = new Panel({width: 360, height: 340, xlim: [-VIEW, VIEW],
                            ylim: [-VIEW, VIEW],
                            equal: true, axes: false,
                            title: "box: the base; dashed: where it was at q = 0"});
    const S = [...d.start_corners, d.start_corners[0]];
    body.line(S.map((c) => c[0]), S.map((c) => c[1]),
              {color: COLORS.inertial, width: 1.2, dash: "5 4"});
    body.poly(d.corners.map((c) => c[0]), d.corners.map((c) => c[1]),
              {fill: COLORS.inertial, opacity: 0.35, stroke: COLORS.inertial,
               width: 1.5});
    body.line([d.joint[0], d.tip[0]], [d.joint[1], d.tip[1]],
              {color: "#555", width: 6, cap: "round"});
    body.dot(d.joint[0], d.joint[1], {color: COLORS.joint1, r: 6});
    const s = 0.04;
    body.line([-s, s], [0, 0], {color: "#000", width: 3});
    body.line([0, 0], [-s, s], {color: "#000", width: 3});
    body.text(0.03, -0.07, "COM", {color: "#000", size: 12, halo: true});
    const curve = new Panel({width: 360, height: 340, xlim: [CURVE_FROM, CURVE_TO],
                             ylim: [-CURVE_LIMIT, CURVE_LIMIT],
                             title: "base angle that keeps the momentum zero",
                             xlabel: "arm angle q (deg)",
                             ylabel: "base angle theta (deg)"});
    curve.line([CURVE_FROM, CURVE_TO], [0, 0], {color: "#555", width: 0.8});
    curve.line(d.curve_q_deg, d.curve_theta_deg, {color: COLORS.inertial, width: 2});
    curve.dot(d.q_deg, d.theta_deg, {color: COLORS.joint1, r: 6});
    const words = `arm ${signed(d.q_deg, 0)} deg, base ${signed(d.theta_deg, 1)} deg`;
    return [
      body.svg(`free-floating robot, ${words}; its centre of mass stays at the origin`),
      curve.svg(`base angle against arm angle; now ${words}`)];
  },
};

export default { render: liveRender(FIGURE) };
