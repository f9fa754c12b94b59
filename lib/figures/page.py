"""One way to put a figure into a page: its static picture and its live panel.

Every figure of :data:`lib.figures.FIGURES` appears in a page the same way:

- the **static picture** (what a printout, or a browser without JavaScript,
  shows): :func:`static_figure` draws ``draw_<name>`` for each of a few
  settings of the controls, side by side on one pyplot-free figure, which the
  page glues and shows with myst-nb's figure glue directive (caption, alt text);
- the **live panel**: :func:`show_figure` returns the anywidget of
  :mod:`lib.figures.live`, displayed where the cell stands; with ``glue=`` it
  also glues the static picture of ``cases`` under that name.

In a page::

    from lib import figures as cf

    cf.show_figure("cone2d", cases=[dict(f_t=1.0), dict(f_t=3.0, f_n=4.0)], glue="cf_fig_cone", mu=0.5)

A page that composes its static picture itself (extra panels, tighter limits)
calls ``draw_<name>`` on its own axes and :func:`show_figure` without ``glue``.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from matplotlib.figure import Figure

from .._validation import instance_of, positive_int
from ..errors import OutOfRangeError
from . import FIGURES
from .spec import FigureSpec, defaults

__all__ = ["figure_spec", "static_figure", "show_figure"]


def figure_spec(figure: str | FigureSpec) -> FigureSpec:
    """The record of a registered figure, by name (a record is returned as it is).

    Raises
    ------
    OutOfRangeError
        If no figure of :data:`lib.figures.FIGURES` has this name.

    Examples
    --------
    >>> figure_spec("ramp").section
    'sec-cf-ramp'
    """
    if isinstance(figure, FigureSpec):
        return figure
    if not isinstance(figure, str) or figure not in FIGURES:
        raise OutOfRangeError(f"figure must be one of {sorted(FIGURES)}, got {figure!r}")
    return FIGURES[figure]


def static_figure(figure: str | FigureSpec, cases: Sequence[dict] | None = None, *,
                  ncols: int | None = None) -> Figure:
    """The static picture of a figure: ``draw_<name>`` of each case, in a grid of ``ncols`` columns.

    Each case gives keyword values of ``<name>_data`` (the rest keep their
    defaults); no case draws the starting state. Each drawing gets a subfigure
    of the figure's record size (``FigureSpec.size``).

    Returns
    -------
    matplotlib.figure.Figure
        A pyplot-free figure.

    Raises
    ------
    OutOfRangeError
        For an unknown figure or a case naming a keyword ``<name>_data`` does not have.

    Examples
    --------
    >>> fig = static_figure("cone2d", [dict(f_t=1.0), dict(f_t=3.0, f_n=4.0)])
    >>> [ax.get_title().split(": ")[-1] for ax in fig.axes]
    ['STICK', 'SLIP']
    """
    spec = figure_spec(figure)
    cases = [{}] if cases is None else list(cases)
    if not cases:
        raise OutOfRangeError("cases must hold at least one setting of the controls, got none")
    keywords = defaults(spec.data)
    for case in cases:
        instance_of(case, dict, "cases")
        unknown = sorted(set(case) - set(keywords))
        if unknown:
            raise OutOfRangeError(f"cases: {spec.data.__name__} has no keyword {unknown}; it has {list(keywords)}")
    ncols = min(len(cases), 2) if ncols is None else positive_int(ncols, "ncols")
    rows = math.ceil(len(cases) / ncols)
    width, height = spec.size
    fig = Figure(figsize=(width * ncols, height * rows), layout="constrained")
    panels = fig.subfigures(rows, ncols, squeeze=False).flat
    for panel, case in zip(panels, cases):
        spec.draw(spec.data(**case), panel)
    return fig


def show_figure(figure: str | FigureSpec, cases: Sequence[dict] | None = None, *, glue: str | None = None,
                live: bool = True, ncols: int | None = None, **initial: Any) -> Any:
    """Put a figure into a page: glue its static picture and return its live panel.

    ``initial`` sets controls of the live panel (the rest start from the
    defaults of ``<name>_data``). With ``glue``, the static picture of
    ``cases`` (default: the panel's starting state) is glued under that name
    for myst-nb's figure glue directive (:func:`lib.common.glue_figure`). With
    ``live=False`` there is no panel: the static picture is returned (shown
    where the cell stands) unless it was glued. ``ncols`` lays the cases out
    as in :func:`static_figure` (one column keeps wide figures legible on a
    phone).

    Returns
    -------
    lib.figures.live.LiveFigure or matplotlib.figure.Figure or None
        The live panel; or, with ``live=False``, the static picture (``None`` when glued).

    Examples
    --------
    >>> show_figure("cone2d", mu=0.9).values
    {'f_t': 1.0, 'f_n': 3.0, 'mu': 0.9}
    """
    spec = figure_spec(figure)
    values = spec.start(**initial)
    if glue is not None:
        instance_of(glue, str, "glue")
    picture = None
    if glue is not None or not live:
        picture = static_figure(spec, [values] if cases is None else cases, ncols=ncols)
    if glue is not None:
        from ..common import glue_figure

        glue_figure(glue, picture)
        picture = None
    if not live:
        return picture
    from .live import LiveFigure  # the widget library, only where a panel is built

    return LiveFigure(spec, **values)
