"""A free-floating planar robot turns its base when it swings its arm: zero momentum.

``floating_momentum_data`` builds a planar robot without gravity as a
:func:`lib.kinematic_tree.kinematic_tree`: a planar floating base (two
massless carriers on prismatic joints along world ``x`` and ``y``, then the
base, a uniform box, on a revolute joint about ``z``) and one arm link (a
uniform rod on a revolute joint at the middle of the base's right edge).
Starting at rest, nothing outside pushes on the robot: its momentum stays
zero. Its centroidal momentum matrix ``A_G(q)``
(:func:`lib.tree_dynamics.centroidal_momentum_matrix`) gives the angular
momentum about the centre of mass ``k = A_base(q) theta_dot + A_arm(q)
q_dot`` (the two prismatic columns add none), so while the arm turns through
``q`` the base turns through

    ``theta(q) = - integral from 0 to q of A_arm(s) / A_base(s) ds``,

here by Gauss-Legendre quadrature on ``QUADRATURE_NODES`` evaluations of lib's
``A_G`` (one batch), and the base slides so that the centre of mass
(:func:`lib.tree_dynamics.center_of_mass`) stays at the origin. With one
arm joint the base angle is a function of the arm angle: swinging the arm
back brings the base back. ``floating_momentum_describe`` gives the state
label and the readout rows, ``draw_floating_momentum`` draws the robot and
``theta(q)``. The live figure's JavaScript (``js/floating_momentum.js``)
evaluates the integral's closed form.

Explained in :ref:`sec-ab-floating`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from .. import kinematic_tree as kt
from .. import tree_dynamics as td
from .._validation import as_vector, instance_of, positive, real_number
from ..inertia import box_inertia
from ..spatial import spatial_inertia, transform
from . import _frame as fr
from .spec import FigureSpec, control

__all__ = ["floating_momentum_data", "floating_momentum_describe",
           "draw_floating_momentum"]

#: Gauss-Legendre nodes of the base-angle integral (its integrand is analytic:
#: 40 nodes reach round-off over the slider's range, tests/test_figures.py).
QUADRATURE_NODES = 40
#: The arm angles of the curve theta(q) (deg): the slider's range in 5 degree steps.
CURVE_Q_DEG = np.linspace(-150.0, 150.0, 61)
#: Half the side of the square the robot is drawn in (m; the robot reaches 0.75).
VIEW = 0.8
#: The curve panel's limit (deg): the base turns less than this at every
#: setting of the sliders (101 deg with the heaviest arm at q = 150 deg).
CURVE_LIMIT = 120.0


def _robot(base_mass: float, base_size: Any, arm_mass: float,
           arm_length: float) -> kt.KinematicTree:
    """The planar free-floating robot: slides x and y, the base (about z), the arm."""
    w, h = base_size
    x_axis, y_axis, z_axis = np.eye(3)
    none = np.zeros((6, 6))
    base = spatial_inertia(base_mass, box_inertia(base_mass, [w, h, h]))
    rod = arm_mass * arm_length**2 / 12.0
    arm = spatial_inertia(arm_mass, np.diag([0.0, rod, rod]),
                          com=[arm_length / 2, 0.0, 0.0])
    return kt.kinematic_tree(
        [-1, 0, 1, 2],
        ["prismatic", "prismatic", "revolute", "revolute"],
        [x_axis, y_axis, z_axis, z_axis],
        [np.eye(4), np.eye(4), np.eye(4), transform(np.eye(3), [w / 2, 0.0, 0.0])],
        [none, none, base, arm],
        names=["slide_x", "slide_y", "base", "arm"],
        joint_names=["x", "y", "theta", "q"],
        frames={"tip": (3, transform(np.eye(3), [arm_length, 0.0, 0.0]))},
    )


def _base_angle(tree: kt.KinematicTree, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``theta(q)`` (rad) and ``dtheta/dq`` at each arm angle ``q`` (rad), from A_G."""
    x, w = np.polynomial.legendre.leggauss(QUADRATURE_NODES)
    s = 0.5 * q[:, None] * (x + 1.0)  # nodes on [0, q], one row per q
    states = np.zeros((s.size + q.size, 4))
    states[:, 3] = np.concatenate([s.ravel(), q])
    A = td.centroidal_momentum_matrix(tree, states)  # (N, 6, 4): rows (k_G, p)
    ratio = -A[:, 2, 3] / A[:, 2, 2]  # dtheta/dq from k_z = 0
    nodes = ratio[: s.size].reshape(s.shape)
    theta = 0.5 * q * (nodes @ w)
    return theta, ratio[s.size:]


