"""The chapters' worked-example models.

Each module holds one scene that a chapter works through: its geometry, its
closed forms and, where it moves, the simulators that step it over time.
Models use the general algorithms of ``lib``; the algorithms never import a
model (``tests/test_layers.py`` holds the rule).

- :mod:`lib.models.planar_bodies`: planar pin joints and uniform rods in
  maximal coordinates, the pieces of the four-bar and the five-bar
  (chapter 3.11).
- :mod:`lib.models.planar_chain`: a planar serial chain of uniform rods and
  the pen on the whiteboard (chapter 3.11).
- :mod:`lib.models.fourbar`: the four-bar linkage (chapter 3.11).
- :mod:`lib.models.fivebar`: the five-bar parallel mechanism (chapter 3.11).
- :mod:`lib.models.stewart_gough`: the Stewart-Gough platform with massless
  legs (chapter 3.11).
- :mod:`lib.models.pinocchio_reference`: the four-bar and the five-bar built
  in Pinocchio, for the cross-checks of chapter 3.11 and its tests.
- :mod:`lib.models.box_on_corners`: a box resting on its four bottom corners
  (chapter 3.12).
- :mod:`lib.models.planar_2r_arm`: a planar two-link arm touching a wall
  (chapter 3.12).
- :mod:`lib.models.box_on_ramp`: a box launched up a ramp or tipping over
  its downhill corner, stepped with the time-stepping LCP, a penalty model
  and MuJoCo (chapter 3.12).
- :mod:`lib.models.fingertip`: a two-link finger pressing on a table, where
  the friction cone meets the torque limits (contact and friction).
- :mod:`lib.models.ball_drop`: a ball dropped on the floor, penalty contact
  versus impulse contact (contact and friction).
- :mod:`lib.models.robots`: UR5, Panda, Solo-12 and Talos from the
  ``example-robot-data`` package as kinematic trees (chapters 3.2 to 3.5).
- :mod:`lib.models.pinocchio_tree`: a kinematic tree in Pinocchio and the
  conversions of states and forces, for the cross-checks of chapters 3.2
  and 3.3.
- :mod:`lib.models.benchmark`: ``lib``'s batched RNEA and ABA timed against
  Pinocchio on the same states (chapter 3.5, ``tools/benchmark_dynamics.py``).
"""
