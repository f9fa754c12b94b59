"""Kinematic trees of rigid bodies: the model, forward kinematics and the RNEA.

A tree has ``n_b`` bodies numbered so that every parent comes before its
children (``parents[i] < i``; ``-1`` is the fixed ground, the world frame
``{0}``). Body ``i`` hangs from its parent by joint ``i``; its body frame
``{i}`` is the joint frame, placed in the parent's frame at ``q_i = 0`` by
the constant pose ``X_i = T_{pa(i), i}(0)`` (a URDF joint's
``<origin>``), and moved by the joint:

- ``"revolute"``: rotation ``q_i`` (rad) about the unit ``axis`` of ``{i}``;
  ``S_i = (a, 0)``, one coordinate and one velocity;
- ``"prismatic"``: translation ``q_i`` (m) along ``axis``; ``S_i = (0, a)``;
- ``"fixed"``: no motion, no coordinate (``S_i`` has no columns);
- ``"free"`` (a floating base): seven coordinates ``(p, w, x, y, z)``, the
  position ``p`` of ``{i}`` in the joint frame and the unit quaternion of its
  orientation, scalar first as :func:`lib.model_files.quat_to_rotation`
  (Pinocchio stores ``(p, x, y, z, w)``); six velocities, the body twist
  ``(omega, v)`` of ``{i}`` in ``{i}`` (Pinocchio: ``(v, omega)``), ``S_i =
  E``; the acceleration is its time derivative.

Conventions: twist ``(omega, v)``, wrench ``(moment, force)``, SI units;
every per-body twist, acceleration and wrench is expressed in the body's own
frame ``{i}``, poses are ``T_{0i}`` in the world. ``gravity`` is the
gravitational acceleration in the world frame (default ``(0, 0, -g)``).

Batches: ``q``, ``v``, ``a`` are one state, shape ``(nq,)``, or a batch of
``N`` states, shape ``(N, nq)``; every routine loops over the bodies and
evaluates all states of the batch at once with NumPy broadcasting (no
Python loop over states). A batch returns every result with a leading axis
of length ``N``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ._validation import (
    FloatArray,
    as_array,
    as_spatial_inertia,
    as_transform,
    as_vector,
    instance_of,
    one_of,
)
from .common import GRAVITY
from .errors import (
    NonPhysicalInertiaError,
    NonPositiveValueError,
    OutOfRangeError,
    ShapeError,
)
from .inertia import _skew, check_physical_inertia
from .model_files import quat_to_rotation
from .spatial import inverse_transform, transform_spatial_inertia

__all__ = [
    "JOINT_TYPES",
    "KinematicTree",
    "kinematic_tree",
    "merge_fixed_joints",
    "forward_kinematics",
    "frame_pose",
    "body_twists",
    "rnea",
    "joint_wrenches",
    "bias_forces",
    "gravity_torques",
    "rnea_mass_matrix",
    "tree_kinetic_energy",
    "tree_potential_energy",
]

#: The joint types of a tree, with their numbers of coordinates and velocities.
JOINT_TYPES = ("revolute", "prismatic", "fixed", "free")
_NQ = {"revolute": 1, "prismatic": 1, "fixed": 0, "free": 7}
_NV = {"revolute": 1, "prismatic": 1, "fixed": 0, "free": 6}
_DEFAULT_GRAVITY = (0.0, 0.0, -GRAVITY)
#: Relative tolerance on the mass block ``m E`` of a body's spatial inertia.
_MASS_BLOCK_RTOL = 1e-9


@dataclass(frozen=True, eq=False)
class KinematicTree:
    """A tree of rigid bodies and joints; build it with :func:`kinematic_tree`.

    Fields (read-only arrays): ``names`` of the bodies, ``parents`` (``-1``
    for the ground), ``joint_types``, ``joint_names``, ``axes`` (``(n_b,
    3)``, unit; zero for fixed and free joints), ``placements`` (``(n_b, 4,
    4)``, ``X_i``, the joint frame in the parent's frame), ``inertias``
    (``(n_b, 6, 6)``, ``G_i`` in ``{i}``), the named ``frames`` (a dict
    ``name -> (body, T_{body, frame})``, body ``-1`` for the ground), and the
    derived sizes ``nq``, ``nv``, the index ranges ``q_slices`` and
    ``v_slices`` of each joint, and the motion subspaces ``S`` (``6 x nv_i``
    each). Explained in :ref:`sec-rn-tree`.
    """

    names: tuple
    parents: tuple
    joint_types: tuple
    joint_names: tuple
    axes: FloatArray
    placements: FloatArray
    inertias: FloatArray
    frames: dict
    nq: int
    nv: int
    q_slices: tuple
    v_slices: tuple
    S: tuple
    _constants: dict | None = None

    @property
    def n_bodies(self) -> int:
        """Number of bodies ``n_b``."""
        return len(self.names)

    def __repr__(self) -> str:
        kinds = self.joint_types
        counts = {k: kinds.count(k) for k in JOINT_TYPES if k in kinds}
        return (
            f"KinematicTree({self.n_bodies} bodies, nq={self.nq}, nv={self.nv}, "
            f"joints {counts})"
        )


def _names(value, name: str, count: int, default: str) -> tuple:
    if value is None:
        return tuple(f"{default}{i}" for i in range(count))
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != count:
        raise ShapeError(
            f"{name} must be a sequence of {count} strings, one per body, got {value!r}"
        )
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item:
            raise ShapeError(f"{name}[{i}] must be a non-empty string, got {item!r}")
    if len(set(value)) != count:
        raise ShapeError(f"{name} must be unique, got {list(value)}")
    return tuple(value)


def _check_inertia(value: ArrayLike, name: str) -> FloatArray:
    """A rigid body's spatial inertia ``[[I_c - m [c]^2, m [c]], [-m [c], m E]]``.

    Symmetric and positive semidefinite, the mass block ``m E`` (``m >= 0``),
    a skew-symmetric ``m [c]`` and a physical ``I_c`` (3.1's triangle
    inequality); a massless body has ``G = 0``.
    """
    g = as_spatial_inertia(value, name)
    mass = float(g[3, 3])
    tol = _MASS_BLOCK_RTOL * max(float(np.max(np.abs(g))), np.finfo(float).tiny)
    first = g[:3, 3:]
    if mass < -tol or np.max(np.abs(g[3:, 3:] - mass * np.eye(3))) > tol:
        raise NonPhysicalInertiaError(
            f"{name} must be a rigid body's spatial inertia with the mass block m E "
            f"(m >= 0) in its lower right, got {np.round(g[3:, 3:], 12)!r}"
        )
    if np.max(np.abs(first + first.T)) > tol:
        raise NonPhysicalInertiaError(
            f"{name} must have the skew-symmetric block m [c] in its upper right "
            f"(c: the centre of mass), got {np.round(first, 12)!r}"
        )
    if mass <= tol:
        if np.max(np.abs(g)) > 0.0:
            raise NonPhysicalInertiaError(
                f"{name} has zero mass but a non-zero inertia: no body has that"
            )
        return g
    check_physical_inertia(
        g[:3, :3] + first @ first / mass, f"{name}'s inertia about its centre of mass"
    )
    return g


def kinematic_tree(
    parents: Sequence[int],
    joint_types: Sequence[str],
    axes: ArrayLike,
    placements: ArrayLike,
    inertias: ArrayLike,
    names: Sequence[str] | None = None,
    joint_names: Sequence[str] | None = None,
    frames: dict | None = None,
) -> KinematicTree:
    """Build and check a kinematic tree: parents, joints, placements, spatial inertias.

    Bodies are numbered so that each parent comes first (``parents[i] < i``,
    ``-1`` for the ground), which also rules out loops. Each body's spatial
    inertia ``G_i`` (3.1's :func:`lib.spatial.spatial_inertia`) is expressed
    in its own frame ``{i}``; a massless body (a frame carrier) has ``G_i =
    0``. Explained in :ref:`sec-rn-tree`.

    Parameters
    ----------
    parents : sequence of int, length n_b
        Parent of each body, ``-1`` for the ground.
    joint_types : sequence of str, length n_b
        One of :data:`JOINT_TYPES` per body.
    axes : array_like, shape (n_b, 3)
        Joint axis in ``{i}`` (normalised here; non-zero for revolute and
        prismatic joints, ignored for fixed and free joints).
    placements : array_like, shape (n_b, 4, 4)
        ``X_i = T_{pa(i), i}(0)``: body ``i``'s frame in its parent's (the
        world's for ``-1``) at ``q_i = 0``.
    inertias : array_like, shape (n_b, 6, 6)
        Spatial inertia ``G_i`` in ``{i}``, ordered (angular, linear).
    names, joint_names : sequence of str, optional
        Unique body and joint names (default ``body0 ...``, ``joint0 ...``).
    frames : dict, optional
        Extra named frames ``{name: (body, T_{body, frame})}`` (an end
        effector, a link merged by :func:`merge_fixed_joints`).

    Returns
    -------
    KinematicTree

    Raises
    ------
    ShapeError
        On malformed arrays, a parent that is not a whole number, or names
        that are not unique strings.
    OutOfRangeError
        On an unknown joint type, or a parent that does not come before its
        child (a loop or a forward reference).
    NotATransformError, NonSymmetricError, NonPhysicalInertiaError
        On a placement that is not a rigid transform or an inertia that is
        not a rigid body's.
    NonPositiveValueError, NonFiniteError
        On a zero joint axis or a NaN.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(1.0, np.diag([0.01, 0.01, 0.01]), com=[0.5, 0.0, 0.0])
    >>> X = np.eye(4); X[0, 3] = 1.0  # joint 2 sits 1 m along link 1's x axis
    >>> z = [0.0, 0.0, 1.0]
    >>> arm = kinematic_tree([-1, 0], ["revolute"] * 2, [z, z], [np.eye(4), X], [G, G])
    >>> arm.nq, arm.nv, arm.parents
    (2, 2, (-1, 0))
    """
    if isinstance(parents, str) or not isinstance(parents, (Sequence, np.ndarray)):
        raise ShapeError(
            "parents must be a sequence of whole numbers, one per body, "
            f"got {parents!r}"
        )
    n_b = len(parents)
    if n_b < 1:
        raise ShapeError("parents must name at least one body")
    parent_list = []
    for i, p in enumerate(parents):
        if (
            isinstance(p, (bool, np.bool_))
            or not isinstance(p, (int, np.integer, float, np.floating))
            or not np.isfinite(p)
            or int(p) != p
        ):
            raise ShapeError(
                f"parents[{i}] must be a whole number (a body index, -1 for the "
                f"ground), got {p!r}"
            )
        if not -1 <= p < i:
            raise OutOfRangeError(
                f"parents[{i}] = {int(p)} must lie in [-1, {i - 1}]: number the "
                "bodies so that each parent comes before its children (a parent "
                "after its child is a loop or a forward "
                "reference)"
            )
        parent_list.append(int(p))
    if (
        isinstance(joint_types, str)
        or not isinstance(joint_types, (Sequence, np.ndarray))
        or len(joint_types) != n_b
    ):
        raise ShapeError(
            f"joint_types must be a sequence of {n_b} joint types (one per body), "
            f"got {joint_types!r}"
        )
    types = tuple(
        one_of(t, f"joint_types[{i}]", JOINT_TYPES) for i, t in enumerate(joint_types)
    )
    axis_arr = as_array(axes, "axes", (n_b, 3))
    for i, kind in enumerate(types):
        if kind in ("revolute", "prismatic"):
            norm = float(np.linalg.norm(axis_arr[i]))
            if norm <= 1e-12:
                raise NonPositiveValueError(
                    f"axes[{i}] of the {kind} joint {i} must be non-zero, "
                    f"got {axis_arr[i]}"
                )
            axis_arr[i] /= norm
        else:
            axis_arr[i] = 0.0
    place = as_array(placements, "placements", (n_b, 4, 4))
    for i in range(n_b):
        as_transform(place[i], f"placements[{i}]")
    inert = as_array(inertias, "inertias", (n_b, 6, 6))
    inert = np.stack([_check_inertia(inert[i], f"inertias[{i}]") for i in range(n_b)])
    body_names = _names(names, "names", n_b, "body")
    j_names = _names(joint_names, "joint_names", n_b, "joint")
    frame_dict = {}
    if frames is not None:
        if not isinstance(frames, dict):
            raise ShapeError(
                "frames must be a dict {name: (body, T)}, "
                f"got {type(frames).__name__}"
            )
        for key, item in frames.items():
            if not isinstance(item, tuple) or len(item) != 2:
                raise ShapeError(
                    f"frames[{key!r}] must be a pair (body, T_body_frame), got {item!r}"
                )
            body, pose = item
            if (
                isinstance(body, bool)
                or not isinstance(body, (int, np.integer))
                or not -1 <= body < n_b
            ):
                raise OutOfRangeError(
                    f"frames[{key!r}] body must be a body index in [-1, {n_b - 1}], "
                    f"got {body!r}"
                )
            frame_dict[str(key)] = (
                int(body),
                as_transform(pose, f"frames[{key!r}] pose").copy(),
            )
    q_slices, v_slices, subspaces = [], [], []
    iq = iv = 0
    for i, kind in enumerate(types):
        q_slices.append(slice(iq, iq + _NQ[kind]))
        v_slices.append(slice(iv, iv + _NV[kind]))
        iq, iv = iq + _NQ[kind], iv + _NV[kind]
        s = np.zeros((6, _NV[kind]))
        if kind == "revolute":
            s[:3, 0] = axis_arr[i]
        elif kind == "prismatic":
            s[3:, 0] = axis_arr[i]
        elif kind == "free":
            s[:] = np.eye(6)
        s.setflags(write=False)
        subspaces.append(s)
    for array in (axis_arr, place, inert):
        array.setflags(write=False)
    # constants of the vectorised kinematics (every body at once): R0, p0 of X_i;
    # R0 [a], R0 [a]^2 of revolute joints (Rodrigues), R0 a of prismatic joints;
    # the map from joint velocities to the joint twists S_i qd_i of all bodies
    r0, p0 = place[:, :3, :3], place[:, :3, 3]
    ka = _skew(axis_arr)
    revolute = np.array([k == "revolute" for k in types])[:, None, None]
    prismatic = np.array([k == "prismatic" for k in types])[:, None]
    s_map = np.zeros((iv, n_b, 6))
    for i in range(n_b):
        s_map[v_slices[i], i, :] = subspaces[i].T
    constants = {
        "r0": r0,
        "p0": p0,
        "r0_k": np.where(revolute, r0 @ ka, 0.0),
        "r0_k2": np.where(revolute, r0 @ ka @ ka, 0.0),
        "r0_a": np.where(prismatic, (r0 @ axis_arr[:, :, None])[:, :, 0], 0.0),
        "revolute": np.array([i for i, k in enumerate(types) if k == "revolute"], int),
        "prismatic": np.array(
            [i for i, k in enumerate(types) if k == "prismatic"], int
        ),
        "free": tuple(i for i, k in enumerate(types) if k == "free"),
        "s_map": s_map.reshape(iv, n_b * 6),
    }
    # R_J and p_J are linear in (1, sin q, 1 - cos q) and (1, q): one small matrix
    # product per body gives all states at once
    constants["r_rows"] = np.stack(
        [constants[k].reshape(n_b, 9) for k in ("r0", "r0_k", "r0_k2")], axis=1
    )
    constants["p_rows"] = np.stack([p0, constants["r0_a"]], axis=1)
    constants["x_rows"] = _adjoint_rows(types, axis_arr, place)
    constants["q_revolute"] = np.array(
        [q_slices[i].start for i in constants["revolute"]], int
    )
    constants["q_prismatic"] = np.array(
        [q_slices[i].start for i in constants["prismatic"]], int
    )
    return KinematicTree(
        body_names,
        tuple(parent_list),
        types,
        j_names,
        axis_arr,
        place,
        inert,
        frame_dict,
        iq,
        iv,
        tuple(q_slices),
        tuple(v_slices),
        tuple(subspaces),
        constants,
    )


def _adjoint_rows(types: tuple, axes: FloatArray, place: FloatArray) -> FloatArray:
    """Constant rows (n_b, 4, 36): ``X_i(q) = (1, sin q, 1 - cos q, q)`` times them.

    ``X_i = Ad_{T_{i pa(i)}} = Ad_{T_J(q)^-1} C_i`` with the constant ``C_i =
    Ad_{X_i^-1}``. A revolute joint's ``Ad_{T_J^-1}`` is ``diag(R_J^T, R_J^T)``
    with ``R_J^T = E - sin q [a] + (1 - cos q) [a]^2``; a prismatic joint's is
    ``E + q [[0, 0], [-[a], 0]]``. Free joints get zero rows (their adjoint
    comes from the quaternion).
    """
    n_b = len(types)
    rows = np.zeros((n_b, 4, 6, 6))
    for i, kind in enumerate(types):
        if kind == "free":
            continue
        r, p = place[i, :3, :3], place[i, :3, 3]
        c = np.zeros((6, 6))  # Ad of X_i^-1 = (R^T, -R^T p)
        c[:3, :3] = c[3:, 3:] = r.T
        c[3:, :3] = -r.T @ _skew(p)
        rows[i, 0] = c
        k = _skew(axes[i])
        if kind == "revolute":
            rows[i, 1] = np.kron(np.eye(2), -k) @ c
            rows[i, 2] = np.kron(np.eye(2), k @ k) @ c
        elif kind == "prismatic":
            shift = np.zeros((6, 6))
            shift[3:, :3] = -k
            rows[i, 3] = shift @ c
    return rows.reshape(n_b, 4, 36)


def merge_fixed_joints(model: KinematicTree) -> KinematicTree:
    """The same tree without fixed joints: each such body merged into its moving parent.

    A body on a fixed joint moves with its nearest ancestor ``a`` that has a
    moving joint (or with the ground): its inertia is moved into ``{a}``
    (``G_a += Ad_{T_ia}^T G_i Ad_{T_ia}``,
    :func:`lib.spatial.transform_spatial_inertia`),
    its children hang from ``a`` with the composed placement, and its frame
    stays available as a named frame. Inertia merged into the ground is
    dropped (it never moves). Pinocchio's URDF parser merges the same way, so
    the two trees have the same joints. Explained in :ref:`sec-rn-tree`.

    Parameters
    ----------
    model : KinematicTree
        Any tree.

    Returns
    -------
    KinematicTree
        The tree without fixed joints (the model itself if it has none).

    Raises
    ------
    ShapeError
        If ``model`` is not a :class:`KinematicTree`.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, merge_fixed_joints
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(1.0, np.diag([0.01, 0.01, 0.01]))
    >>> X = np.eye(4); X[0, 3] = 1.0
    >>> z = [0.0, 0.0, 1.0]
    >>> arm = kinematic_tree([-1, 0], ["revolute", "fixed"], [z, z], [np.eye(4), X],
    ...                      [G, G], names=["link", "tool"])
    >>> merged = merge_fixed_joints(arm)
    >>> merged.names, float(merged.inertias[0][3, 3]), merged.frames["tool"][0]
    (('link',), 2.0, 0)
    """
    instance_of(model, KinematicTree, "model")
    if "fixed" not in model.joint_types:
        return model
    n_b = model.n_bodies
    anchor = [-1] * n_b  # the moving body (or ground) each body is welded to
    to_anchor = [np.eye(4)] * n_b  # T_{anchor, i}
    for i in range(n_b):
        p = model.parents[i]
        if model.joint_types[i] == "fixed":
            anchor[i] = -1 if p < 0 else anchor[p]
            to_anchor[i] = (np.eye(4) if p < 0 else to_anchor[p]) @ model.placements[i]
        else:
            anchor[i], to_anchor[i] = i, np.eye(4)
    keep = [i for i in range(n_b) if model.joint_types[i] != "fixed"]
    if not keep:
        raise ShapeError("model has only fixed joints: merged, nothing would move")
    new_index = {old: new for new, old in enumerate(keep)}
    new_index[-1] = -1
    inertias = {i: model.inertias[i].copy() for i in keep}
    for i in range(n_b):
        if model.joint_types[i] == "fixed" and anchor[i] >= 0:
            inertias[anchor[i]] += transform_spatial_inertia(
                model.inertias[i], inverse_transform(to_anchor[i])
            )
    parents, placements = [], []
    for i in keep:
        p = model.parents[i]
        parents.append(new_index[-1 if p < 0 else anchor[p]])
        placements.append(
            model.placements[i] if p < 0 else to_anchor[p] @ model.placements[i]
        )
    frames = {}
    for i in range(n_b):
        if model.joint_types[i] == "fixed":
            frames[model.names[i]] = (new_index[anchor[i]], to_anchor[i])
    for key, (body, pose) in model.frames.items():
        frames[key] = (
            (-1, pose)
            if body < 0
            else (new_index[anchor[body]], to_anchor[body] @ pose)
        )
    return kinematic_tree(
        parents,
        [model.joint_types[i] for i in keep],
        model.axes[keep],
        placements,
        [inertias[i] for i in keep],
        names=[model.names[i] for i in keep],
        joint_names=[model.joint_names[i] for i in keep],
        frames=frames,
    )


# --------------------------------------------------------------------------- states


def _batch(
    model: KinematicTree, value: ArrayLike, name: str, size: int, batch: int | None
) -> FloatArray:
    """``value`` as (N, size); ``batch``: N of the first argument (-1: one state,
    None: either form)."""
    ndim = np.ndim(value) if not isinstance(value, str) else 0
    if batch is None:
        shape = (None, size) if ndim == 2 else (size,)
    else:
        shape = (batch, size) if batch >= 0 else (size,)
    array = as_array(value, name, shape)
    return array if array.ndim == 2 else array[None, :]


def _states(model: KinematicTree, *pairs) -> tuple[list[FloatArray], bool]:
    """Validated state arrays, each (N, n), and whether the input was a single state."""
    instance_of(model, KinematicTree, "model")
    first, name, size = pairs[0]
    arrays = [_batch(model, first, name, size, None)]
    single = np.ndim(first) == 1
    n = -1 if single else arrays[0].shape[0]
    for value, other, other_size in pairs[1:]:
        arrays.append(_batch(model, value, other, other_size, n))
    return arrays, single


#: States per block of a large batch: a block's per-body arrays stay in the
#: processor's cache (UR5 and Talos, N = 10 000: blocks of 512 states take 0.45
#: to 0.85 of the time of one block, measured on a loaded machine).
_BLOCK = 512


def _in_blocks(function, *arrays: FloatArray) -> FloatArray:
    """``function(*arrays)`` evaluated block by block along the batch axis.

    ``function`` maps arrays with a leading batch axis to one array with the
    same leading axis; the blocks' results are concatenated.
    """
    n = arrays[0].shape[0]
    if n <= _BLOCK:
        return function(*arrays)
    return np.concatenate(
        [
            function(*(array[start : start + _BLOCK] for array in arrays))
            for start in range(0, n, _BLOCK)
        ]
    )


def _gravity(gravity: ArrayLike) -> FloatArray:
    return as_vector(gravity, "gravity", 3)


# --------------------------------------------------------------------------- kinematics


def _joint_poses(model: KinematicTree, q: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``(R, p)`` of every ``T_{pa(i), i}(q)``: (n_b, N, 3, 3) and (n_b, N, 3).

    No joint depends on another, so all bodies are evaluated at once; a
    revolute joint turns by Rodrigues' formula ``R_J = E + sin q [a] + (1 -
    cos q) [a]^2`` (zero angle for the other joints). Arrays are body-major
    (body first) so that each body's block of the batch is contiguous.
    """
    c = model._constants
    n, n_b = q.shape[0], model.n_bodies
    rot = np.zeros((n_b, n, 3))  # (1, sin q, 1 - cos q); zero angle but for revolute
    rot[:, :, 0] = 1.0
    angle = q[:, c["q_revolute"]].T
    rot[c["revolute"], :, 1] = np.sin(angle)
    rot[c["revolute"], :, 2] = 1.0 - np.cos(angle)
    r = (rot @ c["r_rows"]).reshape(n_b, n, 3, 3)
    slide = np.zeros((n_b, n, 2))  # (1, q); zero slide but for prismatic
    slide[:, :, 0] = 1.0
    slide[c["prismatic"], :, 1] = q[:, c["q_prismatic"]].T
    p = slide @ c["p_rows"]
    for i in c["free"]:
        s = model.q_slices[i].start
        r[i] = c["r0"][i] @ quat_to_rotation(q[:, s + 3 : s + 7])
        p[i] = c["p0"][i] + q[:, s : s + 3] @ c["r0"][i].T
    return r, p


def _linear_map(function, size: int) -> FloatArray:
    """The constant ``L`` with ``function(x) = (x @ L).reshape(size, size)``."""
    return np.stack([function(e).ravel() for e in np.eye(size)])


#: ``[w]x`` and ``ad_V`` are linear in ``w`` and ``V``: one matrix product builds a
#: whole stack.
_SKEW = _linear_map(lambda w: _skew(w), 3)
_AD = _linear_map(
    lambda V: np.block(
        [[_skew(V[:3]), np.zeros((3, 3))], [_skew(V[3:]), _skew(V[:3])]]
    ),
    6,
)


def _adjoints(r: FloatArray, p: FloatArray) -> FloatArray:
    """``Ad_{T_{i, pa(i)}}`` (n_b, N, 6, 6): parent twists into each body's frame.

    With ``T_{pa(i) i} = (R, p)``: ``[[R^T, 0], [-R^T [p], R^T]]``.
    """
    n_b, n = p.shape[:2]
    rt = np.swapaxes(r, -1, -2)
    x = np.zeros((n_b, n, 6, 6))
    x[:, :, :3, :3] = rt
    x[:, :, 3:, 3:] = rt
    x[:, :, 3:, :3] = -rt @ (p @ _SKEW).reshape(n_b, n, 3, 3)
    return x


def _joint_adjoints(model: KinematicTree, q: FloatArray) -> FloatArray:
    """``Ad_{T_{i, pa(i)}}`` (n_b, N, 6, 6) of every body, as :func:`_adjoints`.

    Linear in ``(1, sin q, 1 - cos q, q)`` for revolute, prismatic and fixed
    joints: one small matrix product per body (``x_rows`` of the model's
    constants); a free joint's from its pose.
    """
    c = model._constants
    n, n_b = q.shape[0], model.n_bodies
    feats = np.zeros((n_b, n, 4))
    feats[:, :, 0] = 1.0
    angle = q[:, c["q_revolute"]].T
    feats[c["revolute"], :, 1] = np.sin(angle)
    feats[c["revolute"], :, 2] = 1.0 - np.cos(angle)
    feats[c["prismatic"], :, 3] = q[:, c["q_prismatic"]].T
    x = (feats @ c["x_rows"]).reshape(n_b, n, 6, 6)
    for i in c["free"]:
        s = model.q_slices[i].start
        r = c["r0"][i] @ quat_to_rotation(q[:, s + 3 : s + 7])
        p = c["p0"][i] + q[:, s : s + 3] @ c["r0"][i].T
        x[i] = _adjoints(r[None], p[None])[0]
    return x


def _world_poses(model: KinematicTree, r: FloatArray, p: FloatArray):
    """World poses ``(R_0i, p_0i)`` of every body, (n_b, N, 3, 3) and (n_b, N, 3)."""
    rw, pw = r.copy(), p.copy()
    for i, parent in enumerate(model.parents):
        if parent >= 0:
            rw[i] = rw[parent] @ r[i]
            pw[i] = pw[parent] + (rw[parent] @ p[i, :, :, None])[:, :, 0]
    return rw, pw


def _homogeneous(r: FloatArray, p: FloatArray) -> FloatArray:
    out = np.zeros(p.shape[:-1] + (4, 4))
    out[..., :3, :3] = r
    out[..., :3, 3] = p
    out[..., 3, 3] = 1.0
    return out


def forward_kinematics(model: KinematicTree, q: ArrayLike) -> FloatArray:
    """World poses of the body frames: ``T_{0i} = T_{0 pa(i)} X_i T_J(q_i)``.

    The forward pass of the RNEA without velocities: poses are composed from
    the root outwards, one body at a time. Explained in :ref:`sec-rn-forward`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates (rad, m; free joints ``(p, w, x, y, z)``), one state
        or a batch.

    Returns
    -------
    numpy.ndarray, shape (n_b, 4, 4) or (N, n_b, 4, 4)
        Pose of each body frame ``{i}`` in the world.

    Raises
    ------
    ShapeError, NonFiniteError
        If ``model`` is not a tree or ``q`` is not finite of length ``nq``.
    NonPositiveValueError
        If a free joint's quaternion is zero.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, forward_kinematics
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(1.0, np.diag([0.01, 0.01, 0.01]), com=[0.5, 0.0, 0.0])
    >>> X = np.eye(4); X[0, 3] = 1.0
    >>> z = [0.0, 0.0, 1.0]
    >>> arm = kinematic_tree([-1, 0], ["revolute"] * 2, [z, z], [np.eye(4), X], [G, G])
    >>> T = forward_kinematics(arm, [np.pi / 2, 0.0])
    >>> print(np.round(T[1, :3, 3], 6) + 0.0)  # the elbow, 1 m up the y axis
    [0. 1. 0.]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr,), single = _states(model, (q, "q", model.nq))
    out = np.swapaxes(
        _homogeneous(*_world_poses(model, *_joint_poses(model, q_arr))), 0, 1
    )
    return out[0] if single else out


def frame_pose(model: KinematicTree, q: ArrayLike, name: str) -> FloatArray:
    """World pose of a named frame (a body, or a frame of ``model.frames``).

    Explained in :ref:`sec-rn-forward`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    name : str
        A body name or a key of ``model.frames``.

    Returns
    -------
    numpy.ndarray, shape (4, 4) or (N, 4, 4)
        ``T_{0f}``.

    Raises
    ------
    OutOfRangeError
        If no body or frame has that name.
    ShapeError, NonFiniteError
        On a malformed model or ``q``.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, frame_pose
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(1.0, np.diag([0.01, 0.01, 0.01]), com=[0.5, 0.0, 0.0])
    >>> tip = np.eye(4); tip[0, 3] = 1.0
    >>> arm = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G],
    ...                      frames={"tip": (0, tip)})
    >>> print(np.round(frame_pose(arm, [np.pi / 2], "tip")[:3, 3], 6) + 0.0)
    [0. 1. 0.]
    """
    instance_of(model, KinematicTree, "model")
    options = list(model.names) + list(model.frames)
    one_of(name, "name", options)
    T = forward_kinematics(model, q)
    if name in model.names:
        return T[..., model.names.index(name), :, :]
    body, pose = model.frames[name]
    if body < 0:
        return np.broadcast_to(pose, T.shape[:-3] + (4, 4)).copy()
    return T[..., body, :, :] @ pose


def _joint_twists(model: KinematicTree, v: FloatArray) -> FloatArray:
    """``S_i qd_i`` of every body, body-major (n_b, N, 6)."""
    s_map = model._constants["s_map"]
    joint = (v @ s_map).reshape(v.shape[0], model.n_bodies, 6)
    return np.ascontiguousarray(np.swapaxes(joint, 0, 1))


def _twists(model: KinematicTree, x: FloatArray, v: FloatArray) -> FloatArray:
    """Body twists (n_b, N, 6) from the adjoints ``x`` and joint velocities ``v``."""
    twists = _joint_twists(model, v)
    for i, parent in enumerate(model.parents):
        if parent >= 0:
            twists[i] += (x[i] @ twists[parent, :, :, None])[:, :, 0]
    return twists


def body_twists(model: KinematicTree, q: ArrayLike, v: ArrayLike) -> FloatArray:
    """Body twists ``V_i = Ad_{T_{i pa(i)}} V_{pa(i)} + S_i qd_i``, in ``{i}``.

    Explained in :ref:`sec-rn-forward`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    v : array_like, shape (nv,) or (N, nv)
        Joint velocities (rad/s, m/s; a free joint's body twist ``(omega, v)``).

    Returns
    -------
    numpy.ndarray, shape (n_b, 6) or (N, n_b, 6)
        ``V_i = (omega_i, v_i)`` of frame ``{i}`` in ``{i}``.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model, ``q`` or ``v``.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, body_twists
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(1.0, np.diag([0.01, 0.01, 0.01]), com=[0.5, 0.0, 0.0])
    >>> X = np.eye(4); X[0, 3] = 1.0
    >>> z = [0.0, 0.0, 1.0]
    >>> arm = kinematic_tree([-1, 0], ["revolute"] * 2, [z, z], [np.eye(4), X], [G, G])
    >>> print(np.round(body_twists(arm, [0.0, 0.0], [1.0, 0.0]), 6))  # elbow: along y
    [[0. 0. 1. 0. 0. 0.]
     [0. 0. 1. 0. 1. 0.]]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr, v_arr), single = _states(model, (q, "q", model.nq), (v, "v", model.nv))
    out = np.swapaxes(
        _twists(model, _joint_adjoints(model, q_arr), v_arr), 0, 1
    )
    return out[0] if single else out


# --------------------------------------------------------------------------- dynamics


def _rnea(
    model: KinematicTree,
    q: FloatArray,
    v: FloatArray,
    a: FloatArray,
    gravity: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    """Joint forces (N, nv) and joint wrenches (n_b, N, 6) of validated batches.

    The joint transforms, adjoints and joint twists ``S_i qd_i`` of all bodies
    are evaluated at once; only the recursions loop over the bodies. ``ad_V``
    is built as one stack per body (``V @ _AD``): ``ad_V W`` is then a matrix
    product and ``-ad_V^T P`` is ``-P @ ad_V``.
    """
    n, n_b = q.shape[0], model.n_bodies
    x = _joint_adjoints(model, q)
    joint_v = _joint_twists(model, v)
    accels = _joint_twists(model, a)  # S_i qdd_i, completed below
    twists = joint_v.copy()
    wrenches = np.empty((n_b, n, 6))
    base = np.zeros((n, 6, 1))
    base[:, 3:, 0] = -gravity  # gravity as an upward acceleration of the ground
    for i, parent in enumerate(model.parents):
        if parent >= 0:
            twists[i] += (x[i] @ twists[parent, :, :, None])[:, :, 0]
            a_parent = accels[parent, :, :, None]
        else:
            a_parent = base
        ad_v = (twists[i] @ _AD).reshape(n, 6, 6)
        accels[i] += (x[i] @ a_parent + ad_v @ joint_v[i, :, :, None])[:, :, 0]
        g = model.inertias[i]
        wrenches[i] = accels[i] @ g - ((twists[i] @ g)[:, None, :] @ ad_v)[:, 0, :]
    for i in range(n_b - 1, -1, -1):
        parent = model.parents[i]
        if parent >= 0:
            wrenches[parent] += (wrenches[i, :, None, :] @ x[i])[:, 0, :]
    s_map = model._constants["s_map"]
    tau = np.swapaxes(wrenches, 0, 1).reshape(n, n_b * 6) @ s_map.T
    return tau, wrenches


def rnea(
    model: KinematicTree,
    q: ArrayLike,
    v: ArrayLike,
    a: ArrayLike,
    gravity: ArrayLike = _DEFAULT_GRAVITY,
) -> FloatArray:
    """Inverse dynamics by the recursive Newton-Euler algorithm: ``tau = M a + h``.

    Forward pass, root to leaves: ``V_i = Ad_{T_{i pa(i)}} V_{pa(i)} + S_i
    qd_i`` and ``Vd_i = Ad_{T_{i pa(i)}} Vd_{pa(i)} + ad_{V_i} S_i qd_i + S_i
    qdd_i``, with the ground accelerating at ``Vd_0 = (0, -gravity)`` so that
    gravity needs no term of its own. Backward pass, leaves to root: ``F_i =
    G_i Vd_i - ad_{V_i}^T G_i V_i + sum over children Ad_{T_{c i}}^T F_c``
    (3.1's Newton-Euler equation per body) and ``tau_i = S_i^T F_i``. Each
    pass visits every body once: O(n). Explained in :ref:`sec-rn-backward`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    v, a : array_like, shape (nv,) or (N, nv)
        Joint velocities and accelerations (rad/s, m/s and their rates).
    gravity : array_like, shape (3,), optional
        Gravitational acceleration in the world frame, m/s^2 (default ``(0,
        0, -9.81)``).

    Returns
    -------
    numpy.ndarray, shape (nv,) or (N, nv)
        Joint forces (N m, N); a free joint's entry is the wrench ``(m, f)`` on
        its body in the body's frame.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state (wrong length, NaN).
    NonPositiveValueError
        If a free joint's quaternion is zero.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, rnea
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.zeros((3, 3)), com=[0.5, 0.0, 0.0])  # point mass
    >>> pendulum = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    >>> g = [0.0, -9.81, 0.0]
    >>> print(np.round(rnea(pendulum, [0.0], [0.0], [1.0], gravity=g), 6))
    [10.31]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr, v_arr, a_arr), single = _states(
        model, (q, "q", model.nq), (v, "v", model.nv), (a, "a", model.nv)
    )
    g = _gravity(gravity)
    tau = _in_blocks(lambda *state: _rnea(model, *state, g)[0], q_arr, v_arr, a_arr)
    return tau[0] if single else tau


def joint_wrenches(
    model: KinematicTree,
    q: ArrayLike,
    v: ArrayLike,
    a: ArrayLike,
    gravity: ArrayLike = _DEFAULT_GRAVITY,
) -> FloatArray:
    """The wrench ``F_i`` that joint ``i`` transmits from the parent to body ``i``.

    The backward pass of :func:`rnea` before its projection ``tau_i = S_i^T
    F_i``: the components of ``F_i`` that ``S_i`` does not see are carried by
    the joint's structure (the bearing's reaction). Gravity is included.
    Explained in :ref:`sec-rn-backward`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    v, a : array_like, shape (nv,) or (N, nv)
        Joint velocities and accelerations.
    gravity : array_like, shape (3,), optional
        Gravitational acceleration in the world frame, m/s^2.

    Returns
    -------
    numpy.ndarray, shape (n_b, 6) or (N, n_b, 6)
        ``F_i = (moment about {i}'s origin, force)`` in ``{i}``, N m and N.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, joint_wrenches
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.diag([0.0, 0.0, 0.0]), com=[0.5, 0.0, 0.0])
    >>> pendulum = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    >>> F = joint_wrenches(pendulum, [0.0], [0.0], [0.0], gravity=[0.0, -9.81, 0.0])
    >>> print(np.round(F, 6) + 0.0)
    [[ 0.    0.    9.81  0.   19.62  0.  ]]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr, v_arr, a_arr), single = _states(
        model, (q, "q", model.nq), (v, "v", model.nv), (a, "a", model.nv)
    )
    _, wrenches = _rnea(model, q_arr, v_arr, a_arr, _gravity(gravity))
    out = np.swapaxes(wrenches, 0, 1)
    return out[0] if single else out