def floating_momentum_data(
    q_deg: float = 90.0,
    arm_mass: float = 2.0,
    base_mass: float = 4.0,
    base_size: Any = (0.4, 0.2),
    arm_length: float = 0.6,
) -> dict:
    """Data of the floating-base figure: the base angle that keeps the momentum zero.

    The arm has turned from ``0`` to ``q_deg`` (deg, relative to the base)
    with the robot starting at rest; ``arm_mass`` kg and ``arm_length`` m
    (a uniform rod), the base a uniform box of ``base_mass`` kg and
    ``base_size`` (width, height) m, the arm's joint at the middle of its
    right edge. Returned:

    - ``theta_deg``: the base angle (deg), ``-integral of A_arm / A_base``;
      ``rate``: ``dtheta/dq`` at ``q``; ``A_base``, ``A_arm``: the
      ``k_z`` row of :func:`lib.tree_dynamics.centroidal_momentum_matrix`
      (kg m^2 per rad/s);
    - ``pose``: the floating base's coordinates ``(x, y, theta)`` (m, m,
      rad) with the centre of mass at the origin; ``com``: lib's
      :func:`lib.tree_dynamics.center_of_mass` there (m, round-off);
    - ``momentum``: :func:`lib.tree_dynamics.centroidal_momentum` ``(k_z,
      p_x, p_y)`` with the arm turning at 1 rad/s, the base at ``rate`` and
      sliding so that ``p = 0`` (round-off: the check that ``theta`` keeps
      ``k`` zero);
    - ``corners`` (the base's, 4 x 2), ``joint``, ``tip`` (m) and
      ``start_corners`` (the base at ``q = 0``);
    - ``curve_q_deg``, ``curve_theta_deg``: ``theta`` over the slider's range.

    Explained in :ref:`sec-ab-floating`.

    Examples
    --------
    >>> d = floating_momentum_data(q_deg=0.0)
    >>> d["theta_deg"] + 0.0, bool(np.abs(d["momentum"]).max() < 1e-15)
    (0.0, True)
    >>> round(floating_momentum_data(q_deg=90.0)["theta_deg"], 2)
    -51.83
    """
    q_arm = math.radians(real_number(q_deg, "q_deg"))
    arm_mass = positive(arm_mass, "arm_mass")
    base_mass = positive(base_mass, "base_mass")
    size = as_vector(base_size, "base_size", 2)
    for i, value in enumerate(size):
        positive(value, f"base_size[{i}]")
    arm_length = positive(arm_length, "arm_length")
    tree = _robot(base_mass, size, arm_mass, arm_length)
    (theta,), (rate,) = _base_angle(tree, np.array([q_arm]))
    curve, _ = _base_angle(tree, np.radians(CURVE_Q_DEG))
    q = np.array([0.0, 0.0, theta, q_arm])
    com = td.center_of_mass(tree, q)
    q[:2] = -com[:2]  # slide the base so that the centre of mass is at the origin
    A = td.centroidal_momentum_matrix(tree, q)
    # the arm at 1 rad/s, the base at the rate that keeps k_z = 0, sliding so that p = 0
    v = np.array([0.0, 0.0, rate, 1.0])
    v[:2] = -A[3:5, 2:] @ v[2:] / (base_mass + arm_mass)
    momentum = td.centroidal_momentum(tree, q, v)
    poses = kt.forward_kinematics(tree, q)
    w, h = size
    box = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    corners = box @ poses[2, :2, :2].T + poses[2, :2, 3]
    start = np.array([0.0, 0.0, 0.0, 0.0])
    start[:2] = -td.center_of_mass(tree, start)[:2]
    start_base = kt.forward_kinematics(tree, start)[2]
    return {
        "q_deg": float(q_deg),
        "arm_mass": float(arm_mass),
        "theta_deg": math.degrees(theta),
        "rate": float(rate),
        "A_base": float(A[2, 2]),
        "A_arm": float(A[2, 3]),
        "pose": q[:3].copy(),
        "com": td.center_of_mass(tree, q)[:2],
        "momentum": np.array([momentum[2], momentum[3], momentum[4]]),
        "corners": corners,
        "joint": poses[3, :2, 3],
        "tip": kt.frame_pose(tree, q, "tip")[:2, 3],
        "start_corners": box @ start_base[:2, :2].T + start_base[:2, 3],
        "curve_q_deg": CURVE_Q_DEG.copy(),
        "curve_theta_deg": np.degrees(curve),
    }


