"""lib.common: the helpers the chapters and tests share, each checked against a second computation."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.constants
from scipy.spatial.transform import Rotation

from lib import common
from lib.errors import NonPositiveValueError, ShapeError
from lib.inertia import is_physically_consistent


def test_gravity_is_standard_gravity_to_three_significant_figures():
    assert common.GRAVITY == float(f"{scipy.constants.g:.3g}")


def test_relerr_is_relative_by_default_and_absolute_below_the_floor():
    assert common.relerr([2.0, 4.0 + 4e-9], [2.0, 4.0]) == pytest.approx(1e-9, rel=1e-6)
    assert common.relerr([1e-3 + 1e-12], [1e-3]) == pytest.approx(1e-9, rel=1e-3)  # relative: small b
    assert common.relerr([1e-3 + 1e-12], [1e-3], floor=1.0) == pytest.approx(1e-12, rel=1e-3)  # absolute
    assert common.relerr([0.0], [0.0]) == 0.0
    assert common.relerr([1e-20], [0.0]) == float("inf")
    with pytest.raises(ShapeError, match="a must have shape"):
        common.relerr([1.0, 2.0], [1.0])
    with pytest.raises(NonPositiveValueError, match="floor"):
        common.relerr([1.0], [1.0], floor=-1.0)


def test_random_rotation_equals_scipys_rotation_of_the_same_quaternion():
    for seed in range(20):
        R = common.random_rotation(np.random.default_rng(seed))
        q = np.random.default_rng(seed).normal(size=4)
        w, x, y, z = q / np.linalg.norm(q)
        np.testing.assert_allclose(R, Rotation.from_quat([x, y, z, w]).as_matrix(), atol=1e-14)


def test_random_spd_is_symmetric_and_well_conditioned():
    for n in (1, 2, 5):
        M = common.random_spd(np.random.default_rng(n), n)
        np.testing.assert_array_equal(M, M.T)
        assert np.linalg.eigvalsh(M)[0] >= n - 1e-12
    with pytest.raises(NonPositiveValueError):
        common.random_spd(np.random.default_rng(0), 0)
    with pytest.raises(ShapeError):
        common.random_spd(np.random.default_rng(0), 2.5)


def test_random_inertia_is_physical_and_not_diagonal():
    for seed in range(10):
        inertia = common.random_inertia(np.random.default_rng(seed))
        assert is_physically_consistent(inertia)
        assert np.max(np.abs(inertia - np.diag(np.diag(inertia)))) > 1e-3


def test_glue_helpers_hand_plain_values_to_myst_nb(monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import myst_nb

    calls = []
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display=True: calls.append((name, value, display)))
    common.glue_number("x", np.float64(2.5))
    common.glue_text("t", 3)
    fig = plt.figure()
    common.glue_figure("f", fig)
    assert calls[0] == ("x", 2.5, False) and type(calls[0][1]) is float
    assert calls[1] == ("t", "3", False)
    assert calls[2][0] == "f" and calls[2][1] is fig and calls[2][2] is False
    assert not plt.fignum_exists(fig.number)  # closed: a glued figure is shown only where it is placed


def test_glue_figure_glues_a_picture_before_any_pyplot_figure():
    """In a fresh inline kernel, a pyplot-free figure glued before any pyplot figure is a PNG
    (without loading matplotlib-inline, IPython would know only its text form)."""
    import subprocess
    import sys

    code = (
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "import myst_nb\n"
        "ip = InteractiveShell.instance()\n"
        "from matplotlib.figure import Figure\n"
        "fig = Figure()\n"
        "fig.add_subplot().plot([0, 1])\n"
        "before = sorted(ip.display_formatter.format(fig)[0])\n"
        "glued = []\n"
        "myst_nb.glue = lambda name, value, display=True: glued.append(\n"
        "    sorted(ip.display_formatter.format(value)[0]))\n"
        "from lib.common import glue_figure\n"
        "glue_figure('f', fig)\n"
        "print(before, glued[0])\n"
    )
    env = {"MPLBACKEND": "module://matplotlib_inline.backend_inline", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("] [") == ["['text/plain'", "'image/png', 'text/plain']\n"], out.stdout
