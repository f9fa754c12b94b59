"""Spec of the 3.1 checkpoint exercises (exercises/rigid_body_dynamics.md).

Inputs only: the expected answers come from solutions/rigid_body_dynamics.py
(hidden cases) and grader/chapters/rigid_body_dynamics_public.json (public
cases, generated with ``python -m grader --write-public``).
Every exercise with several cases has an even share per case
(2 points / 4 cases, 3 points / 6 cases) so partial scores are exact.
Cases of the formula exercises are generic (no zero angles, no diagonal
inertias, nonzero rates), so a formula that is wrong in general fails every
case; the yes/no and find-the-error exercises (3.1.3, 3.1.4, 3.1.8) have the
case mix stated in the notebook, so a partial score can be predicted from the
statement. Tolerances (rtol 1e-6, atol 1e-9) accept any correct float64
computation (round-off is ~1e-15 here, ~1e-13 for the meshes whose origin
lies outside the body) while every wrong formula tried in the tests is off by
far more. 3.1.12 is a design, judged by lib's spatial Newton-Euler equation.
"""

import numpy as np

from grader.spec import Chapter, DesignExercise, ExpressionExercise, FunctionExercise
from lib._validation import (as_matrix, as_rotation, as_symmetric, as_vector, in_range, positive,
                             positive_array, real_number)
from lib.common import GRAVITY, random_rotation
from lib.inertia import check_physical_inertia, is_physically_consistent
from lib.model_files import rpy_to_rotation


def _rpy(roll, pitch, yaw):
    """R_z(yaw) R_y(pitch) R_x(roll) (URDF's rpy), for public cases in general orientation."""
    return rpy_to_rotation([roll, pitch, yaw])


def _body_inertia(rng):
    """A physically consistent COM inertia in general (rotated) axes."""
    a, b = rng.uniform(0.2, 1.0, 2)
    lam = np.array([a, b, rng.uniform(abs(a - b) + 0.05, a + b - 0.05)])
    R = random_rotation(rng)
    return R @ np.diag(lam) @ R.T


def _matrix6(six):
    """(I_xx, I_yy, I_zz, I_xy, I_xz, I_yz) -> symmetric 3x3."""
    ixx, iyy, izz, ixy, ixz, iyz = six
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


def _urdf_matrix(inertia):
    """URDF order (ixx, ixy, ixz, iyy, iyz, izz) -> symmetric 3x3."""
    ixx, ixy, ixz, iyy, iyz, izz = as_vector(inertia, "inertia", 6)
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


# Every case input is checked with the library's own validation (Exercise.validate),
# public and hidden alike: a body inertia must be physical (PSD, triangle inequality),
# a rotation a rotation, a mass positive, a mesh closed and consistently oriented.
def _valid_mesh(c):
    from lib.errors import MeshOrientationError
    from lib.inertia import mesh_mass_properties

    positive(c["density"], "density")
    faces = np.asarray(c["faces"], dtype=float)
    try:
        mesh_mass_properties(c["vertices"], faces.astype(int), density=c["density"])
    except MeshOrientationError:
        # the inward-facing cases: the same mesh with every face reversed must be valid
        mesh_mass_properties(c["vertices"], faces.astype(int)[:, ::-1], density=c["density"])


def _valid_between_points(c):
    from lib.inertia import inertia_about_com

    as_vector(c["a"], "a", 3)
    as_vector(c["b"], "b", 3)
    com = as_vector(c["com"], "com", 3)
    # the COM inertia behind I_a must be physical
    inertia_about_com(c["inertia_a"], c["mass"], com - np.asarray(c["a"], float))


def _valid_spatial(c):
    # 3.1.3 asks whether a spatial inertia is physical: its cases need only have the form
    # [[I_o, m[c]], [-m[c], m 1]] with m > 0 and a symmetric I_o.
    G = as_symmetric(c["G"], "G", 6)
    positive(G[3, 3], "m")
    if not (np.allclose(G[3:, 3:], G[3, 3] * np.eye(3), rtol=0, atol=1e-12)
            and np.allclose(G[:3, 3:], -G[:3, 3:].T, rtol=0, atol=1e-12)):
        raise ValueError("G must have the blocks [[I_o, m[c]], [-m[c], m 1]]")


