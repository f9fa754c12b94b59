// FIG 2: the planar friction cone (lib.friction.cone_state, lib.figures.cone2d.cone2d_*).

// lib.friction.cone_state and cone2d_data.
function coneState(fT, fN, mu) {
  inRange(mu, "mu", 0.0, Infinity, {highOpen: true});
  const gamma = Math.atan(mu);
  const angle = Math.atan2(Math.abs(fT), fN);
  const demand = [fT, fN];
  if (fN < 0.0) return {state: "separate", demand, supplied: [0.0, 0.0], remainder: demand, angle, gamma};
  const scale = Math.max(Math.abs(fT), Math.abs(fN), 1.0);
  if (Math.abs(fT) <= mu * fN + 1e-12 * scale) {
    return {state: "stick", demand, supplied: demand, remainder: [0.0, 0.0], angle, gamma};
  }
  const suppliedT = sign(fT) * mu * fN;
  return {state: "slip", demand, supplied: [suppliedT, fN], remainder: [fT - suppliedT, 0.0], angle, gamma};
}

const FIGURE = {
  compute({f_t: fT, f_n: fN, mu}) {
    const r = coneState(fT, fN, mu);
    return {f_t: fT, f_n: fN, mu, state: r.state, demand: r.demand, supplied: r.supplied,
            remainder: r.remainder, angle_deg: deg(r.angle), friction_angle_deg: deg(r.gamma)};
  },
  describe(d) {
    const pair = (p) => `(${fmt(p[0], 2)}, ${fmt(p[1], 2)}) N`;
    return {text: d.state.toUpperCase(), key: d.state, rows: [
      ["friction angle arctan(mu)", `${fmt(d.friction_angle_deg, 1)} deg`],
      ["angle of demand from normal", `${fmt(d.angle_deg, 1)} deg`],
      ["|f_t| / f_n", d.f_n > 0 ? fmt(Math.abs(d.f_t) / d.f_n, 2) : "-"],
      ["supplied (f_t, f_n)", pair(d.supplied)],
      ["unbalanced remainder", pair(d.remainder)],
    ]};
  },
  draw(d) {
    const reach = 5.0;
    const p = new Panel({width: 380, height: 330, xlim: [-reach, reach], ylim: [-2.5, reach], equal: true,
                         title: "demanded force f and the friction cone", xlabel: "f_t (N)", ylabel: "f_n (N)"});
    const gamma = Math.atan(d.mu);
    p.poly([-reach, reach, reach, -reach], [-reach, -reach, 0, 0], {fill: COLORS.friction, opacity: 0.08});
    p.text(-reach + 0.2, -2.1, "surface would have to pull", {color: COLORS.friction, size: 11});
    p.line([-reach, reach], [0, 0], {color: COLORS.ground, width: 2});
    const [fx, fy] = fan([0, 0], Math.PI / 2, gamma, 6.0);
    p.poly(fx, fy, {fill: COLORS.cone, opacity: 0.22});
    for (const side of [-1, 1]) {
      p.line([0, 6 * Math.sin(side * gamma)], [0, 6 * Math.cos(gamma)], {color: COLORS.cone, dash: "5 3", width: 1});
    }
    const arcX = []; const arcY = [];
    for (let i = 0; i < 20; i++) {
      const a = Math.PI / 2 - gamma + (gamma * i) / 19;
      arcX.push(1.2 * Math.cos(a)); arcY.push(1.2 * Math.sin(a));
    }
    p.line(arcX, arcY, {color: COLORS.cone, width: 1});
    p.text(-reach + 0.2, reach - 0.3, `half-angle ${fmt(deg(gamma), 0)} deg`, {color: "#0e7c86", size: 11});
    p.line([d.f_t, d.f_t], [0, d.f_n], {color: COLORS.normal, dash: "2 3", width: 1});
    p.line([0, d.f_t], [d.f_n, d.f_n], {color: COLORS.friction, dash: "2 3", width: 1});
    p.arrow([0, 0], [d.f_t, d.f_n], {color: COLORS.push, width: 2.6, label: "f", labelSide: -1});
    if (d.state === "slip") {
      p.arrow([0, 0], d.supplied, {color: COLORS.supplied, width: 2.2, label: "supplied", labelSide: 1});
      p.arrow(d.supplied, d.remainder, {color: COLORS.friction, width: 2.2});
    }
    return [p.svg(`friction cone of half-angle ${fmt(deg(gamma), 0)} degrees and the demanded force`)];
  },
};

export default { render: liveRender(FIGURE) };
