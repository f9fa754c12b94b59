"""The kinematic-tree schematic draws the frame origins of lib.kinematic_tree's forward kinematics."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lib import errors  # noqa: E402
from lib.figures.schematics.kinematic_tree import (  # noqa: E402
    VIEWS,
    draw_kinematic_tree,
    project,
    tree_origins,
)
from lib.kinematic_tree import forward_kinematics, frame_pose, kinematic_tree  # noqa: E402
from lib.models.planar_chain import planar_chain_tip, planar_chain_tree  # noqa: E402
from lib.models.robots import load_robot  # noqa: E402
from lib.spatial import spatial_inertia, transform  # noqa: E402

#: The drawing holds the projected origins themselves: equal up to the
#: projection's round-off.
ATOL = 1e-12


def _rotation(axis, angle):
    a = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def branched_tree():
    """A hand-built tree: a free base, a branch, a prismatic and a fixed joint, offsets."""
    rng = np.random.default_rng(2101)
    parents = [-1, 0, 1, 2, 1, 4, 0]
    types = ["free", "revolute", "revolute", "prismatic", "revolute", "fixed", "revolute"]
    axes = rng.normal(size=(7, 3))
    placements = [transform(_rotation(rng.normal(size=3), rng.uniform(0, 3)),
                            rng.normal(scale=0.3, size=3)) for _ in parents]
    inertias = [spatial_inertia(1.0, 0.01 * np.eye(3), com=[0.1, 0.0, 0.0]) for _ in parents]
    names = ["torso", "hip", "thigh", "slider", "arm", "hand", "head"]
    return kinematic_tree(parents, types, axes, placements, inertias, names=names,
                          frames={"tool": (5, placements[2]), "mount": (-1, placements[3])})


def _state(model, rng):
    q = rng.uniform(-2.0, 2.0, model.nq)
    for i, kind in enumerate(model.joint_types):
        if kind == "free":
            s = model.q_slices[i]
            quat = rng.normal(size=4)
            q[s.start + 3 : s.stop] = quat / np.linalg.norm(quat)
    return q


def _artist(ax, gid):
    return next(a for a in [*ax.lines, *ax.collections] if a.get_gid() == gid)


MODELS = {"ur5": lambda: (load_robot("ur5"), ["tool0"]),
          "panda": lambda: (load_robot("panda"), ["panda_hand_tcp", "panda_link0"]),
          "branched": lambda: (branched_tree(), ["tool", "mount"])}


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_drawn_points_are_the_frame_origins(name, view):
    model, frames = MODELS[name]()
    rng = np.random.default_rng(7)
    for _ in range(3):
        q = _state(model, rng)
        ax = draw_kinematic_tree(model, q, view=view, frames=frames, axis_length=0.1)
        origins = forward_kinematics(model, q)[:, :3, 3]
        P = VIEWS[view]
        drawn = origins @ P.T
        for i, (body, parent) in enumerate(zip(model.names, model.parents)):
            segment = _artist(ax, f"link:{body}").get_xydata()
            start = np.zeros(2) if parent < 0 else drawn[parent]
            np.testing.assert_allclose(segment, [start, drawn[i]], atol=ATOL)
            np.testing.assert_allclose(_artist(ax, f"joint:{body}").get_offsets(), [drawn[i]],
                                       atol=ATOL)
            if model.joint_types[i] in ("revolute", "prismatic"):
                # the axis line runs through the joint along R_0i a_i, 0.1 m long in 3D
                axis = _artist(ax, f"axis:{body}").get_xydata()
                np.testing.assert_allclose(axis.mean(axis=0), drawn[i], atol=ATOL)
                world = forward_kinematics(model, q)[i, :3, :3] @ model.axes[i]
                np.testing.assert_allclose(axis[1] - axis[0], 0.1 * P @ world, atol=ATOL)
        for frame in frames:
            body = model.frames[frame][0]
            segment = _artist(ax, f"frame:{frame}").get_xydata()
            start = np.zeros(2) if body < 0 else drawn[body]
            np.testing.assert_allclose(segment, [start, P @ frame_pose(model, q, frame)[:3, 3]],
                                       atol=ATOL)
        np.testing.assert_allclose(_artist(ax, "base").get_xydata(), [[0.0, 0.0]])
        # every drawn point lies inside the axes
        (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
        assert np.all((drawn[:, 0] > x0) & (drawn[:, 0] < x1) & (drawn[:, 1] > y0) & (drawn[:, 1] < y1))
        plt.close("all")


def test_origins_of_a_planar_chain_are_its_joints():
    # independent route: lib.models.planar_chain's closed-form tip of each sub-chain
    L = np.array([0.4, 0.3, 0.2])
    arm = planar_chain_tree(L, [1.0, 1.0, 1.0])
    q = np.array([0.7, -1.1, 0.4])
    joints = [np.zeros(2)] + [planar_chain_tip(q[:k], np.zeros(k), L[:k])[0] for k in (1, 2)]
    np.testing.assert_allclose(tree_origins(arm, q)[:, :2], joints, atol=ATOL)
    np.testing.assert_allclose(tree_origins(arm, q)[:, 2], 0.0, atol=ATOL)
    ax = draw_kinematic_tree(arm, q, view="xy", labels={"link3": "wrist"})
    assert [t.get_text() for t in ax.texts] == ["wrist"]
    assert ax.get_xlabel() == "x (m)" and ax.get_ylabel() == "y (m)"
    plt.close("all")


def test_views():
    p = np.array([[1.0, 2.0, 3.0]])
    assert project(p, "xy").tolist() == [[1.0, 2.0]]
    assert project(p, "xz").tolist() == [[1.0, 3.0]]
    assert project(p, "yz").tolist() == [[2.0, 3.0]]
    # cabinet oblique: y recedes at 30 degrees, at half length
    np.testing.assert_allclose(project(p, "oblique"),
                               [[1.0 + np.cos(np.pi / 6), 3.0 + 0.5]], atol=1e-15)
    ax = draw_kinematic_tree(load_robot("ur5"), np.zeros(6), view="oblique", labels=True)
    assert ax.get_xticks().size == 0 and {"x", "y", "z"} <= {t.get_text() for t in ax.texts}
    assert "wrist_3_link" in {t.get_text() for t in ax.texts}
    plt.close("all")


def test_bad_input_is_refused_by_name():
    arm = planar_chain_tree([0.5, 0.5], [1.0, 1.0])
    with pytest.raises(errors.OutOfRangeError, match="view"):
        draw_kinematic_tree(arm, [0.0, 0.0], view="front")
    with pytest.raises(errors.ShapeError, match="q"):
        draw_kinematic_tree(arm, [0.0, 0.0, 0.0])
    with pytest.raises(errors.NonFiniteError, match="q"):
        tree_origins(arm, [0.0, np.nan])
    with pytest.raises(errors.ShapeError, match="model"):
        draw_kinematic_tree("ur5", [0.0] * 6)
    with pytest.raises(errors.OutOfRangeError, match="labels"):
        draw_kinematic_tree(arm, [0.0, 0.0], labels={"elbow": "e"})
    with pytest.raises(errors.ShapeError, match="labels"):
        draw_kinematic_tree(arm, [0.0, 0.0], labels="all")
    with pytest.raises(errors.OutOfRangeError):
        draw_kinematic_tree(arm, [0.0, 0.0], frames=["no_such_frame"])
    with pytest.raises(errors.NonPositiveValueError, match="axis_length"):
        draw_kinematic_tree(arm, [0.0, 0.0], axis_length=-0.1)
    with pytest.raises(errors.ShapeError, match="points"):
        project([1.0, 2.0], "xy")
    plt.close("all")
