"""Every chapter's exercises: reference solutions score full marks, untouched notebooks zero.

Chapters are discovered from grader/chapters/, so a new chapter's exercises
are tested without editing this file. Also checks the exercise format (the
notebook headings equal the spec) and that the public expected answers are
up to date.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jupytext
import nbformat
import pytest

from conftest import chapter_registry
from grader import core
from grader.publicdata import render_public
from grader.spec import chapter_names, load_chapter
from grader_helpers import REPO, small_limits

CHAPTERS = chapter_names()
HEADING = re.compile(
    r"^##\s+Exercise\s+(?P<number>(?:[A-Z]+\.)?[\d.]+)\s+·\s+`(?P<name>\w+)`\s+·\s+(?P<points>[\d.]+)\s+points?"
    r"(?P<partial>\s+·\s+partial credit per case)?\s+·\s+about\s+(?P<minutes>\d+)\s+min\s*$"
)


def _opts(chapter):
    return core.GradeOptions(chapter=chapter, limits=small_limits())


def _solved_notebook(chapter: str):
    """The exercise notebook with the reference solutions appended as a last cell."""
    nb = jupytext.read(REPO / "exercises" / f"{chapter}.md")
    nb.cells.append(nbformat.v4.new_code_cell((REPO / "solutions" / f"{chapter}.py").read_text()))
    return nb


def test_there_is_at_least_one_chapter():
    assert "rigid_body_dynamics" in CHAPTERS


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_reference_solutions_score_full_marks(chapter, tmp_path):
    sub = tmp_path / f"{chapter}.py"
    sub.write_text((REPO / "solutions" / f"{chapter}.py").read_text())
    report = core.grade_submission(sub, _opts(chapter))
    assert report["score"] == load_chapter(chapter).max_score, core.format_report(report)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_untouched_exercise_notebook_scores_zero(chapter):
    report = core.grade_submission(REPO / "exercises" / f"{chapter}.md", _opts(chapter))
    assert report["status"] == "graded"
    assert report["score"] == 0.0, core.format_report(report)
    for ex in report["exercises"]:
        # The stub's own message, not a crash: the student sees what to do.
        assert "not done yet" in ex["feedback"] or "not done yet" in json.dumps(ex["cases"]), ex


@pytest.mark.parametrize("chapter", CHAPTERS)
@pytest.mark.parametrize("suffix", [".ipynb", ".md", ".py"])
def test_solved_notebook_in_every_format_scores_full_marks(chapter, suffix, tmp_path):
    nb = _solved_notebook(chapter)
    sub = tmp_path / f"student{suffix}"
    if suffix == ".ipynb":
        nbformat.write(nb, sub)
    elif suffix == ".md":
        sub.write_text(jupytext.writes(nb, fmt="md:myst"))
        # The MyST file reads to exactly the cells (numbers, sources, labels) and module name of
        # the .ipynb, and a grading is decided by those alone: the .ipynb's grading is this one's.
        twin = tmp_path / "student.ipynb"
        nbformat.write(nb, twin)
        assert core.read_submission(sub) == core.read_submission(twin)
        return
    else:
        sub.write_text(jupytext.writes(nb, fmt="py:percent"))
    report = core.grade_submission(sub, _opts(chapter))
    assert report["score"] == load_chapter(chapter).max_score, core.format_report(report)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_notebook_headings_declare_the_spec(chapter):
    spec = load_chapter(chapter)
    nb = jupytext.read(REPO / "exercises" / f"{chapter}.md")
    found = []
    cells = nb.cells
    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            m = HEADING.match(line)
            if m:
                found.append((m["number"], m["name"], float(m["points"]), bool(m["partial"]),
                              int(m["minutes"]), i))
    assert [f[:5] for f in found] == [
        (ex.number, ex.name, float(ex.points), ex.partial, ex.minutes) for ex in spec.exercises
    ]
    for number, name, _, _, _, i in found:
        code = [c.source for c in cells[i + 1:i + 4] if c.cell_type == "code"]
        assert len(code) >= 2, f"exercise {number}: expected a stub cell and a check cell"
        assert re.search(rf"\b{name}\b", code[0]), f"exercise {number}: stub does not define {name}"
        assert f'check("{name}", {name})' in code[1], f"exercise {number}: no check cell"
    assert 'checker("' + chapter + '")' in cells[[c.cell_type for c in cells].index("code")].source


#: each exercise set's chapter page, and the pages that belong to the chapter besides its
#: own (an exercise may test a section there), from book/chapters.yml
CHAPTER_PAGES = {
    entry["exercises"]: Path(entry["page"]).name
    for entry in chapter_registry()["chapters"]
    if "exercises" in entry
}
COMPANION_PAGES = {
    entry["exercises"]: tuple(Path(c["page"]).name for c in entry.get("companions", []))
    for entry in chapter_registry()["chapters"]
    if "exercises" in entry
}


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_numbering_is_one_scheme_everywhere(chapter):
    """One scheme in every chapter: <prefix>.<k>, k = 1, 2, ... in order, where the prefix is
    the chapter's number (3.1, 3.11, 3.12) or, for the unnumbered lesson, CF. The notebook
    title, the spec, the grader's feedback and the chapter's exercise list all show it."""
    spec = load_chapter(chapter)
    text = (REPO / "exercises" / f"{chapter}.md").read_text()
    title = re.search(r"^# Checkpoint exercises (?P<prefix>[A-Z]+|\d+(?:\.\d+)*) · ", text, re.M)
    assert title, f"exercises/{chapter}.md: title is not '# Checkpoint exercises <prefix> · ...'"
    prefix = title["prefix"]
    assert [ex.number for ex in spec.exercises] == [f"{prefix}.{k}" for k in range(1, len(spec.exercises) + 1)]
    assert spec.title.startswith(prefix + " ")
    page = (REPO / "book" / "dynamics" / f"{CHAPTER_PAGES[chapter]}.md").read_text()
    section = page[page.index("## Checkpoint exercises"):]
    listed = re.findall(r"^- \*\*(?P<number>[\w.]+)\*\* `(?P<name>\w+)`", section, re.M)
    assert listed == [(ex.number, ex.name) for ex in spec.exercises]
    # the grader's feedback names the exercise by the same number
    cells, _ = core.read_submission(REPO / "exercises" / f"{chapter}.md")
    labels = " ".join(label for _, _, label in cells)
    assert f'under "Exercise {spec.exercises[0].number}"' in labels
    from grader.gradescope import results_json
    fake = {"status": "graded", "score": 0, "submission": "x.md", "messages": [],
            "exercises": [{"number": ex.number, "name": ex.name, "score": 0, "points": ex.points,
                           "feedback": "", "cases": []} for ex in spec.exercises]}
    assert [t["name"] for t in results_json(fake)["tests"]] == [
        f"Exercise {ex.number} {ex.name}" for ex in spec.exercises]


def test_every_chapter_has_its_page():
    assert sorted(CHAPTER_PAGES) == sorted(CHAPTERS)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_public_expected_answers_are_up_to_date(chapter):
    """Same exercises, cases and inputs; expected values equal up to round-off.

    The last digits of a BLAS-computed answer differ between CPUs and OpenBLAS
    kernels (about 1e-13 relative here), so values are compared with a
    tolerance a thousand times tighter than any exercise's (rtol 1e-9).
    """
    spec = load_chapter(chapter)
    hint = f"run: .venv/bin/python -m grader --write-public --chapter {chapter}"
    stored = json.loads(spec.public_file.read_text())
    fresh = json.loads(render_public(spec))
    _assert_same_data(stored, fresh, hint)


def _assert_same_data(stored, fresh, where):
    if isinstance(fresh, dict):
        assert isinstance(stored, dict) and sorted(stored) == sorted(fresh), where
        for key in fresh:
            _assert_same_data(stored[key], fresh[key], f"{where} [{key}]")
    elif isinstance(fresh, list):
        assert isinstance(stored, list) and len(stored) == len(fresh), where
        for i, (a, b) in enumerate(zip(stored, fresh)):
            _assert_same_data(a, b, f"{where} [{i}]")
    elif isinstance(fresh, float) and not isinstance(stored, bool) and isinstance(stored, (int, float)):
        assert abs(stored - fresh) <= 1e-15 + 1e-12 * abs(fresh), f"{where}: {stored!r} != {fresh!r}"
    else:
        assert type(stored) is type(fresh) and stored == fresh, f"{where}: {stored!r} != {fresh!r}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_partial_credit_shares_are_exact(chapter):
    """Each case of a partial-credit exercise is worth a multiple of 1/4 point."""
    spec = load_chapter(chapter)
    for ex in spec.exercises:
        n = len(ex.case_inputs(spec.seed))
        if ex.kind == "choice" and ex.multi and ex.partial:
            n = len(ex.options)  # one share per option
        assert n >= 2 or ex.concept, ex.name
        if ex.partial:
            assert n >= 2, ex.name
            assert (ex.points / n * 4) == int(ex.points / n * 4), ex.name


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_hidden_cases_are_seeded(chapter):
    spec = load_chapter(chapter)
    for ex in spec.exercises:
        assert ex.case_inputs(spec.seed) == ex.case_inputs(spec.seed)
        if ex.kind == "expression" or getattr(ex, "hidden", None):
            assert ex.case_inputs(spec.seed) != ex.case_inputs(spec.seed + 1), ex.name


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_inline_check_passes_the_reference_on_every_public_case(chapter):
    from grader.inline import check_exercise
    from grader.spec import load_solutions

    ref = load_solutions(chapter)
    for ex in load_chapter(chapter).exercises:
        result = check_exercise(chapter, ex.name, getattr(ref, ex.name))
        assert result.passed_public, "\n".join(result.lines)
        assert "graded later" in result.lines[-1]


FILLED_31 = {
    "mesh_inertia": '''
def mesh_inertia(vertices, faces, density):
    V = 0.0; S = np.zeros(3); X = np.zeros((3, 3))
    for f in np.asarray(faces, dtype=int):
        p1, p2, p3 = vertices[f]
        vt = p1 @ np.cross(p2, p3) / 6
        s = p1 + p2 + p3
        V += vt; S += vt * s / 4
        X += vt / 20 * (np.outer(p1, p1) + np.outer(p2, p2) + np.outer(p3, p3) + np.outer(s, s))
    sign = np.sign(V)          # clockwise faces: every signed volume flips
    m = density * sign * V
    c = S / V
    Sig = density * sign * X
    I_o = np.trace(Sig) * np.eye(3) - Sig
    return I_o - m * (c @ c * np.eye(3) - np.outer(c, c))
''',
    "inertia_between_points": '''
def inertia_between_points(inertia_a, mass, com, a, b):
    def shift(d):
        return mass * (d @ d * np.eye(3) - np.outer(d, d))
    return inertia_a - shift(com - a) + shift(com - b)
''',
    "fix_flipped_product": '''
def fix_flipped_product(params):
    def min_eig(p):
        I = np.array([[p[4], p[7], p[8]], [p[7], p[5], p[9]], [p[8], p[9], p[6]]])
        Pi = np.zeros((4, 4))
        Pi[:3, :3] = np.trace(I) / 2 * np.eye(3) - I
        Pi[:3, 3] = Pi[3, :3] = p[1:4]
        Pi[3, 3] = p[0]
        return np.linalg.eigvalsh(Pi)[0]
    trials = []
    for k in (7, 8, 9):
        q = np.array(params, dtype=float)
        q[k] = -q[k]
        trials.append(q)
    return max(trials, key=min_eig)
''',
    "body_wrench": '''
def body_wrench(mass, inertia, com, omega, v, omega_dot, accel):
    a_c = accel + np.cross(omega_dot, com) + np.cross(omega, np.cross(omega, com))
    f = mass * a_c
    m_c = inertia @ omega_dot + np.cross(omega, inertia @ omega)
    return np.hstack([m_c + np.cross(com, f), f])
''',
    "steiner_block": '''
m, r, ell = sp.symbols("m r ell", positive=True)
z, s, th = sp.symbols("z s theta", positive=True)
rho = m / (sp.pi * r**2 * ell / 3)
def integral(f):
    return rho * sp.integrate(f * s, (s, 0, r * z / ell), (th, 0, 2 * sp.pi), (z, 0, ell))
x, y = s * sp.cos(th), s * sp.sin(th)
I_apex = sp.diag(integral(y**2 + z**2), integral(x**2 + z**2), integral(x**2 + y**2))
zc = integral(z) / m
steiner_block = sp.simplify(I_apex - m * zc**2 * sp.diag(1, 1, 0))
''',
    "is_physically_consistent": '''
def is_physically_consistent(G):
    m = G[3, 3]
    h = np.array([G[2, 4], G[0, 5], G[1, 3]])     # m c from the block m [c]
    I_o = G[:3, :3]
    Pi = np.zeros((4, 4))
    Pi[:3, :3] = np.trace(I_o) / 2 * np.eye(3) - I_o
    Pi[:3, 3] = Pi[3, :3] = h
    Pi[3, 3] = m
    return bool(np.linalg.eigvalsh(Pi)[0] >= -1e-12)
''',
    "Omega_k_squared": '''
I_k, I_a, I_b, Omega, L_r = sp.symbols("I_k I_a I_b Omega L_r")
Omega_k_squared = (Omega * (I_k - I_a) + L_r) * (Omega * (I_k - I_b) + L_r) / (I_a * I_b)
''',
    "axis_is_stable": '''
def axis_is_stable(moments, k):
    return bool(moments[k] == max(moments))
''',
    "world_frame_torque": '''
def world_frame_torque(R, inertia_body, precession, spin):
    I_w = R @ inertia_body @ R.T
    w = precession + R @ spin
    w_dot = np.cross(precession, R @ spin)
    return I_w @ w_dot + np.cross(w, I_w @ w)
''',
    "urdf_inertial_to_G": '''
def urdf_inertial_to_G(mass, xyz, rpy, inertia):
    def hat(a):
        return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    G = np.zeros((6, 6))
    for m, p, (r, q, y), (ixx, ixy, ixz, iyy, iyz, izz) in zip(mass, xyz, rpy, inertia):
        Rx = np.array([[1, 0, 0], [0, np.cos(r), -np.sin(r)], [0, np.sin(r), np.cos(r)]])
        Ry = np.array([[np.cos(q), 0, np.sin(q)], [0, 1, 0], [-np.sin(q), 0, np.cos(q)]])
        Rz = np.array([[np.cos(y), -np.sin(y), 0], [np.sin(y), np.cos(y), 0], [0, 0, 1]])
        R = Rz @ Ry @ Rx
        I_L = R @ np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]) @ R.T
        G += np.block([[I_L - m * hat(p) @ hat(p), m * hat(p)], [-m * hat(p), m * np.eye(3)]])
    return G
''',
    "mjcf_fullinertia": '''
def mjcf_fullinertia(rpy, inertia):
    r, p, y = rpy
    Rx = np.array([[1, 0, 0], [0, np.cos(r), -np.sin(r)], [0, np.sin(r), np.cos(r)]])
    Ry = np.array([[np.cos(p), 0, np.sin(p)], [0, 1, 0], [-np.sin(p), 0, np.cos(p)]])
    Rz = np.array([[np.cos(y), -np.sin(y), 0], [np.sin(y), np.cos(y), 0], [0, 0, 1]])
    R = Rz @ Ry @ Rx
    ixx, ixy, ixz, iyy, iyz, izz = inertia
    for sgn in (1, -1):
        I = np.array([[ixx, sgn * ixy, sgn * ixz], [sgn * ixy, iyy, sgn * iyz], [sgn * ixz, sgn * iyz, izz]])
        l1, l2, l3 = np.linalg.eigvalsh(I)
        if l1 >= 0 and l1 + l2 >= l3:
            break
    I = R @ I @ R.T
    return np.array([I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]])
''',
    "payload_box": '''
def payload_box(density, m_min, omega, omega_dot, g, moment_max):
    from scipy.optimize import minimize
    from lib.inertia import box_inertia
    from lib.rigid_body import spatial_newton_euler
    from lib.spatial import spatial_inertia
    vol = 1.000001 * m_min / density
    def moment(x):
        a, b = np.clip(x, 0.01, 0.4)
        ell = vol / (a * b)
        m = density * a * b * ell
        G = spatial_inertia(m, box_inertia(m, [a, b, ell]), com=[0, 0, ell / 2])
        F = spatial_newton_euler(G, np.r_[omega, 0, 0, 0], np.r_[omega_dot, -g])
        return np.linalg.norm(F[:3]) + 1e3 * max(0.0, 0.01 - ell) + 1e3 * max(0.0, ell - 0.4)
    grid = [(a, b) for a in np.linspace(0.02, 0.4, 12) for b in np.linspace(0.02, 0.4, 12)]
    a, b = np.clip(minimize(moment, min(grid, key=moment), method="Nelder-Mead").x, 0.01, 0.4)
    return np.array([a, b, vol / (a * b)])
''',
}


def test_a_student_filling_in_the_stubs_gets_full_marks(tmp_path):
    """The 3.1 notebook with each stub cell replaced by a student's own answer, as .ipynb."""
    chapter = "rigid_body_dynamics"
    nb = jupytext.read(REPO / "exercises" / f"{chapter}.md")
    filled = set()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for name, code in FILLED_31.items():
            if re.search(rf"^(def {name}\(|{name} = None)", cell.source, re.M) and "check(" not in cell.source:
                cell.source = code.strip()
                filled.add(name)
    assert filled == set(FILLED_31)
    sub = tmp_path / "student.ipynb"
    nbformat.write(nb, sub)
    report = core.grade_submission(sub, _opts(chapter))
    assert report["score"] == 29.0, core.format_report(report)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_case_input_passes_the_library_validation(chapter):
    """Issue 15: case inputs are generated *and checked* with lib's own validation (Exercise.validate)."""
    spec = load_chapter(chapter)
    for seed in (spec.seed, 1, 2, 12345):
        for ex in spec.exercises:
            ex.case_inputs(seed)  # raises if a public or hidden case is not a valid input


