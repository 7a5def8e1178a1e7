#!/usr/bin/env python3
"""Independent SciPy reference for piecewise-linear gap systems (Yu 2013):

    M x'' + C x' + K x + sum_j k_j d_j max(0, d_j.x - g_j) = F cos(omega t).

Between switches the active set A = {j : d_j.x > g_j} is fixed, so the
right-hand side is smooth; it is integrated with solve_ivp (DOP853,
rtol = atol = 1e-12). Every gap crossing d_j.x = g_j is located with a
terminal `events=` function and the integration restarts there with the
switched active set, so the integrator never steps across a kink. This shares
no code with the Rust crate it checks (contact-harness); the crate never needs
Python.

Writes, from the repository root,
  reference-data/gap-system/sdof.csv, three-dof.csv      time series,
      columns t,x0..x{n-1},v0..v{n-1},f0..f{m-1}, t = 0, 0.1, ..., 100
  reference-data/gap-system/sdof-frc.csv, sdof-frc-zero-gap.csv
      columns omega,x_max,x_min,periods of the steady response reached from
      rest: it is integrated period by period (at least 150 periods and
      1200 s) until the period-end states repeat with some period k T, k <= 8
      (`periods` = k; k > 1 is a subharmonic response); x_max, x_min are over
      that k T cycle, the extrema located as roots of v (events on the dense
      output).

Usage: python3 reference-data/generate/gap_system_scipy.py [--check-sweeps]
  --check-sweeps  also sweep omega up and down by continuation (each omega
                  started from the previous omega's steady state) and print
                  where the response differs from the one reached from rest.
"""

import argparse
import math
import os
import platform
import sys

import numpy as np
import scipy
from scipy.integrate import solve_ivp

RTOL = 1e-12
ATOL = 1e-12
METHOD = "DOP853"


class GapSystem:
    """Dense data of one gap system."""

    def __init__(self, mass, damping, stiffness, directions, gaps, gap_stiffness, amplitude, omega):
        self.m = np.array(mass, dtype=float)
        self.c = np.array(damping, dtype=float)
        self.k = np.array(stiffness, dtype=float)
        self.d = np.array(directions, dtype=float).reshape(len(gaps), -1)
        self.g = np.array(gaps, dtype=float)
        self.kg = np.array(gap_stiffness, dtype=float)
        self.f = np.array(amplitude, dtype=float)
        self.omega = float(omega)
        self.n = self.m.shape[0]
        self.minv = np.linalg.inv(self.m)

    def with_omega(self, omega):
        s = GapSystem.__new__(GapSystem)
        s.__dict__.update(self.__dict__)
        s.omega = float(omega)
        return s

    def openings(self, x):
        return self.d @ x - self.g

    def forces(self, x):
        return self.kg * np.maximum(0.0, self.openings(x))

    def rhs(self, active):
        """Smooth right-hand side for a fixed active set (boolean array)."""
        n = self.n
        d_act = self.d[active]
        kg_act = self.kg[active]
        g_act = self.g[active]

        def f(t, y):
            x = y[:n]
            v = y[n:]
            force = self.f * math.cos(self.omega * t) - self.c @ v - self.k @ x
            if d_act.shape[0]:
                force -= d_act.T @ (kg_act * (d_act @ x - g_act))
            return np.concatenate((v, self.minv @ force))

        return f

    def initial_active(self, x, v, t):
        """Active set at t: y > 0, or y = 0 and moving into contact (y' > 0, or y' = 0 and y'' > 0)."""
        y = self.openings(x)
        dy = self.d @ v
        active = y > 0.0
        inactive_acc = self.rhs(np.zeros(len(self.g), dtype=bool))(t, np.concatenate((x, v)))[self.n:]
        ddy = self.d @ inactive_acc
        for j in range(len(self.g)):
            if y[j] == 0.0:
                active[j] = dy[j] > 0.0 or (dy[j] == 0.0 and ddy[j] > 0.0)
        return active


def gap_events(system, active):
    """Terminal event per spring: y_j crosses 0 leaving the current regime."""
    events = []
    for j in range(len(system.g)):
        def ev(t, y, j=j):
            return system.d[j] @ y[: system.n] - system.g[j]

        ev.terminal = True
        ev.direction = -1.0 if active[j] else 1.0
        events.append(ev)
    return events