def bias_forces(
    model: KinematicTree,
    q: ArrayLike,
    v: ArrayLike,
    gravity: ArrayLike = _DEFAULT_GRAVITY,
) -> FloatArray:
    """The bias ``h(q, v) = C(q, v) v + g(q)``: the RNEA at zero acceleration.

    Explained in :ref:`sec-rn-bias`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    v : array_like, shape (nv,) or (N, nv)
        Joint velocities.
    gravity : array_like, shape (3,), optional
        Gravitational acceleration in the world frame, m/s^2.

    Returns
    -------
    numpy.ndarray, shape (nv,) or (N, nv)
        ``h``, N m and N.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, bias_forces
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.diag([0.0, 0.0, 0.0]), com=[0.5, 0.0, 0.0])
    >>> pendulum = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    >>> g = [0.0, -9.81, 0.0]
    >>> print(np.round(bias_forces(pendulum, [0.0], [3.0], gravity=g), 6))
    [9.81]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr, v_arr), single = _states(model, (q, "q", model.nq), (v, "v", model.nv))
    tau, _ = _rnea(model, q_arr, v_arr, np.zeros_like(v_arr), _gravity(gravity))
    return tau[0] if single else tau


def gravity_torques(
    model: KinematicTree, q: ArrayLike, gravity: ArrayLike = _DEFAULT_GRAVITY
) -> FloatArray:
    """The gravity forces ``g(q)``: the RNEA at zero velocity and acceleration.

    Explained in :ref:`sec-rn-bias`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    gravity : array_like, shape (3,), optional
        Gravitational acceleration in the world frame, m/s^2.

    Returns
    -------
    numpy.ndarray, shape (nv,) or (N, nv)
        ``g(q)``, N m and N: the joint forces that hold the tree still.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, gravity_torques
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.diag([0.0, 0.0, 0.0]), com=[0.5, 0.0, 0.0])
    >>> pendulum = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    >>> print(np.round(gravity_torques(pendulum, [0.0], gravity=[0.0, -9.81, 0.0]), 6))
    [9.81]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr,), single = _states(model, (q, "q", model.nq))
    zeros = np.zeros((q_arr.shape[0], model.nv))
    tau, _ = _rnea(model, q_arr, zeros, zeros, _gravity(gravity))
    return tau[0] if single else tau