def test_world_frame_torque_cases_are_physical_bodies():
    """3.1.6's public case 1 (3.1.7 then) violated the triangle inequality (in the chapter that teaches it)."""
    import numpy as np

    from lib.inertia import check_physical_inertia
    from lib.rigid_body import world_frame_euler

    spec = load_chapter("rigid_body_dynamics")
    ex = spec.exercise("world_frame_torque")
    cases = ex.case_inputs(spec.seed)
    assert len(cases) == 4 and sum(public for public, _ in cases) == 2
    from grader.spec import load_solutions

    ref = load_solutions("rigid_body_dynamics").world_frame_torque
    for _, c in cases:
        check_physical_inertia(c["inertia_body"])
        # lib's world-frame Euler with w_w = W_p + R w_s and wd_w = W_p x R w_s is the reference
        R, spin_w = np.asarray(c["R"]), np.asarray(c["R"]) @ np.asarray(c["spin"])
        w = np.asarray(c["precession"]) + spin_w
        tau = world_frame_euler(c["inertia_body"], R, w, np.cross(c["precession"], spin_w))
        np.testing.assert_allclose(ref(R, np.asarray(c["inertia_body"]), np.asarray(c["precession"]),
                                       np.asarray(c["spin"])), tau, rtol=1e-12, atol=1e-12)
    # A spec whose public case is not physical is refused, naming the case.
    import dataclasses

    bad = dataclasses.replace(ex, public=[dict(ex.public[0], inertia_body=[[0.1, 0.01, -0.02], [0.01, 0.2, 0.005],
                                                                           [-0.02, 0.005, 0.3]])])
    with pytest.raises(ValueError, match=r"3\.1\.6 `world_frame_torque`: public case 1 is not a valid input "
                                         r"\(NonPhysicalInertiaError"):
        bad.case_inputs(spec.seed)


