"""The five interactive figures of the lesson "Contact and friction".

Every figure has three layers:

``*_data(...)``
    Pure: control values in, plain data (a ``dict`` of floats, strings and
    arrays) out, computed by the tested routines of :mod:`lib.friction`,
    :mod:`lib.contact_sim` and :mod:`lib.models.fingertip`.
``draw_*(data, ax=None)``
    Pure plotting: draws the data into the given matplotlib axes (or into a
    new :class:`matplotlib.figure.Figure`) and returns the figure. The book's
    static pictures call the same functions.
``*_widget(**initial)``
    Builds an :class:`InteractiveFigure`: ipywidgets controls, a state label,
    a readout and the picture. Its :meth:`InteractiveFigure.update` callback
    runs on every control change; tests drive it by setting control values.

Explained in :ref:`sec-cf-ramp`, :ref:`sec-cf-cone2d`, :ref:`sec-cf-pyramid`,
:ref:`sec-cf-nonsmooth` and :ref:`sec-cf-fingertip`.
"""

from __future__ import annotations

import functools
import html
import math
import struct
import zlib
from typing import Any, Callable

import ipywidgets as widgets
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch
from matplotlib.ticker import NullLocator
from matplotlib.text import Text

from .. import contact_sim, friction
from ..models import ball_drop, fingertip
from .._validation import in_range, nonnegative, one_of, positive
from ..errors import DynamicsInputError

__all__ = [
    "COLORS",
    "InteractiveFigure",
    "ramp_data",
    "ramp_describe",
    "draw_ramp",
    "ramp_widget",
    "cone2d_data",
    "cone2d_describe",
    "draw_cone2d",
    "cone2d_widget",
    "pyramid_data",
    "pyramid_describe",
    "draw_pyramid",
    "pyramid_widget",
    "ball_drop_data",
    "ball_drop_describe",
    "draw_ball_drop",
    "ball_drop_widget",
    "fingertip_data",
    "fingertip_describe",
    "draw_fingertip",
    "fingertip_widget",
]

#: One colour per physical quantity, shared by all five figures.
COLORS = {
    "gravity": "#4d4d4d",
    "normal": "#1f6fb4",
    "friction": "#d62728",
    "contact": "#7b3fa0",
    "cone": "#17becf",
    "push": "#f59e0b",
    "supplied": "#2ca02c",
    "inscribed": "#7b3fa0",
    "circumscribed": "#f59e0b",
    "penalty": "#7b3fa0",
    "impulse": "#1f6fb4",
    "rigid": "#2ca02c",
    "joint1": "#d62728",
    "joint2": "#2ca02c",
    "feasible": "#2ca02c",
    "ground": "#8c6d46",
}

STATE_COLORS = {
    "stick": "#2ca02c",
    "slip": "#d62728",
    "lift-off": "#f59e0b",
    "separate": "#f59e0b",
    "stable": "#2ca02c",
    "energy gain": "#f59e0b",
    "unstable": "#d62728",
    "rest": "#2ca02c",
    "bouncing": "#1f6fb4",
    "feasible": "#2ca02c",
    "infeasible": "#d62728",
    "error": "#d62728",
}


# ----------------------------------------------------------------------------
# Shared helpers
# ----------------------------------------------------------------------------

def _new_axes(ax: Any, figsize: tuple[float, float], ncols: int = 1) -> tuple[Figure, Any]:
    """Return ``(figure, ax)``: the given axes, or new ones on a pyplot-free Figure."""
    if ax is not None:
        first = ax[0] if isinstance(ax, (list, tuple, np.ndarray)) else ax
        return first.figure, ax
    fig = Figure(figsize=figsize, layout="constrained")
    axes = fig.subplots(1, ncols)
    return fig, axes


def _arrow(ax: Any, start: Any, vector: Any, color: str, width: float = 2.0, label: str | None = None,
           zorder: int = 4) -> None:
    start = np.asarray(start, dtype=float)
    end = start + np.asarray(vector, dtype=float)
    if np.linalg.norm(end - start) < 1e-9:
        return
    # The arrow patch alone: what ``ax.annotate("", ...)`` draws, without the
    # annotation text machinery and the data-limit bookkeeping.
    ax.add_artist(FancyArrowPatch(tuple(start), tuple(end), arrowstyle="-|>", color=color, lw=width, shrinkA=0,
                                  shrinkB=0, mutation_scale=14, zorder=zorder))
    if label:
        ax.text(*(end + 0.08 * (end - start) / max(np.linalg.norm(end - start), 1e-9)), label,
                color=color, fontsize=11, ha="center", va="center", zorder=zorder + 1)


def _label_beside(ax: Any, start: Any, vector: Any, label: str, color: str, side: float = 1.0) -> None:
    """Label an arrow at its middle, offset perpendicular to it (``side`` +1: left of the arrow)."""
    start = np.asarray(start, dtype=float)
    vector = np.asarray(vector, dtype=float)
    length = float(np.linalg.norm(vector))
    if length < 1e-9:
        return
    normal = side * np.array([-vector[1], vector[0]]) / length
    where = start + 0.55 * vector + 0.5 * normal
    ax.text(*where, label, color=color, fontsize=10, ha="center", va="center", zorder=6,
            bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.7))


def _line(ax: Any, x: Any, y: Any, **kwargs: Any) -> Line2D:
    """One line (``ax.plot(x, y, **kwargs)`` without format strings) that leaves the axis limits alone.

    Every figure sets its limits explicitly; skipping ``plot``'s argument
    parsing and data-limit bookkeeping makes the live updates cheaper.
    """
    line = Line2D(np.atleast_1d(np.asarray(x, dtype=float)), np.atleast_1d(np.asarray(y, dtype=float)), **kwargs)
    ax.add_artist(line)
    return line


def _fill(ax: Any, x: Any, y: Any, color: str, alpha: float = 1.0, lw: float = 0.0, ec: str | None = None,
          zorder: float = 1, label: str | None = None) -> None:
    """A filled polygon that leaves the axis limits alone (cheaper than ``ax.fill``).

    Every figure sets its limits explicitly, so the data-limit bookkeeping of
    ``ax.fill`` (a Bezier extent per patch) would be wasted work on each update.
    """
    poly = PolyCollection([np.column_stack([x, y])], facecolors=[color], alpha=alpha, linewidths=[lw],
                          edgecolors=[ec if ec is not None else color], zorder=zorder, label=label)
    ax.add_collection(poly, autolim=False)


#: ``gid`` of the artists that do not depend on any control (:func:`_static`).
STATIC_GID = "cf-static"


def _static(*artists: Any) -> None:
    """Mark artists (or lists of them) that do not depend on any control.

    The live figure draws them once, into its cached background, instead of
    on every update.
    """
    for artist in artists:
        for item in artist if isinstance(artist, list) else [artist]:
            item.set_gid(STATIC_GID)


def _signature(artist: Any) -> tuple:
    """What a static artist looks like (type, text, rounded geometry), for the background key."""
    if isinstance(artist, Text):
        return ("Text", artist.get_text(), tuple(np.round(np.asarray(artist.get_position(), dtype=float), 9)))
    if isinstance(artist, Line2D):
        points = np.asarray(artist.get_xydata(), dtype=float)
    elif hasattr(artist, "get_paths"):
        paths = artist.get_paths()
        points = np.concatenate([p.vertices for p in paths]) if paths else np.empty((0, 2))
    else:
        points = np.empty((0, 2))
    return (type(artist).__name__, np.round(points, 9).tobytes())


def _legend(ax: Any, **kwargs: Any) -> Any:
    """``ax.legend(**kwargs)``, but keep a legend the axes already has with the same entries.

    The live figure redraws into the same axes: rebuilding an unchanged
    legend on every update would be wasted work.
    """
    handles, labels = ax.get_legend_handles_labels()
    old = ax.get_legend()
    if old is not None and [t.get_text() for t in old.get_texts()] == labels:
        return old
    return ax.legend(handles, labels, **kwargs)


