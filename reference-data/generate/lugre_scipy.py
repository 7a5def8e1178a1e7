#!/usr/bin/env python3
"""Independent SciPy reference for the LuGre friction model on its published
stick-slip example (Canudas de Wit, Olsson, Astrom & Lischinsky, "A new model
for control of systems with friction", IEEE Trans. Automatic Control 40(3)
(1995) 419-425):

    dz/dt = v - sigma0 |v| z / g(v),   g(v) = Fc + (Fs - Fc) exp(-(v/vs)^2),
    F     = sigma0 z + sigma1 dz/dt + sigma2 v,
    m x'' = k (vd t - x) - F(v = x', z),   x(0) = x'(0) = z(0) = 0,

sigma0 = 1e5 N/m, sigma1 = sqrt(1e5) N s/m, sigma2 = 0.4 N s/m, Fc = 1 N,
Fs = 1.5 N, vs = 1e-3 m/s, m = 1 kg, k = 2 N/m, vd = 0.1 m/s, t in [0, 20] s.

The system is stiff (bristle frequency sqrt(sigma0/m) = 316 rad/s against a
stick-slip period of about 6.4 s). It is integrated with solve_ivp, method
Radau, with an analytic Jacobian. The right-hand side has a kink where
v = 0 (the |v| in dz/dt); v does cross zero (the mass rings on the bristles
after every slip, v down to about -3.3e-4 m/s), so every zero of v is a
terminal `events=` function and the integration restarts there with the
sign of v switched: within one segment |v| is replaced by s v with s = +1 or
-1 fixed, a smooth (analytic) right-hand side, so no step straddles the kink
and the Jacobian is exact within the segment. The integration also stops at
every output time (every 0.01 s), so the written values are step end points,
not interpolants.

Writes, from the repository root,
  reference-data/stick-slip/lugre.csv        comment lines (#), then
      t,x,v,z,friction at t = 0, 0.01, ..., 20 (2001 rows), from the finest
      run (Radau, rtol = 1e-13)
  reference-data/stick-slip/lugre-cycle.csv  quantity,value,unit: the
      stick-slip numbers of the last full cycle of the finest run
and prints the tolerance sweep (Radau rtol = 1e-8, 1e-10, 1e-12 against the
finest), the cross-checks with BDF, LSODA and DOP853 (rtol = 1e-10 and 1e-13),
the finest run without the split at v = 0 and sampled from the dense output, the
sensitivity of the cycle numbers to the stick threshold, and the cycles of a
longer run (periodicity check); reference-data/stick-slip/SOURCE.md records
that output.

Usage (from the repository root):
  python3 -m pip install numpy scipy
  python3 reference-data/generate/lugre_scipy.py
It shares no code with the Rust crate it checks (contact-harness); the crate
never needs Python. Run time on the shared 2-core machine: about 3 minutes
(the finest run alone takes about 15 s).
"""

import math
import os
import platform
import sys
import time

import numpy as np
import scipy
from scipy.integrate import solve_ivp

# ---------------------------------------------------------------------------
# The model (the paper's Table I values and stick-slip example)
SIGMA0 = 1.0e5            # N/m, bristle stiffness
SIGMA1 = math.sqrt(1.0e5)  # N s/m, bristle damping
SIGMA2 = 0.4              # N s/m, viscous friction
FC = 1.0                  # N, Coulomb friction
FS = 1.5                  # N, static friction
VS = 1.0e-3               # m/s, Stribeck velocity
MASS = 1.0                # kg
K_SPRING = 2.0            # N/m
V_DRIVE = 0.1             # m/s, speed of the pulled end of the spring
T_END = 20.0              # s
DT_OUT = 0.01             # s, output spacing