def _valid_params(c):
    # 3.1.4: ten parameters with one product of inertia of wrong sign (not physical as given);
    # the body they came from (flip that product back) is physical.
    params = as_vector(c["params"], "params", 10)
    positive(params[0], "m")
    as_symmetric(_matrix6(params[4:]), "I_o", 3)


def _valid_wrench(c):
    positive(c["mass"], "mass")
    check_physical_inertia(c["inertia"], "inertia")
    for name in ("com", "omega", "v", "omega_dot", "accel"):
        as_vector(c[name], name, 3)


def _valid_torque(c):
    as_rotation(c["R"], "R")
    check_physical_inertia(c["inertia_body"], "inertia_body")
    as_vector(c["precession"], "precession", 3)
    as_vector(c["spin"], "spin", 3)


def _valid_gyrostat_point(p):
    for name in ("I_k", "I_a", "I_b", "Omega"):
        positive(p[name], name)
    real_number(p["L_r"], "L_r")


def _valid_moments(c):
    positive_array(c["moments"], "moments", (3,))
    in_range(c["k"], "k", 0, 2)


def _valid_cone(p):
    for name in ("m", "r", "ell"):
        positive(p[name], name)


def _valid_urdf(c):
    # 3.1.10: row k of every argument is the <inertial> of part k
    masses = np.atleast_1d(np.asarray(c["mass"], dtype=float))
    for k, m in enumerate(masses):
        positive(m, f"mass[{k}]")
        as_vector(c["xyz"][k], f"xyz[{k}]", 3)
        as_vector(c["rpy"][k], f"rpy[{k}]", 3)
        check_physical_inertia(_urdf_matrix(c["inertia"][k]), f"inertia[{k}]")


def _valid_mjcf(c):
    # 3.1.11: exactly one reading (products as written, or all three negated) is physical
    as_vector(c["rpy"], "rpy", 3)
    I = _urdf_matrix(c["inertia"])
    readings = [is_physically_consistent(J) for J in (I, 2 * np.diag(np.diag(I)) - I)]
    if sum(readings) != 1:
        raise ValueError(f"exactly one reading of the products must be physical, got {readings}")


def _valid_payload(c):
    positive(c["density"], "density")
    positive(c["m_min"], "m_min")
    for name in ("omega", "omega_dot", "g"):
        as_vector(c[name], name, 3)
    positive(c["moment_max"], "moment_max")


# 3.1.1 ----------------------------------------------------------------------
def _hull_mesh(rng):
    """A closed convex mesh (outward faces) around random points, origin outside it."""
    from scipy.spatial import ConvexHull

    pts = rng.normal(size=(int(rng.integers(9, 14)), 3)) * rng.uniform(0.05, 0.15, 3)
    hull = ConvexHull(pts)
    used = np.unique(hull.simplices)
    index = {int(v): i for i, v in enumerate(used)}
    faces = []
    for tri, eq in zip(hull.simplices, hull.equations):
        a, b, c = pts[tri]
        if np.cross(b - a, c - a) @ eq[:3] < 0:     # orient counter-clockwise seen from outside
            tri = tri[[0, 2, 1]]
        faces.append([index[int(v)] for v in tri])
    verts = pts[used] @ random_rotation(rng).T + rng.normal(0.0, 0.3, 3)
    return verts, np.array(faces)


def _mesh_case(rng, inward):
    verts, faces = _hull_mesh(rng)
    return {"vertices": verts, "faces": faces[:, ::-1] if inward else faces,
            "density": float(rng.uniform(500.0, 8000.0))}