def integrate(system, y0, t0, t1, sample_times=None, extra_events=(), max_step=np.inf):
    """Integrates from t0 to t1 restarting at every gap crossing.

    Returns (state at t1, samples (list of (t, y)), extra event hits (list of (t, y))).
    """
    n = system.n
    y = np.array(y0, dtype=float)
    t = float(t0)
    active = system.initial_active(y[:n], y[n:], t)
    samples = []
    hits = []
    sample_times = np.array([] if sample_times is None else sample_times, dtype=float)
    next_sample = 0
    while next_sample < len(sample_times) and sample_times[next_sample] <= t:
        samples.append((sample_times[next_sample], y.copy()))
        next_sample += 1
    switches = 0
    while t < t1:
        events = gap_events(system, active) + list(extra_events)
        sol = solve_ivp(
            system.rhs(active), (t, t1), y, method=METHOD, rtol=RTOL, atol=ATOL,
            events=events, dense_output=True, max_step=max_step,
        )
        if sol.status < 0:
            raise RuntimeError(f"solve_ivp failed at t = {t}: {sol.message}")
        t_stop = sol.t[-1]
        # samples strictly inside (t, t_stop] come from the dense output of this segment
        while next_sample < len(sample_times) and sample_times[next_sample] <= t_stop:
            ts = sample_times[next_sample]
            samples.append((ts, sol.sol(ts)))
            next_sample += 1
        for k in range(len(system.g), len(events)):
            for te, ye in zip(sol.t_events[k], sol.y_events[k]):
                hits.append((te, ye))
        y = sol.y[:, -1].copy()
        if sol.status == 1:
            # a gap crossing: switch every spring whose event fired at t_stop
            for j in range(len(system.g)):
                if len(sol.t_events[j]):
                    active[j] = not active[j]
            switches += 1
        t = t_stop
    return y, samples, hits


def time_series(system, t_end=100.0, dt=0.1):
    times = np.round(np.arange(0, round(t_end / dt) + 1) * dt, 12)
    y0 = np.zeros(2 * system.n)
    _, samples, _ = integrate(system, y0, 0.0, t_end, sample_times=times)
    rows = []
    for t, y in samples:
        x = y[: system.n]
        rows.append([t, *y, *system.forces(x)])
    return rows


def one_period_extrema(system, y_start, t_start):
    """x_max, x_min per DOF over one period from a settled state: endpoints and roots of v."""
    n = system.n
    period = 2.0 * math.pi / system.omega
    extra = []
    for i in range(n):
        def ev(t, y, i=i):
            return y[n + i]

        ev.terminal = False
        ev.direction = 0.0
        extra.append(ev)
    y_end, _, hits = integrate(system, y_start, t_start, t_start + period, extra_events=extra, max_step=period / 64)
    xs = [y_start[:n], y_end[:n]] + [ye[:n] for _, ye in hits]
    xs = np.array(xs)
    return xs.max(axis=0), xs.min(axis=0), y_end


def flow_period(system, y):
    """Phi_T(y): one forcing period from phase 0 (the forcing is T-periodic, so the clock restarts at 0)."""
    period = 2.0 * math.pi / system.omega
    y_end, _, _ = integrate(system, y, 0.0, period)
    return y_end


MIN_SETTLE_PERIODS = 150
MIN_SETTLE_TIME = 1200.0
MAX_SETTLE_PERIODS = 20000
MAX_MULTIPLE = 8
SETTLE_TOL = 1e-11
SUBHARMONIC_GAP = 1e-6


def min_settle_periods(omega):
    """At least 150 periods and 1200 s: the linear transient e^{-c t / 2m} (c = 0.1) is then below 1e-26."""
    return max(MIN_SETTLE_PERIODS, math.ceil(MIN_SETTLE_TIME * omega / (2.0 * math.pi)))


def settled_response(system, y0):
    """Applies Phi_T at least min_settle_periods times and then until the period-end states
    repeat with some period k <= MAX_MULTIPLE: |y_p - y_{p-k}|_inf <= SETTLE_TOL (1 + |y|_inf)
    for the last two p. A k > 1 is accepted only when the shorter periods are far from
    repeating (|y_p - y_{p-j}| > SUBHARMONIC_GAP for all j < k), so a slowly decaying,
    rotating transient is not mistaken for a subharmonic. Returns (state at phase 0, k,
    periods integrated)."""
    minimum = min_settle_periods(system.omega)
    history = [np.array(y0, dtype=float)]
    for p in range(1, MAX_SETTLE_PERIODS + 1):
        history.append(flow_period(system, history[-1]))
        history = history[-(2 * MAX_MULTIPLE + 2):]
        if p < minimum:
            continue
        scale = 1.0 + np.abs(history[-1]).max()

        def distance(k, back=1):
            return np.abs(history[-back] - history[-back - k]).max() / scale

        for k in range(1, MAX_MULTIPLE + 1):
            if len(history) < k + 2:
                break
            if distance(k) <= SETTLE_TOL and distance(k, 2) <= SETTLE_TOL:
                if all(distance(j) > SUBHARMONIC_GAP for j in range(1, k)):
                    return history[-1], k, p
                break
    raise RuntimeError(f"omega = {system.omega}: no repeating response within {MAX_SETTLE_PERIODS} periods")