def _fan(center: Any, axis_angle: float, half_angle: float, radius: float, n: int = 40) -> np.ndarray:
    """Polygon of a circular sector (the friction cone in a plane)."""
    angles = np.linspace(axis_angle - half_angle, axis_angle + half_angle, n)
    arc = np.column_stack([np.cos(angles), np.sin(angles)]) * radius + np.asarray(center)
    return np.vstack([center, arc, center])


def _nice_ceil(value: float) -> float:
    """Round up to 1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of ten (stable axis limits)."""
    if value <= 0.0 or not math.isfinite(value):
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for step in (1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0):
        if step * power >= value * (1.0 - 1e-12):
            return step * power
    return 10.0 * power


def _png_chunk(tag: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))


def _encode_png(rgba: np.ndarray, level: int = 1) -> bytes:
    """PNG bytes of an ``(h, w, 4)`` uint8 RGBA image, alpha dropped.

    A plain truecolour PNG without row filters and with fast zlib: about
    twice as fast as Pillow's encoder (which tries a filter per row) and no
    larger for flat-coloured plots.
    """
    height, width = rgba.shape[:2]
    raw = np.zeros((height, 1 + 3 * width), dtype=np.uint8)  # filter byte 0 (none) on each row
    raw[:, 1:] = rgba[:, :, :3].reshape(height, 3 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(raw.tobytes(), level)) + _png_chunk(b"IEND", b""))


def _state_html(text: str, key: str) -> str:
    color = STATE_COLORS.get(key, "#333333")
    return (f'<span style="font-size:1.15em;font-weight:bold;color:{color}">'
            f"{html.escape(text)}</span>")


def _table(rows: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><td style='padding-right:1em'>{html.escape(k)}</td><td><b>{html.escape(v)}</b></td></tr>"
                   for k, v in rows)
    return f"<table style='font-size:0.95em'>{body}</table>"


class InteractiveFigure(widgets.VBox):
    """An ipywidgets figure: controls, a state label, a readout and a picture.

    Parameters
    ----------
    title : str
        Heading shown above the controls.
    controls : dict of str to ipywidgets.Widget
        Named controls; their ``value`` are passed as keyword arguments to
        ``compute``.
    compute : callable
        Pure function ``compute(**values) -> dict`` (one of the ``*_data``).
    describe : callable
        Pure function ``describe(data) -> (state_text, state_key, rows)``.
    draw : callable
        Pure plotting function ``draw(data, ax) -> Figure``.
    make_axes : callable
        ``make_axes(figure) -> ax`` creating the axes ``draw`` expects.
    figsize : tuple of float
        Picture size in inches (rendered at 72 dpi).

    Attributes
    ----------
    controls : dict
        The control widgets by name (set their ``value`` to drive the figure).
    state : ipywidgets.HTML
        The state label (for example "STICK").
    readout : ipywidgets.HTML
        The table of computed numbers.
    image : ipywidgets.Image
        The rendered picture (PNG bytes).
    data : dict or None
        The data of the last successful update.
    state_text : str
        Plain text of the state label.

    Explained in :ref:`sec-cf-ramp` (and the other figure sections).

    Examples
    --------
    >>> w = cone2d_widget(f_t=0.0, f_n=1.0)
    >>> w.state_text, w.values()["mu"]
    ('STICK', 0.5)
    """

    def __init__(self, title: str, controls: dict[str, widgets.Widget], compute: Callable[..., dict],
                 describe: Callable[[dict], tuple[str, str, list]], draw: Callable[..., Figure],
                 make_axes: Callable[[Figure], Any], figsize: tuple[float, float]) -> None:
        self.controls = controls
        self._compute = compute
        self._describe = describe
        self._draw = draw
        self._make_axes = make_axes
        self.figure = Figure(figsize=figsize, dpi=72, layout="constrained")
        FigureCanvasAgg(self.figure)
        self._axes: Any = None
        self._background: Any = None
        self._background_key: Any = None
        self.state = widgets.HTML()
        self.readout = widgets.HTML()
        self.image = widgets.Image(format="png")
        self.data: dict | None = None
        self.state_text = ""
        grid = widgets.GridBox(list(controls.values()),
                               layout=widgets.Layout(grid_template_columns="repeat(3, 33%)"))
        side = widgets.VBox([self.state, self.readout], layout=widgets.Layout(min_width="260px"))
        super().__init__([widgets.HTML(f"<b>{html.escape(title)}</b>"), grid,
                          widgets.HBox([self.image, side])])
        for control in controls.values():
            control.observe(self._on_change, names="value")
        self.update()

    def values(self) -> dict[str, Any]:
        """Current control values by name."""
        return {name: control.value for name, control in self.controls.items()}

    def _on_change(self, change: Any) -> None:
        self.update()

    def compute(self) -> dict | None:
        """Run the pure data function and refresh the state label and readout (no picture)."""
        try:
            data = self._compute(**self.values())
        except DynamicsInputError as exc:
            self.state_text = f"not allowed: {exc}"
            self.state.value = _state_html(self.state_text, "error")
            self.readout.value = ""
            self.data = None
            return None
        text, key, rows = self._describe(data)
        self.state_text = text
        self.state.value = _state_html(text, key)
        self.readout.value = _table(rows)
        self.data = data
        return data

    def _flat_axes(self) -> list[Any]:
        return list(np.atleast_1d(np.asarray(self._axes, dtype=object)).ravel())

    def render(self) -> None:
        """Redraw the picture from :attr:`data` with the pure plotting function.

        The axes are created once. Each render removes the previous drawing's
        artists and calls the plotting function on the same axes. The cached
        background holds the axes, ticks, labels, titles, legends and the
        artists marked static (``_static``). When none of them changed
        (the live ``draw_*(..., live=True)`` keep them fixed over the
        controls' ranges), only the other artists are drawn over the cached
        background (blitting), which skips the slow tick and text drawing;
        otherwise the whole figure is drawn and the background cached again.
        The layout is computed on the first render and then frozen. The
        picture is encoded as a fast, unfiltered PNG (``_encode_png``).
        """
        if self.data is None:
            return
        if self._axes is None:
            self._axes = self._make_axes(self.figure)
        else:
            for ax in self._flat_axes():
                for artist in [*ax.lines, *ax.patches, *ax.texts, *ax.collections, *ax.images]:
                    artist.remove()
                ax.relim()
        self._draw(self.data, self._axes)
        canvas = self.figure.canvas
        axes = self._flat_axes()
        dynamic = []
        static = []
        for ax in axes:
            ax.autoscale_view()
            # Legends, titles (fixed in the live figures) and artists marked
            # static belong to the cached background; when one of them
            # changes, the whole figure is drawn again.
            artists = [*ax.collections, *ax.patches, *ax.lines, *ax.texts, *ax.images]
            static.extend(a for a in artists if a.get_gid() == STATIC_GID)
            dynamic.append((ax, [a for a in artists if a.get_gid() != STATIC_GID]))
        key = (tuple((ax.get_xlim(), ax.get_ylim(), ax.get_xlabel(), ax.get_ylabel(),
                      ax.get_xscale(), ax.get_yscale(), ax.title.get_text(), str(ax.title.get_color()),
                      tuple(t.get_text() for t in ax.legend_.get_texts()) if ax.legend_ is not None else ())
                     for ax in axes),
               tuple(_signature(a) for a in static))
        if key != self._background_key:
            for _, artists in dynamic:
                for artist in artists:
                    artist.set_animated(True)
            canvas.draw()
            if self.figure.get_layout_engine() is not None:
                # Freeze the layout found on this first full draw.
                self.figure.set_layout_engine("none")
            self._background = canvas.copy_from_bbox(self.figure.bbox)
            self._background_key = key
        else:
            canvas.restore_region(self._background)
        for ax, artists in dynamic:
            for artist in artists:
                artist.set_animated(True)
                ax.draw_artist(artist)
        self.image.value = _encode_png(np.asarray(canvas.buffer_rgba()))

    def update(self) -> dict | None:
        """The callback: recompute, relabel and redraw. Returns the data."""
        data = self.compute()
        self.render()
        return data


def _slider(value: float, low: float, high: float, step: float, description: str, fmt: str = ".2f",
            continuous: bool = True) -> widgets.FloatSlider:
    return widgets.FloatSlider(value=value, min=low, max=high, step=step, description=description,
                               readout_format=fmt, continuous_update=continuous,
                               style={"description_width": "initial"})


