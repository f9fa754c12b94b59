// FIG 1: block on a ramp (lib.friction.ramp_state, lib.figures.ramp.ramp_*).

// lib.friction.ramp_state (angles in radians, push in N).
function rampState(alpha, muS, muK, mass, push, beta, g) {
  inRange(alpha, "alpha", 0.0, Math.PI / 2, {highOpen: true, unit: " rad"});
  inRange(muS, "mu_s", 0.0, Infinity, {highOpen: true});
  inRange(muK, "mu_k", 0.0, Infinity, {highOpen: true});
  if (muK > muS) {
    throw new InputError("mu_k must not exceed mu_s (kinetic friction is at most static friction), "
      + `got mu_k = ${fmtG(muK)} > mu_s = ${fmtG(muS)}`);
  }
  inRange(push, "push", 0.0, Infinity, {highOpen: true, unit: " N"});
  inRange(beta, "beta", -Math.PI / 2, Math.PI / 2, {unit: " rad"});
  const weight = mass * g;
  const normal = weight * Math.cos(alpha) - push * Math.sin(beta);
  const demand = weight * Math.sin(alpha) - push * Math.cos(beta);
  const crit = Math.atan(muS);
  const tol = 1e-12 * (weight + push);
  if (normal <= tol) {
    const net = push * Math.cos(beta) - weight * Math.sin(alpha);
    return {state: "lift-off", direction: "none", normal: 0.0, friction: 0.0, demand, capacity: 0.0,
            acceleration: net / mass, crit};
  }
  const capacity = muS * normal;
  if (Math.abs(demand) <= capacity + tol) {
    return {state: "stick", direction: "none", normal, friction: demand, demand, capacity, acceleration: 0.0, crit};
  }
  const friction = muK * normal * sign(demand);
  const net = friction - demand;
  return {state: "slip", direction: net > 0 ? "up" : "down", normal, friction, demand, capacity,
          acceleration: net / mass, crit};
}

const FIGURE = {
  // lib.figures.ramp.ramp_data: push in units of m g, angles in degrees.
  compute({alpha_deg: alphaDeg, mu_s: muS, mu_k: muK, mass, push, beta_deg: betaDeg}, {g}) {
    const weight = mass * g;
    const r = rampState(rad(alphaDeg), muS, muK, mass, push * weight, rad(betaDeg), g);
    const a = rad(alphaDeg); const b = rad(betaDeg);
    const tangent = [Math.cos(a), Math.sin(a)]; const normal = [-Math.sin(a), Math.cos(a)];
    const contact = [1.7 * tangent[0], 1.7 * tangent[1]];
    const center = [contact[0] + 0.3 * normal[0], contact[1] + 0.3 * normal[1]];
    const n = r.normal / weight; const f = r.friction / weight;
    const pushDir = [Math.cos(b) * tangent[0] + Math.sin(b) * normal[0], Math.cos(b) * tangent[1] + Math.sin(b) * normal[1]];
    return {alpha_deg: alphaDeg, mu_s: muS, state: r.state, direction: r.direction, normal_force: r.normal,
            friction: r.friction, demand: r.demand, capacity: r.capacity, acceleration: r.acceleration,
            critical_angle_deg: deg(r.crit), tangent, normal, contact, center,
            arrows: {gravity: [0, -1], normal: [n * normal[0], n * normal[1]], friction: [f * tangent[0], f * tangent[1]],
                     contact: [n * normal[0] + f * tangent[0], n * normal[1] + f * tangent[1]],
                     push: [push * pushDir[0], push * pushDir[1]]}};
  },
  describe(d) {
    const text = {"stick": "STICK", "lift-off": "LIFT-OFF"}[d.state] || `SLIP (${d.direction} the slope)`;
    return {text, key: d.state, rows: [
      ["critical angle arctan(mu_s)", `${fmt(d.critical_angle_deg, 1)} deg`],
      ["tilt alpha", `${fmt(d.alpha_deg, 1)} deg`],
      ["normal force f_n", `${fmt(d.normal_force, 2)} N`],
      ["friction needed to hold", `${fmt(d.demand, 2)} N`],
      ["static ceiling mu_s f_n", `${fmt(d.capacity, 2)} N`],
      ["friction supplied", `${fmt(d.friction, 2)} N`],
      ["acceleration up the slope", `${fmt(d.acceleration, 2)} m/s^2`],
    ]};
  },
  draw(d) {
    const p = new Panel({width: 360, height: 340, xlim: [-0.6, 3.8], ylim: [-1.2, 3.2], equal: true, axes: false,
                         title: "forces in units of mg; cyan: friction cone"});
    const a = rad(d.alpha_deg);
    const t = d.tangent; const n = d.normal;
    const top = [3.4 * t[0], 3.4 * t[1]];
    p.poly([0, top[0], top[0]], [0, 0, top[1]], {fill: COLORS.ground, opacity: 0.25});
    p.line([0, top[0]], [0, top[1]], {color: COLORS.ground, width: 2});
    p.line([-0.2, top[0] + 0.2], [0, 0], {color: "#999", width: 1});
    const gamma = Math.atan(d.mu_s);
    const [fx, fy] = fan(d.contact, a + Math.PI / 2, gamma, 1.25);
    p.poly(fx, fy, {fill: COLORS.cone, opacity: 0.22});
    for (const side of [-1, 1]) {
      const e = a + Math.PI / 2 + side * gamma;
      p.line([d.contact[0], d.contact[0] + 1.25 * Math.cos(e)], [d.contact[1], d.contact[1] + 1.25 * Math.sin(e)],
             {color: COLORS.cone, dash: "5 3", width: 1});
    }
    const lift = d.state === "lift-off" ? 0.12 : 0;
    const c0 = [d.contact[0] - 0.3 * t[0] + lift * n[0], d.contact[1] - 0.3 * t[1] + lift * n[1]];
    const sq = [[0, 0], [0.6, 0], [0.6, 0.6], [0, 0.6]].map(([u, v]) => [c0[0] + u * t[0] + v * n[0], c0[1] + u * t[1] + v * n[1]]);
    p.poly(sq.map((q) => q[0]), sq.map((q) => q[1]), {fill: "#dddddd", stroke: "#555", width: 1.2});
    const A = d.arrows;
    p.arrow(d.center, A.gravity, {color: COLORS.gravity, label: "mg"});
    p.arrow(d.contact, A.normal, {color: COLORS.normal, label: "f_n"});
    p.arrow(d.contact, A.friction, {color: COLORS.friction, label: "f_t"});
    p.arrow(d.contact, A.contact, {color: COLORS.contact, width: 2.6, label: "f"});
    p.arrow(d.center, A.push, {color: COLORS.push, label: "F"});
    return [p.svg(`block on a ramp tilted ${fmt(d.alpha_deg, 1)} degrees: ${d.state}`)];
  },
};

export default { render: liveRender(FIGURE) };