def test_constrained_dynamics_cases_have_spd_mass_matrices_and_full_rank_jacobians():
    """3.11: every case is checked with lib's own validation; a non-SPD M in a spec is refused."""
    import dataclasses

    spec = load_chapter("constrained_dynamics")
    # every exercise with case inputs validates them (a question has none)
    assert all(ex.validate is not None for ex in spec.exercises if not ex.concept)
    ex = spec.exercise("constrained_accelerations")
    bad = dataclasses.replace(ex, public=[dict(ex.public[0], M=[[1.0, 0.0], [0.0, -1.0]])])
    with pytest.raises(ValueError, match=r"3\.11\.2 `constrained_accelerations`: public case 1 is not a valid "
                                         r"input \(NotPositiveDefiniteError"):
        bad.case_inputs(spec.seed)
    bad = dataclasses.replace(ex, public=[dict(ex.public[0], J=[[1.0, 1.0], [2.0, 2.0]], gamma=[0.0, 0.0])])
    with pytest.raises(ValueError, match="public case 1 is not a valid input"):
        bad.case_inputs(spec.seed)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_declared_sections_exist_and_statements_link_there(chapter):
    """An exercise's `section` is a label of its chapter, and its statement links there (relative link)."""
    spec = load_chapter(chapter)
    page_of = {}  # label -> file name of the page (the chapter's own page, then its companions)
    for page in (CHAPTER_PAGES[chapter],) + COMPANION_PAGES.get(chapter, ()):
        book = REPO / "book" / "dynamics" / f"{page}.md"
        for label in re.findall(r"^\(([\w-]+)\)=\s*$", book.read_text(), re.M):
            page_of.setdefault(label, book.name)
    text = (REPO / "exercises" / f"{chapter}.md").read_text()
    blocks = re.split(r"^## Exercise ", text, flags=re.M)[1:]
    by_name = {re.search(r"`(\w+)`", b).group(1): b for b in blocks}
    for ex in spec.exercises:
        if not ex.section:
            continue
        assert ex.section in page_of, f"{ex.number}: no label ({ex.section})= in the chapter's pages"
        link = f"](../book/dynamics/{page_of[ex.section]}#{ex.section})"
        assert link in by_name[ex.name], f"{ex.number}: the statement does not link {link}"