# ----------------------------------------------------------------------------
# FIG 1: block on a ramp
# ----------------------------------------------------------------------------

def ramp_data(alpha_deg: float = 20.0, mu_s: float = 0.6, mu_k: float = 0.5, mass: float = 1.0,
              push: float = 0.0, beta_deg: float = 0.0, g: float = friction.STANDARD_GRAVITY) -> dict:
    """Data of the ramp figure: the state of :func:`lib.friction.ramp_state` and arrow geometry.

    ``push`` is in units of the weight ``m g``; angles are in degrees. Arrow
    vectors are in units of ``m g`` in the world frame (x right, y up).
    Explained in :ref:`sec-cf-ramp`.

    Examples
    --------
    >>> d = ramp_data(alpha_deg=30.0, mu_s=0.8, mu_k=0.6)
    >>> d["state"], round(d["critical_angle_deg"], 2)
    ('stick', 38.66)
    """
    weight = mass * g
    result = friction.ramp_state(math.radians(alpha_deg), mu_s, mu_k, mass, push * weight,
                                 math.radians(beta_deg), g)
    a = math.radians(alpha_deg)
    b = math.radians(beta_deg)
    tangent = np.array([math.cos(a), math.sin(a)])
    normal = np.array([-math.sin(a), math.cos(a)])
    contact = 1.7 * tangent
    center = contact + 0.3 * normal
    n_mg = result.normal_force / weight
    f_mg = result.friction / weight
    return {
        "alpha_deg": float(alpha_deg), "mu_s": float(mu_s), "mu_k": float(mu_k), "mass": float(mass),
        "push": float(push), "beta_deg": float(beta_deg), "g": float(g),
        "state": result.state, "direction": result.direction,
        "normal_force": result.normal_force, "friction": result.friction, "demand": result.demand,
        "capacity": result.capacity, "acceleration": result.acceleration,
        "critical_angle_deg": math.degrees(result.critical_angle),
        "tangent": tangent, "normal": normal, "contact_point": contact, "center": center,
        "arrows": {
            "gravity": np.array([0.0, -1.0]),
            "normal": n_mg * normal,
            "friction": f_mg * tangent,
            "contact": n_mg * normal + f_mg * tangent,
            "push": push * (math.cos(b) * tangent + math.sin(b) * normal),
        },
    }


def ramp_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the ramp figure.

    Explained in :ref:`sec-cf-ramp`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> ramp_describe(ramp_data(alpha_deg=45.0))[0]
    'SLIP (down the slope)'
    """
    state = data["state"]
    text = {"stick": "STICK", "lift-off": "LIFT-OFF"}.get(state, f"SLIP ({data['direction']} the slope)")
    rows = [
        ("critical angle arctan(mu_s)", f"{data['critical_angle_deg']:.1f} deg"),
        ("tilt alpha", f"{data['alpha_deg']:.1f} deg"),
        ("normal force f_n", f"{data['normal_force']:.2f} N"),
        ("friction needed to hold", f"{data['demand']:.2f} N"),
        ("static ceiling mu_s f_n", f"{data['capacity']:.2f} N"),
        ("friction supplied", f"{data['friction']:.2f} N"),
        ("acceleration up the slope", f"{data['acceleration']:.2f} m/s^2"),
    ]
    return text, state, rows


def draw_ramp(data: dict, ax: Any = None, *, live: bool = False) -> Figure:
    """Draw the block on the ramp with its forces and friction cone.

    Arrows are in units of ``m g``; ``ax`` is one matplotlib axes (a new
    pyplot-free figure when omitted). ``live=True`` (the interactive
    figure) gives a title that does not change with the controls (the state
    label beside the picture names the state), so the title stays in the
    cached background.
    Explained in :ref:`sec-cf-ramp`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding ``ax``.

    Examples
    --------
    >>> len(draw_ramp(ramp_data()).axes)
    1
    """
    fig, ax = _new_axes(ax, (5.2, 4.2))
    a = math.radians(data["alpha_deg"])
    tangent, normal = data["tangent"], data["normal"]
    length = 3.4
    top = length * tangent
    _fill(ax, [0, top[0], top[0]], [0, 0, top[1]], COLORS["ground"], alpha=0.25)
    _line(ax, [0, top[0]], [0, top[1]], color=COLORS["ground"], lw=2)
    _line(ax, [-0.2, top[0] + 0.2], [0, 0], color="#999999", lw=1)
    gamma = math.atan(data["mu_s"])
    fan = _fan(data["contact_point"], a + math.pi / 2, gamma, 1.25)
    _fill(ax, fan[:, 0], fan[:, 1], COLORS["cone"], alpha=0.22, zorder=1)
    for side in (-1, 1):
        edge = data["contact_point"] + 1.25 * np.array([math.cos(a + math.pi / 2 + side * gamma),
                                                        math.sin(a + math.pi / 2 + side * gamma)])
        _line(ax, *zip(data["contact_point"], edge), color=COLORS["cone"], ls="--", lw=1, zorder=1)
    corner = data["contact_point"] - 0.3 * tangent
    square = np.array([corner, corner + 0.6 * tangent, corner + 0.6 * tangent + 0.6 * normal,
                       corner + 0.6 * normal, corner])
    if data["state"] == "lift-off":
        square = square + 0.12 * normal
    _fill(ax, square[:, 0], square[:, 1], "#dddddd", ec="#555555", lw=1.2, zorder=2)
    arrows = data["arrows"]
    _arrow(ax, data["center"], arrows["gravity"], COLORS["gravity"], label="$mg$")
    _arrow(ax, data["contact_point"], arrows["normal"], COLORS["normal"], label="$f_n$")
    _arrow(ax, data["contact_point"], arrows["friction"], COLORS["friction"], label="$f_t$")
    _arrow(ax, data["contact_point"], arrows["contact"], COLORS["contact"], width=2.6, label="$f$")
    _arrow(ax, data["center"], arrows["push"], COLORS["push"], label="$F$")
    if live:
        ax.set_title("forces in units of mg; cyan: friction cone", fontsize=10)
    else:
        text, key, _ = ramp_describe(data)
        ax.set_title(rf"$\alpha$ = {data['alpha_deg']:.0f} deg, $\mu_s$ = {data['mu_s']:.2f}: {text}",
                     color=STATE_COLORS.get(key, "k"), fontsize=10)
    ax.set_aspect("equal")
    ax.set_xlim(-0.6, 3.8)
    ax.set_ylim(-1.2, 3.2)
    ax.set_xticks([])
    ax.set_yticks([])
    return fig


def ramp_widget(**initial: float) -> InteractiveFigure:
    """FIG 1: tilt, friction, mass and push sliders over :func:`ramp_data`.

    Keyword arguments set initial control values.
    Explained in :ref:`sec-cf-ramp`.

    Returns
    -------
    InteractiveFigure
        The widget; ``controls``, ``state``, ``readout`` and ``update``.

    Examples
    --------
    >>> w = ramp_widget(mu_s=0.8, mu_k=0.6)
    >>> w.controls["alpha_deg"].value = 40.0
    >>> w.state_text
    'SLIP (down the slope)'
    """
    values = {"alpha_deg": 20.0, "mu_s": 0.6, "mu_k": 0.5, "mass": 1.0, "push": 0.0, "beta_deg": 0.0}
    values.update(initial)
    controls = {
        "alpha_deg": _slider(values["alpha_deg"], 0.0, 85.0, 0.5, "tilt alpha (deg)", ".1f"),
        "mu_s": _slider(values["mu_s"], 0.0, 1.5, 0.01, "mu_s"),
        "mu_k": _slider(values["mu_k"], 0.0, 1.5, 0.01, "mu_k"),
        "mass": _slider(values["mass"], 0.1, 10.0, 0.1, "mass (kg)", ".1f"),
        "push": _slider(values["push"], 0.0, 2.0, 0.01, "push F (x mg)"),
        "beta_deg": _slider(values["beta_deg"], -90.0, 90.0, 1.0, "push angle beta (deg)", ".0f"),
    }
    return InteractiveFigure("Block on a ramp: stick, slip, lift-off", controls, ramp_data,
                             ramp_describe, functools.partial(draw_ramp, live=True), lambda fig: fig.subplots(),
                             (5.2, 4.2))


# ----------------------------------------------------------------------------
# FIG 2: the 2D friction cone
# ----------------------------------------------------------------------------

def cone2d_data(f_t: float = 1.0, f_n: float = 3.0, mu: float = 0.5) -> dict:
    """Data of the 2D cone figure: :func:`lib.friction.cone_state` of a demanded force.

    Explained in :ref:`sec-cf-cone2d`.

    Examples
    --------
    >>> d = cone2d_data(3.0, 4.0, 0.5)
    >>> d["state"], d["supplied"], d["remainder"]
    ('slip', (2.0, 4.0), (1.0, 0.0))
    """
    result = friction.cone_state(f_t, f_n, mu)
    return {
        "f_t": float(f_t), "f_n": float(f_n), "mu": float(mu), "state": result.state,
        "demand": result.demand, "supplied": result.supplied, "remainder": result.remainder,
        "angle_deg": math.degrees(result.angle), "friction_angle_deg": math.degrees(result.friction_angle),
    }


def cone2d_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the 2D cone figure.

    Explained in :ref:`sec-cf-cone2d`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> cone2d_describe(cone2d_data(1.0, -1.0, 0.5))[0]
    'SEPARATE'
    """
    rows = [
        ("friction angle arctan(mu)", f"{data['friction_angle_deg']:.1f} deg"),
        ("angle of demand from normal", f"{data['angle_deg']:.1f} deg"),
        ("|f_t| / f_n", f"{abs(data['f_t']) / data['f_n']:.2f}" if data["f_n"] > 0 else "-"),
        ("supplied (f_t, f_n)", f"({data['supplied'][0]:.2f}, {data['supplied'][1]:.2f}) N"),
        ("unbalanced remainder", f"({data['remainder'][0]:.2f}, {data['remainder'][1]:.2f}) N"),
    ]
    return data["state"].upper(), data["state"], rows