def cycle_extrema(system, y, k):
    """x_max, x_min per DOF over k periods from phase 0."""
    x_max = np.full(system.n, -np.inf)
    x_min = np.full(system.n, np.inf)
    for _ in range(k):
        mx, mn, y = one_period_extrema(system, y, 0.0)
        x_max = np.maximum(x_max, mx)
        x_min = np.minimum(x_min, mn)
    return x_max, x_min


def frc(system, omegas):
    rows = []
    for w in omegas:
        s = system.with_omega(w)
        y, k, p = settled_response(s, np.zeros(2 * s.n))
        x_max, x_min = cycle_extrema(s, y, k)
        rows.append([w, x_max[0], x_min[0], k])
        print(f"  omega = {w:.2f}: {k}T-periodic after {p} periods, x_max = {x_max[0]:.12f}, x_min = {x_min[0]:.12f}", flush=True)
    return rows


def sweep(system, omegas, reference_rows):
    """Continuation sweep: each omega starts from the previous omega's settled state (phase 0).
    Returns the rows where the response differs from the from-rest one."""
    differing = []
    worst = 0.0
    y = np.zeros(2 * system.n)
    for w, ref in zip(omegas, reference_rows):
        s = system.with_omega(w)
        y, k, _ = settled_response(s, y)
        x_max, x_min = cycle_extrema(s, y, k)
        diff = max(abs(x_max[0] - ref[1]), abs(x_min[0] - ref[2]))
        if diff > 1e-7 or k != ref[3]:
            differing.append((w, k, x_max[0], x_min[0]))
        else:
            worst = max(worst, diff)
    return worst, differing


def write_csv(path, header, rows):
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(",".join(header) + "\n")
        for row in rows:
            fh.write(",".join("%.17g" % v for v in row) + "\n")
    os.replace(tmp, path)
    print(f"wrote {path} ({len(rows)} rows)")


def sdof(c=0.05, g=0.5, omega=0.8):
    return GapSystem([[1.0]], [[c]], [[1.0]], [[1.0]], [g], [4.0], [1.0], omega)


def three_dof():
    m = np.diag([1.0, 1.5, 2.0])
    k = np.array([[2.2, -1.2, 0.0], [-1.2, 2.0, -0.8], [0.0, -0.8, 0.8]])
    c = 0.02 * m + 0.02 * k
    d = [[1.0, 0.0, 0.0], [-1.0, 1.0, 0.0], [0.0, 0.0, -1.0]]
    return GapSystem(m, c, k, d, [0.3, 0.2, 0.4], [5.0, 3.0, 8.0], [0.5, 0.0, 1.0], 0.9)


def series_header(system):
    n, m = system.n, len(system.g)
    return ["t"] + [f"x{i}" for i in range(n)] + [f"v{i}" for i in range(n)] + [f"f{j}" for j in range(m)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check-sweeps", action="store_true")
    parser.add_argument("--out", default=os.path.join("reference-data", "gap-system"))
    args = parser.parse_args()
    print(f"# python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}")
    print(f"# solve_ivp method {METHOD}, rtol {RTOL}, atol {ATOL}")
    os.makedirs(args.out, exist_ok=True)

    s = sdof()
    write_csv(os.path.join(args.out, "sdof.csv"), series_header(s), time_series(s))
    s3 = three_dof()
    write_csv(os.path.join(args.out, "three-dof.csv"), series_header(s3), time_series(s3))

    omegas = [round(0.40 + 0.05 * i, 10) for i in range(37)]
    for name, gap in (("sdof-frc.csv", 0.5), ("sdof-frc-zero-gap.csv", 0.0)):
        print(f"{name}: g = {gap}")
        base = sdof(c=0.1, g=gap, omega=omegas[0])
        rows = frc(base, omegas)
        write_csv(os.path.join(args.out, name), ["omega", "x_max", "x_min", "periods"], rows)
        if args.check_sweeps:
            for label, order in (("up", omegas), ("down", omegas[::-1])):
                ref = rows if label == "up" else rows[::-1]
                worst, differing = sweep(base, order, ref)
                print(f"{name}: sweep {label}: agrees with the from-rest response to {worst:.3e} elsewhere;"
                      f" different response at {len(differing)} omega(s)")
                for w, k, x_max, x_min in differing:
                    print(f"    omega = {w:.2f}: {k}T-periodic, x_max = {x_max:.12f}, x_min = {x_min:.12f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