def test_flipping_the_largest_product_is_not_a_way_to_solve_3_1_4():
    """A guess that uses no physics (flip the product of largest magnitude) must fail the second
    public case and every hidden case of fix_flipped_product (found in the student try-out)."""
    import numpy as np

    from grader.spec import load_solutions

    spec = load_chapter("rigid_body_dynamics")
    ex = spec.exercise("fix_flipped_product")
    solve = load_solutions("rigid_body_dynamics").fix_flipped_product
    guessed_right = []
    for seed in (spec.seed, 1, 2):
        for i, (public, case) in enumerate(ex.case_inputs(seed)):
            params = np.asarray(case["params"], dtype=float)
            guess = params.copy()
            guess[7 + int(np.argmax(np.abs(params[7:])))] *= -1
            guessed_right.append((seed, i, bool(np.allclose(guess, solve(params), rtol=1e-9, atol=1e-12))))
    assert [(s, i) for s, i, ok in guessed_right if ok] == [(s, 0) for s in (spec.seed, 1, 2)], guessed_right


def test_index_arrays_arrive_as_integers_and_other_lists_as_floats(tmp_path):
    """A mesh's faces (every entry an int) reach the student's function as an integer array, the
    vertices as floats: the statement need not explain a conversion."""
    tail = '''

_reference_mesh_inertia = mesh_inertia


def mesh_inertia(vertices, faces, density):
    import numpy as np

    if faces.dtype.kind != "i" or vertices.dtype.kind != "f" or not isinstance(density, float):
        raise TypeError(f"faces {faces.dtype}, vertices {vertices.dtype}, density {type(density)}")
    return _reference_mesh_inertia(vertices, faces, density)
'''
    sub = tmp_path / "hw.py"
    sub.write_text((REPO / "solutions" / "rigid_body_dynamics.py").read_text() + tail)
    report = core.grade_submission(sub, _opts("rigid_body_dynamics"))
    entry = next(e for e in report["exercises"] if e["name"] == "mesh_inertia")
    assert entry["score"] == entry["points"], core.format_report(report)


