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
from lib.common import random_rotation
from lib.inertia import check_physical_inertia
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


def _valid_any_inertia(c):
    # 3.1.3 asks whether an inertia is physical: its cases need only be symmetric 3x3 matrices.
    as_symmetric(c["inertia"], "inertia", 3)


def _valid_params(c):
    # 3.1.4: ten parameters with one product of inertia of wrong sign (not physical as given);
    # the body they came from (flip that product back) is physical.
    params = as_vector(c["params"], "params", 10)
    positive(params[0], "m")
    as_symmetric(_matrix6(params[4:]), "I_o", 3)


def _valid_wrench(c):
    positive(c["mass"], "mass")
    check_physical_inertia(c["inertia"], "inertia")
    for name in ("com", "omega", "v", "omega_dot", "v_dot"):
        as_vector(c[name], name, 3)


def _valid_torque(c):
    as_rotation(c["R"], "R")
    check_physical_inertia(c["inertia_body"], "inertia_body")
    as_vector(c["omega_world"], "omega_world", 3)
    as_vector(c["omega_dot_world"], "omega_dot_world", 3)


def _valid_gyrostat_point(p):
    for name in ("I_k", "I_a", "I_b", "Omega"):
        positive(p[name], name)
    real_number(p["L_r"], "L_r")


def _valid_moments(c):
    positive_array(c["moments"], "moments", (3,))
    in_range(c["k"], "k", 0, 2)


def _valid_steiner(p):
    positive(p["m"], "m")
    check_physical_inertia(_matrix6([p["I_xx"], p["I_yy"], p["I_zz"], p["I_xy"], p["I_xz"], p["I_yz"]]), "I_c")


def _valid_urdf(c):
    positive(c["mass"], "mass")
    as_vector(c["xyz"], "xyz", 3)
    as_vector(c["rpy"], "rpy", 3)
    check_physical_inertia(_urdf_matrix(c["inertia"]), "inertia")


def _valid_mjcf(c):
    as_vector(c["rpy"], "rpy", 3)
    check_physical_inertia(_urdf_matrix(c["inertia"]), "inertia")


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
def _hidden_consistency(rng):
    """Two consistent and two inconsistent inertias, all rotated to general axes."""
    cases = []
    a, b = rng.uniform(0.3, 1.0, 2)
    sets = [
        [a, b, 0.9 * (a + b)],                 # consistent, close to a flat plate
        [a, b, 1.3 * (a + b)],                 # positive definite, not physical
        [a, b, rng.uniform(abs(a - b) + 0.05, a + b - 0.05)],  # consistent
        [-0.2 * a, b, b + 0.1],                # not positive semidefinite
    ]
    for lam in sets:
        R = random_rotation(rng)
        cases.append({"inertia": R @ np.diag(lam) @ R.T})
    return cases


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
        "v_dot": rng.normal(size=3),
    }