# ---------------------------------------------------------------------------
# Tolerances. atol is per component: rtol times a natural scale of each state,
#   x: 1 m       (x runs from 0 to about 1.3 m on [0, 20] s),
#   v: vs        (friction depends on v through v/vs and sigma2 v: v must be
#                 resolved relative to the Stribeck velocity, also during
#                 stick, where v is only about 1e-6..1e-5 m/s),
#   z: Fc/sigma0 (z is at most Fs/sigma0 = 1.5e-5 m and F = sigma0 z + ...;
#                 this scale asks for the bristle force sigma0 z to rtol N).
STATE_SCALE = np.array([1.0, VS, FC / SIGMA0])
SWEEP_RTOLS = [1e-8, 1e-10, 1e-12]
FINEST_RTOL = 1e-12
EXTRA_RTOL = 1e-13        # one step past the finest: error estimate of the finest run
STICK_THRESHOLD = 1e-4    # m/s, the stick definition used in lugre-cycle.csv
THRESHOLDS = [1e-3, 3e-4, 1e-4, 3e-5, 2e-5]   # sensitivity of the cycle numbers
LONG_T_END = 60.0         # s, periodicity check

OUT_DIR = os.path.join("reference-data", "stick-slip")
COMMAND = "python3 reference-data/generate/lugre_scipy.py"


def g_stribeck(v):
    return FC + (FS - FC) * math.exp(-(v / VS) ** 2)


def dg_stribeck(v):
    return (FS - FC) * math.exp(-(v / VS) ** 2) * (-2.0 * v / VS ** 2)


def zdot(v, z, s):
    """dz/dt with |v| replaced by s v (s = sign of v on the current segment)."""
    return v - SIGMA0 * s * v * z / g_stribeck(v)


def friction_force(v, z, s):
    return SIGMA0 * z + SIGMA1 * zdot(v, z, s) + SIGMA2 * v


def friction_of_state(y):
    """Friction with the true |v| (what the CSV reports)."""
    v = y[1]
    s = 1.0 if v >= 0.0 else -1.0
    return friction_force(v, y[2], s)


def make_rhs(s):
    def rhs(t, y):
        x, v, z = y
        zd = v - SIGMA0 * s * v * z / g_stribeck(v)
        force = SIGMA0 * z + SIGMA1 * zd + SIGMA2 * v
        return np.array([v, (K_SPRING * (V_DRIVE * t - x) - force) / MASS, zd])

    return rhs


def make_jac(s):
    def jac(t, y):
        _, v, z = y
        g = g_stribeck(v)
        dg = dg_stribeck(v)
        # zd = v - sigma0 s v z / g
        dzd_dv = 1.0 - SIGMA0 * s * z * (g - v * dg) / g ** 2
        dzd_dz = -SIGMA0 * s * v / g
        df_dv = SIGMA1 * dzd_dv + SIGMA2
        df_dz = SIGMA0 + SIGMA1 * dzd_dz
        return np.array([
            [0.0, 1.0, 0.0],
            [-K_SPRING / MASS, -df_dv / MASS, -df_dz / MASS],
            [0.0, dzd_dv, dzd_dz],
        ])

    return jac


def make_jac_kinked():
    """Jacobian with sign(v) (0 at v = 0): for the run that ignores the kink."""
    def jac(t, y):
        s = float(np.sign(y[1]))
        return make_jac(s)(t, y)

    return jac


def rhs_kinked(t, y):
    x, v, z = y
    zd = v - SIGMA0 * abs(v) * z / g_stribeck(v)
    force = SIGMA0 * z + SIGMA1 * zd + SIGMA2 * v
    return np.array([v, (K_SPRING * (V_DRIVE * t - x) - force) / MASS, zd])


def friction_rate(t, y, s):
    """dF/dt on a segment of fixed sign s (for locating friction extrema)."""
    x, v, z = y
    g = g_stribeck(v)
    dg = dg_stribeck(v)
    zd = v - SIGMA0 * s * v * z / g
    force = SIGMA0 * z + SIGMA1 * zd + SIGMA2 * v
    a = (K_SPRING * (V_DRIVE * t - x) - force) / MASS
    # d/dt (s v z / g) = s (a z + v zd) / g - s v z dg a / g^2
    zdd = a - SIGMA0 * s * ((a * z + v * zd) / g - v * z * dg * a / g ** 2)
    return SIGMA0 * zd + SIGMA1 * zdd + SIGMA2 * a


