#!/usr/bin/env python3
"""The LuGre stick-slip reference (reference-data/stick-slip/lugre.csv, made
by lugre_scipy.py) rewritten in the belt frame of the harness's `stick-slip`
kind, with no new integration of the trajectory.

The harness's belt system: a mass m on a belt moving at v_b > 0, held by a
spring k to a wall at X = 0; the friction T on the mass opposes the slip
u = V - v_b:

    m X'' + k X = T.

The LuGre example (m x'' = k (vd t - x) - F, mass on fixed ground, spring end
pulled at vd, F the LuGre force opposing v = x') is the same system seen from
the pulled end of the spring:

    X = vd t - x,   V = X' = vd - v,   v_b = vd,   u = V - v_b = -v,
    m X'' = -m x'' = -k X + F,  so  T = +F,
    z_belt = -z     (the bristle deflection defined relative to the slip u:
                     dz_belt/dt = u - sigma0 |u| z_belt / g(u),
                     T = -(sigma0 z_belt + sigma1 dz_belt/dt + sigma2 u) = F).

Initial state X(0) = 0, V(0) = vd = v_b: stuck with the belt.

Writes, from the repository root,
  reference-data/stick-slip/lugre-belt.csv   comment lines (#), then
      t,x,v,slip,friction,z at the 2001 times of lugre.csv, with
      t copied verbatim, x = X = vd t - x_lugre, v = V = vd - v_lugre,
      slip = V - v_b = -v_lugre (exact negation), friction = T = F_lugre
      (copied), z = z_belt = -z_lugre (exact negation)
and prints the checks and the belt-frame x_min / x_max of the last full
cycle (the [stick_onset, next_stick_onset] window of lugre-cycle.csv):
the sample values, and precise values from the samples by re-integrating the
model over the one 0.01 s sample interval that holds each extremum
(solve_ivp Radau, rtol = 1e-13, the right-hand side and Jacobian of
lugre_scipy.py, started from the CSV sample), cross-checked with DOP853 and
with quintic Hermite interpolation of the samples (X, X' and
X'' = (T - k X) / m at both ends). reference-data/stick-slip/SOURCE.md
records that output.

Usage (from the repository root):
  python3 -m pip install numpy scipy
  python3 reference-data/generate/lugre_belt_frame.py
It reads lugre.csv and lugre-cycle.csv and does not regenerate them. It
imports the model (parameters, right-hand side, Jacobian) from lugre_scipy.py
in this folder, so the two cannot disagree; it shares no code with the Rust
crate. Run time: a few seconds.
"""

import hashlib
import math
import os
import platform
import sys

import numpy as np
import scipy
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lugre_scipy as lg  # noqa: E402  (the model: parameters, rhs, Jacobian)

SRC_DIR = os.path.join("reference-data", "stick-slip")
SRC_CSV = os.path.join(SRC_DIR, "lugre.csv")
CYCLE_CSV = os.path.join(SRC_DIR, "lugre-cycle.csv")
OUT_CSV = os.path.join(SRC_DIR, "lugre-belt.csv")
COMMAND = "python3 reference-data/generate/lugre_belt_frame.py"
VB = lg.V_DRIVE           # belt speed v_b = vd [m/s]
RTOL = 1e-13              # re-integration over one sample interval


def versions():
    return (f"Python {platform.python_version()}, NumPy {np.__version__}, "
            f"SciPy {scipy.__version__}")


def read_lugre(path):
    """Comment lines, the t strings (verbatim) and the float columns."""
    comments, tstr, rows = [], [], []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                comments.append(line)
            elif line.startswith("t,"):
                if line != "t,x,v,z,friction":
                    sys.exit(f"unexpected header in {path}: {line}")
            elif line:
                parts = line.split(",")
                tstr.append(parts[0])
                rows.append([float(p) for p in parts])
    return comments, tstr, np.array(rows)


def read_cycle(path):
    out = {}
    with open(path) as f:
        next(f)
        for line in f:
            key, value, _ = line.strip().split(",")
            out[key] = float(value)
    return out


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def g_of(v):
    return lg.FC + (lg.FS - lg.FC) * math.exp(-(v / lg.VS) ** 2)


