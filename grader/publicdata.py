"""Generate ``grader/chapters/<chapter>_public.json``: public cases with expected answers.

The inline check needs the expected answers of the public cases in the
student's kernel, where the reference solutions are not available; this file
holds them (and nothing about the hidden cases). A test checks that it is
up to date with the solutions and the spec.
"""

from __future__ import annotations

import json

from .expected import expected_cases
from .fileio import atomic_write
from .spec import Chapter


def public_data(chapter: Chapter, solutions=None) -> dict:
    cases = expected_cases(chapter, solutions, chapter.seed)
    # Each kind says what a public case may show (a design's: the inputs only).
    return {
        ex.name: [{"inputs": c.inputs, "expected": ex.public_expected(c.expected)}
                  for c in cases[ex.name] if c.public]
        for ex in chapter.exercises
    }


def render_public(chapter: Chapter, solutions=None) -> str:
    return json.dumps(public_data(chapter, solutions), indent=1, sort_keys=True) + "\n"


def write_public(chapter: Chapter, solutions=None):
    atomic_write(chapter.public_file, render_public(chapter, solutions))
    return chapter.public_file