def rnea_mass_matrix(model: KinematicTree, q: ArrayLike) -> FloatArray:
    """The mass matrix column by column: ``M e_j = rnea(q, 0, e_j)`` without gravity.

    With zero velocity and gravity the RNEA returns ``M(q) a``; a unit
    acceleration of joint ``j`` picks column ``j``. That takes ``nv`` RNEA
    evaluations of O(n) each: O(n^2) work (the composite-rigid-body algorithm
    of :ref:`sec-ab-crba` saves the repeated passes). The ``nv`` evaluations run
    as one batch of unit accelerations. Explained in
    :ref:`sec-rn-mass-matrix`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.

    Returns
    -------
    numpy.ndarray, shape (nv, nv) or (N, nv, nv)
        ``M(q)``, symmetric positive definite for a tree whose every joint
        moves some mass.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, rnea_mass_matrix
    >>> from lib.spatial import spatial_inertia
    >>> rod = np.diag([0.0, 1.0, 1.0]) / 12.0  # 1 kg, 1 m
    >>> G = spatial_inertia(1.0, rod, com=[0.5, 0.0, 0.0])
    >>> X = np.eye(4); X[0, 3] = 1.0
    >>> z = [0.0, 0.0, 1.0]
    >>> arm = kinematic_tree([-1, 0], ["revolute"] * 2, [z, z], [np.eye(4), X], [G, G])
    >>> print(np.round(rnea_mass_matrix(arm, [0.0, 0.0]), 6))
    [[2.666667 0.833333]
     [0.833333 0.333333]]
    """
    instance_of(model, KinematicTree, "model")
    (q_arr,), single = _states(model, (q, "q", model.nq))
    n, nv = q_arr.shape[0], model.nv
    # the nv unit accelerations of every state run as one batch of N nv RNEA evaluations
    units = np.tile(np.eye(nv), (n, 1))
    columns, _ = _rnea(
        model, np.repeat(q_arr, nv, axis=0), np.zeros_like(units), units, np.zeros(3)
    )
    out = np.swapaxes(
        columns.reshape(n, nv, nv), -1, -2
    )  # row j of each block is column j of M
    out = 0.5 * (out + np.swapaxes(out, -1, -2))  # symmetric in exact arithmetic
    return out[0] if single else out


