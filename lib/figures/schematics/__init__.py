"""Schematic drawings of the chapters' example models.

Each drawing is computed from the model's own geometry (the same ``lib``
routine the chapter simulates), so a changed dimension changes the picture.
They are part of :mod:`lib.figures`, the only part of ``lib`` that plots;
the algorithms and the models never import it.

One module per chapter's models:

- :mod:`lib.figures.schematics.mechanisms`: the four-bar, the five-bar, the pen on the
  whiteboard and the Stewart-Gough platform (chapter 3.11).
- :mod:`lib.figures.schematics.contact`: the box on its corners and the 2R arm
  touching a wall (chapter 3.12).
- :mod:`lib.figures.schematics.fingertip`: the two-link fingertip (the contact and
  friction lesson).
- :mod:`lib.figures.schematics.box_on_ramp`: the box on a ramp of the worked contact
  scene (chapter 3.12).
- :mod:`lib.figures.schematics.kinematic_tree`: any kinematic tree (a robot of
  :func:`lib.models.robots.load_robot`, a hand-built arm) at a configuration,
  projected on a plane or in an oblique view (chapters 3.2 and 3.3).

The shared style below keeps every schematic in the book alike.
"""

from __future__ import annotations

#: Colours shared by every schematic (matplotlib's default cycle, by role).
STYLE = {
    "link": "#1f77b4",        # rigid links and bodies
    "ground": "0.35",         # fixed ground, walls, hatching
    "joint_fill": "white",    # revolute joints: open circles
    "actuated": "#d62728",    # actuated joints and motors
    "force": "#2ca02c",       # forces and contact normals
    "friction": "#ff7f0e",    # friction forces and cones
    "annotation": "0.2",      # dimension lines and labels
}

#: Line widths in points.
LINK_WIDTH = 3.0
THIN_WIDTH = 1.0
#: Radius of a joint marker, in points squared (matplotlib ``scatter`` size).
JOINT_SIZE = 60.0


def draw_ground(ax, x0: float, x1: float, y: float, *, below: bool = True,
                depth: float | None = None) -> None:
    """Draw a hatched ground line from ``x0`` to ``x1`` at height ``y`` (m).

    ``below`` puts the hatching under the line (a floor); otherwise above (a
    ceiling). ``depth`` is the hatch depth in data units (default 4 % of the
    line's length).
    """
    import matplotlib.patches as mpatches

    span = x1 - x0
    d = 0.04 * abs(span) if depth is None else depth
    y_rect = y - d if below else y
    ax.add_patch(mpatches.Rectangle((x0, y_rect), span, d, facecolor="none",
                                    edgecolor="none", hatch="///",
                                    linewidth=0, zorder=0,
                                    **{"alpha": 0.6}))
    ax.plot([x0, x1], [y, y], color=STYLE["ground"], lw=THIN_WIDTH * 1.5,
            zorder=1)


def draw_joint(ax, x: float, y: float, *, actuated: bool = False) -> None:
    """Draw a revolute joint at ``(x, y)``; an actuated one is filled red."""
    face = STYLE["actuated"] if actuated else STYLE["joint_fill"]
    ax.scatter([x], [y], s=JOINT_SIZE, facecolor=face,
               edgecolor=STYLE["annotation"], linewidth=THIN_WIDTH, zorder=5)


__all__ = ["STYLE", "LINK_WIDTH", "THIN_WIDTH", "JOINT_SIZE", "draw_ground",
           "draw_joint"]