def draw_cone2d(data: dict, ax: Any = None, *, live: bool = False) -> Figure:
    """Draw the planar friction cone, the demanded force and the surface's answer.

    ``live=True`` (the interactive figure) gives a title that does not
    change with the controls (the state label beside the picture names the
    state), so the title stays in the cached background.

    Explained in :ref:`sec-cf-cone2d`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding ``ax``.

    Examples
    --------
    >>> draw_cone2d(cone2d_data(3.0, 4.0, 0.5)).axes[0].get_xlabel()
    '$f_t$ (N)'
    """
    fig, ax = _new_axes(ax, (4.6, 4.2))
    gamma = math.atan(data["mu"])
    reach = 5.0
    _static(ax.fill_between([-reach, reach], [-reach, -reach], [0, 0], color=COLORS["friction"], alpha=0.08, lw=0),
            ax.text(-reach + 0.2, -2.3, "surface would have to pull", color=COLORS["friction"], ha="left",
                    va="bottom", fontsize=8),
            _line(ax, [-reach, reach], [0, 0], color=COLORS["ground"], lw=2))
    fan = _fan((0.0, 0.0), math.pi / 2, gamma, 6.0)
    _fill(ax, fan[:, 0], fan[:, 1], COLORS["cone"], alpha=0.22)
    for side in (-1, 1):
        _line(ax, [0, 6 * math.sin(side * gamma)], [0, 6 * math.cos(gamma)], color=COLORS["cone"], ls="--", lw=1)
    arc = np.linspace(math.pi / 2 - gamma, math.pi / 2, 20)
    _line(ax, 1.2 * np.cos(arc), 1.2 * np.sin(arc), color=COLORS["cone"], lw=1)
    # The angle's value outside the cone, right of its edge (clear of the arrows).
    ax.text(-reach + 0.2, reach - 0.3, f"half-angle {math.degrees(gamma):.0f} deg", color="#0e7c86",
            fontsize=8, ha="left", va="top")
    f_t, f_n = data["f_t"], data["f_n"]
    _line(ax, [f_t, f_t], [0, f_n], color=COLORS["normal"], ls=":", lw=1)
    _line(ax, [0, f_t], [f_n, f_n], color=COLORS["friction"], ls=":", lw=1)
    _arrow(ax, (0, 0), (f_t, f_n), COLORS["push"], width=2.6)
    _label_beside(ax, (0, 0), (f_t, f_n), "$f$", COLORS["push"], side=-1.0)
    if data["state"] == "slip":
        _arrow(ax, (0, 0), data["supplied"], COLORS["supplied"], width=2.2)
        _label_beside(ax, (0, 0), data["supplied"], "supplied", COLORS["supplied"], side=1.0)
        _arrow(ax, data["supplied"], data["remainder"], COLORS["friction"], width=2.2)
    if live:
        ax.set_title("demanded force f and the friction cone", fontsize=10)
    else:
        ax.set_title(rf"$\mu$ = {data['mu']:.2f}, $f$ = ({f_t:.1f}, {f_n:.1f}) N: {data['state'].upper()}",
                     color=STATE_COLORS.get(data["state"], "k"), fontsize=10)
    ax.set_xlim(-reach, reach)
    ax.set_ylim(-2.5, reach)
    ax.set_aspect("equal")
    ax.set_xlabel("$f_t$ (N)")
    ax.set_ylabel("$f_n$ (N)")
    return fig


def cone2d_widget(**initial: float) -> InteractiveFigure:
    """FIG 2: demanded force and friction coefficient sliders over :func:`cone2d_data`.

    Explained in :ref:`sec-cf-cone2d`.

    Returns
    -------
    InteractiveFigure
        The widget.

    Examples
    --------
    >>> w = cone2d_widget()
    >>> w.controls["f_t"].value = 3.0
    >>> w.state_text
    'SLIP'
    """
    values = {"f_t": 1.0, "f_n": 3.0, "mu": 0.5}
    values.update(initial)
    controls = {
        "f_t": _slider(values["f_t"], -4.5, 4.5, 0.05, "f_t (N)"),
        "f_n": _slider(values["f_n"], -2.0, 4.5, 0.05, "f_n (N)"),
        "mu": _slider(values["mu"], 0.0, 2.0, 0.01, "mu"),
    }
    return InteractiveFigure("The planar friction cone: stick, slip, separate", controls, cone2d_data,
                             cone2d_describe, functools.partial(draw_cone2d, live=True), lambda fig: fig.subplots(),
                             (4.6, 4.2))


# ----------------------------------------------------------------------------
# FIG 3: the 3D cone and its k-edge pyramids
# ----------------------------------------------------------------------------

def pyramid_data(k: int = 4, mu: float = 0.8, phi_deg: float = 45.0, azimuth_deg: float = 30.0,
                 n_directions: int = 7200) -> dict:
    """Data of the pyramid figure: capacities along ``phi`` and worst errors.

    Cross-section polygons are at ``f_n = 1``. The sampled errors use
    :func:`lib.friction.pyramid_sampled_errors` over ``n_directions``.
    Explained in :ref:`sec-cf-pyramid`.

    Examples
    --------
    >>> d = pyramid_data(k=4, mu=1.0, phi_deg=45.0)
    >>> round(d["outer"], 4), round(d["inner"], 4), round(d["over_closed"], 4)
    (1.4142, 0.7071, 0.4142)
    """
    k = int(k)
    phi = math.radians(phi_deg)
    cone, inner, outer = friction.pyramid_capacity(phi, mu, k)
    under, over = friction.pyramid_worst_errors(k)
    under_s, over_s = friction.pyramid_sampled_errors(k, n_directions)
    theta = 2.0 * np.pi * np.arange(k) / k
    circle = np.linspace(0.0, 2.0 * np.pi, 121)
    return {
        "k": k, "mu": float(mu), "phi_deg": float(phi_deg), "azimuth_deg": float(azimuth_deg),
        "cone": float(cone), "inner": float(inner), "outer": float(outer),
        "under_closed": under, "over_closed": over, "under_sampled": under_s, "over_sampled": over_s,
        "n_directions": int(n_directions),
        "circle": mu * np.column_stack([np.cos(circle), np.sin(circle)]),
        "inscribed": mu * np.column_stack([np.cos(theta), np.sin(theta)]),
        "circumscribed": mu / math.cos(math.pi / k) * np.column_stack([np.cos(theta + math.pi / k),
                                                                      np.sin(theta + math.pi / k)]),
    }


