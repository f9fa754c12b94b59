// FIG 3: the round cone and its pyramids (lib.friction.pyramid_*, lib.figures.pyramid.pyramid_*).

// numpy.round: halves go to the even neighbour.
function roundHalfEven(x) {
  const r = Math.round(x);
  return (Math.abs(x % 1) === 0.5 && r % 2 !== 0) ? r - 1 : r;
}

function checkK(k) {
  if (k < 3) throw new InputError(`k (the number of pyramid edges) must be at least 3, got ${k}`);
  return k;
}

// lib.friction.pyramid_capacity for one direction phi (radians).
function pyramidCapacity(phi, mu, k) {
  inRange(mu, "mu", 0.0, Infinity, {highOpen: true});
  checkK(k);
  const step = 2.0 * Math.PI / k;
  const toFace = phi - (Math.floor(phi / step) * step + Math.PI / k);
  const toEdge = phi - roundHalfEven(phi / step) * step;
  return [mu, mu * Math.cos(Math.PI / k) / Math.cos(toFace), mu / Math.cos(toEdge)];
}

// lib.friction.pyramid_worst_errors and pyramid_sampled_errors.
function pyramidWorstErrors(k) {
  const c = Math.cos(Math.PI / checkK(k));
  return [1.0 - c, 1.0 / c - 1.0];
}

function pyramidSampledErrors(k, n) {
  const step = (2.0 * Math.PI) / n;
  let under = -Infinity; let over = -Infinity;
  for (let i = 0; i < n; i++) {
    const [, inner, outer] = pyramidCapacity(i * step, 1.0, k);
    under = Math.max(under, 1.0 - inner); over = Math.max(over, outer - 1.0);
  }
  return [under, over];
}

// Oblique view of 3D points: rotate about z, tilt toward the viewer by 25 degrees.
function project([x, y, z], azimuth, elevation = rad(25.0)) {
  const c = Math.cos(azimuth); const s = Math.sin(azimuth);
  const xr = c * x - s * y; const yr = s * x + c * y;
  return [xr, z * Math.cos(elevation) + yr * Math.sin(elevation)];
}

const sampledCache = new Map();