# --------------------------------------------------------------------------
# 3.1: typical wrong answers lose points (issue 19, points 10 and 11)
# --------------------------------------------------------------------------

def _share_passed(name, answer, seed=None):
    """Fraction of a 3.1 function exercise's cases (public and hidden) that ``answer`` passes,
    compared with the reference as the grader compares (grader.compare)."""
    import numpy as np

    from grader.compare import compare
    from grader.spec import load_solutions

    spec = load_chapter("rigid_body_dynamics")
    ex = spec.exercise(name)
    ref = getattr(load_solutions("rigid_body_dynamics"), name)
    cases = ex.case_inputs(spec.seed if seed is None else seed)
    ok = 0
    for _, case in cases:
        args = [np.asarray(case[a], dtype=float) if isinstance(case[a], list) else case[a] for a in ex.args]
        expected, returned = (bool(x) if isinstance(x, (bool, np.bool_)) else np.asarray(x, dtype=float).tolist()
                              for x in (ref(*args), answer(*args)))
        ok += compare(expected, returned, rtol=ex.rtol, atol=ex.atol, public=True).passed
    return ok / len(cases)


def test_a_wrong_sign_of_the_rotor_momentum_fails_a_public_case_of_3_1_7():
    """Issue 19.10: the check cell passed Omega_k^2 with L_r of the wrong sign."""
    import sympy as sp

    from grader.inline import check_exercise
    from grader.spec import load_solutions

    I_k, I_a, I_b, Omega, L_r = sp.symbols("I_k I_a I_b Omega L_r")
    wrong = ((I_k - I_a) * Omega - L_r) * ((I_k - I_b) * Omega - L_r) / (I_a * I_b)
    assert not check_exercise("rigid_body_dynamics", "Omega_k_squared", wrong).passed_public
    right = load_solutions("rigid_body_dynamics").Omega_k_squared
    assert check_exercise("rigid_body_dynamics", "Omega_k_squared", right).passed_public