def pyramid_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the pyramid figure.

    Explained in :ref:`sec-cf-pyramid`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> pyramid_describe(pyramid_data(k=4))[0]
    'n_d = 4: worst error 41.4 %'
    """
    rows = [
        ("capacity along phi: cone", f"{data['cone']:.3f} f_n"),
        ("inscribed / circumscribed", f"{data['inner']:.3f} / {data['outer']:.3f} f_n"),
        ("worst underestimate 1 - cos(pi/n_d)", f"{100 * data['under_closed']:.2f} %"),
        ("worst overestimate 1/cos(pi/n_d) - 1", f"{100 * data['over_closed']:.2f} %"),
        (f"sampled over {data['n_directions']} directions",
         f"{100 * data['under_sampled']:.2f} % / {100 * data['over_sampled']:.2f} %"),
    ]
    worst = max(data["under_closed"], data["over_closed"])
    return f"n_d = {data['k']}: worst error {100 * worst:.1f} %", "stable" if worst < 0.05 else "slip", rows


def _project(points: np.ndarray, azimuth: float, elevation: float = math.radians(25.0)) -> np.ndarray:
    """Oblique view of 3D points ``(x, y, z)``: rotate about z, tilt toward the viewer."""
    c, s = math.cos(azimuth), math.sin(azimuth)
    x = c * points[:, 0] - s * points[:, 1]
    y = s * points[:, 0] + c * points[:, 1]
    return np.column_stack([x, points[:, 2] * math.cos(elevation) + y * math.sin(elevation)])


def draw_pyramid(data: dict, ax: Any = None, *, live: bool = False) -> Figure:
    """Draw the cone with both pyramids in 3D (left) and their cross-section (right).

    ``ax`` is a pair of axes. ``live=True`` (the interactive figure) sizes
    both views for the widest pyramid of the ``k`` slider (``k = 3``),
    so that their limits depend on ``mu`` alone and stay put while ``k``,
    ``phi`` and the view change, and gives titles that do not change with
    the controls (the readout gives ``k`` and the errors).
    Explained in :ref:`sec-cf-pyramid`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Examples
    --------
    >>> len(draw_pyramid(pyramid_data(k=6)).axes)
    2
    """
    fig, axes = _new_axes(ax, (8.4, 4.0), ncols=2)
    ax3, ax2 = axes
    az = math.radians(data["azimuth_deg"])
    mu = data["mu"]

    def lift(xy: np.ndarray) -> np.ndarray:
        return np.column_stack([xy, np.ones(len(xy))])

    rim = _project(lift(data["circle"]), az)
    _fill(ax3, rim[:, 0], rim[:, 1], COLORS["cone"], alpha=0.18)
    _line(ax3, rim[:, 0], rim[:, 1], color=COLORS["cone"], lw=1.5)
    left, right = int(np.argmin(rim[:, 0])), int(np.argmax(rim[:, 0]))
    for i in (left, right):
        _line(ax3, [0, rim[i, 0]], [0, rim[i, 1]], color=COLORS["cone"], lw=1.2)
    for key in ("inscribed", "circumscribed"):
        top = _project(lift(np.vstack([data[key], data[key][:1]])), az)
        _line(ax3, top[:, 0], top[:, 1], color=COLORS[key], lw=1.4)
        # All edges from the apex as one line broken by NaNs (one artist to draw).
        edges = np.full((3 * (len(top) - 1), 2), np.nan)
        edges[0::3] = 0.0
        edges[1::3] = top[:-1]
        _line(ax3, edges[:, 0], edges[:, 1], color=COLORS[key], lw=0.8, alpha=0.8)
    axis = _project(np.array([[0, 0, 0], [0, 0, 1.45]]), az)
    _arrow(ax3, axis[0], axis[1] - axis[0], COLORS["normal"], label=r"$\hat n$")
    phi = math.radians(data["phi_deg"])
    ray = _project(np.array([[0, 0, 1], [1.6 * mu * math.cos(phi), 1.6 * mu * math.sin(phi), 1]]), az)
    _line(ax3, ray[:, 0], ray[:, 1], color="#333333", ls="--", lw=1)
    # Live: sized for the widest pyramid of the k slider (k = 3, radius 2 mu).
    reach = _nice_ceil(1.1 * (2.0 * mu if live else float(np.max(np.abs(data["circumscribed"])))))
    ax3.set_xlim(-1.1 * reach, 1.1 * reach)
    ax3.set_ylim(-0.7 * reach, 1.0 + 0.7 * reach)
    ax3.set_aspect("equal")
    ax3.axis("off")
    ax3.set_title("3D cone and pyramids" if live else f"3D cone and n_d = {data['k']} pyramids", fontsize=10)

    _fill(ax2, data["circle"][:, 0], data["circle"][:, 1], COLORS["cone"], alpha=0.18)
    _line(ax2, data["circle"][:, 0], data["circle"][:, 1], color=COLORS["cone"], lw=1.5, label="round cone")
    for key, label in (("inscribed", "inscribed"), ("circumscribed", "circumscribed")):
        closed = np.vstack([data[key], data[key][:1]])
        _line(ax2, closed[:, 0], closed[:, 1], color=COLORS[key], lw=1.6, label=label)
    direction = np.array([math.cos(phi), math.sin(phi)])
    _line(ax2, [0, 1.6 * mu * direction[0]], [0, 1.6 * mu * direction[1]], color="#333333", ls="--", lw=1)
    for value, key in ((data["cone"], "cone"), (data["inner"], "inscribed"), (data["outer"], "circumscribed")):
        point = value * direction
        _line(ax2, point[0], point[1], marker="o", ls="none", color=COLORS[key], ms=6, mec="k", mew=0.5, zorder=5)
    if live:
        # The circumscribed triangle (k = 3) reaches mu / cos(60 deg) = 2 mu.
        lim = _nice_ceil(1.15 * 2.0 * mu)
    else:
        lim = _nice_ceil(1.15 * max(data["outer"], float(np.max(np.abs(data["circumscribed"])))))
    ax2.set_xlim(-lim, lim)
    ax2.set_ylim(-lim, lim)
    ax2.set_aspect("equal")
    ax2.set_xlabel("$f_x / f_n$")
    ax2.set_ylabel("$f_y / f_n$")
    _legend(ax2, loc="lower left", fontsize=7, framealpha=0.8)
    if live:
        ax2.set_title("cross-section $f_n = 1$", fontsize=10)
    else:
        ax2.set_title(f"cross-section $f_n = 1$: errors -{100 * data['under_closed']:.1f} % / "
                      f"+{100 * data['over_closed']:.1f} %", fontsize=10)
    return fig


def pyramid_widget(**initial: float) -> InteractiveFigure:
    """FIG 3: edges ``k``, ``mu``, direction and view sliders over :func:`pyramid_data`.

    Explained in :ref:`sec-cf-pyramid`.

    Returns
    -------
    InteractiveFigure
        The widget.

    Examples
    --------
    >>> w = pyramid_widget()
    >>> w.controls["k"].value = 16
    >>> w.state_text
    'n_d = 16: worst error 2.0 %'
    """
    values = {"k": 4, "mu": 0.8, "phi_deg": 45.0, "azimuth_deg": 30.0}
    values.update(initial)
    controls = {
        "k": widgets.IntSlider(value=int(values["k"]), min=3, max=32, description="edges n_d",
                               style={"description_width": "initial"}),
        "mu": _slider(values["mu"], 0.1, 1.5, 0.01, "mu"),
        "phi_deg": _slider(values["phi_deg"], 0.0, 360.0, 0.5, "direction phi (deg)", ".1f"),
        "azimuth_deg": _slider(values["azimuth_deg"], 0.0, 360.0, 1.0, "view azimuth (deg)", ".0f"),
    }
    return InteractiveFigure("The 3D friction cone and its pyramids with n_d edges", controls, pyramid_data,
                             pyramid_describe, functools.partial(draw_pyramid, live=True),
                             lambda fig: fig.subplots(1, 2), (8.4, 4.0))


# ----------------------------------------------------------------------------
# FIG 4: ball drop, penalty versus impulse
# ----------------------------------------------------------------------------

def _downsample(n: int, limit: int = 800) -> np.ndarray:
    return np.arange(0, n, max(1, int(math.ceil(n / limit))))


def ball_drop_data(model: str = "penalty", k: float = 1e4, dt: float = 1e-3, zeta: float = 0.1,
                   e: float = 0.8, mass: float = 1.0, h0: float = 1.0,
                   g: float = friction.STANDARD_GRAVITY) -> dict:
    """Data of the ball-drop figure: one simulation and the closed forms it is checked against.

    ``model`` is ``"penalty"`` (:func:`lib.models.ball_drop.simulate_penalty_drop`,
    2.5 s) or ``"impulse"`` (:func:`lib.models.ball_drop.simulate_impulse_drop`,
    run until a little after the predicted rest time, at most 20 s).
    Explained in :ref:`sec-cf-nonsmooth`.

    Examples
    --------
    >>> d = ball_drop_data("impulse", e=0.5, dt=1e-3)
    >>> round(d["rest_predicted"], 3), round(d["rest_simulated"], 3)
    (1.355, 1.351)
    """
    one_of(model, "model", ("penalty", "impulse"))
    k, dt, mass, h0 = (positive(x, name) for x, name in ((k, "k"), (dt, "dt"), (mass, "mass"), (h0, "h0")))
    zeta, e = nonnegative(zeta, "zeta"), in_range(e, "e", 0.0, 1.0)
    v0 = ball_drop.impact_speed(h0, g)
    out: dict[str, Any] = {"model": model, "k": float(k), "dt": float(dt), "zeta": float(zeta), "e": float(e),
                           "mass": float(mass), "h0": float(h0), "v0": v0}
    if model == "penalty":
        result = ball_drop.simulate_penalty_drop(k, dt, zeta, mass, h0, 2.5, g)
        omega = contact_sim.natural_frequency(k, mass)
        sag = mass * g / k
        out.update({
            "omega": omega, "omega_dt": omega * dt, "critical_omega_dt": contact_sim.critical_omega_dt(zeta),
            "amplification": contact_sim.step_amplification(omega * dt, zeta),
            "penetration_predicted": contact_sim.max_penetration(v0, k, mass, zeta) + sag,
            "restitution_predicted": contact_sim.effective_restitution_no_tension(zeta),
            "restitution_tension": contact_sim.effective_restitution(zeta),
            "stable_step": contact_sim.stable_time_step(k, mass, zeta),
            # Plot scales that depend on k only (the undamped bound), so the
            # axes of the live figure stay put while dt and zeta change.
            "depth_scale": v0 / omega + 2.0 * sag,
            "force_scale": k * (v0 / omega + 2.0 * sag),
        })
    else:  # "impulse" (checked by one_of above)
        predicted = ball_drop.impulse_rest_time(h0, e, g) if e < 1.0 else math.inf
        t_end = min(max(2.5, 1.1 * predicted + 0.3), 20.0)
        result = ball_drop.simulate_impulse_drop(e, dt, mass, h0, t_end, g)
        out.update({"rest_predicted": predicted, "rest_simulated": result.rest_time, "t_end": t_end,
                    "depth_scale": 1e-3, "force_scale": 2.0 * mass * v0 / dt + mass * g})
    keep = _downsample(len(result.t))
    keep_f = _downsample(len(result.force))
    out.update({
        "steps": len(result.force), "max_penetration": result.max_penetration, "max_rebound": result.max_rebound,
        "gained_energy": result.gained_energy, "diverged": result.diverged,
        "restitution_measured": result.restitution, "bounces": result.bounces,
        "t": result.t[keep], "height": result.height[keep],
        "gap": result.gap[keep_f], "force": result.force[keep_f],
    })
    if model == "penalty":
        if out["omega_dt"] >= out["critical_omega_dt"] or result.diverged:
            out["status"] = "unstable"
        elif result.gained_energy:
            out["status"] = "energy gain"
        else:
            out["status"] = "stable"
    else:
        out["status"] = "rest" if math.isfinite(result.rest_time) else "bouncing"
    return out


def ball_drop_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the ball-drop figure.

    Explained in :ref:`sec-cf-nonsmooth`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> ball_drop_describe(ball_drop_data("impulse", e=0.5))[0]
    'IMPULSE: at rest'
    """
    status = data["status"]
    if data["model"] == "penalty":
        labels = {"stable": "PENALTY: stable", "energy gain": "PENALTY: energy gained (rose above start)",
                  "unstable": "PENALTY: BLOWN UP (omega_n dt past the limit)"}
        rows = [
            ("omega_n = sqrt(k/m)", f"{data['omega']:.1f} rad/s"),
            ("omega_n dt", f"{data['omega_dt']:.3f}"),
            ("stability limit of omega_n dt", f"{data['critical_omega_dt']:.3f}"),
            ("growth per step in contact", f"{data['amplification']:.3f}"),
            ("max penetration: sim / damped peak + sag", f"{1e3 * data['max_penetration']:.2f} / "
                                                     f"{1e3 * data['penetration_predicted']:.2f} mm"),
            ("restitution: sim / closed form", f"{data['restitution_measured']:.3f} / "
                                               f"{data['restitution_predicted']:.3f}"),
            ("highest rebound", f"{data['max_rebound']:.3f} m"),
            ("steps", f"{data['steps']}"),
        ]
        return labels[status], status, rows
    rest_sim = data["rest_simulated"]
    rows = [
        ("restitution e", f"{data['e']:.2f}"),
        ("predicted rest time t0 (1+e)/(1-e)", f"{data['rest_predicted']:.3f} s"),
        ("simulated rest time", f"{rest_sim:.3f} s" if math.isfinite(rest_sim) else "still bouncing"),
        ("bounces resolved", f"{data['bounces']}"),
        ("steps", f"{data['steps']}"),
    ]
    text = "IMPULSE: at rest" if status == "rest" else "IMPULSE: still bouncing"
    return text, status, rows