def floating_momentum_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the floating-base figure.

    Explained in :ref:`sec-ab-floating`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> floating_momentum_describe(floating_momentum_data())[0]
    'arm +90 deg, base -51.8 deg'
    """
    instance_of(data, dict, "data")
    theta, q = data["theta_deg"], data["q_deg"]
    text = f"arm {_signed(q, 0)} deg, base {_signed(theta, 1)} deg"
    rows = [
        ("base angle theta (deg)", f"{_signed(theta, 1)}"),
        ("arm angle in the world (deg)", f"{_signed(q + theta, 1)}"),
        ("base turn per arm turn dtheta/dq", f"{_signed(data['rate'], 3)}"),
        ("k_z at dq/dt = 1 rad/s (kg m^2/s)",
         fr.vector_text(data["momentum"][:1], 3)[1:-1]),
        ("p at dq/dt = 1 rad/s (kg m/s)", fr.vector_text(data["momentum"][1:], 3)),
        ("centre of mass (m)", fr.vector_text(data["com"], 3)),
    ]
    return text, "moving" if q != 0.0 else "static", rows


def _signed(value: float, digits: int) -> str:
    """``value`` with a sign and ``digits`` decimals; what rounds to 0 prints as 0."""
    if abs(value) < 0.5 * 10.0**-digits:
        return f"{0.0:.{digits}f}"
    return f"{value:+.{digits}f}"


def draw_floating_momentum(data: dict, ax: Any = None) -> Figure:
    """Draw the robot (left) and the base angle over the arm angle (right).

    ``ax`` is a pair of axes (a new pyplot-free figure when omitted, or new
    axes on a given matplotlib (sub)figure). Left: the base (filled; dashed,
    where it started at ``q = 0``), the arm and the centre of mass, which
    stays at the origin. Right: ``theta(q)`` over the slider's range, the
    current arm angle marked.
    Explained in :ref:`sec-ab-floating`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Examples
    --------
    >>> len(draw_floating_momentum(floating_momentum_data()).axes)
    2
    """
    instance_of(data, dict, "data")
    fig, axes = fr.new_axes(ax, (9.0, 4.2), ncols=2)
    robot, curve = axes
    start = np.vstack([data["start_corners"], data["start_corners"][:1]])
    fr.line(robot, start[:, 0], start[:, 1], color=fr.COLORS["inertial"], lw=1.2,
            ls="--", zorder=1)
    c = data["corners"]
    fr.fill(robot, c[:, 0], c[:, 1], fr.COLORS["inertial"], alpha=0.35, lw=1.5,
            ec=fr.COLORS["inertial"], zorder=2)
    joint, tip = data["joint"], data["tip"]
    fr.line(robot, [joint[0], tip[0]], [joint[1], tip[1]], color="#555555", lw=5,
            solid_capstyle="round", zorder=3)
    fr.line(robot, *joint, marker="o", ls="none", color=fr.COLORS["joint1"], ms=9,
            zorder=4)
    robot.add_artist(Line2D([0.0], [0.0], marker="P", ls="none", color="#000000", ms=10,
                            zorder=6))
    robot.text(0.03, -0.07, "COM", fontsize=9, zorder=6)
    robot.set_xlim(-VIEW, VIEW)
    robot.set_ylim(-VIEW, VIEW)
    robot.set_aspect("equal")
    robot.set_xticks([])
    robot.set_yticks([])
    text, _, _ = floating_momentum_describe(data)
    robot.set_title(f"{text} (arm {data['arm_mass']:.1f} kg)\n"
                    "box: the base; dashed: where it was at q = 0", fontsize=10)
    fr.line(curve, data["curve_q_deg"], data["curve_theta_deg"],
            color=fr.COLORS["inertial"], lw=2)
    fr.line(curve, [data["q_deg"]], [data["theta_deg"]], marker="o", ls="none",
            color=fr.COLORS["joint1"], ms=8, zorder=4)
    top = CURVE_LIMIT
    curve.axhline(0.0, color="#555555", lw=0.8)
    curve.set_xlim(CURVE_Q_DEG[0], CURVE_Q_DEG[-1])
    curve.set_ylim(-top, top)
    curve.set_xticks(np.arange(-150.0, 151.0, 50.0))
    curve.set_xlabel("arm angle q (deg)", fontsize=9)
    curve.set_ylabel(r"base angle $\theta$ (deg)", fontsize=9)
    curve.set_title("base angle that keeps the momentum zero", fontsize=10)
    return fig


#: The figure's record: title, controls (``floating_momentum_data``'s keywords),
#: constants.
FIGURE = FigureSpec(
    name="floating_momentum",
    title="A free-floating robot without gravity: the base turns against the arm",
    controls=(
        control("q_deg", "arm angle q", -150.0, 150.0, 1.0, "deg", digits=0),
        control("arm_mass", "arm mass", 0.5, 4.0, 0.1, "kg", digits=1),
    ),
    data=floating_momentum_data,
    describe=floating_momentum_describe,
    draw=draw_floating_momentum,
    constants=("base_mass", "base_size", "arm_length"),
    size=(9.0, 4.2),
    section="sec-ab-floating",
)
