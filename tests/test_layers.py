"""The layers of ``lib`` import downwards only.

Three layers: the general algorithms (every module of ``lib`` outside the
packages below), the chapters' worked-example models (``lib.models``) and the
figures (``lib.figures``, with its schematics). A model may use
any algorithm; a figure may use models and algorithms. An algorithm never
imports a model or a figure, and a model never imports a figure. The check
reads every module's source with ``ast`` (imports inside functions count too),
so it needs no optional dependency and imports nothing.
"""

from __future__ import annotations

import pytest
from _tree import imported_names, modules

MODELS = ("lib.models",)
FIGURES = ("lib.figures",)


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def layer_of(module: str) -> str:
    """``"figures"``, ``"models"`` or ``"algorithms"`` for a dotted module name in ``lib``."""
    if _within(module, FIGURES):
        return "figures"
    if _within(module, MODELS):
        return "models"
    return "algorithms"


def layer_violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """The imports of ``module`` that point up a layer, as readable messages."""
    layer = layer_of(module)
    forbidden = {"algorithms": MODELS + FIGURES, "models": FIGURES, "figures": ()}[layer]
    return sorted(
        f"{module} ({layer}) imports {target}"
        for target in imported_names(module, source, is_package)
        if _within(target, forbidden)
    )


def _lib_sources():
    return [(m.name, m.source, m.is_package) for m in modules("lib")]


def test_lib_has_all_three_layers():
    layers = {layer_of(module) for module, _, _ in _lib_sources()}
    assert layers == {"algorithms", "models", "figures"}


def test_algorithms_never_import_models_or_figures_and_models_never_import_figures():
    violations = [v for module, source, is_package in _lib_sources() for v in layer_violations(module, source, is_package)]
    assert not violations, "imports that point up a layer:\n" + "\n".join(violations)


@pytest.mark.parametrize(
    "module, source, is_package",
    [
        ("lib.contact_lcp", "from .models.planar_chain import planar_chain_tip\n", False),
        ("lib.contact_lcp", "from .models import fingertip\n", False),
        ("lib.contact_lcp", "from . import models\n", False),
        ("lib.constraints", "import lib.models.fourbar\n", False),
        ("lib.constraints", "def f():\n    from lib.models import fourbar\n", False),
        ("lib", "from .figures import ball_drop\n", True),
        ("lib.friction", "from .figures import ramp\n", False),
        ("lib.friction", "from lib.figures.schematics import fingertip\n", False),
        ("lib.models.fourbar", "from ..figures.schematics import mechanisms\n", False),
        ("lib.models", "from ..figures import live\n", True),
        ("lib.models.fingertip", "from .. import figures\n", False),
    ],
)
def test_checker_catches_an_upward_import(module, source, is_package):
    assert layer_violations(module, source, is_package)


@pytest.mark.parametrize(
    "module, source, is_package",
    [
        ("lib.contact_lcp", "from .lcp import lemke\nfrom ._validation import positive\n", False),
        ("lib.models.fourbar", "from ..constraints import actuated_velocity_map\nfrom .planar_bodies import PinJoint\n", False),
        ("lib.models", "from . import fourbar\n", True),
        ("lib.figures.ball_drop", "from ..models import ball_drop\nfrom .. import contact_sim\n", False),
        ("lib.figures.schematics.contact", "from ...models.planar_2r_arm import planar_2r_arm\n", False),
        ("lib.friction", "import numpy as np\nfrom numpy.typing import ArrayLike\n", False),
    ],
)
def test_checker_accepts_downward_imports(module, source, is_package):
    assert layer_violations(module, source, is_package) == []


def test_relative_imports_resolve_to_dotted_names():
    assert "lib.models.planar_chain" in imported_names("lib.contact_lcp", "from .models.planar_chain import x\n")
    assert "lib.models" in imported_names("lib.models.fourbar", "from . import fivebar\n")
    assert "lib.models.fivebar" in imported_names("lib.models.fourbar", "from . import fivebar\n")
    assert "lib.figures" in imported_names("lib.figures.schematics", "from .. import live\n", is_package=True)
    assert "lib.contact_lcp" in imported_names("lib.figures.schematics.contact", "from ...contact_lcp import x\n")