def draw_ball_drop(data: dict, ax: Any = None, *, live: bool = False) -> Figure:
    """Draw height, penetration and the complementarity plot of a ball drop.

    ``ax`` is a triple ``(height_ax, penetration_ax, complementarity_ax)``.
    ``live=True`` (the interactive figure) draws on axes whose limits do not
    depend on the sliders: penetration and gap in units of the depth bound
    ``depth_scale`` (penalty), the contact force in units of ``force_scale``,
    and the impulse model's time in units of the predicted rest time (the
    readout gives the physical values), and a title that names the model
    only (the state label beside the picture names the state).
    Explained in :ref:`sec-cf-nonsmooth`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Examples
    --------
    >>> len(draw_ball_drop(ball_drop_data("penalty")).axes)
    3
    >>> ax = draw_ball_drop(ball_drop_data("impulse", e=0.3), live=True).axes[1]
    >>> [float(x) for x in ax.get_xlim()], ax.get_xlabel()
    ([0.0, 1.1], 'time / predicted rest time')
    """
    if ax is None:
        fig = Figure(figsize=(9.0, 4.2), layout="constrained")
        grid = fig.add_gridspec(2, 2, width_ratios=[1.5, 1.0])
        ax = (fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[:, 1]))
    ax_h, ax_d, ax_c = ax
    fig = ax_h.figure
    penalty = data["model"] == "penalty"
    color = COLORS[data["model"]]
    t, height = data["t"], data["height"]
    if live and not penalty:
        t = t / data["rest_predicted"]
        t_label, t_max = "time / predicted rest time", 1.1
    elif live:
        t_label, t_max = "time (s)", 2.5
    else:
        t_label, t_max = "time (s)", _nice_ceil(float(t[-1]))
    top = max(1.3 * data["h0"], 0.2)
    _line(ax_h, t, np.clip(height, -top, top), color=color, lw=1.2)
    _static(ax_h.axhline(data["h0"], color="#999999", ls=":", lw=1), ax_h.axhline(0.0, color=COLORS["ground"], lw=1))
    ax_h.set_ylim(-0.05 * top, top)
    ax_h.set_ylabel("height (m)")
    if live:
        ax_h.set_title(f"{data['model']} contact", fontsize=10)
    else:
        text, key, _ = ball_drop_describe(data)
        ax_h.set_title(text, color=STATE_COLORS.get(key, "k"), fontsize=10)
    depth = np.maximum(-height, 0.0)
    if live and penalty:
        # Penetration in units of the undamped bound v0/omega + 2 mg/k.
        _line(ax_d, t, np.clip(depth / data["depth_scale"], 0.0, 2.0), color=color, lw=1.0)
        ax_d.set_ylabel("depth / bound")
        ax_d.set_ylim(0.0, 1.25)
    else:
        _line(ax_d, t, np.clip(1e3 * depth, 0, 200), color=color, lw=1.0)
        ax_d.set_ylabel("penetration (mm)")
        ax_d.set_ylim(0.0, 1.25 if live else _nice_ceil(min(1.1e3 * data["depth_scale"], 200.0)))
    ax_d.set_xlabel(t_label)
    if not penalty:
        _static(ax_d.text(0.5, 0.5, "rigid floor: no penetration", transform=ax_d.transAxes, ha="center",
                  va="center", color="#777777", fontsize=9))
    ax_h.set_xlim(0.0, t_max)
    ax_d.set_xlim(0.0, t_max)
    gap_mm = 1e3 * data["gap"]
    force = data["force"]
    # The bound of the contact force (penalty: k times the undamped depth;
    # impulse: the largest impulse over one step); huge forces of a blown-up
    # run fall outside.
    if live:
        # Force in units of force_scale; penalty gap in units of depth_scale
        # (force_scale = k depth_scale, so the penalty line is the diagonal).
        f_unit, f_top = data["force_scale"], 1.25
        gap_unit = 1e3 * data["depth_scale"] if penalty else 1.0
        low, high = (-1.25, 0.2) if penalty else (-2.0, 10.0)
        f_label = "force / bound"
        gap_label = "gap / depth bound" if penalty else r"gap $\phi$ (mm)"
    else:
        # The static picture holds every step: the force axis reaches the
        # largest force, and the gap axis is linear over the contact region
        # and logarithmic beyond it, up to the release height.
        f_unit = 1.0
        f_top = _nice_ceil(max(60.0, 1.1 * data["force_scale"], 1.05 * float(np.max(force[np.isfinite(force)], initial=0.0))))
        gap_unit = 1.0
        finite_gap = gap_mm[np.isfinite(gap_mm)]
        deepest = max(-float(np.min(finite_gap, initial=0.0)), 0.0)
        low = -_nice_ceil(max(1.2e3 * data["depth_scale"], 1.1 * deepest, 2.0)) if penalty else -10.0
        high = _nice_ceil(max(1.05 * float(np.max(finite_gap, initial=0.0)), 10.0))
        f_label, gap_label = r"normal force $f_n$ (N)", r"gap $\phi$ (mm)"
    gap = gap_mm / gap_unit
    force = force / f_unit
    _static(_line(ax_c, [high, 0.0, 0.0], [0.0, 0.0, f_top], color=COLORS["rigid"], lw=3, alpha=0.6,
                      label=r"rigid: $0\leq f_n\perp\phi\geq0$"))
    if penalty:
        depth_line = np.linspace(0.0, f_top * f_unit / data["k"], 2)
        # Live: the diagonal for every k (the key rounds away the last bits).
        _static(_line(ax_c, -1e3 * depth_line / gap_unit, data["k"] * depth_line / f_unit, color=COLORS["penalty"],
                          ls="--", lw=1.2, label=r"penalty: $f_n = k\delta$"))
    shown = (gap > low) & (gap < high) & (force <= f_top)
    _line(ax_c, gap[shown], force[shown], marker=".", ls="none", color=color, ms=4, alpha=0.7, zorder=5,
          label="simulation steps")
    if not live:
        ax_c.set_xscale("symlog", linthresh=-low, linscale=2.0)
        decades = [10.0**p for p in range(1, int(math.floor(math.log10(high))) + 1)
                   if 10.0**p >= -0.5 * low]
        ticks = [low, 0.5 * low, 0.0] + decades
        ax_c.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax_c.xaxis.set_minor_locator(NullLocator())
    ax_c.set_xlim(low, high)
    ax_c.set_ylim(-0.03 * f_top, f_top)
    ax_c.set_xlabel(gap_label)
    ax_c.set_ylabel(f_label)
    _legend(ax_c, loc="upper right", fontsize=7)
    ax_c.set_title("complementarity", fontsize=10)
    return fig