def reintegrate(row, t_target=None, event_dir=None, method="Radau"):
    """Integrate the LuGre model (original frame) from one CSV sample row
    (t, x, v, z, F) to t_target, or to the first root of v - vd with the
    given direction within the next sample interval. v > 0 on these
    intervals (checked), so the smooth segment s = +1 applies.
    Returns (t, x, v, z)."""
    t0, x0, v0, z0, _ = row
    t_end = t0 + lg.DT_OUT if t_target is None else t_target
    kw = {"jac": lg.make_jac(1.0)} if method == "Radau" else {}
    events = []
    if event_dir is not None:
        def ev(t, y):
            return y[1] - VB
        ev.terminal = True
        ev.direction = event_dir
        events.append(ev)

    def v_zero(t, y):
        return y[1]
    v_zero.terminal = True
    v_zero.direction = -1.0
    events.append(v_zero)
    sol = solve_ivp(lg.make_rhs(1.0), (t0, t_end), np.array([x0, v0, z0]), method=method,
                    rtol=RTOL, atol=RTOL * lg.STATE_SCALE, events=events, **kw)
    if sol.status < 0:
        raise RuntimeError(sol.message)
    if len(sol.t_events[-1]):
        raise RuntimeError(f"v reached 0 on [{t0}, {t_end}]: the s = +1 segment does not apply")
    if event_dir is not None:
        if not len(sol.t_events[0]):
            raise RuntimeError(f"no v = vd crossing on [{t0}, {t_end}]")
        return (sol.t_events[0][0], *sol.y_events[0][0])
    return (sol.t[-1], *sol.y[:, -1])


def hermite_extremum(ta, tb, Xa, Xb, Va, Vb, Aa, Ab):
    """Quintic Hermite interpolant of X on [ta, tb] from X, X', X'' at both
    ends; returns (t, X) at the root of its derivative inside the interval."""
    h = tb - ta

    def basis(s):
        # quintic Hermite basis on [0, 1]: values, first and second derivatives
        s2, s3, s4, s5 = s * s, s ** 3, s ** 4, s ** 5
        h0 = 1 - 10 * s3 + 15 * s4 - 6 * s5
        h1 = s - 6 * s3 + 8 * s4 - 3 * s5
        h2 = 0.5 * (s2 - 3 * s3 + 3 * s4 - s5)
        h5 = 10 * s3 - 15 * s4 + 6 * s5
        h4 = -4 * s3 + 7 * s4 - 3 * s5
        h3 = 0.5 * (s3 - 2 * s4 + s5)
        return h0, h1, h2, h3, h4, h5

    def X(s):
        h0, h1, h2, h3, h4, h5 = basis(s)
        return h0 * Xa + h1 * h * Va + h2 * h * h * Aa + h5 * Xb + h4 * h * Vb + h3 * h * h * Ab

    # the interpolant as a polynomial in s (exact: degree 5 through 7 points)
    ss = np.linspace(0.0, 1.0, 7)
    coef = np.polyfit(ss, [X(s) for s in ss], 5)
    dcoef = np.polyder(coef)
    roots = [r.real for r in np.roots(dcoef) if abs(r.imag) < 1e-12 and 0.0 <= r.real <= 1.0]
    if len(roots) != 1:
        raise RuntimeError(f"Hermite interpolant on [{ta}, {tb}]: {len(roots)} extrema")
    s = brentq(lambda s: np.polyval(dcoef, s), max(0.0, roots[0] - 1e-3), min(1.0, roots[0] + 1e-3))
    return ta + s * h, X(s)


