"""Spec of the 3.1 checkpoint exercises (exercises/rigid_body_dynamics.md).

Inputs only: the expected answers come from solutions/rigid_body_dynamics.py
(hidden cases) and grader/chapters/rigid_body_dynamics_public.json (public
cases, generated with ``python -m grader --write-public``).
Every exercise with several cases has an even share per case
(2 points / 4 cases, 3 points / 6 cases) so partial scores are exact.
Cases of the formula exercises are generic (no zero angles, no diagonal
inertias, nonzero rates), so a formula that is wrong in general fails every
case; the yes/no exercises (3.1.4, 3.1.6) have the case mix stated in the
notebook, so a partial score can be predicted from the statement.
Tolerances (rtol 1e-6, atol 1e-9) accept any correct float64 computation
(round-off is ~1e-15 here) while every wrong formula tried in the tests is
off by far more.
"""

import numpy as np

from grader.spec import Chapter, ExpressionExercise, FunctionExercise
from lib._validation import as_matrix, as_rotation, as_symmetric, as_vector, in_range, positive, positive_array
from lib.inertia import check_physical_inertia


def _rpy(roll, pitch, yaw):
    """R_z(yaw) R_y(pitch) R_x(roll), for public cases in general orientation."""
    cr, sr, cp, sp, cy, sy = np.cos(roll), np.sin(roll), np.cos(pitch), np.sin(pitch), np.cos(yaw), np.sin(yaw)
    return (np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]]) @ np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
            @ np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]]))


def _rotation(rng):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def _body_inertia(rng):
    """A physically consistent COM inertia in general (rotated) axes."""
    a, b = rng.uniform(0.2, 1.0, 2)
    lam = np.array([a, b, rng.uniform(abs(a - b) + 0.05, a + b - 0.05)])
    R = _rotation(rng)
    return R @ np.diag(lam) @ R.T


# Every case input is checked with the library's own validation (Exercise.validate),
# public and hidden alike: a body inertia must be physical (PSD, triangle inequality),
# a rotation a rotation, a mass positive.
def _valid_wrench(c):
    positive(c["mass"], "mass")
    check_physical_inertia(c["inertia"], "inertia")
    for name in ("omega", "v", "omega_dot", "v_dot"):
        as_vector(c[name], name, 3)


def _valid_inertia_about_origin(c):
    masses = positive_array(c["masses"], "masses", (None,))
    as_matrix(c["points"], "points", len(masses), 3)


def _valid_steiner(p):
    positive(p["m"], "m")
    check_physical_inertia([[p["I_xx"], p["I_xy"], p["I_xz"]], [p["I_xy"], p["I_yy"], p["I_yz"]],
                            [p["I_xz"], p["I_yz"], p["I_zz"]]], "I_c")


def _valid_any_inertia(c):
    # 3.1.4 asks whether an inertia is physical: its cases need only be symmetric 3x3 matrices.
    as_symmetric(c["inertia"], "inertia", 3)


def _valid_omega_point(p):
    for name in ("I_k", "I_a", "I_b", "Omega"):
        positive(p[name], name)


def _valid_moments(c):
    positive_array(c["moments"], "moments", (3,))
    in_range(c["k"], "k", 0, 2)


def _valid_torque(c):
    as_rotation(c["R"], "R")
    check_physical_inertia(c["inertia_body"], "inertia_body")
    as_vector(c["omega_world"], "omega_world", 3)
    as_vector(c["omega_dot_world"], "omega_dot_world", 3)


def _valid_urdf(c):
    positive(c["mass"], "mass")
    as_vector(c["xyz"], "xyz", 3)
    as_vector(c["rpy"], "rpy", 3)
    ixx, ixy, ixz, iyy, iyz, izz = as_vector(c["inertia"], "inertia", 6)
    check_physical_inertia([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]], "inertia")


# 3.1.1 ----------------------------------------------------------------------
def _hidden_inertia_about_origin(rng):
    cases = []
    for n in (3, 5):
        cases.append({"masses": rng.uniform(0.1, 2.0, n), "points": rng.normal(0.0, 0.5, (n, 3)) + rng.normal(0, 0.5, 3)})
    return cases


# 3.1.2 ----------------------------------------------------------------------
def _wrench_case(rng):
    return {
        "mass": float(rng.uniform(0.5, 5.0)),
        "inertia": _body_inertia(rng),
        "omega": rng.normal(size=3),
        "v": rng.normal(size=3),
        "omega_dot": rng.normal(size=3),
        "v_dot": rng.normal(size=3),
    }


# 3.1.4 ----------------------------------------------------------------------
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
        R = _rotation(rng)
        cases.append({"inertia": R @ np.diag(lam) @ R.T})
    return cases


# 3.1.6 ----------------------------------------------------------------------
def _hidden_stability(rng):
    lam = np.sort(rng.uniform(0.5, 3.0, 3))
    perm = rng.permutation(3)
    moments = lam[perm]
    # axis holding the intermediate moment (unstable) and the largest (stable)
    return [
        {"moments": moments, "k": int(np.where(perm == 1)[0][0])},
        {"moments": moments, "k": int(np.where(perm == 2)[0][0])},
    ]