def tree_kinetic_energy(
    model: KinematicTree, q: ArrayLike, v: ArrayLike
) -> FloatArray | float:
    """Kinetic energy ``K = sum_i V_i^T G_i V_i / 2`` (= ``v^T M(q) v / 2``), J.

    Explained in :ref:`sec-lg-energy`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    v : array_like, shape (nv,) or (N, nv)
        Joint velocities.

    Returns
    -------
    float or numpy.ndarray, shape (N,)
        ``K``, J.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, tree_kinetic_energy
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.diag([0.0, 0.0, 0.0]), com=[0.5, 0.0, 0.0])
    >>> pendulum = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    >>> print(round(tree_kinetic_energy(pendulum, [0.3], [2.0]), 6))  # m (l w)^2 / 2
    1.0
    """
    instance_of(model, KinematicTree, "model")
    (q_arr, v_arr), single = _states(model, (q, "q", model.nq), (v, "v", model.nv))
    twists = _twists(model, _joint_adjoints(model, q_arr), v_arr)
    energy = 0.5 * np.einsum("bni,bij,bnj->n", twists, model.inertias, twists)
    return float(energy[0]) if single else energy


def tree_potential_energy(
    model: KinematicTree, q: ArrayLike, gravity: ArrayLike = _DEFAULT_GRAVITY
) -> FloatArray | float:
    """Potential energy ``U = -sum_i m_i gravity . c_i``, J (zero at the world origin).

    ``c_i`` is body ``i``'s centre of mass in the world, read from its
    spatial inertia (``G_i``'s upper right block is ``m_i [c_i]``).
    Explained in :ref:`sec-lg-energy`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,) or (N, nq)
        Joint coordinates.
    gravity : array_like, shape (3,), optional
        Gravitational acceleration in the world frame, m/s^2.

    Returns
    -------
    float or numpy.ndarray, shape (N,)
        ``U``, J.

    Raises
    ------
    ShapeError, NonFiniteError
        On a malformed model or state.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.kinematic_tree import kinematic_tree, tree_potential_energy
    >>> from lib.spatial import spatial_inertia
    >>> G = spatial_inertia(2.0, np.diag([0.0, 0.0, 0.0]), com=[0.5, 0.0, 0.0])
    >>> pendulum = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    >>> g = [0.0, -9.81, 0.0]
    >>> print(round(tree_potential_energy(pendulum, [np.pi / 2], gravity=g), 6))
    9.81
    """
    instance_of(model, KinematicTree, "model")
    (q_arr,), single = _states(model, (q, "q", model.nq))
    g = _gravity(gravity)
    r, p = _world_poses(model, *_joint_poses(model, q_arr))
    # G[:3, 3:] = m [c]: m c_x = G[2, 4], m c_y = G[0, 5], m c_z = G[1, 3]
    m_c = np.stack(
        [model.inertias[:, 2, 4], model.inertias[:, 0, 5], model.inertias[:, 1, 3]],
        axis=1,
    )
    masses = model.inertias[:, 3, 3, None, None]
    first_moments = masses * p + (r @ m_c[:, None, :, None])[..., 0]
    energy = -np.sum(first_moments @ g, axis=0)
    return float(energy[0]) if single else energy
