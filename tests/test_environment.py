"""The environment files agree with each other and with what is installed.

- ``environment.yml`` (Binder) pins exactly what ``requirements/book.txt`` and
  ``requirements/binder.txt`` (the Binder-only front end) pin, and ``python=3.11``.
- Every dependency in ``pyproject.toml`` is satisfied by its pinned version.
- The running environment has exactly the pinned versions installed.
- ``postBuild`` installs the project; ``.ci/run`` runs the command README gives.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from conftest import ROOT

#: Packages the Binder environment needs so that chapters open and run there.
BINDER_NEEDS = {"jupytext", "myst-nb", "ipywidgets", "ipykernel", "jupyterlab", "jupyterlab-myst"}


def _pins(path: Path) -> dict[str, str]:
    """``{canonical name: version}`` from a requirements file (follows ``-r``)."""
    pins: dict[str, str] = {}
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith(("-r", "--requirement")):
            pins.update(_pins(path.parent / line.split(maxsplit=1)[1]))
            continue
        pins.update(_exact_pin(line, f"{path.name}:{number}"))
    return pins


def _exact_pin(line: str, where: str) -> dict[str, str]:
    requirement = Requirement(line)
    specifiers = list(requirement.specifier)
    assert len(specifiers) == 1 and specifiers[0].operator == "==", (
        f"{where}: {line!r} is not an exact pin (name==version)"
    )
    return {canonicalize_name(requirement.name): specifiers[0].version}


def _environment_yml() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def _environment_pip_pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    pip_sections = [
        dep["pip"] for dep in _environment_yml()["dependencies"] if isinstance(dep, dict) and "pip" in dep
    ]
    assert len(pip_sections) == 1, "environment.yml must have one pip: list"
    for line in pip_sections[0]:
        pins.update(_exact_pin(line, f"environment.yml pip {line!r}"))
    return pins


BOOK_PINS = _pins(ROOT / "requirements" / "book.txt")
#: Packages only the Binder image needs (the live front end); not in book.txt.
BINDER_PINS = _pins(ROOT / "requirements" / "binder.txt")
BINDER_ONLY = set(BINDER_PINS)
TEST_PINS = _pins(ROOT / "requirements" / "test.txt")


def test_environment_yml_pins_the_same_packages_as_book_and_binder_txt() -> None:
    env = _environment_pip_pins()
    wanted = {**BOOK_PINS, **BINDER_PINS}
    extra = sorted(set(env) - set(wanted))
    missing = sorted(set(wanted) - set(env))
    different = sorted(
        f"{name}: environment.yml {env[name]}, requirements {wanted[name]}"
        for name in set(env) & set(wanted)
        if env[name] != wanted[name]
    )
    assert not (extra or missing or different), (
        f"environment.yml pip list and requirements/book.txt + binder.txt disagree:\n"
        f"  only in environment.yml (add to book.txt, or to binder.txt if Binder-only): {extra}\n"
        f"  only in book.txt/binder.txt: {missing}\n"
        f"  different versions: {different}"
    )


def test_binder_only_packages_are_in_environment_yml() -> None:
    env = _environment_pip_pins()
    stale = sorted(name for name in BINDER_ONLY if canonicalize_name(name) not in env)
    assert not stale, f"requirements/binder.txt lists packages environment.yml does not have: {stale}"
    # The live front end: JupyterLab with MyST rendering.
    assert {"jupyterlab", "jupyterlab-myst"} <= BINDER_ONLY, BINDER_ONLY
    # A Binder-only package must not also be a book pin (it would not be Binder-only).
    assert not (BINDER_ONLY & set(BOOK_PINS)), BINDER_ONLY & set(BOOK_PINS)


def test_binder_environment_can_open_and_run_chapters() -> None:
    env = _environment_pip_pins()
    missing = sorted(name for name in BINDER_NEEDS if canonicalize_name(name) not in env)
    assert not missing, f"environment.yml lacks {missing} (chapters open through jupytext and call myst_nb.glue)"


def test_environment_yml_pins_python_311() -> None:
    conda = [dep for dep in _environment_yml()["dependencies"] if isinstance(dep, str)]
    pythons = [dep for dep in conda if re.match(r"^python\s*[=<>!~]", dep) or dep == "python"]
    assert pythons == ["python=3.11"], f"environment.yml must pin python=3.11 exactly, found {pythons}"


def test_pyproject_dependencies_are_satisfied_by_the_pins() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    problems = []
    for line in project["dependencies"]:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        if name not in BOOK_PINS:
            problems.append(f"{line}: not pinned in requirements/book.txt")
        elif not requirement.specifier.contains(Version(BOOK_PINS[name]), prereleases=True):
            problems.append(f"{line}: the pinned {BOOK_PINS[name]} does not satisfy it")
    assert not problems, "\n".join(problems)
    # The Binder and CI Python satisfies requires-python.
    assert SpecifierSet(project["requires-python"]).contains("3.11"), project["requires-python"]


def test_installed_versions_match_the_pins() -> None:
    problems = []
    for name, pinned in sorted(TEST_PINS.items()):
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            problems.append(f"{name}: pinned {pinned}, not installed")
            continue
        if Version(installed) != Version(pinned):
            problems.append(f"{name}: pinned {pinned}, installed {installed}")
    assert not problems, (
        f"the environment running the tests ({sys.prefix}) differs from requirements/test.txt "
        "(run `make install-test`):\n" + "\n".join(problems)
    )


def test_the_project_itself_is_installed() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert importlib.metadata.version(project["name"]) == project["version"]


def test_postbuild_installs_the_project() -> None:
    postbuild = ROOT / "postBuild"
    commands = [
        line.strip()
        for line in postbuild.read_text().splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    assert commands[0].startswith("set -e") or "set -euo pipefail" in commands, (
        "postBuild must stop at the first failing command (set -euo pipefail)"
    )
    installs = [c for c in commands if re.search(r"\bpip install\b.*(\s-e\s+\.|\s\.)\s*$", c)]
    assert installs, f"postBuild does not `pip install` the project (.): {commands}"
    assert os.access(postbuild, os.X_OK), "postBuild is not executable (repo2docker skips it)"
    mode = _git_mode("postBuild")
    if mode is not None:
        assert mode == "100755", f"postBuild is committed with mode {mode}, not executable"


def _git_mode(path: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-s", path], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.split()[0] if out.strip() else None


def _shell_commands(text: str) -> list[str]:
    return [
        line.split("#", 1)[0].strip()
        for line in text.splitlines()
        if line.split("#", 1)[0].strip()
    ]


def test_ci_runs_the_command_readme_gives() -> None:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:bash|sh|console)?\n(.*?)```", readme, flags=re.S)
    readme_commands = [c for block in blocks for c in _shell_commands(block)]
    assert "make test" in readme_commands, f"README gives no `make test`: {readme_commands}"
    ci = _shell_commands((ROOT / ".ci" / "run").read_text())
    assert "make test" in ci, f".ci/run does not run `make test`: {ci}"
    # And `make test` runs the whole suite.
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, flags=re.M)
    assert recipe and "pytest" in recipe.group(1), "the Makefile's test target does not run pytest"