# 3.1.7 ----------------------------------------------------------------------
def _torque_case(rng):
    return {
        "R": _rotation(rng),
        "inertia_body": _body_inertia(rng),
        "omega_world": rng.normal(size=3),
        "omega_dot_world": rng.normal(size=3),
    }


# 3.1.8 ----------------------------------------------------------------------
def _urdf_case(rng):
    I = _body_inertia(rng) * 0.1
    return {
        "mass": float(rng.uniform(0.5, 4.0)),
        "xyz": rng.normal(0.0, 0.2, 3),
        "rpy": rng.uniform(-np.pi, np.pi, 3),
        "inertia": [I[0, 0], I[0, 1], I[0, 2], I[1, 1], I[1, 2], I[2, 2]],
    }


_STEINER_SYMBOLS = ("m", "c_x", "c_y", "c_z", "I_xx", "I_yy", "I_zz", "I_xy", "I_xz", "I_yz")


def _steiner_point(rng):
    I = _body_inertia(rng)
    c = rng.normal(0.0, 0.5, 3)
    return {"m": float(rng.uniform(0.5, 3.0)), "c_x": c[0], "c_y": c[1], "c_z": c[2],
            "I_xx": I[0, 0], "I_yy": I[1, 1], "I_zz": I[2, 2],
            "I_xy": I[0, 1], "I_xz": I[0, 2], "I_yz": I[1, 2]}


def _omega_point(rng):
    I = rng.uniform(0.5, 3.0, 3)
    return {"I_k": I[0], "I_a": I[1], "I_b": I[2], "Omega": float(rng.uniform(0.5, 5.0))}


CHAPTER = Chapter(
    name="rigid_body_dynamics",
    title="3.1 Rigid-body dynamics",
    seed=3101,
    exercises=[
        FunctionExercise(
            number="3.1.1", name="inertia_about_origin", points=2, partial=True,
            validate=_valid_inertia_about_origin,
            title="Inertia about the origin from point masses",
            args=("masses", "points"),
            public=[
                {"masses": [1.0, 2.0], "points": [[1.0, 0.0, 0.0], [0.0, 1.0, 1.0]]},
                {"masses": [0.5, 1.5, 1.0], "points": [[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [-0.7, 0.8, 0.9]]},
            ],
            hidden=_hidden_inertia_about_origin,
            rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.2", name="body_wrench", points=2, partial=True,
            validate=_valid_wrench,
            title="Newton-Euler equations in the body frame",
            args=("mass", "inertia", "omega", "v", "omega_dot", "v_dot"),
            public=[
                {"mass": 2.0, "inertia": [[0.1, 0.0, 0.0], [0.0, 0.2, 0.0], [0.0, 0.0, 0.25]],
                 "omega": [0.0, 2.0, 1.0], "v": [0.5, 0.0, 0.0],
                 "omega_dot": [3.0, -2.0, 4.0], "v_dot": [0.0, 0.0, 9.81]},
                {"mass": 1.0, "inertia": [[0.3, 0.01, 0.0], [0.01, 0.2, 0.02], [0.0, 0.02, 0.4]],
                 "omega": [1.0, -1.0, 0.5], "v": [0.2, 0.3, -0.1],
                 "omega_dot": [0.5, 1.5, -2.0], "v_dot": [1.0, -0.5, 0.25]},
            ],
            hidden=lambda rng: [_wrench_case(rng) for _ in range(2)],
            rtol=1e-6, atol=1e-9,
        ),
        ExpressionExercise(
            number="3.1.3", name="steiner_block", points=2, partial=False,
            validate=_valid_steiner,
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
            number="3.1.4", name="is_physically_consistent", points=3, partial=True,
            validate=_valid_any_inertia,
            title="Physical consistency of an inertia (triangle inequality)",
            args=("inertia",),
            public=[
                {"inertia": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 3.0]]},
                {"inertia": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.5]]},
            ],
            hidden=_hidden_consistency,
        ),
        ExpressionExercise(
            number="3.1.5", name="Omega_k_squared", points=2, partial=False,
            validate=_valid_omega_point,
            title="Small oscillations about a principal axis",
            symbols=("I_k", "I_a", "I_b", "Omega"),
            public_points=[
                {"I_k": 1.0, "I_a": 2.0, "I_b": 3.0, "Omega": 2.0},
                {"I_k": 2.0, "I_a": 1.0, "I_b": 3.0, "Omega": 1.5},
            ],
            sample=_omega_point, n_hidden=4, rtol=1e-6, atol=1e-9,
        ),
        FunctionExercise(
            number="3.1.6", name="axis_is_stable", points=2, partial=True,
            validate=_valid_moments,
            title="Which principal axes are stable (tennis-racket effect)",
            args=("moments", "k"),
            public=[
                {"moments": [1.0, 2.0, 3.0], "k": 0},
                {"moments": [1.0, 2.0, 3.0], "k": 1},
            ],
            hidden=_hidden_stability,
        ),
        FunctionExercise(
            number="3.1.7", name="world_frame_torque", points=2, partial=True,
            validate=_valid_torque,
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
        FunctionExercise(
            number="3.1.8", name="urdf_inertial_to_G", points=3, partial=True,
            validate=_valid_urdf,
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
    ],
)
