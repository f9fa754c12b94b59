"""Reference answers for the contact-and-friction exercises (exercises/contact_and_friction.md).

Plain numpy / sympy, written independently of ``lib`` so that a change in a
``lib`` routine cannot silently change the expected answers
(tests/test_friction.py compares these answers with ``lib`` and with independent
computations). Every exercise name in ``grader/chapters/contact_and_friction.py``
is defined here. Only ``penalty_design`` uses ``lib`` (to simulate its own
design), and imports it inside the function. SI units.
"""

import itertools
import math

import numpy as np
import sympy as sp

G = 9.81


# Exercise CF.1 --------------------------------------------------------------
# 2.5 kg at rest on a plank tilted by 18 degrees, mu_s = 0.7 > tan(18 deg):
# it sticks, and friction is what holds it, m g sin(alpha), not mu f_n.
ramp_friction = f"{2.5 * G * math.sin(math.radians(18.0)):.6f} N"


# Exercise CF.2 --------------------------------------------------------------
def least_push(alpha, mu_s, mass):
    """[beta, F] of the smallest push that holds the block past its critical angle.

    Sticking needs F (cos b - mu sin b) >= m g (sin a - mu cos a); the factor is
    sqrt(1 + mu^2) cos(b + arctan mu), largest at b = -arctan mu (pressing into
    the plank by the friction angle): F = m g sin(a - arctan mu).
    """
    theta_mu = math.atan(mu_s)
    return np.array([-theta_mu, mass * G * math.sin(alpha - theta_mu)])


# Exercise CF.3 --------------------------------------------------------------
# A: arctan 1.5 = 56.3 deg, true.  B: 50 deg from the normal, mu = 1.2
# (arctan 1.2 = 50.2 deg): sticks, true.  C: while slipping the surface supplies
# mu f_n, not the demand: false.  D: a demand with f_n < 0 separates, no
# friction: false.
cone_facts = {"A", "B"}


# Exercise CF.4 --------------------------------------------------------------
def scaled_pyramid(tol):
    """[n_d, s]: the fewest edges whose best-scaled pyramid is within tol, and its scale.

    A regular n_d-gon with its corners at s mu (edges of the pyramid) reaches
    s mu cos(pi/n_d) at its face midpoints: relative errors s - 1 (over) and
    1 - s cos(pi/n_d) (under). The worst of the two is smallest where they are
    equal, s = 2 / (1 + cos(pi/n_d)), and both are then
    (1 - cos) / (1 + cos) = tan^2(pi / (2 n_d)).
    """
    k = 3
    while math.tan(math.pi / (2 * k)) ** 2 >= tol:
        k += 1
    return np.array([k, 2.0 / (1.0 + math.cos(math.pi / k))])


# Exercise CF.5 --------------------------------------------------------------
# A true (a penalty contact lives at phi < 0 with f_n > 0); B false (at phi = 0
# any f_n >= 0 is allowed); C false (the impulse model has no stiffness);
# D true (omega_n dt < 2 with omega_n = sqrt(k/m)); E false (Zeno: infinitely
# many bounces in finite time, so an event-driven integrator never gets there).
contact_models = {"A", "D"}


# Exercise CF.6 --------------------------------------------------------------
def rod_implicit_step(q, v, mass, l, mu, dt):
    """[v+ (3), c_t, c_n]: one contact-implicit step of a uniform rod whose end A touches the floor.

    q = (x, y, theta): centre of mass and angle of the axis from the floor; end A
    at (x - l cos theta, y - l sin theta); I = m l^2 / 3. Gap phi = y - l sin theta,
    normal row N = (0, 1, -l cos theta), tangent row D = (1, 0, l sin theta).
    M (v+ - v) = -dt m g e_y + D^T c_t + N^T c_n with 0 <= c_n perp phi/dt + N v+ >= 0,
    |c_t| <= mu c_n and c_t = -mu c_n sign(D v+) when the end slides. The modes
    (separate, stick, slide either way) are tried in turn.
    """
    q = np.asarray(q, dtype=float)
    v = np.asarray(v, dtype=float)
    th = q[2]
    phi = q[1] - l * math.sin(th)
    minv = np.diag([1.0 / mass, 1.0 / mass, 3.0 / (mass * l * l)])
    jac = np.array([[1.0, 0.0, l * math.sin(th)], [0.0, 1.0, -l * math.cos(th)]])
    v_free = v + dt * np.array([0.0, -G, 0.0])
    delassus = jac @ minv @ jac.T
    u = jac @ v_free + np.array([0.0, phi / dt])

    def result(c):
        return np.concatenate([v_free + minv @ jac.T @ c, c])

    if u[1] >= 0.0:
        return result(np.zeros(2))
    c = np.linalg.solve(delassus, -u)
    if c[1] >= 0.0 and abs(c[0]) <= mu * c[1]:
        return result(c)
    for s in (1.0, -1.0):           # the end slides in +x (s = 1) or -x; friction -s mu c_n
        col = delassus @ np.array([-s * mu, 1.0])
        if col[1] <= 0.0:
            continue
        c_n = -u[1] / col[1]
        if s * (u[0] + col[0] * c_n) >= 0.0:
            return result(np.array([-s * mu * c_n, c_n]))
    raise ValueError("no mode found")