def _public_meshes():
    # a box 0.2 x 0.1 x 0.3 m with its COM at (0.3, -0.2, 0.5), outward faces; and a
    # tetrahedron (origin outside) with inward faces
    corners = np.array([[(i >> 0) & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)], dtype=float)
    # rounded to 12 decimals: the printed inputs read 0.2, not 0.19999999999999998
    box = np.round((corners - 0.5) * [0.2, 0.1, 0.3] + [0.3, -0.2, 0.5], 12)
    quads = [(0, 4, 6, 2), (1, 3, 7, 5), (0, 1, 5, 4), (2, 6, 7, 3), (0, 2, 3, 1), (4, 5, 7, 6)]
    box_faces = [list(t) for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    tet = [[0.1, 0.2, 0.1], [0.4, 0.1, 0.2], [0.2, 0.5, 0.0], [0.25, 0.3, 0.45]]
    tet_in = [[0, 1, 2], [0, 3, 1], [1, 3, 2], [0, 2, 3]]          # clockwise seen from outside
    return [{"vertices": box, "faces": box_faces, "density": 2700.0},
            {"vertices": tet, "faces": tet_in, "density": 1200.0}]


# 3.1.2 ----------------------------------------------------------------------
def _between_case(rng):
    mass = float(rng.uniform(0.5, 4.0))
    com = rng.normal(0.0, 0.3, 3)
    a = rng.normal(0.0, 0.3, 3)
    d = com - a
    I_a = _body_inertia(rng) + mass * (d @ d * np.eye(3) - np.outer(d, d))
    return {"inertia_a": I_a, "mass": mass, "com": com, "a": a, "b": rng.normal(0.0, 0.3, 3)}


# 3.1.3 ----------------------------------------------------------------------
def _spatial_G(mass, I_c, c):
    """[[I_c - m [c]^2, m [c]], [-m [c], m 1]]: the spatial inertia about a point at -c from the COM."""
    cx = np.array([[0.0, -c[2], c[1]], [c[2], 0.0, -c[0]], [-c[1], c[0], 0.0]])
    return np.block([[I_c - mass * cx @ cx, mass * cx], [-mass * cx, mass * np.eye(3)]])


def _spatial_case(rng, kind):
    """A spatial inertia in general axes: 'flat' and 'generic' belong to bodies; 'hidden' has a
    positive definite I_c that violates the triangle inequality while the Steiner term makes I_o
    satisfy it (so G > 0 and the test on I_o both say yes); 'negative' has an I_c that is not
    positive semidefinite."""
    while True:
        mass = float(rng.uniform(0.5, 3.0))
        a, b = rng.uniform(0.01, 0.05, 2)
        third = {"flat": rng.uniform(0.9, 0.97) * (a + b), "generic": rng.uniform(abs(a - b) + 0.005, a + b - 0.005),
                 "hidden": rng.uniform(1.15, 1.4) * (a + b), "negative": -rng.uniform(0.1, 0.5) * a}[kind]
        lam = np.array([a, b, third])
        Q = random_rotation(rng)
        I_c = Q @ np.diag(lam) @ Q.T
        if kind == "hidden":   # COM along the violating axis, far enough for I_o to pass
            s = np.sqrt(rng.uniform(1.5, 3.0) * (third - a - b) / 2 / mass)
            c = Q @ np.array([0.0, 0.0, s * rng.choice([-1.0, 1.0])])
        else:
            c = rng.normal(0.0, 0.1, 3)
        G = _spatial_G(mass, I_c, c)
        if kind != "hidden" or is_physically_consistent(G[:3, :3]):
            return {"G": G}


# 3.1.4 ----------------------------------------------------------------------
def _pi_min_eig(params):
    """Smallest eigenvalue of the pseudo-inertia of ten parameters, relative to its trace."""
    m, h, I_o = params[0], np.asarray(params[1:4]), _matrix6(params[4:])
    Pi = np.zeros((4, 4))
    Pi[:3, :3] = 0.5 * np.trace(I_o) * np.eye(3) - I_o
    Pi[:3, 3] = Pi[3, :3] = h
    Pi[3, 3] = m
    return np.linalg.eigvalsh(Pi).min() / np.trace(Pi)


def _flipped_case(rng, j):
    """Ten parameters of a flat-ish body about a frame origin, product j of I_o sign-flipped;
    only flipping product j back gives a physical body (by a clear margin), and product j is
    not the largest in magnitude (flipping the largest one, a guess, fails every hidden case)."""
    while True:
        mass = float(rng.uniform(0.5, 3.0))
        a, b = rng.uniform(0.01, 0.05, 2)
        R = random_rotation(rng)
        I_c = R @ np.diag([a, b, rng.uniform(0.85, 0.95) * (a + b)]) @ R.T
        c = rng.normal(0.0, 0.1, 3)
        I_o = I_c + mass * (c @ c * np.eye(3) - np.outer(c, c))
        true = np.r_[mass, mass * c, I_o[0, 0], I_o[1, 1], I_o[2, 2], I_o[0, 1], I_o[0, 2], I_o[1, 2]]
        bad = true.copy()
        bad[7 + j] *= -1
        others = [bad * np.where(np.arange(10) == 7 + k, -1, 1) for k in range(3) if k != j]
        not_largest = abs(bad[7 + j]) < 0.9 * np.max(np.abs(bad[7:]))
        if (not_largest and _pi_min_eig(true) > 2e-4 and _pi_min_eig(bad) < -1e-3
                and all(_pi_min_eig(o) < -1e-3 for o in others)):
            return {"params": bad}


# 3.1.5 ----------------------------------------------------------------------
def _wrench_case(rng):
    return {
        "mass": float(rng.uniform(0.5, 5.0)),
        "inertia": _body_inertia(rng),
        "com": rng.normal(0.0, 0.3, 3),
        "omega": rng.normal(size=3),
        "v": rng.normal(size=3),
        "omega_dot": rng.normal(size=3),
        "accel": rng.normal(size=3),
    }


# 3.1.6 ----------------------------------------------------------------------
def _torque_case(rng):
    return {
        "R": random_rotation(rng),
        "inertia_body": _body_inertia(rng),
        "precession": rng.normal(size=3),
        "spin": rng.normal(0.0, 10.0, 3),
    }


# 3.1.7 ----------------------------------------------------------------------
def _gyrostat_point(rng):
    I = rng.uniform(0.5, 3.0, 3)
    Omega = float(rng.uniform(0.5, 5.0))
    # a rotor momentum of either sign, of the size of the body's own spin momentum
    return {"I_k": I[0], "I_a": I[1], "I_b": I[2], "Omega": Omega,
            "L_r": float(rng.choice([-1, 1]) * rng.uniform(0.3, 2.0) * I[0] * Omega)}


# 3.1.8 ----------------------------------------------------------------------
def _hidden_stability(rng):
    lam = np.sort(rng.uniform(0.5, 3.0, 3))
    perm = rng.permutation(3)
    moments = lam[perm]
    # the axis of the smallest moment (stable for a rigid body, not with dissipation) and of the
    # largest (stable either way)
    return [
        {"moments": moments, "k": int(np.where(perm == 0)[0][0])},
        {"moments": moments, "k": int(np.where(perm == 2)[0][0])},
    ]


# 3.1.9 ----------------------------------------------------------------------
def _cone_point(rng):
    return {"m": float(rng.uniform(0.2, 5.0)), "r": float(rng.uniform(0.02, 0.3)),
            "ell": float(rng.uniform(0.02, 0.6))}


# 3.1.10, 3.1.11 -------------------------------------------------------------------
def _urdf_case(rng):
    I = _body_inertia(rng) * 0.1
    return {
        "mass": float(rng.uniform(0.5, 4.0)),
        "xyz": rng.normal(0.0, 0.2, 3),
        "rpy": rng.uniform(-np.pi, np.pi, 3),
        "inertia": [I[0, 0], I[0, 1], I[0, 2], I[1, 1], I[1, 2], I[2, 2]],
    }


def _merged_case(rng, n_parts=2):
    parts = [_urdf_case(rng) for _ in range(n_parts)]
    return {key: np.array([p[key] for p in parts]) for key in ("mass", "xyz", "rpy", "inertia")}


def _triangle_margin(I):
    lam = np.sort(np.linalg.eigvalsh(I))
    return (lam[0] + lam[1] - lam[2]) / lam.sum()


def _mjcf_case(rng, flipped):
    """A flat-ish physical I_C whose reading with all three products negated is not physical
    (by a clear margin); the file holds the negated products when ``flipped``."""
    while True:
        a, b = rng.uniform(0.003, 0.012, 2)
        R = random_rotation(rng)
        I = R @ np.diag([a, b, rng.uniform(0.8, 0.97) * (a + b)]) @ R.T
        J = 2 * np.diag(np.diag(I)) - I
        if np.linalg.eigvalsh(I).min() > 0 and _triangle_margin(I) > 0.02 and _triangle_margin(J) < -0.03:
            W = J if flipped else I
            return {"rpy": rng.uniform(-np.pi, np.pi, 3),
                    "inertia": [W[0, 0], W[0, 1], W[0, 2], W[1, 1], W[1, 2], W[2, 2]]}


# 3.1.12 ---------------------------------------------------------------------
PAYLOAD_EDGES = (0.01, 0.4)   # m, every edge of the box


def flange_moment(case, design):
    """The trusted model (also used by the judge): moment about the flange (N m, in {f}) of a box
    a x b x h, face a x b centred on the flange, during the given motion and gravity."""
    from lib.inertia import box_inertia
    from lib.rigid_body import spatial_newton_euler
    from lib.spatial import inverse_transform, spatial_inertia, transform, transform_spatial_inertia

    a, b, h = design
    mass = case["density"] * a * b * h
    G_c = spatial_inertia(mass, box_inertia(mass, [a, b, h]))
    G_f = transform_spatial_inertia(G_c, inverse_transform(transform(np.eye(3), [0.0, 0.0, h / 2])))
    V = np.r_[case["omega"], 0.0, 0.0, 0.0]
    # holding the box in gravity = accelerating it by -g with gravity switched off
    V_dot = np.r_[case["omega_dot"], -np.asarray(case["g"], dtype=float)]
    return spatial_newton_euler(G_f, V, V_dot)[:3], mass


def _plain_moment(case, a, b, h):
    """The same moment by hand, I_f wd + w x I_f w - m c x g, for the case generator."""
    mass = case["density"] * a * b * h
    c = np.array([0.0, 0.0, h / 2])
    I_f = mass / 12 * np.diag([b * b + h * h, a * a + h * h, a * a + b * b]) + mass * (c @ c * np.eye(3) - np.outer(c, c))
    w, wd = np.asarray(case["omega"]), np.asarray(case["omega_dot"])
    return np.linalg.norm(I_f @ wd + np.cross(w, I_f @ w) - mass * np.cross(c, case["g"]))


def _best_box(case, n=40):
    """Smallest flange moment over a grid of boxes (a, b) of the minimum mass."""
    V = case["m_min"] / case["density"]
    return min(_plain_moment(case, a, b, V / (a * b))
               for a in np.linspace(*PAYLOAD_EDGES, n) for b in np.linspace(*PAYLOAD_EDGES, n)
               if PAYLOAD_EDGES[0] <= V / (a * b) <= PAYLOAD_EDGES[1])


def _lazy_moments(case):
    """Flange moments of the two designs that need no dynamics: the cube, and the square plate
    of the thinnest allowed edge (inf where it would be wider than allowed)."""
    V = case["m_min"] / case["density"]
    cube = _plain_moment(case, *[V ** (1 / 3)] * 3)
    side = np.sqrt(V / PAYLOAD_EDGES[0])
    plate = _plain_moment(case, side, side, PAYLOAD_EDGES[0]) if side <= PAYLOAD_EDGES[1] else np.inf
    return cube, plate


def _payload_case(rng):
    """Gravity mostly along the tool axis and large angular accelerations, so that the moment of
    inertia matters: the best box is neither the cube nor the thin plate (each at least 1.6 times
    the best moment); the limit lies 30 % of the way from the best box to the better of the two."""
    while True:
        g = rng.normal(size=3)
        g[2] += 3.0 * rng.choice([-1.0, 1.0])
        case = {"density": float(rng.choice([1200.0, 2700.0, 7800.0])), "m_min": float(rng.uniform(1.0, 3.0)),
                "omega": rng.normal(0.0, 2.0, 3), "omega_dot": rng.normal(0.0, 20.0, 3),
                "g": GRAVITY * g / np.linalg.norm(g)}
        best = _best_box(case)
        lazy = min(_lazy_moments(case))
        if lazy > 1.6 * best:
            case["moment_max"] = float(best + 0.3 * (lazy - best))
            return case


def _judge_payload(c, design):
    design = np.asarray(design, dtype=float)
    if design.shape != (3,):
        return False, f"expected the edges [a, b, ell] (shape (3,)), got shape {design.shape}"
    if not np.all(np.isfinite(design)):
        return False, "the edges must be finite numbers"
    lo, hi = PAYLOAD_EDGES
    if np.any(design < lo) or np.any(design > hi):
        return False, f"every edge must lie between {lo} and {hi} m, got {np.round(design, 4).tolist()}"
    moment, mass = flange_moment(c, design)
    size = float(np.linalg.norm(moment))
    ok_mass = mass >= c["m_min"] * (1 - 1e-9)
    ok_moment = size <= c["moment_max"] * (1 + 1e-9)
    why = (f"box {np.round(design, 4).tolist()} m: mass {mass:.4g} kg (at least {c['m_min']:.4g}), "
           f"flange moment {size:.4g} N m (at most {c['moment_max']:.4g})")
    return ok_mass and ok_moment, why


# Generated with _payload_case's rules and rounded (the tests check that the rounded cases still
# keep the cube and the thin plate above the limit and the best box below it).
_PAYLOAD_PUBLIC = [
    {"density": 2700.0, "m_min": 2.4, "omega": [-0.4, 0.1, -0.6], "omega_dot": [-15.0, -22.0, -4.0],
     "g": [0.13, 1.56, 9.68], "moment_max": 0.141},
    {"density": 7800.0, "m_min": 2.0, "omega": [0.1, -1.9, 0.3], "omega_dot": [33.0, -6.0, -25.0],
     "g": [4.36, -3.11, 8.22], "moment_max": 0.177},
]


CHAPTER = Chapter(
    name="rigid_body_dynamics",
    title="3.1 Rigid-body dynamics",
    seed=3101,
    exercises=[
        FunctionExercise(
            number="3.1.1", name="mesh_inertia", points=3, partial=True, lib_forbidden=True,
            section="sec-rb-mesh", minutes=30, validate=_valid_mesh,
            title="Inertia of a closed triangle mesh from signed tetrahedra (without lib)",
            args=("vertices", "faces", "density"),
            public=_public_meshes(),
            hidden=lambda rng: [_mesh_case(rng, inward) for inward in (False, True, False, True)],
            rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.2", name="inertia_between_points", points=2, partial=True, lib_forbidden=True,
            section="sec-rb-steiner", minutes=12, validate=_valid_between_points,
            title="From the inertia about one point to the inertia about another (without lib)",
            args=("inertia_a", "mass", "com", "a", "b"),
            public=[
                {"inertia_a": [[0.05, 0.0, 0.0], [0.0, 0.05, 0.0], [0.0, 0.0, 0.01]], "mass": 2.0,
                 "com": [0.0, 0.0, 0.1], "a": [0.0, 0.0, 0.0], "b": [0.0, 0.0, 0.3]},
                {"inertia_a": [[0.28875, 0.08, -0.025], [0.08, 0.19375, 0.0825], [-0.025, 0.0825, 0.275]], "mass": 1.5,
                 "com": [0.1, -0.2, 0.15], "a": [-0.1, 0.1, 0.0], "b": [0.3, 0.2, -0.1]},
            ],
            hidden=lambda rng: [_between_case(rng) for _ in range(2)],
            rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.3", name="is_physically_consistent", points=3, partial=True, lib_forbidden=True,
            section="sec-rb-consistency", minutes=20, validate=_valid_spatial,
            title="Is a spatial inertia a body's? (without lib)",
            args=("G",),
            public=[
                # 1.5 kg, c = (0.05, -0.02, 0.12), a physical I_c in general axes
                {"G": np.round(_spatial_G(1.5, np.array([[0.03, 0.001, 0.0], [0.001, 0.02, 0.002],
                                                          [0.0, 0.002, 0.04]]), [0.05, -0.02, 0.12]), 12)},
                # 2 kg, c = (0, 0, 0.1), I_c = diag(0.01, 0.01, 0.03): I_o = 0.03 1 and G > 0, no body
                {"G": np.round(_spatial_G(2.0, np.diag([0.01, 0.01, 0.03]), [0.0, 0.0, 0.1]), 12)},
            ],
            hidden=lambda rng: [_spatial_case(rng, kind) for kind in ("flat", "hidden", "generic", "negative")],
        ),
        FunctionExercise(
            number="3.1.4", name="fix_flipped_product", points=3, partial=True, lib_forbidden=True,
            section="sec-rb-consistency", minutes=25, validate=_valid_params,
            title="Find the product of inertia with the wrong sign from the pseudo-inertia (without lib)",
            args=("params",),
            public=[
                # 1 kg, c = (-0.05, 0.1, 0.05), nearly flat: I_xy of I_o written with the wrong sign
                {"params": [1.0, -0.05, 0.1, 0.05, 0.0325, 0.035, 0.0575, -0.015, 0.0075, -0.01]},
                # 1 kg, c = (-0.1, 0.05, 0.05), the same I_c: I_xz of I_o wrong, and it is not the
                # largest product (a guess that flips the largest one fails here)
                {"params": [1.0, -0.1, 0.05, 0.05, 0.025, 0.0425, 0.0575, 0.015, -0.01, -0.0075]},
            ],
            hidden=lambda rng: [_flipped_case(rng, j) for j in rng.permutation(3).tolist() + [int(rng.integers(3))]],
            rtol=1e-9, atol=1e-12,
        ),
        FunctionExercise(
            number="3.1.5", name="body_wrench", points=2, partial=True,
            section="sec-rb-newton-euler", minutes=15, validate=_valid_wrench,
            title="Newton-Euler equations about a body point other than the centre of mass",
            args=("mass", "inertia", "com", "omega", "v", "omega_dot", "accel"),
            public=[
                {"mass": 2.0, "inertia": [[0.1, 0.0, 0.0], [0.0, 0.2, 0.0], [0.0, 0.0, 0.25]],
                 "com": [0.0, 0.0, 0.12], "omega": [0.0, 2.0, 1.0], "v": [0.5, 0.0, 0.0],
                 "omega_dot": [3.0, -2.0, 4.0], "accel": [0.0, 0.0, GRAVITY]},
                {"mass": 1.0, "inertia": [[0.3, 0.01, 0.0], [0.01, 0.2, 0.02], [0.0, 0.02, 0.4]],
                 "com": [0.1, -0.05, 0.2], "omega": [1.0, -1.0, 0.5], "v": [0.2, 0.3, -0.1],
                 "omega_dot": [0.5, 1.5, -2.0], "accel": [1.0, -0.5, 0.25]},
            ],
            hidden=lambda rng: [_wrench_case(rng) for _ in range(2)],
            rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.6", name="world_frame_torque", points=2, partial=True,
            section="sec-rb-newton-euler", minutes=12, validate=_valid_torque,
            title="The torque that precesses a spinning body, in world axes",
            args=("R", "inertia_body", "precession", "spin"),
            public=[
                # a disc spun at 60 rad/s about its axis while the wrist turns at 1.5 rad/s
                {"R": _rpy(0.3, -0.5, 1.2),
                 "inertia_body": [[0.002, 0.0, 0.0], [0.0, 0.002, 0.0], [0.0, 0.0, 0.0035]],
                 "precession": [0.0, 0.0, 1.5], "spin": [0.0, 0.0, 60.0]},
                {"R": _rpy(-1.0, 0.4, 2.5),
                 "inertia_body": [[0.3, 0.01, 0.0], [0.01, 0.2, 0.02], [0.0, 0.02, 0.4]],
                 "precession": [0.2, -0.4, 1.0], "spin": [5.0, 3.0, -8.0]},
            ],
            hidden=lambda rng: [_torque_case(rng) for _ in range(2)],
            rtol=1e-6, atol=1e-9,
        ),
        ExpressionExercise(
            number="3.1.7", name="Omega_k_squared", points=2, partial=False,
            section="sec-rb-torque-free", minutes=20, validate=_valid_gyrostat_point,
            title="Small oscillations of a spinning body that carries a rotor",
            symbols=("I_k", "I_a", "I_b", "Omega", "L_r"),
            public_points=[
                {"I_k": 1.0, "I_a": 2.0, "I_b": 3.0, "Omega": 2.0, "L_r": 0.0},
                {"I_k": 2.0, "I_a": 1.0, "I_b": 3.0, "Omega": 1.5, "L_r": 4.0},
                # I_k is not the mean of I_a and I_b: here a wrong sign of L_r changes the value
                {"I_k": 3.0, "I_a": 1.0, "I_b": 2.0, "Omega": 2.0, "L_r": -1.5},
            ],
            sample=_gyrostat_point, n_hidden=4, rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.8", name="axis_is_stable", points=2, partial=True,
            section="sec-rb-torque-free", minutes=10, validate=_valid_moments,
            title="Which spin axes survive internal energy dissipation",
            args=("moments", "k"),
            public=[
                {"moments": [1.0, 2.0, 3.0], "k": 0},
                {"moments": [2.0, 3.0, 1.0], "k": 1},
            ],
            hidden=_hidden_stability,
        ),
        ExpressionExercise(
            number="3.1.9", name="steiner_block", points=2, partial=False,
            section="sec-rb-steiner", minutes=20, validate=_valid_cone,
            title="The inertia of a solid cone about its centre of mass",
            symbols=("m", "r", "ell"), shape=(3, 3),
            public_points=[{"m": 2.0, "r": 0.1, "ell": 0.3}, {"m": 0.5, "r": 0.2, "ell": 0.05}],
            sample=_cone_point, n_hidden=4, rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.10", name="urdf_inertial_to_G", points=3, partial=True, lib_forbidden=True,
            section="sec-rb-model-files", minutes=20, validate=_valid_urdf,
            title="The spatial inertia of a link merged from two URDF parts (without lib)",
            args=("mass", "xyz", "rpy", "inertia"),
            public=[
                # the chapter's forearm and a 0.3 kg sensor fixed to it
                {"mass": [1.8, 0.3], "xyz": [[0.02, -0.01, 0.15], [0.05, 0.0, 0.25]],
                 "rpy": [[0.3, -0.2, 0.5], [0.0, 0.5, 0.0]],
                 "inertia": [[0.012, -0.0008, 0.0005, 0.011, 0.0004, 0.004],
                             [0.0002, 0.0, 0.0, 0.0003, 0.0, 0.0004]]},
                {"mass": [1.2, 0.8], "xyz": [[0.05, -0.02, 0.1], [-0.04, 0.03, 0.02]],
                 "rpy": [[0.3, -0.2, 1.0], [-0.6, 0.1, 0.4]],
                 "inertia": [[0.02, 0.001, -0.002, 0.03, 0.0015, 0.025],
                             [0.004, -0.0005, 0.0003, 0.003, 0.0002, 0.005]]},
            ],
            hidden=lambda rng: [_merged_case(rng) for _ in range(4)],
            rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.11", name="mjcf_fullinertia", points=2, partial=True,
            section="sec-rb-model-files", minutes=15, validate=_valid_mjcf,
            title="From a URDF <inertial> of unknown sign convention to an MJCF fullinertia",
            args=("rpy", "inertia"),
            public=[
                # products written as matrix entries
                {"rpy": [0.3, -0.2, 0.5], "inertia": [0.01009, -0.002, 0.00434, 0.011, 0.00155, 0.00677]},
                # products written as +int rho xy dV
                {"rpy": [0.1, 0.4, -0.7], "inertia": [0.00686, 0.00274, -0.00219, 0.00984, -0.00282, 0.00986]},
            ],
            hidden=lambda rng: [_mjcf_case(rng, flipped) for flipped in (False, True)],
            rtol=1e-6, atol=1e-9,
        ),
        DesignExercise(
            number="3.1.12", name="payload_box", points=3, partial=True,
            section="sec-rb-payload", minutes=25, validate=_valid_payload,
            title="Size a box payload for the wrist's moment limit",
            args=("density", "m_min", "omega", "omega_dot", "g", "moment_max"),
            public=_PAYLOAD_PUBLIC,
            hidden=lambda rng: [_payload_case(rng) for _ in range(4)],
            judge=_judge_payload,
        ),
    ],
    key_ideas={
        "inertia of a mesh from signed tetrahedra": ("mesh_inertia",),
        "the parallel-axis theorem": ("inertia_between_points", "steiner_block", "is_physically_consistent"),
        "inertia of a shape by integration": ("steiner_block",),
        "physical consistency of an inertia": ("is_physically_consistent", "fix_flipped_product", "mjcf_fullinertia"),
        "the blocks of the spatial inertia": ("is_physically_consistent", "urdf_inertial_to_G"),
        "the pseudo-inertia J and physical consistency": ("fix_flipped_product",),
        "Newton-Euler equations about a point other than the centre of mass": ("body_wrench",),
        "Euler's equation in the world frame": ("world_frame_torque",),
        "time derivatives seen from space versus in body components": ("body_wrench", "world_frame_torque"),
        "stability of rotation about the principal axes": ("Omega_k_squared", "axis_is_stable"),
        "energy and momentum: the major-axis rule under dissipation": ("axis_is_stable",),
        "URDF inertial to spatial inertia": ("urdf_inertial_to_G",),
        "MJCF fullinertia order": ("mjcf_fullinertia",),
        "the sign convention of products of inertia": ("mjcf_fullinertia", "fix_flipped_product"),
        "sizing a payload from its inertia": ("payload_box",),
    },
)
