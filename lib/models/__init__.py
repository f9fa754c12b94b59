"""The chapters' worked-example models.

Each module holds one scene that a chapter simulates end to end: its
geometry, its closed forms and the simulators that step it over time.

- :mod:`lib.models.box_on_ramp`: a box launched up a ramp or tipping over
  its downhill corner, stepped with the time-stepping LCP, a penalty model
  and MuJoCo (chapter 3.12).
"""