# Exercise CF.7 --------------------------------------------------------------
_z = sp.Symbol("zeta", positive=True)
#: delta = (v0/omega_d) exp(-zeta omega_n t) sin(omega_d t); k delta + d delta' = 0 at the
#: damped phase pi - 2 arcsin(zeta), where sin(phase) = 2 zeta sqrt(1 - zeta^2): the depth
#: is 2 zeta (v0/omega_n) exp(-zeta phase / sqrt(1 - zeta^2))
liftoff_depth = 2 * _z * sp.exp(-_z * (sp.pi - 2 * sp.asin(_z)) / sp.sqrt(1 - _z**2))


# Exercise CF.8 --------------------------------------------------------------
def rebound_ratio(k, zeta, mass, v0, dt):
    """The debugged simulation: semi-implicit Euler, clipped spring-damper, no gravity.

    The three bugs: the damper's sign (delta' = -v, so d delta' = -d v), the missing
    clip at zero (the floor cannot pull), and the order of the updates (semi-implicit
    Euler moves the position with the new velocity).
    """
    d = 2.0 * zeta * math.sqrt(k * mass)
    x, v = 0.0, -v0
    for _ in range(1_000_000):
        if x < 0.0:
            f_n = max(0.0, -k * x - d * v)
        else:
            f_n = 0.0
        v = v + dt * f_n / mass
        x = x + dt * v
        if x >= 0.0:
            return v / v0
    raise RuntimeError("the ball never left the floor")


# Exercise CF.9 --------------------------------------------------------------
def penalty_design(mass, h0, delta_limit, dt_min, e_lo, e_hi):
    """[k, zeta, dt]: zeta from the clipped restitution, k from the damped peak, both corrected
    by simulating the design (lib.models.ball_drop.simulate_penalty_bounce) a few times; dt = dt_min."""
    from lib.models.ball_drop import simulate_penalty_bounce

    def e_clip(z):
        return math.exp(-z * (math.pi - 2.0 * math.asin(z)) / math.sqrt(1.0 - z * z))

    def zeta_for(e):
        lo, hi = 0.0, 0.99
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if e_clip(mid) > e else (lo, mid)
        return 0.5 * (lo + hi)

    v0 = math.sqrt(2.0 * G * h0)
    target = 0.5 * (e_lo + e_hi)
    z = zeta_for(target)
    peak = math.exp(-z * math.acos(z) / math.sqrt(1.0 - z * z))
    k = mass * (v0 * peak / (0.9 * delta_limit)) ** 2
    for _ in range(4):
        r = simulate_penalty_bounce(k, dt_min, z, mass=mass, h0=h0)
        k *= (r.max_penetration / (0.9 * delta_limit)) ** 2
        z = zeta_for(min(0.99, max(0.01, e_clip(z) + target - r.restitution)))
    return np.array([k, z, dt_min])


# Exercise CF.10 -------------------------------------------------------------
# Dropped from h_0: the n-th rebound reaches h_0 e^(2n) (speed e^n of the impact speed),
# up and down; the path is h_0 + 2 sum_{n>=1} h_0 e^(2n) = h_0 (1 + e^2) / (1 - e^2).
_h0, _e = sp.symbols("h_0 e", positive=True)
zeno_distance = _h0 * (1 + _e**2) / (1 - _e**2)


# Exercise CF.11 -------------------------------------------------------------
def painleve_solutions(theta, thetadot, mu, l, rho, slide):
    """How many f_n >= 0 satisfy 0 <= f_n perp (y_A)'' >= 0 while the end A slides.

    (y_A)'' = kappa f_n / m + a0 with kappa = 1 + (l/rho)^2 (cos^2 + slide mu sin cos)
    and a0 = -g + l sin(theta) thetadot^2. kappa > 0: one; kappa < 0: none when
    a0 < 0, two (f_n = 0 and -m a0 / kappa) when a0 > 0.
    """
    s, c = math.sin(theta), math.cos(theta)
    kappa = 1.0 + (l / rho) ** 2 * (c * c + slide * mu * s * c)
    a0 = -G + l * s * thetadot**2
    if kappa > 0.0:
        return 1
    return 2 if a0 > 0.0 else 0


# Exercise CF.12 -------------------------------------------------------------
_l, _rho = sp.symbols("l rho", positive=True)
#: mu > (r + cos^2)/(sin cos) = (r + 1)/t + r t with r = rho^2/l^2, t = tan(theta):
#: smallest at t = sqrt((r + 1)/r), value 2 sqrt(r (r + 1))
painleve_mu_min = 2 * _rho * sp.sqrt(_rho**2 + _l**2) / _l**2


# Exercise CF.13 -------------------------------------------------------------
def max_press_force(jacobian, mu, tau_max):
    """max f_n over {f_n >= 0, |f_t| <= mu f_n, |(J^T f)_i| <= tau_max}, by vertex enumeration."""
    jac = np.asarray(jacobian, dtype=float)
    rows = [np.array([1.0, -mu]), np.array([-1.0, -mu]), np.array([0.0, -1.0]),
            jac[:, 0], -jac[:, 0], jac[:, 1], -jac[:, 1]]
    bounds = [0.0, 0.0, 0.0, tau_max, tau_max, tau_max, tau_max]
    a, b = np.array(rows), np.array(bounds)
    best = 0.0
    for i, j in itertools.combinations(range(len(rows)), 2):
        m = np.array([rows[i], rows[j]])
        if abs(np.linalg.det(m)) < 1e-12:
            continue
        p = np.linalg.solve(m, [bounds[i], bounds[j]])
        if np.all(a @ p <= b + 1e-9 * max(1.0, tau_max)):
            best = max(best, float(p[1]))
    return best