def initial_sign(t, y):
    """Sign of v just after t when v = 0: sign of the acceleration, else +1
    (at t = 0 the acceleration is 0 and the pulled spring drives v up)."""
    if y[1] != 0.0:
        return 1.0 if y[1] > 0.0 else -1.0
    a = make_rhs(1.0)(t, y)[1]
    if a != 0.0:
        return 1.0 if a > 0.0 else -1.0
    return 1.0


def integrate(method, rtol, t_end=T_END, split_kink=True, stop_at_samples=True,
              thresholds=THRESHOLDS, use_jac=True):
    """Integrates from rest on [0, t_end].

    split_kink: restart at every zero of v with the sign of v switched (else
    |v| is left inside the right-hand side); stop_at_samples: stop at every
    output time (else sample the dense output). Returns a dict with the
    samples t,x,v,z,friction every DT_OUT, the event hits (t, y) of the
    non-terminal events below and of the zeros of v, and solver statistics.
    """
    n_out = int(round(t_end / DT_OUT))
    times = np.round(np.arange(n_out + 1) * DT_OUT, 12)
    atol = rtol * STATE_SCALE
    y = np.zeros(3)
    t = 0.0
    samples = [y.copy()]
    next_sample = 1
    stats = {"nfev": 0, "njev": 0, "nlu": 0, "steps": 0, "segments": 0, "kinks": 0}
    s = initial_sign(t, y)

    # non-terminal events: (name, function of (t, y, sign), direction)
    specs = []
    for th in thresholds:
        specs.append((("up", th), lambda tt, yy, ss, th=th: yy[1] - th, 1.0))
        specs.append((("down", th), lambda tt, yy, ss, th=th: yy[1] - th, -1.0))
    specs.append(("fmax", lambda tt, yy, ss: friction_rate(tt, yy, ss), -1.0))
    specs.append(("fmin", lambda tt, yy, ss: friction_rate(tt, yy, ss), 1.0))
    specs.append(("vmax", lambda tt, yy, ss: make_rhs(ss)(tt, yy)[1], -1.0))
    if not split_kink:
        specs.append(("v0", lambda tt, yy, ss: yy[1], 0.0))
    hits = {name: [] for name, _, _ in specs}
    hits["v0"] = []

    start = time.perf_counter()
    while next_sample <= n_out:
        t_stop = times[next_sample] if stop_at_samples else t_end
        if split_kink:
            rhs, jac = make_rhs(s), make_jac(s)
        else:
            rhs, jac = rhs_kinked, make_jac_kinked()
        events = []
        if split_kink:
            def ev_kink(tt, yy):
                return yy[1]

            ev_kink.terminal = True
            ev_kink.direction = -s
            events.append(ev_kink)
        first_extra = len(events)
        for _, fun, direction in specs:
            if split_kink:
                def ev(tt, yy, fun=fun, ss=s):
                    return fun(tt, yy, ss)
            else:
                def ev(tt, yy, fun=fun):
                    return fun(tt, yy, 1.0 if yy[1] >= 0.0 else -1.0)
            ev.terminal = False
            ev.direction = direction
            events.append(ev)
        kwargs = {"jac": jac} if use_jac else {}
        sol = solve_ivp(rhs, (t, t_stop), y, method=method, rtol=rtol, atol=atol,
                        events=events, dense_output=not stop_at_samples, **kwargs)
        if sol.status < 0:
            raise RuntimeError(f"{method} rtol={rtol}: failed at t = {t}: {sol.message}")
        stats["nfev"] += sol.nfev
        stats["njev"] += sol.njev
        stats["nlu"] += sol.nlu
        stats["steps"] += len(sol.t) - 1
        stats["segments"] += 1
        t_new = sol.t[-1]
        if t_new <= t:
            raise RuntimeError(f"{method} rtol={rtol}: no progress at t = {t}")
        for j, (name, _, _) in enumerate(specs):
            for te, ye in zip(sol.t_events[first_extra + j], sol.y_events[first_extra + j]):
                hits[name].append((te, ye.copy()))
        if not stop_at_samples:
            while next_sample <= n_out and times[next_sample] <= t_new:
                samples.append(sol.sol(times[next_sample]))
                next_sample += 1
        y = sol.y[:, -1].copy()
        if split_kink and sol.status == 1:
            hits["v0"].append((t_new, y.copy()))
            y[1] = 0.0
            s = -s
            stats["kinks"] += 1
        elif stop_at_samples:
            samples.append(y.copy())
            next_sample += 1
        t = t_new
    stats["seconds"] = time.perf_counter() - start
    rows = np.array([[times[i], *samples[i], friction_of_state(samples[i])] for i in range(n_out + 1)])
    return {"method": method, "rtol": rtol, "rows": rows, "hits": hits, "stats": stats,
            "split": split_kink, "t_end": t_end}


