"""Real robots from the ``example-robot-data`` package: chapters 3.2 to 3.5's examples.

``example-robot-data`` (BSD-3, pinned in ``requirements/book.txt``) installs
its URDF files under ``cmeel.prefix/share/example-robot-data/robots`` in the
Python environment's ``site-packages``. :func:`robot_urdf_path` finds one
robot's file, :func:`load_robot` reads it into a
:class:`lib.kinematic_tree.KinematicTree` with
:func:`lib.model_files.parse_urdf_model` (fixed joints merged; meshes
ignored).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .._validation import one_of
from ..errors import ModelFileError
from ..kinematic_tree import KinematicTree
from ..model_files import parse_urdf_model

__all__ = ["ROBOTS", "robot_urdf_path", "load_robot"]

#: The robots the book loads: name -> (URDF path inside the package's robots
#: folder, root joint). UR5 and Panda are fixed-base arms (Panda with its two
#: prismatic fingers), Solo-12 a quadruped and Talos a humanoid on free-flyer
#: bases.
ROBOTS = {
    "ur5": ("ur_description/urdf/ur5_robot.urdf", "fixed"),
    "panda": ("panda_description/urdf/panda.urdf", "fixed"),
    "solo12": ("solo_description/robots/solo12.urdf", "free"),
    "talos": ("talos_data/robots/talos_reduced.urdf", "free"),
}
_SHARE = Path("cmeel.prefix") / "share" / "example-robot-data" / "robots"


def _robots_folder() -> Path:
    for entry in sys.path:
        folder = Path(entry or ".") / _SHARE
        if folder.is_dir():
            return folder
    raise ModelFileError(
        "the example-robot-data package is not installed (its URDFs live in "
        f"site-packages/{_SHARE.as_posix()}); install it: "
        "pip install -r requirements/book.txt"
    )


def robot_urdf_path(name: str) -> Path:
    """Path of a robot's URDF file in the installed ``example-robot-data``.

    Explained in :ref:`sec-rn-robots`.

    Parameters
    ----------
    name : str
        One of :data:`ROBOTS` (``"ur5"``, ``"panda"``, ``"solo12"``, ``"talos"``).

    Returns
    -------
    pathlib.Path
        The URDF file.

    Raises
    ------
    OutOfRangeError
        If ``name`` is not one of :data:`ROBOTS`.
    ModelFileError
        If ``example-robot-data`` is not installed or lacks the file.

    Examples
    --------
    >>> from lib.models.robots import robot_urdf_path
    >>> robot_urdf_path("ur5").name
    'ur5_robot.urdf'
    """
    one_of(name, "name", list(ROBOTS))
    path = _robots_folder() / ROBOTS[name][0]
    if not path.is_file():
        raise ModelFileError(
            f"example-robot-data has no {ROBOTS[name][0]} (looked in {path.parent})"
        )
    return path


def load_robot(name: str) -> KinematicTree:
    """A robot of :data:`ROBOTS` as a kinematic tree, with its root joint.

    UR5 and Panda are bolted to the ground; Solo-12 and Talos get a free
    joint ``root_joint`` (coordinates ``(p, w, x, y, z)``, velocity the base's
    body twist ``(omega, v)``). Explained in :ref:`sec-rn-robots`.

    Parameters
    ----------
    name : str
        One of :data:`ROBOTS`.

    Returns
    -------
    KinematicTree

    Raises
    ------
    OutOfRangeError
        If ``name`` is not one of :data:`ROBOTS`.
    ModelFileError
        If the package is missing or the file is malformed.

    Examples
    --------
    >>> from lib.models.robots import load_robot
    >>> ur5 = load_robot("ur5")
    >>> ur5.nq, ur5.joint_names[0]
    (6, 'shoulder_pan_joint')
    """
    path = robot_urdf_path(name)
    return parse_urdf_model(path.read_text(), root_joint=ROBOTS[name][1])
