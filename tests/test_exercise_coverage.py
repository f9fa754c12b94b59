"""What each chapter's checkpoint set covers, how long it takes and what it is worth.

Every chapter spec maps its key ideas to the exercises that test them
(``Chapter.key_ideas``). The tests hold three promises of the course:

* every key idea has at least one graded exercise, and the ideas a course on
  the chapter must test (``REQUIRED_IDEAS``) are in the map;
* every exercise tests some key idea and links the section it tests;
* a set takes a good student 2-4 hours (``Exercise.minutes``, shown in each
  heading) and points follow effort.
"""

from __future__ import annotations

import pytest

from conftest import chapter_registry
from grader.spec import chapter_names, load_chapter

CHAPTERS = chapter_names()

#: Ideas each chapter's set must test, by the exact key used in ``Chapter.key_ideas``
#: (``required_ideas`` of the chapter's entry in book/chapters.yml). A chapter may map
#: more ideas; these are the ones a reviewer of the course asked for.
REQUIRED_IDEAS = {
    entry["exercises"]: set(entry.get("required_ideas", []))
    for entry in chapter_registry()["chapters"]
    if "exercises" in entry
}

#: a good student's time for one chapter's set, minutes
SET_MINUTES = (120, 240)
#: points per minute of work: between one point per 20 minutes and one per 5 minutes
POINTS_PER_MINUTE = (1 / 20, 1 / 5)


def coverage_problems(spec, required: set) -> list[str]:
    """What is wrong with a chapter spec's key-ideas map, sections and time estimates."""
    problems = []
    names = {ex.name for ex in spec.exercises}
    missing = required - set(spec.key_ideas)
    if missing:
        problems.append(f"key ideas with no exercise: {sorted(missing)}")
    for idea, tested_by in spec.key_ideas.items():
        if not isinstance(tested_by, (tuple, list)) or not tested_by:
            problems.append(f"'{idea}' names no exercise")
        elif set(tested_by) - names:
            problems.append(f"'{idea}' names exercises that do not exist: {sorted(set(tested_by) - names)}")
    mapped = {name for tested_by in spec.key_ideas.values() for name in tested_by}
    for ex in spec.exercises:
        if ex.name not in mapped:
            problems.append(f"{ex.number} `{ex.name}` tests none of the chapter's key ideas")
        if not ex.section:
            problems.append(f"{ex.number} `{ex.name}` declares no section (its statement must link it)")
    total = sum(ex.minutes for ex in spec.exercises)
    if not SET_MINUTES[0] <= total <= SET_MINUTES[1]:
        problems.append(f"the set takes {total} min, not {SET_MINUTES[0]}-{SET_MINUTES[1]}")
    lo, hi = POINTS_PER_MINUTE
    for ex in spec.exercises:
        if ex.minutes <= 0:
            problems.append(f"{ex.number}: no time estimate")
        elif not lo <= ex.points / ex.minutes <= hi:
            problems.append(f"{ex.number}: {ex.points:g} points for about {ex.minutes} min is outside "
                            f"{1 / hi:g}-{1 / lo:g} min per point")
    return problems


def test_every_chapter_has_required_ideas_listed():
    assert sorted(REQUIRED_IDEAS) == sorted(CHAPTERS)
    empty = sorted(chapter for chapter, ideas in REQUIRED_IDEAS.items() if not ideas)
    assert not empty, f"book/chapters.yml: no required_ideas for {empty}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_key_ideas_exercises_sections_and_effort(chapter):
    """Every key idea (the required ones included) has an exercise, every exercise tests an
    idea and links its section, the set takes 2-4 hours and points follow the minutes."""
    problems = coverage_problems(load_chapter(chapter), REQUIRED_IDEAS[chapter])
    assert not problems, f"{chapter}:\n" + "\n".join(problems)


def test_the_coverage_rules_can_fail():
    """Each rule rejects a spec that breaks it."""
    from dataclasses import replace

    spec = load_chapter("contact_and_impact")
    exercises = [replace(ex, section=ex.section or "sec-x", points=2, minutes=20) for ex in spec.exercises[:9]]
    good = replace(spec, key_ideas={"all": tuple(ex.name for ex in exercises)}, exercises=exercises)
    assert coverage_problems(good, {"all"}) == []
    cases = {
        "key ideas with no exercise": (good, {"all", "another idea"}),
        "names no exercise": (replace(good, key_ideas={**good.key_ideas, "empty": ()}), {"all"}),
        "do not exist": (replace(good, key_ideas={**good.key_ideas, "typo": ("no_such",)}), {"all"}),
        "tests none of": (replace(good, key_ideas={"all": tuple(ex.name for ex in exercises[1:])}), set()),
        "declares no section": (replace(good, exercises=[replace(good.exercises[0], section="")]
                                        + good.exercises[1:]), set()),
        "the set takes": (replace(good, exercises=[replace(ex, minutes=1000) for ex in good.exercises]), set()),
        "min per point": (replace(good, exercises=[replace(good.exercises[0], minutes=1)]
                                  + good.exercises[1:]), set()),
    }
    for expected, (broken, required) in cases.items():
        assert any(expected in p for p in coverage_problems(broken, required)), expected