# ---------------------------------------------------------------------------
# Stick-slip cycles
SLIP_LEVEL = 10.0 * VS    # m/s: a slip is an excursion v > vth reaching this speed


def slips(run, vth):
    """Slip intervals (t_on, t_off) for the stick threshold vth.

    The mass slips from an upward crossing of v = +vth to the next downward
    crossing of v = +vth, provided v exceeds SLIP_LEVEL in between; it sticks
    otherwise (creep before break-away, bristle ringing after a slip with v
    down to about -3.3e-4 m/s and up to 6.3e-5 m/s, are part of the stick).
    A slip still under way at the end of the run has t_off = None.
    """
    crossings = sorted([(t, +1) for t, _ in run["hits"][("up", vth)]]
                       + [(t, -1) for t, _ in run["hits"][("down", vth)]])
    peaks = [t for t, y in run["hits"]["vmax"] if y[1] > SLIP_LEVEL]
    out = []
    i = 0
    while i < len(crossings):
        t_up, kind = crossings[i]
        if kind != +1:
            i += 1
            continue
        t_down = crossings[i + 1][0] if i + 1 < len(crossings) else None
        hi = t_down if t_down is not None else math.inf
        if any(t_up < p < hi for p in peaks):
            out.append((t_up, t_down))
        i += 2
    return out


def cycles(run, vth):
    """Full cycles (stick onset to next stick onset) with their numbers."""
    sl = slips(run, vth)
    downs = dict(run["hits"][("down", vth)])
    kinks = run["hits"]["v0"]
    fmax = run["hits"]["fmax"]
    fmin = run["hits"]["fmin"]
    vmax = run["hits"]["vmax"]
    out = []
    for k in range(len(sl) - 1):
        t0 = sl[k][1]
        t_on, t1 = sl[k + 1]
        if t0 is None or t1 is None:
            continue
        y0 = downs[t0]
        y1 = downs[t1]
        inside = [(t, y) for t, y in kinks if t0 < t < t1]
        xs = [y0[0], y1[0]] + [y[0] for _, y in inside]
        fcand = [(t0, friction_of_state(y0)), (t1, friction_of_state(y1))]
        fcand += [(t, friction_of_state(y)) for t, y in inside]
        fcand += [(t, friction_of_state(y)) for t, y in fmax + fmin if t0 < t < t1]
        t_break, f_break = max(fcand, key=lambda p: p[1])
        _, f_min = min(fcand, key=lambda p: p[1])
        v_peak = max(y[1] for t, y in vmax if t0 < t < t1)
        t_turn, y_turn = min(((t, y) for t, y in kinks if t > t_on), key=lambda p: p[0])
        out.append({
            "stick_onset": t0, "slip_onset": t_on, "next_stick_onset": t1,
            "stick_duration": t_on - t0, "slip_duration": t1 - t_on, "period": t1 - t0,
            "x_min": min(xs), "x_max": max(xs), "x_stick": y0[0],
            "breakaway_time": t_break, "breakaway_friction": f_break,
            "friction_min": f_min, "v_max": v_peak,
            "turn_time": t_turn, "turn_x": y_turn[0],
        })
    return out