def ball_drop_widget(**initial: Any) -> InteractiveFigure:
    """FIG 4: model, stiffness, step, damping and restitution controls over :func:`ball_drop_data`.

    Sliders update when released (each update runs a full simulation).
    Explained in :ref:`sec-cf-nonsmooth`.

    Returns
    -------
    InteractiveFigure
        The widget.

    Examples
    --------
    >>> w = ball_drop_widget()
    >>> w.controls["dt"].value = 0.025
    >>> w.state_text
    'PENALTY: BLOWN UP (omega_n dt past the limit)'
    """
    values = {"model": "penalty", "k": 1e4, "dt": 1e-3, "zeta": 0.1, "e": 0.8}
    values.update(initial)
    style = {"description_width": "initial"}
    controls = {
        "model": widgets.ToggleButtons(options=["penalty", "impulse"], value=values["model"], description="model",
                                       style=style),
        "k": widgets.FloatLogSlider(value=values["k"], base=10, min=3, max=7, step=0.05, description="k (N/m)",
                                    continuous_update=False, style=style, readout_format=".2e"),
        "dt": widgets.FloatLogSlider(value=values["dt"], base=10, min=-4, max=-1.5, step=0.02, description="dt (s)",
                                     continuous_update=False, style=style, readout_format=".2e"),
        "zeta": _slider(values["zeta"], 0.0, 0.9, 0.01, "damping zeta", continuous=False),
        "e": _slider(values["e"], 0.0, 0.95, 0.01, "restitution e", continuous=False),
    }
    return InteractiveFigure("A ball dropped from 1 m: penalty versus impulse contact", controls,
                             ball_drop_data, ball_drop_describe, functools.partial(draw_ball_drop, live=True),
                             _ball_axes, (9.0, 4.2))


def _ball_axes(fig: Figure) -> tuple[Any, Any, Any]:
    grid = fig.add_gridspec(2, 2, width_ratios=[1.5, 1.0])
    return fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[:, 1])


# ----------------------------------------------------------------------------
# FIG 5: fingertip on a table
# ----------------------------------------------------------------------------

def fingertip_data(x_tip: float = 0.3, elbow: str = "up", mu: float = 0.6, tau_max: float = 1.0,
                   f_t: float = 0.5, f_n: float = 2.0, l1: float = 0.5, l2: float = 0.5,
                   base_height: float = 0.5) -> dict:
    """Data of the fingertip figure: posture, feasible-force polygon, LP optimum, status.

    Explained in :ref:`sec-cf-fingertip`.

    Examples
    --------
    >>> d = fingertip_data(x_tip=0.5, elbow="up", mu=0.5, tau_max=1.0, f_t=0.0, f_n=1.0)
    >>> d["label"], round(d["max_normal"], 3), round(d["press_capacity"], 3)
    ('feasible', 4.0, 2.0)
    """
    q = fingertip.two_link_ik(x_tip, elbow, l1, l2, base_height)
    jac = fingertip.contact_jacobian(q, l1, l2)
    polygon = fingertip.feasible_force_polygon(jac, mu, tau_max)
    best = fingertip.max_normal_force(jac, mu, tau_max)
    status = fingertip.force_state(jac, [f_t, f_n], mu, tau_max)
    limiting = [name for name, on in zip(("shoulder (joint 1)", "elbow (joint 2)"), best.limiting_joints) if on]
    return {
        "x_tip": float(x_tip), "elbow": elbow, "mu": float(mu), "tau_max": float(tau_max),
        "force": np.array([f_t, f_n], dtype=float), "q": q, "points": fingertip.two_link_points(q, l1, l2, base_height),
        # "+ 0.0" turns the solver's -0.0 (mu = 0) into 0.0: the readout says "f_t = 0.00 N".
        "jacobian": jac, "polygon": polygon, "optimum": best.force + 0.0, "max_normal": best.normal_force,
        "optimum_torques": best.torques, "limiting": limiting, "cone_active": best.cone_active,
        "label": status.label, "in_cone": status.in_cone, "torques": status.torques,
        "over_limit": status.over_limit, "press_capacity": fingertip.press_capacity(jac),
    }