def test_designs_without_dynamics_lose_most_points_of_3_1_12():
    """Issue 19.10: a 1 cm plate earned 2.5 of 3 points. The cube and the thinnest square plate
    (clipped to the largest edge) now fail every case, public and hidden, for several seeds,
    while the reference design passes every case; the rounded public cases keep the rules of
    the hidden ones."""
    import numpy as np

    from grader.chapters.rigid_body_dynamics import PAYLOAD_EDGES, _best_box, _judge_payload, _lazy_moments
    from grader.spec import load_solutions

    spec = load_chapter("rigid_body_dynamics")
    ex = spec.exercise("payload_box")
    solve = load_solutions("rigid_body_dynamics").payload_box
    for seed in (spec.seed, 1, 2):
        for public, case in ex.case_inputs(seed):
            V = case["m_min"] / case["density"]
            side = min(np.sqrt(V / PAYLOAD_EDGES[0]), PAYLOAD_EDGES[1])
            for lazy in ([side, side, PAYLOAD_EDGES[0]], [V ** (1 / 3)] * 3):
                assert not _judge_payload(case, lazy)[0], (seed, public, lazy)
            design = solve(*[case[a] for a in ex.args])
            assert _judge_payload(case, design)[0], _judge_payload(case, design)[1]
            if public:
                c = {k: np.asarray(v, dtype=float) if isinstance(v, list) else v for k, v in case.items()}
                best = _best_box(c, 80)
                assert best < case["moment_max"] < min(_lazy_moments(c)) and min(_lazy_moments(c)) > 1.6 * best