const FIGURE = {
  compute({k, mu, phi_deg: phiDeg, azimuth_deg: azimuthDeg}, {n_directions: nDirections}) {
    const phi = rad(phiDeg);
    const [cone, inner, outer] = pyramidCapacity(phi, mu, k);
    const [under, over] = pyramidWorstErrors(k);
    if (!sampledCache.has(k)) sampledCache.set(k, pyramidSampledErrors(k, nDirections));
    const [underS, overS] = sampledCache.get(k);
    const theta = [...Array(k).keys()].map((i) => 2.0 * Math.PI * i / k);
    const circle = [...Array(121).keys()].map((i) => (2.0 * Math.PI * i) / 120);
    const r = mu / Math.cos(Math.PI / k);
    return {k, mu, phi_deg: phiDeg, azimuth_deg: azimuthDeg, cone, inner, outer, under_closed: under,
            over_closed: over, under_sampled: underS, over_sampled: overS, n_directions: nDirections,
            circle: circle.map((a) => [mu * Math.cos(a), mu * Math.sin(a)]),
            inscribed: theta.map((a) => [mu * Math.cos(a), mu * Math.sin(a)]),
            circumscribed: theta.map((a) => [r * Math.cos(a + Math.PI / k), r * Math.sin(a + Math.PI / k)])};
  },
  describe(d) {
    const worst = Math.max(d.under_closed, d.over_closed);
    return {text: `n_d = ${d.k}: worst error ${fmt(100 * worst, 1)} %`, key: worst < 0.05 ? "stable" : "slip", rows: [
      ["capacity along phi: cone", `${fmt(d.cone, 3)} f_n`],
      ["inscribed / circumscribed", `${fmt(d.inner, 3)} / ${fmt(d.outer, 3)} f_n`],
      ["worst underestimate 1 - cos(pi/n_d)", `${fmt(100 * d.under_closed, 2)} %`],
      ["worst overestimate 1/cos(pi/n_d) - 1", `${fmt(100 * d.over_closed, 2)} %`],
      [`sampled over ${d.n_directions} directions`, `${fmt(100 * d.under_sampled, 2)} % / ${fmt(100 * d.over_sampled, 2)} %`],
    ]};
  },
  draw(d) {
    const az = rad(d.azimuth_deg); const mu = d.mu; const phi = rad(d.phi_deg);
    // Sized for the widest pyramid of the k slider (k = 3, radius 2 mu): the limits depend on mu only.
    const reach = niceCeil(1.1 * 2.0 * mu);
    const p3 = new Panel({width: 340, height: 320, xlim: [-1.1 * reach, 1.1 * reach],
                          ylim: [-0.7 * reach, 1.0 + 0.7 * reach], equal: true, axes: false,
                          title: "3D cone and pyramids"});
    const rim = d.circle.map(([x, y]) => project([x, y, 1], az));
    p3.poly(rim.map((q) => q[0]), rim.map((q) => q[1]), {fill: COLORS.cone, opacity: 0.18});
    p3.line(rim.map((q) => q[0]), rim.map((q) => q[1]), {color: COLORS.cone, width: 1.5});
    let left = 0; let right = 0;
    rim.forEach((q, i) => { if (q[0] < rim[left][0]) left = i; if (q[0] > rim[right][0]) right = i; });
    for (const i of [left, right]) p3.line([0, rim[i][0]], [0, rim[i][1]], {color: COLORS.cone, width: 1.2});
    for (const key of ["inscribed", "circumscribed"]) {
      const top = [...d[key], d[key][0]].map(([x, y]) => project([x, y, 1], az));
      p3.line(top.map((q) => q[0]), top.map((q) => q[1]), {color: COLORS[key], width: 1.4});
      const ex = []; const ey = [];
      for (const q of top.slice(0, -1)) { ex.push(0, q[0], NaN); ey.push(0, q[1], NaN); }
      p3.line(ex, ey, {color: COLORS[key], width: 0.8, opacity: 0.8});
    }
    const axis = [project([0, 0, 0], az), project([0, 0, 1.45], az)];
    p3.arrow(axis[0], [axis[1][0] - axis[0][0], axis[1][1] - axis[0][1]], {color: COLORS.normal, label: "n"});
    const ray = [project([0, 0, 1], az), project([1.6 * mu * Math.cos(phi), 1.6 * mu * Math.sin(phi), 1], az)];
    p3.line([ray[0][0], ray[1][0]], [ray[0][1], ray[1][1]], {color: "#333", dash: "5 3", width: 1});

    const lim = niceCeil(1.15 * 2.0 * mu);
    const p2 = new Panel({width: 340, height: 320, xlim: [-lim, lim], ylim: [-lim, lim], equal: true,
                          title: "cross-section f_n = 1", xlabel: "f_x / f_n", ylabel: "f_y / f_n"});
    p2.poly(d.circle.map((q) => q[0]), d.circle.map((q) => q[1]), {fill: COLORS.cone, opacity: 0.18});
    p2.line(d.circle.map((q) => q[0]), d.circle.map((q) => q[1]), {color: COLORS.cone, width: 1.5});
    for (const key of ["inscribed", "circumscribed"]) {
      const closed = [...d[key], d[key][0]];
      p2.line(closed.map((q) => q[0]), closed.map((q) => q[1]), {color: COLORS[key], width: 1.6});
    }
    const dir = [Math.cos(phi), Math.sin(phi)];
    p2.line([0, 1.6 * mu * dir[0]], [0, 1.6 * mu * dir[1]], {color: "#333", dash: "5 3", width: 1});
    for (const [value, key] of [[d.cone, "cone"], [d.inner, "inscribed"], [d.outer, "circumscribed"]]) {
      p2.dot(value * dir[0], value * dir[1], {color: COLORS[key], r: 4.5, stroke: "#000"});
    }
    p2.legend([{label: "round cone", color: COLORS.cone}, {label: "inscribed", color: COLORS.inscribed},
               {label: "circumscribed", color: COLORS.circumscribed}], {corner: "lower left"});
    return [p3.svg(`cone and pyramids with ${d.k} edges seen from azimuth ${fmt(d.azimuth_deg, 0)} degrees`),
            p2.svg(`cross-section of the cone and the pyramids with ${d.k} edges`)];
  },
};

export default { render: liveRender(FIGURE) };
