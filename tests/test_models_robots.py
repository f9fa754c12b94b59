"""Tests of lib.models.robots: example-robot-data's URDFs found and loaded."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from lib.errors import ModelFileError, OutOfRangeError
from lib.models.robots import ROBOTS, load_robot, robot_urdf_path


@pytest.mark.parametrize("name", list(ROBOTS))
def test_every_robot_loads_with_all_its_moving_joints_and_mass(name):
    path = robot_urdf_path(name)
    root = ET.parse(path).getroot()
    moving = [j.get("name") for j in root.findall("joint") if j.get("type") != "fixed"]
    model = load_robot(name)
    assert sorted(n for n in model.joint_names if n != "root_joint") == sorted(moving)
    assert ("free" in model.joint_types) == (ROBOTS[name][1] == "free")
    # every link's mass is in the tree (merged into a moving body) unless it is bolted
    # to the ground
    masses = {
        link.get("name"): float(link.find("inertial/mass").get("value"))
        for link in root.findall("link")
        if link.find("inertial/mass") is not None
    }
    grounded = {key for key, (body, _) in model.frames.items() if body < 0}
    # a sum of a few dozen masses read from text: exact to round-off, 1e-12 relative
    np.testing.assert_allclose(
        model.inertias[:, 3, 3].sum(),
        sum(m for link, m in masses.items() if link not in grounded),
        rtol=1e-12,
    )


def test_ur5_and_panda_have_the_published_sizes():
    assert (load_robot("ur5").nq, load_robot("ur5").nv) == (6, 6)
    panda = load_robot("panda")
    assert (
        panda.nq,
        panda.joint_types.count("revolute"),
        panda.joint_types.count("prismatic"),
    ) == (9, 7, 2)
    solo = load_robot("solo12")
    assert (solo.nq, solo.nv) == (19, 18)


def test_unknown_robot_and_missing_package_are_clear_errors(monkeypatch):
    with pytest.raises(OutOfRangeError, match="name must be one of"):
        robot_urdf_path("r2d2")
    with pytest.raises(OutOfRangeError, match="name must be one of"):
        load_robot("UR5")
    monkeypatch.setattr(sys, "path", [])
    with pytest.raises(
        ModelFileError, match="example-robot-data package is not installed"
    ):
        robot_urdf_path("ur5")