def test_typical_wrong_answers_lose_points_in_3_1():
    """Issue 19.11: each reworked exercise rejects the answer that skips its step."""
    import numpy as np

    from grader.spec import load_solutions
    from lib.model_files import rpy_to_rotation

    ref = load_solutions("rigid_body_dynamics")

    # 3.1.3: "G positive definite" and "triangle inequality of the upper-left block"
    assert _share_passed("is_physically_consistent", lambda G: bool(np.linalg.eigvalsh(G).min() > 0)) == 4 / 6
    def triangle_of_I_o(G):
        lam = np.sort(np.linalg.eigvalsh(G[:3, :3]))
        return bool(lam[0] >= 0 and lam[0] + lam[1] >= lam[2])
    assert _share_passed("is_physically_consistent", triangle_of_I_o) <= 4 / 6
    # 3.1.5: the acceleration of the origin taken for the derivative of the twist's components
    def v_dot_as_accel(mass, inertia, com, omega, v, omega_dot, accel):
        v_c = v + np.cross(omega, com)
        f = mass * (accel + np.cross(omega_dot, com) + np.cross(omega, v_c))
        return np.r_[inertia @ omega_dot + np.cross(omega, inertia @ omega) + np.cross(com, f), f]
    assert _share_passed("body_wrench", v_dot_as_accel) == 0
    # 3.1.6: constant rates taken for zero angular acceleration
    def no_w_dot(R, inertia_body, precession, spin):
        I_w = R @ inertia_body @ R.T
        w = precession + R @ spin
        return np.cross(w, I_w @ w)
    assert _share_passed("world_frame_torque", no_w_dot) == 0
    # 3.1.8: the rigid-body rule, and "never stable"
    def rigid(moments, k):
        a, b = [moments[j] for j in range(3) if j != k]
        return bool((moments[k] - a) * (moments[k] - b) > 0)
    assert _share_passed("axis_is_stable", rigid) == 0.5
    assert _share_passed("axis_is_stable", lambda moments, k: False) == 0.5
    # 3.1.10: only the first part, and the parts' inertias added without their offsets
    assert _share_passed("urdf_inertial_to_G", lambda m, x, e, i: ref.urdf_inertial_to_G(m[:1], x[:1], e[:1], i[:1])) == 0
    def no_steiner(mass, xyz, rpy, inertia):
        return ref.urdf_inertial_to_G(mass, np.zeros_like(xyz), rpy, inertia)
    assert _share_passed("urdf_inertial_to_G", no_steiner) == 0
    # 3.1.11: the products read as written, whatever the exporter
    def ignore_sign(rpy, inertia):
        ixx, ixy, ixz, iyy, iyz, izz = inertia
        R = rpy_to_rotation(rpy)
        I = R @ np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]) @ R.T
        return np.array([I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]])
    assert _share_passed("mjcf_fullinertia", ignore_sign) == 0.5


def test_the_cone_without_the_steiner_step_fails_3_1_9():
    """3.1.9: the inertia about the apex, and the Steiner term added instead of subtracted."""
    import sympy as sp

    from grader.inline import check_exercise

    m, r, ell = sp.symbols("m r ell", positive=True)
    apex = sp.diag(sp.Rational(3, 20) * m * r**2 + sp.Rational(3, 5) * m * ell**2,
                   sp.Rational(3, 20) * m * r**2 + sp.Rational(3, 5) * m * ell**2, sp.Rational(3, 10) * m * r**2)
    added = apex + m * (3 * ell / 4) ** 2 * sp.diag(1, 1, 0)
    for wrong in (apex, added):
        assert not check_exercise("rigid_body_dynamics", "steiner_block", wrong).passed_public