def main():
    print(versions())
    print(f"command: {COMMAND}")
    comments, tstr, d = read_lugre(SRC_CSV)
    cyc = read_cycle(CYCLE_CSV)
    if d.shape != (2001, 5):
        sys.exit(f"{SRC_CSV}: expected 2001 rows of t,x,v,z,friction, got {d.shape}")
    t, x, v, z, F = d.T
    X = VB * t - x
    V = VB - v
    slip = -v + 0.0       # + 0.0: writes 0, not -0, where v = 0
    T = F.copy()
    zb = -z + 0.0

    # ---------------------------------------------------------------- checks
    print("\nChecks:")
    print(f"  X(0) = {X[0]:.17g}, V(0) = {V[0]:.17g} (v_b = {VB!r}), slip(0) = {slip[0]:.17g}, z(0) = {zb[0]:.17g}")
    # V - v_b in floating point against the exact -v
    print(f"  max |(V - v_b) - (-v)| in floating point: {np.max(np.abs((V - VB) - slip)):.1e} m/s")
    # belt-frame LuGre law reproduces T from the written columns (sign conventions)
    tcheck = []
    for u, zz in zip(slip, zb):
        zd = u - lg.SIGMA0 * abs(u) * zz / g_of(u)
        tcheck.append(-(lg.SIGMA0 * zz + lg.SIGMA1 * zd + lg.SIGMA2 * u))
    dT = np.abs(np.array(tcheck) - T)
    print(f"  T = -(sigma0 z_b + sigma1 dz_b/dt + sigma2 u), dz_b/dt = u - sigma0 |u| z_b / g(u), "
          f"from the written slip, z columns: max |T - friction| = {dT.max():.1e} N")
    # m X'' + k X = T by central differences of V (rough: 0.01 s spacing)
    acc_fd = (V[2:] - V[:-2]) / (2 * lg.DT_OUT)
    resid = lg.MASS * acc_fd + lg.K_SPRING * X[1:-1] - T[1:-1]
    print(f"  m X'' + k X - T with X'' by central differences of V: median |residual| "
          f"{np.median(np.abs(resid)):.1e} N (difference-quotient error; max {np.abs(resid).max():.1e} N)")

    t0, t_on, t1 = cyc["stick_onset"], cyc["slip_onset"], cyc["next_stick_onset"]
    stick = (t >= t0) & (t <= t_on)
    late = (t >= t0 + 0.04) & (t <= t_on)
    i_stick = np.flatnonzero(stick)
    print(f"  stick phase [{t0:.6f}, {t_on:.6f}] s ({stick.sum()} samples): max |slip| = "
          f"{np.abs(slip[stick]).max():.2e} m/s (ringing; at t = {t[i_stick[np.argmax(np.abs(slip[stick]))]]:.2f}), "
          f"from 40 ms after the stick onset: max |slip| = {np.abs(slip[late]).max():.2e} m/s, "
          f"V within [{V[stick].min():.9f}, {V[stick].max():.9f}] m/s")
    slip_phase = (t > t_on) & (t < t1)
    print(f"  slip phase: min slip = {slip[slip_phase].min():.6f} m/s (-v_max), "
          f"belt-frame T range in the cycle [{T[(t >= t0) & (t <= t1)].min():.6f}, "
          f"{T[(t >= t0) & (t <= t1)].max():.6f}] N")

    # ------------------------------------------------ cycle extremes of X
    w = np.flatnonzero((t >= t0) & (t <= t1))
    i_max = w[np.argmax(X[w])]
    i_min = w[np.argmin(X[w])]
    print(f"\nLast full cycle [stick_onset, next_stick_onset] = [{t0!r}, {t1!r}] s "
          f"(lugre-cycle.csv), samples t = {t[w[0]]:.2f} .. {t[w[-1]]:.2f} s ({len(w)} samples)")
    print(f"  sample x_max = {X[i_max]:.17g} m at t = {tstr[i_max]}")
    print(f"  sample x_min = {X[i_min]:.17g} m at t = {tstr[i_min]}")

    # precise: X' = vd - v = 0 at v = vd; X has a local max where v rises
    # through vd (early in the slip) and a local min where v falls through vd
    # (end of the slip). Bracket each sign change of V among the window's
    # samples and re-integrate over that one 0.01 s interval.
    results = {}
    for name, direction in (("x_max", +1.0), ("x_min", -1.0)):
        cands = [k for k in range(w[0] - 1, w[-1] + 1)
                 if (V[k] > 0) != (V[k + 1] > 0) and (direction > 0) == (V[k] > 0)]
        # direction of v: v rises through vd <=> V falls from + to -
        if len(cands) != 1:
            sys.exit(f"{name}: expected one sign change of V in the window, got {cands}")
        k = cands[0]
        te, xe, ve, ze = reintegrate(d[k], event_dir=direction)
        te8, xe8, _, _ = reintegrate(d[k], event_dir=direction, method="DOP853")
        ae = lambda i: (T[i] - lg.K_SPRING * X[i]) / lg.MASS  # noqa: E731  X'' = (T - k X) / m
        th, Xh = hermite_extremum(t[k], t[k + 1], X[k], X[k + 1], V[k], V[k + 1], ae(k), ae(k + 1))
        Xe, Xe8 = float(VB * te - xe), float(VB * te8 - xe8)
        te, te8, th, Xh = float(te), float(te8), float(th), float(Xh)
        Te = float(lg.friction_force(ve, ze, 1.0))
        results[name] = (te, Xe)
        print(f"  {name}: V changes sign between t = {tstr[k]} and {tstr[k + 1]} s")
        print(f"    Radau re-integration from the t = {tstr[k]} sample: t = {te!r} s, X = {Xe!r} m "
              f"(there T = {Te:.12g} N, k X = {lg.K_SPRING * Xe:.12g} N, X'' = {(Te - lg.K_SPRING * Xe) / lg.MASS:.6g} m/s^2)")
        print(f"    DOP853 re-integration:                     t = {te8!r} s, X = {Xe8!r} m "
              f"(|dt| {abs(te8 - te):.1e} s, |dX| {abs(Xe8 - Xe):.1e} m)")
        print(f"    quintic Hermite of the two samples:         t = {th!r} s, X = {Xh!r} m "
              f"(|dt| {abs(th - te):.1e} s, |dX| {abs(Xh - Xe):.1e} m)")
        i_s = i_max if name == "x_max" else i_min
        print(f"    sample value - precise value: {X[i_s] - Xe:.2e} m")

    # the window's end points (X is rising at both: v < vd there)
    ends = {}
    for name, tt in (("stick_onset", t0), ("next_stick_onset", t1)):
        k = int(np.searchsorted(t, tt)) - 1
        te, xe, ve, ze = reintegrate(d[k], t_target=tt)
        ends[name] = float(VB * te - xe)
        print(f"  X({name} = {tt!r}) = {ends[name]!r} m (re-integrated from t = {tstr[k]}), "
              f"V = {VB - ve:.9f} m/s")
    lo = min(results["x_min"][1], ends["stick_onset"], ends["next_stick_onset"])
    hi = max(results["x_max"][1], ends["stick_onset"], ends["next_stick_onset"])
    print(f"  window extremes (interior extrema and end points): x_min = {lo!r} m, x_max = {hi!r} m")
    print(f"  spring force k X: min {lg.K_SPRING * lo:.12g} N, max {lg.K_SPRING * hi:.12g} N; "
          f"x_max - x_min = {hi - lo:.12g} m")
    print(f"  original-frame x_min, x_max (lugre-cycle.csv): {cyc['x_min']!r}, {cyc['x_max']!r} m")

    # ------------------------------------------------------------- write
    with open(OUT_CSV, "w") as f:
        f.write("# LuGre stick-slip example in the belt frame of the harness's stick-slip kind: "
                "m X'' + k X = T, T opposing the slip u = V - v_b\n")
        f.write(f"# transform of {SRC_CSV} (sha256 {sha256(SRC_CSV)}), not a new integration: "
                f"X = vd t - x, V = vd - v, v_b = vd = {VB:g} m/s, slip = V - v_b = -v, T = +F, z_belt = -z\n")
        f.write("# belt-frame LuGre law: dz_belt/dt = u - sigma0 |u| z_belt / g(u), "
                "T = -(sigma0 z_belt + sigma1 dz_belt/dt + sigma2 u), g(u) = Fc + (Fs - Fc) exp(-(u/vs)^2); "
                "initial state X = 0, V = v_b (stuck), z_belt = 0\n")
        f.write(f"# command: {COMMAND}   (from the repository root)\n")
        f.write(f"# versions: {versions()}\n")
        f.write("# columns: t [s] (copied from lugre.csv), x = X [m], v = V = dX/dt [m/s], "
                "slip = V - v_b [m/s] (written as -v exactly), friction = T [N] (copied), "
                "z = z_belt [m] (-z exactly)\n")
        for c in comments:
            f.write(f"# source {c[1:].lstrip()}\n")
        f.write("t,x,v,slip,friction,z\n")
        for i in range(len(t)):
            f.write(tstr[i] + "," + ",".join(f"{float(q):.17g}" for q in (X[i], V[i], slip[i], T[i], zb[i]))
                    + "\n")
    print(f"\nwrote {OUT_CSV} ({len(t)} rows)")


if __name__ == "__main__":
    if not os.path.isdir("reference-data"):
        sys.exit("run from the repository root: python3 reference-data/generate/lugre_belt_frame.py")
    main()