def last_cycle(run, vth=STICK_THRESHOLD):
    cyc = cycles(run, vth)
    if not cyc:
        raise RuntimeError("no full stick-slip cycle in the run")
    c = dict(cyc[-1])
    sl = slips(run, vth)
    c["slips_in_run"] = len(sl)
    c["first_slip_onset"] = sl[0][0]
    c["cycles_in_run"] = len(cyc)
    return c


CYCLE_ROWS = [
    # (key, unit, description)
    ("stick_threshold", "m/s", None),
    ("stick_onset", "s", "start of the last full cycle: v falls below +vth after a slip"),
    ("slip_onset", "s", "v rises above +vth (break-away)"),
    ("next_stick_onset", "s", "end of the last full cycle"),
    ("stick_duration", "s", None),
    ("slip_duration", "s", None),
    ("period", "s", None),
    ("x_min", "m", None),
    ("x_max", "m", None),
    ("breakaway_time", "s", "time of the largest friction force in the cycle"),
    ("breakaway_friction", "N", None),
    ("friction_min", "N", None),
    ("v_max", "m/s", None),
    ("turn_time", "s", "first zero of v after the slip (threshold-free end of the slip)"),
    ("turn_x", "m", "x there (the local maximum of x)"),
    ("first_slip_onset", "s", None),
    ("slips_in_run", "1", None),
    ("cycles_in_run", "1", None),
]


# ---------------------------------------------------------------------------
def versions():
    return (f"Python {platform.python_version()}, NumPy {np.__version__}, "
            f"SciPy {scipy.__version__}")


def max_diffs(a, b):
    d = np.abs(a["rows"] - b["rows"])
    return d[:, 1:].max(axis=0)


def where_max(a, b):
    d = np.abs(a["rows"] - b["rows"])
    return [a["rows"][int(i), 0] for i in d[:, 1:].argmax(axis=0)]


def cycle_diffs(a, b, keys=("stick_onset", "slip_onset", "stick_duration", "slip_duration",
                            "period", "x_min", "x_max", "breakaway_friction", "v_max", "turn_time")):
    ca, cb = last_cycle(a), last_cycle(b)
    return {k: abs(ca[k] - cb[k]) for k in keys}


def describe(run):
    s = run["stats"]
    label = f"{run['method']} rtol={run['rtol']:.0e}"
    if not run["split"]:
        label += " (no split at v=0)"
    if run.get("dense"):
        label += " (dense-output samples)"
    return (f"{label:<42s} steps {s['steps']:6d}  nfev {s['nfev']:7d}  njev {int(s['njev']):5d}  "
            f"nlu {int(s['nlu']):6d}  v=0 restarts {s['kinks']:3d}  {s['seconds']:6.1f} s")


def print_table(title, runs, ref):
    print(f"\n{title} (max |difference| over the 2001 samples against {ref['method']} rtol={ref['rtol']:.0e})")
    print(f"{'run':<42s} {'x [m]':>9s} {'v [m/s]':>9s} {'z [m]':>9s} {'F [N]':>9s}   at t (x, v, z, F)")
    for r in runs:
        d = max_diffs(r, ref)
        w = where_max(r, ref)
        label = f"{r['method']} rtol={r['rtol']:.0e}" + ("" if r["split"] else " no split") \
            + (" dense" if r.get("dense") else "")
        print(f"{label:<42s} " + " ".join(f"{x:9.2e}" for x in d) + "   " + ", ".join(f"{t:.2f}" for t in w))
    print(f"{'run':<42s} " + " ".join(f"{k[:9]:>9s}" for k in ("t_stick", "t_slip", "stick", "slip", "period",
                                                                "x_min", "x_max", "F_break", "v_max",
                                                                "t_turn")))
    for r in runs:
        label = f"{r['method']} rtol={r['rtol']:.0e}" + ("" if r["split"] else " no split") \
            + (" dense" if r.get("dense") else "")
        cd = cycle_diffs(r, ref)
        print(f"{label:<42s} " + " ".join(f"{v:9.2e}" for v in cd.values()))