# 3.1.6 ----------------------------------------------------------------------
def _torque_case(rng):
    return {
        "R": random_rotation(rng),
        "inertia_body": _body_inertia(rng),
        "omega_world": rng.normal(size=3),
        "omega_dot_world": rng.normal(size=3),
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
    # axis holding the intermediate moment (unstable) and the largest (stable)
    return [
        {"moments": moments, "k": int(np.where(perm == 1)[0][0])},
        {"moments": moments, "k": int(np.where(perm == 2)[0][0])},
    ]


# 3.1.9 ----------------------------------------------------------------------
_STEINER_SYMBOLS = ("m", "c_x", "c_y", "c_z", "I_xx", "I_yy", "I_zz", "I_xy", "I_xz", "I_yz")


def _steiner_point(rng):
    I = _body_inertia(rng)
    c = rng.normal(0.0, 0.5, 3)
    return {"m": float(rng.uniform(0.5, 3.0)), "c_x": c[0], "c_y": c[1], "c_z": c[2],
            "I_xx": I[0, 0], "I_yy": I[1, 1], "I_zz": I[2, 2],
            "I_xy": I[0, 1], "I_xz": I[0, 2], "I_yz": I[1, 2]}


# 3.1.10, 3.1.11 -------------------------------------------------------------------
def _urdf_case(rng):
    I = _body_inertia(rng) * 0.1
    return {
        "mass": float(rng.uniform(0.5, 4.0)),
        "xyz": rng.normal(0.0, 0.2, 3),
        "rpy": rng.uniform(-np.pi, np.pi, 3),
        "inertia": [I[0, 0], I[0, 1], I[0, 2], I[1, 1], I[1, 2], I[2, 2]],
    }


def _mjcf_case(rng):
    c = _urdf_case(rng)
    return {"rpy": c["rpy"], "inertia": c["inertia"]}


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


def _payload_case(rng):
    """Limit 30 % of the way from the best box (grid search) to the cube of the same mass."""
    g = rng.normal(size=3)
    case = {"density": float(rng.choice([1200.0, 2700.0, 7800.0])), "m_min": float(rng.uniform(1.0, 3.0)),
            "omega": rng.normal(0.0, 2.0, 3), "omega_dot": rng.normal(0.0, 10.0, 3), "g": 9.81 * g / np.linalg.norm(g)}
    V = case["m_min"] / case["density"]
    cube = _plain_moment(case, *[V ** (1 / 3)] * 3)
    best = min(_plain_moment(case, a, b, V / (a * b))
               for a in np.linspace(*PAYLOAD_EDGES, 40) for b in np.linspace(*PAYLOAD_EDGES, 40)
               if PAYLOAD_EDGES[0] <= V / (a * b) <= PAYLOAD_EDGES[1])
    case["moment_max"] = float(best + 0.3 * (cube - best))
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


_PAYLOAD_PUBLIC = [
    {"density": 2700.0, "m_min": 2.0, "omega": [1.5, 0.0, 2.0], "omega_dot": [0.0, 4.0, 0.0],
     "g": [9.81, 0.0, 0.0], "moment_max": 0.31},
    {"density": 7800.0, "m_min": 1.5, "omega": [0.5, -2.0, 1.0], "omega_dot": [6.0, 3.0, -8.0],
     "g": [0.0, -5.66, -8.01], "moment_max": 0.1},
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
            number="3.1.2", name="inertia_between_points", points=2, partial=True,
            section="sec-rb-steiner", minutes=12, validate=_valid_between_points,
            title="From the inertia about one point to the inertia about another",
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
            number="3.1.3", name="is_physically_consistent", points=3, partial=True,
            section="sec-rb-consistency", minutes=15, validate=_valid_any_inertia,
            title="Physical consistency of an inertia (triangle inequality)",
            args=("inertia",),
            public=[
                {"inertia": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 3.0]]},
                {"inertia": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.5]]},
            ],
            hidden=_hidden_consistency,
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
            args=("mass", "inertia", "com", "omega", "v", "omega_dot", "v_dot"),
            public=[
                {"mass": 2.0, "inertia": [[0.1, 0.0, 0.0], [0.0, 0.2, 0.0], [0.0, 0.0, 0.25]],
                 "com": [0.0, 0.0, 0.12], "omega": [0.0, 2.0, 1.0], "v": [0.5, 0.0, 0.0],
                 "omega_dot": [3.0, -2.0, 4.0], "v_dot": [0.0, 0.0, 9.81]},
                {"mass": 1.0, "inertia": [[0.3, 0.01, 0.0], [0.01, 0.2, 0.02], [0.0, 0.02, 0.4]],
                 "com": [0.1, -0.05, 0.2], "omega": [1.0, -1.0, 0.5], "v": [0.2, 0.3, -0.1],
                 "omega_dot": [0.5, 1.5, -2.0], "v_dot": [1.0, -0.5, 0.25]},
            ],
            hidden=lambda rng: [_wrench_case(rng) for _ in range(2)],
            rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.6", name="world_frame_torque", points=2, partial=True,
            section="sec-rb-newton-euler", minutes=10, validate=_valid_torque,
            title="Euler's equation in the world frame",
            args=("R", "inertia_body", "omega_world", "omega_dot_world"),
            public=[
                {"R": _rpy(0.3, -0.5, 1.2),
                 "inertia_body": [[0.15, 0.01, -0.02], [0.01, 0.2, 0.005], [-0.02, 0.005, 0.3]],
                 "omega_world": [1.0, -0.3, 0.5], "omega_dot_world": [0.2, 1.0, -0.4]},
                {"R": _rpy(-1.0, 0.4, 2.5),
                 "inertia_body": [[0.3, 0.01, 0.0], [0.01, 0.2, 0.02], [0.0, 0.02, 0.4]],
                 "omega_world": [0.2, -0.4, 1.0], "omega_dot_world": [0.5, 0.3, -1.0]},
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
            ],
            sample=_gyrostat_point, n_hidden=4, rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.8", name="axis_is_stable", points=2, partial=True,
            section="sec-rb-torque-free", minutes=10, validate=_valid_moments,
            title="Which principal axes are stable (tennis-racket effect)",
            args=("moments", "k"),
            public=[
                {"moments": [1.0, 2.0, 3.0], "k": 0},
                {"moments": [1.0, 2.0, 3.0], "k": 1},
            ],
            hidden=_hidden_stability,
        ),
        ExpressionExercise(
            number="3.1.9", name="steiner_block", points=2, partial=False,
            section="sec-rb-spatial", minutes=15, validate=_valid_steiner,
            title="The parallel-axis theorem from Ad^T G Ad",
            symbols=_STEINER_SYMBOLS, shape=(3, 3),
            public_points=[
                {"m": 2.0, "c_x": 0.0, "c_y": 0.0, "c_z": 0.12, "I_xx": 0.01, "I_yy": 0.02, "I_zz": 0.025,
                 "I_xy": 0.0, "I_xz": 0.0, "I_yz": 0.0},
                {"m": 1.5, "c_x": 0.3, "c_y": -0.2, "c_z": 0.1, "I_xx": 0.4, "I_yy": 0.5, "I_zz": 0.6,
                 "I_xy": 0.01, "I_xz": -0.02, "I_yz": 0.03},
            ],
            sample=_steiner_point, n_hidden=4, rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.10", name="urdf_inertial_to_G", points=3, partial=True,
            section="sec-rb-model-files", minutes=20, validate=_valid_urdf,
            title="From a URDF <inertial> to the spatial inertia G_L",
            args=("mass", "xyz", "rpy", "inertia"),
            public=[
                {"mass": 2.0, "xyz": [0.01, -0.03, 0.12], "rpy": [0.1, 0.2, -0.3],
                 "inertia": [0.0104, 0.0005, -0.0003, 0.0121, 0.0002, 0.0133]},
                {"mass": 1.2, "xyz": [0.05, -0.02, 0.1], "rpy": [0.3, -0.2, 1.0],
                 "inertia": [0.02, 0.001, -0.002, 0.03, 0.0015, 0.025]},
            ],
            hidden=lambda rng: [_urdf_case(rng) for _ in range(4)],
            rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.11", name="mjcf_fullinertia", points=2, partial=True,
            section="sec-rb-model-files", minutes=12, validate=_valid_mjcf,
            title="From a URDF <inertial> to an MJCF fullinertia in the link's axes",
            args=("rpy", "inertia"),
            public=[
                {"rpy": [0.0, 0.0, 0.0], "inertia": [0.012, -0.0008, 0.0005, 0.011, 0.0004, 0.004]},
                {"rpy": [0.3, -0.2, 0.5], "inertia": [0.012, -0.0008, 0.0005, 0.011, 0.0004, 0.004]},
            ],
            hidden=lambda rng: [_mjcf_case(rng) for _ in range(2)],
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
        "the parallel-axis theorem": ("inertia_between_points", "steiner_block"),
        "physical consistency of an inertia": ("is_physically_consistent", "fix_flipped_product"),
        "the pseudo-inertia J and physical consistency": ("fix_flipped_product",),
        "Newton-Euler equations about a point other than the centre of mass": ("body_wrench",),
        "Euler's equation in the world frame": ("world_frame_torque",),
        "stability of rotation about the principal axes": ("Omega_k_squared", "axis_is_stable"),
        "URDF inertial to spatial inertia": ("urdf_inertial_to_G",),
        "MJCF fullinertia order": ("mjcf_fullinertia",),
        "sizing a payload from its inertia": ("payload_box",),
    },
)