def fingertip_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the fingertip figure.

    Explained in :ref:`sec-cf-fingertip`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> fingertip_describe(fingertip_data(f_t=0.0, f_n=-1.0))[0]
    'TABLE MUST PULL'
    """
    tau = data["torques"]
    rows = [
        ("joint angles", f"({math.degrees(data['q'][0]):.1f}, {math.degrees(data['q'][1]):.1f}) deg"),
        ("torques -J_c^T f_c", f"({tau[0]:.2f}, {tau[1]:.2f}) N m"),
        ("max normal force (LP)", f"{data['max_normal']:.2f} N at f_t = {data['optimum'][0]:.2f} N"),
        ("limited by", ", ".join(data["limiting"]) + (" + friction cone" if data["cone_active"] else "")
         if data["limiting"] else ("friction cone" if data["cone_active"] else "-")),
        ("straight-down force per N m", f"{data['press_capacity']:.2f} N/(N m)"),
    ]
    key = "feasible" if data["label"] == "feasible" else "infeasible"
    return data["label"].upper(), key, rows


def _strip_lines(column: np.ndarray, tau_max: float, span: float) -> list[np.ndarray]:
    """Two parallel segments ``column . f = +-tau_max`` (a joint's torque strip)."""
    norm = float(np.linalg.norm(column))
    if norm < 1e-12:
        return []
    direction = np.array([-column[1], column[0]]) / norm
    lines = []
    for sign in (-1.0, 1.0):
        base = sign * tau_max * column / norm**2
        lines.append(np.vstack([base - span * direction, base + span * direction]))
    return lines


#: Force-space half width (N) of the live fingertip figure: it holds every
#: force the ``f_t`` and ``f_n`` sliders can demand.
FINGERTIP_LIVE_EXTENT = 7.0


def draw_fingertip(data: dict, ax: Any = None, *, live: bool = False) -> Figure:
    """Draw the finger on the table (left) and the force space with the feasible polygon (right).

    ``ax`` is a pair of axes. ``live=True`` (the interactive figure) fixes the
    force space to :data:`FINGERTIP_LIVE_EXTENT`, which holds every demanded
    force of the sliders (a large feasible polygon is clipped), so that the
    limits never change, and gives titles that do not change with the
    controls (the state label beside the picture names the state).
    Explained in :ref:`sec-cf-fingertip`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Examples
    --------
    >>> len(draw_fingertip(fingertip_data()).axes)
    2
    """
    fig, axes = _new_axes(ax, (9.0, 4.2), ncols=2)
    arm, space = axes
    pts = data["points"]
    _static(arm.fill_between([-1.0, 1.0], [-0.15, -0.15], [0, 0], color=COLORS["ground"], alpha=0.3, lw=0),
            _line(arm, [-1.0, 1.0], [0, 0], color=COLORS["ground"], lw=2))
    _line(arm, pts[:, 0], pts[:, 1], color="#555555", lw=5, solid_capstyle="round", zorder=2)
    _line(arm, *pts[0], marker="o", ls="none", color=COLORS["joint1"], ms=10, zorder=3)
    _line(arm, *pts[1], marker="o", ls="none", color=COLORS["joint2"], ms=9, zorder=3)
    _line(arm, *pts[2], marker="o", ls="none", color="#333333", ms=5, zorder=3)
    scale = 0.1
    _arrow(arm, pts[2], scale * data["force"], COLORS["push"], width=2.4, label="$f_c$")
    arm.set_xlim(-1.0, 1.0)
    arm.set_ylim(-0.15, 1.1)
    arm.set_aspect("equal")
    arm.set_title(f"finger (1 N drawn as {scale:g} m)" if live
                  else f"finger, elbow {data['elbow']} (1 N drawn as {scale:g} m)", fontsize=10)
    arm.set_xticks([])
    arm.set_yticks([])

    poly = data["polygon"]
    if live:
        extent = FINGERTIP_LIVE_EXTENT
    else:
        extent = _nice_ceil(max(float(np.max(np.abs(poly))), float(np.max(np.abs(data["force"]))), 1.0) * 1.25)
    gamma = math.atan(data["mu"])
    fan = _fan((0.0, 0.0), math.pi / 2, gamma, 2 * extent)
    _fill(space, fan[:, 0], fan[:, 1], COLORS["cone"], alpha=0.15)
    for column, key, name in ((data["jacobian"][:, 0], "joint1", r"$|\tau_1| = \tau_{\max}$"),
                              (data["jacobian"][:, 1], "joint2", r"$|\tau_2| = \tau_{\max}$")):
        for i, line in enumerate(_strip_lines(column, data["tau_max"], 4 * extent)):
            _line(space, line[:, 0], line[:, 1], color=COLORS[key], ls="--", lw=1.1, label=name if i == 0 else None)
    closed = np.vstack([poly, poly[:1]])
    _fill(space, closed[:, 0], closed[:, 1], COLORS["feasible"], alpha=0.35, lw=1.5, ec=COLORS["feasible"],
          zorder=2, label="feasible forces")
    _line(space, *data["optimum"], marker="o", ls="none", color="k", ms=7, zorder=5, label=r"LP optimum: max $f_n$")
    _line(space, *data["force"], marker="D", ls="none", color=COLORS["push"], ms=7, mec="k", zorder=6,
          label=r"demanded $f_c$")
    _static(space.axhline(0.0, color=COLORS["ground"], lw=1))
    space.set_xlim(-extent, extent)
    space.set_ylim(-0.15 * extent, 1.3 * extent)
    space.set_aspect("equal")
    space.set_xlabel("$f_t$ (N)")
    space.set_ylabel("$f_n$ (N)")
    _legend(space, loc="upper left", fontsize=7, framealpha=0.85)
    if live:
        space.set_title("force space", fontsize=10)
    else:
        key = "feasible" if data["label"] == "feasible" else "infeasible"
        space.set_title(f"force space: {data['label']}", color=STATE_COLORS[key], fontsize=10)
    return fig


def fingertip_widget(**initial: Any) -> InteractiveFigure:
    """FIG 5: fingertip position, elbow, friction, torque limit and demanded force over :func:`fingertip_data`.

    Explained in :ref:`sec-cf-fingertip`.

    Returns
    -------
    InteractiveFigure
        The widget.

    Examples
    --------
    >>> w = fingertip_widget(x_tip=0.5, mu=0.5, f_t=0.0)
    >>> w.controls["f_n"].value = 3.0
    >>> w.state_text
    'JOINT 1 OVER LIMIT'
    """
    values = {"x_tip": 0.3, "elbow": "up", "mu": 0.6, "tau_max": 1.0, "f_t": 0.5, "f_n": 2.0}
    values.update(initial)
    style = {"description_width": "initial"}
    controls = {
        "x_tip": _slider(values["x_tip"], -0.8, 0.8, 0.01, "fingertip x (m)"),
        "elbow": widgets.ToggleButtons(options=["up", "down"], value=values["elbow"], description="elbow", style=style),
        "mu": _slider(values["mu"], 0.0, 1.5, 0.01, "mu"),
        "tau_max": _slider(values["tau_max"], 0.2, 3.0, 0.05, "tau_max (N m)"),
        "f_t": _slider(values["f_t"], -6.0, 6.0, 0.05, "f_t (N)"),
        "f_n": _slider(values["f_n"], -1.0, 8.0, 0.05, "f_n (N)"),
    }
    return InteractiveFigure("Fingertip on a table: friction cone and joint-torque limits", controls,
                             fingertip_data, fingertip_describe, functools.partial(draw_fingertip, live=True),
                             lambda fig: fig.subplots(1, 2), (9.0, 4.2))