def write_csv(run, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(f"# LuGre stick-slip example (Canudas de Wit et al., IEEE TAC 40(3) 1995): "
                f"m x'' = k (vd t - x) - F, x(0) = v(0) = z(0) = 0\n")
        f.write(f"# sigma0 = {SIGMA0:g} N/m, sigma1 = sqrt(1e5) = {SIGMA1!r} N s/m, sigma2 = {SIGMA2:g} N s/m, "
                f"Fc = {FC:g} N, Fs = {FS:g} N, vs = {VS:g} m/s, m = {MASS:g} kg, k = {K_SPRING:g} N/m, "
                f"vd = {V_DRIVE:g} m/s\n")
        f.write(f"# command: {COMMAND}   (from the repository root)\n")
        f.write(f"# method: scipy.integrate.solve_ivp Radau, analytic Jacobian, restart at every zero of v "
                f"(|v| kink), stop at every output time\n")
        f.write(f"# tolerances: rtol = {run['rtol']:.0e}, atol = rtol * (1 m, {VS:g} m/s, {FC / SIGMA0:g} m) "
                f"for (x, v, z)\n")
        f.write(f"# versions: {versions()}\n")
        f.write("# columns: t [s], x [m], v = dx/dt [m/s], z [m] (bristle deflection), "
                "friction = sigma0 z + sigma1 dz/dt + sigma2 v [N]\n")
        f.write("t,x,v,z,friction\n")
        for row in run["rows"]:
            t = round(float(row[0]), 12)
            f.write(f"{t:.12g}," + ",".join(f"{float(x):.17g}" for x in row[1:]) + "\n")


def write_cycle_csv(run, path):
    c = last_cycle(run)
    c["stick_threshold"] = STICK_THRESHOLD
    with open(path, "w") as f:
        f.write("quantity,value,unit\n")
        for key, unit, _ in CYCLE_ROWS:
            value = c[key]
            if unit == "1":
                f.write(f"{key},{int(value)},{unit}\n")
            else:
                f.write(f"{key},{float(value):.15g},{unit}\n")
    return c


def main():
    print(versions())
    print(f"command: {COMMAND}")
    t_start = time.perf_counter()
    thresholds = sorted(set(THRESHOLDS) | {-STICK_THRESHOLD})

    def run(method, rtol, **kw):
        r = integrate(method, rtol, use_jac=(method != "DOP853"), thresholds=thresholds, **kw)
        r["dense"] = not kw.get("stop_at_samples", True)
        print(describe(r), flush=True)
        return r

    print("\nRuns on [0, 20] s:")
    sweep = [run("Radau", rt) for rt in SWEEP_RTOLS]
    finest = run("Radau", EXTRA_RTOL)
    checks = [run(m, rt) for m in ("BDF", "LSODA", "DOP853") for rt in (1e-10, EXTRA_RTOL)]
    variants = [run("Radau", EXTRA_RTOL, split_kink=False),
                run("Radau", EXTRA_RTOL, stop_at_samples=False)]

    print_table("Tolerance sweep", sweep, finest)
    print_table("Cross-checks", checks, finest)
    print_table("Variants of the finest run", variants, finest)

    # the cycle numbers and their sensitivity to the stick threshold
    c = last_cycle(finest)
    print(f"\nLast full cycle of the finest run, stick threshold {STICK_THRESHOLD:g} m/s:")
    for key, unit, _ in CYCLE_ROWS[1:]:
        print(f"  {key:<20s} {c[key]:.12g} {unit}")
    neg = [t for t, _ in finest["hits"][("up", -STICK_THRESHOLD)] if c["stick_onset"] < t < c["slip_onset"]]
    print(f"  v < -{STICK_THRESHOLD:g} m/s after the stick onset until t = "
          f"{max(neg) if neg else float('nan'):.12g} s (bristle ringing)")
    v0 = [t for t, _ in finest["hits"]["v0"] if c["stick_onset"] - 0.1 < t < c["slip_onset"]]
    print(f"  zeros of v around the stick onset: " + ", ".join(f"{t:.9g}" for t in v0))

    print("\nSensitivity to the stick threshold vth (last full cycle of the finest run):")
    print(f"{'vth [m/s]':>10s} {'stick on':>14s} {'slip on':>14s} {'stick [s]':>14s} {'slip [s]':>14s} "
          f"{'period [s]':>14s} {'x_min [m]':>14s} {'x_max [m]':>14s}")
    for vth in THRESHOLDS:
        cc = cycles(finest, vth)[-1]
        print(f"{vth:10.0e} " + " ".join(f"{cc[k]:14.9f}" for k in (
            "stick_onset", "slip_onset", "stick_duration", "slip_duration", "period", "x_min", "x_max")))

    print(f"\nPeriodicity: Radau rtol={EXTRA_RTOL:.0e} on [0, {LONG_T_END:g}] s, all full cycles "
          f"(vth = {STICK_THRESHOLD:g} m/s):")
    long_run = integrate("Radau", EXTRA_RTOL, t_end=LONG_T_END, thresholds=thresholds)
    print(describe(long_run))
    d = np.abs(long_run["rows"][: finest["rows"].shape[0]] - finest["rows"]).max(axis=0)
    print("  long run against the [0, 20] run on [0, 20] (same steps, so identical): max |diff| x, v, z, F = "
          + " ".join(f"{x:.2e}" for x in d[1:]))
    print(f"{'cycle':>5s} {'stick on':>14s} {'stick [s]':>14s} {'slip [s]':>14s} {'period [s]':>14s} "
          f"{'x_max-x_min':>14s} {'F_break [N]':>14s} {'F_min [N]':>14s} {'v_max [m/s]':>14s}")
    for i, cc in enumerate(cycles(long_run, STICK_THRESHOLD)):
        print(f"{i + 1:5d} " + " ".join(f"{cc[k]:14.10f}" for k in (
            "stick_onset", "stick_duration", "slip_duration", "period")) + " "
              + f"{cc['x_max'] - cc['x_min']:14.10f} {cc['breakaway_friction']:14.10f} "
              f"{cc['friction_min']:14.10f} {cc['v_max']:14.10f}")
    print("  slip onsets:", ", ".join(f"{a:.9g}" for a, _ in slips(long_run, STICK_THRESHOLD)))
    cyc = cycles(long_run, STICK_THRESHOLD)
    keys = ("stick_duration", "slip_duration", "period", "breakaway_friction", "friction_min", "v_max")
    print("  max |difference| between consecutive cycles: " + ", ".join(
        f"{k} {max(abs(a[k] - b[k]) for a, b in zip(cyc, cyc[1:])):.1e}" for k in keys)
        + f", x_max - x_min {max(abs((a['x_max'] - a['x_min']) - (b['x_max'] - b['x_min'])) for a, b in zip(cyc, cyc[1:])):.1e}")
    print(f"  first full cycle against the last full cycle of [0, 20]: " + ", ".join(
        f"{k} {abs(cyc[0][k] - c[k]):.1e}" for k in keys))

    # initial transient
    tr = [(t, y) for t, y in finest["hits"]["vmax"] if t < 1.0]
    print("\nInitial transient: local maxima of v before t = 1 s: "
          + ", ".join(f"t = {t:.6g} s: v = {y[1]:.6g} m/s" for t, y in tr))

    csv_path = os.path.join(OUT_DIR, "lugre.csv")
    cyc_path = os.path.join(OUT_DIR, "lugre-cycle.csv")
    write_csv(finest, csv_path)
    write_cycle_csv(finest, cyc_path)
    print(f"\nwrote {csv_path} ({finest['rows'].shape[0]} rows) and {cyc_path}")
    print(f"total run time {time.perf_counter() - t_start:.0f} s")


if __name__ == "__main__":
    if not os.path.isdir("reference-data"):
        sys.exit("run from the repository root: python3 reference-data/generate/lugre_scipy.py")
    main()
