"""Independent references for the studies chain-1000 and chain-1000-work-precision
(experiments/chain-1000.toml, experiments/chain-1000-work-precision.toml).

Three files, all computed with NumPy/SciPy only (no code shared with the Rust
crate):

1. reference-data/chain-1000/trapezoidal-peer.csv: the same discretisation
   as the harness's `newmark-lcp` (trapezoidal rule = Bossak-Newmark with
   alpha_b = 0, dt = 0.01 s) solved by a different algorithm in a different
   tool: each step's equation K_eff x + D^T K_g max(0, D x - g) = r is
   solved by a primal-dual active-set (semi-smooth Newton) iteration with
   scipy.sparse.linalg.spsolve. Both solve the same discrete equations
   exactly, so they must agree to rounding.
2. reference-data/chain-1000/dop853.csv: the ODE itself integrated by SciPy's
   DOP853 (rtol 1e-8, atol 1e-12): a reference for the physics, against which
   the harness reports the Newmark discretisation error.
   Files 1 and 2: columns t, then x<j> and v<j> for the sampled masses j
   (0, 250, 500, 750, 999) over [0, 3] s: file 1 at every step (0.01 s),
   file 2 every 0.05 s.
3. reference-data/chain-1000/dop853-fine.csv (--fine): the ODE over [0, 1] s
   by solve_ivp DOP853 at rtol 1e-9, 1e-10, 1e-11, 1e-12, 1e-13 (atol =
   rtol * 1e-2), the finest written; same columns every 0.01 s (101 rows).
   Its accuracy is measured, not assumed: solve_ivp steps across the kinks of
   max(0, .), so the mode also integrates the ODE "event-located" (every gap
   crossing located on the dense output and the integration restarted there,
   so no step straddles a kink) with DOP853 at rtol 1e-12 and 3e-14 and with
   Radau (an implicit method, sparse Jacobian) at rtol 1e-10, and prints the
   tolerance-sweep table, the cross-checks and the error of dop853.csv on
   [0, 1] s. About 15 minutes on one core (Radau: 9).

Run from the repository root:
    python3 -m pip install numpy scipy
    python3 reference-data/generate/chain_scipy.py              # files 1 and 2
    python3 reference-data/generate/chain_scipy.py --peer-only  # file 1
    python3 reference-data/generate/chain_scipy.py --fine       # file 3 only (reads file 2)
"""
import sys
import time

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as spl
from scipy.integrate import DOP853, Radau, solve_ivp
from scipy.optimize import brentq

# The chain of experiments/chain-1000.toml.
N = 1000
MASS = 1.0
SPRING = 4.0e4
DAMPER = 2.0
GAP_STIFFNESS = 4.0e4
GAPS = np.array([0.010, 0.015, 0.012])[np.arange(N) % 3]
SIDES = np.array([1.0, -1.0])[np.arange(N) % 2]
AMPLITUDE = 60.0
OMEGA = 10.0
DT = 0.01
T_END = 3.0
SAMPLE = 0.05
DOFS = [0, 250, 500, 750, 999]


def tridiagonal(value):
    """Springs (or dashpots) between neighbours and from mass 0 to the wall."""
    main = np.full(N, 2.0 * value)
    main[-1] = value
    off = np.full(N - 1, -value)
    return sp.diags([main, off, off], [0, 1, -1]).tocsc()


K = tridiagonal(SPRING)
C = tridiagonal(DAMPER)
M = sp.identity(N, format="csc") * MASS
F = np.full(N, AMPLITUDE)


def gap_force(x):
    """Generalised gap-spring force D^T K_g max(0, D x - g) (D = diag(sides))."""
    return SIDES * GAP_STIFFNESS * np.maximum(0.0, SIDES * x - GAPS)


def sample_times(t_end=T_END, every=SAMPLE):
    return np.round(np.arange(0.0, t_end + 1e-12, every), 12)


def write(path, times, xs, vs, header_note):
    cols = ["t"] + [f"x{j}" for j in DOFS] + [f"v{j}" for j in DOFS]
    rows = np.column_stack([times] + [xs[:, j] for j in DOFS] + [vs[:, j] for j in DOFS])
    with open(path, "w") as out:
        for note in [header_note] if isinstance(header_note, str) else header_note:
            out.write(f"# {note}\n")
        out.write(f"# numpy {np.__version__}, scipy {scipy.__version__}, python {sys.version.split()[0]}\n")
        out.write(",".join(cols) + "\n")
        for r in rows:
            out.write(",".join(f"{v:.17g}" for v in r) + "\n")


def trapezoidal_peer(sample=SAMPLE):
    beta, gamma = 0.25, 0.5
    keff = (K + (gamma / (beta * DT)) * C + M / (beta * DT * DT)).tocsc()
    x = np.zeros(N)
    v = np.zeros(N)
    a = spl.spsolve(M, F - C @ v - K @ x - gap_force(x))
    active = np.zeros(N, dtype=bool)
    steps = int(round(T_END / DT))
    every = int(round(sample / DT))
    xs, vs = [x.copy()], [v.copy()]
    iterations = 0
    for step in range(1, steps + 1):
        t = step * DT
        xt = x + DT * v + DT * DT * (0.5 - beta) * a
        vt = v + DT * (1.0 - gamma) * a
        r = F * np.cos(OMEGA * t) + M @ (xt / (beta * DT * DT)) + C @ ((gamma / (beta * DT)) * xt - vt)
        for _ in range(100):
            kg = GAP_STIFFNESS * active
            jac = keff + sp.diags(kg)
            x_new = spl.spsolve(jac.tocsc(), r + kg * SIDES * GAPS)
            iterations += 1
            new_active = SIDES * x_new - GAPS > 0.0
            if np.array_equal(new_active, active):
                break
            active = new_active
        else:
            raise RuntimeError(f"active set did not settle at step {step}")
        a_new = (x_new - xt) / (beta * DT * DT)
        v = vt + gamma * DT * a_new
        a = a_new
        x = x_new
        if step % every == 0:
            xs.append(x.copy())
            vs.append(v.copy())
    print(f"trapezoidal peer: {steps} steps, {iterations} Newton iterations")
    return np.array(xs), np.array(vs)


def rhs(t, z):
    """The ODE as a first-order system, z = (x, v)."""
    x, v = z[:N], z[N:]
    return np.concatenate([v, (F * np.cos(OMEGA * t) - C @ v - K @ x - gap_force(x)) / MASS])


def dop853():
    start = time.time()
    sol = solve_ivp(rhs, (0.0, T_END), np.zeros(2 * N), method="DOP853", rtol=1e-8, atol=1e-12, t_eval=sample_times())
    if not sol.success:
        raise RuntimeError(sol.message)
    print(f"DOP853: {sol.nfev} evaluations, {time.time() - start:.0f} s")
    return sol.y[:N].T, sol.y[N:].T


# --fine: an accurate ODE reference over [0, 1] s, sampled every 0.01 s.
FINE_T_END = 1.0
FINE_SAMPLE = 0.01
FINE_RTOLS = [1e-9, 1e-10, 1e-11, 1e-12, 1e-13]
# atol = rtol * 1e-2: x is of order 1e-2 m, so a displacement near zero is held to
# the same absolute accuracy as one at a typical amplitude; v (~1 m/s) is held
# tighter than relative. The same ratio at every rtol keeps the sweep one-parameter.
FINE_ATOL_PER_RTOL = 1e-2
# The event-located cross-checks (see event_located).
CHECK_DOP853_RTOLS = [1e-12, 3e-14]  # 3e-14: just above solve_ivp's floor 100 eps
CHECK_RADAU_RTOL = 1e-10


def plain(method, rtol, atol, times, **options):
    """solve_ivp on rhs across the kinks of max(0, .); samples from the dense output (t_eval)."""
    start = time.time()
    sol = solve_ivp(rhs, (0.0, times[-1]), np.zeros(2 * N), method=method, rtol=rtol, atol=atol, t_eval=times, **options)
    if not sol.success:
        raise RuntimeError(sol.message)
    return dict(xs=sol.y[:N].T, vs=sol.y[N:].T, nfev=sol.nfev, seconds=time.time() - start)


def frozen(active):
    """rhs and its (constant) Jacobian with the set of closed gaps frozen: the
    gap springs in `active` act linearly, the others not at all. Equal to rhs
    wherever active == (SIDES * x - GAPS > 0); smooth everywhere."""
    kg = GAP_STIFFNESS * active
    offset = kg * SIDES * GAPS

    def fun(t, z):
        x, v = z[:N], z[N:]
        return np.concatenate([v, (F * np.cos(OMEGA * t) - C @ v - K @ x - kg * x + offset) / MASS])

    stiffness = (K + sp.diags(kg)) / MASS
    jac = sp.bmat([[None, sp.identity(N)], [-stiffness, -C / MASS]], format="csc")
    return fun, jac


def first_switch(dense, t0, t1, active, probes=8):
    """Earliest time in (t0, t1] at which a gap function SIDES x - GAPS leaves
    the side `active` gives it, and the masses that switch then; None if none.
    The step's dense output is probed at `probes` interior points; inside each
    probe interval every x_j that turns towards its gap is followed to its
    extremum, so a gap closed and reopened within one step is not missed."""
    ts = np.linspace(t0, t1, probes + 2)
    z = dense(ts)
    g = SIDES[:, None] * z[:N] - GAPS[:, None]
    sv = SIDES[:, None] * z[N:]
    wrong = (g > 0.0) != active[:, None]
    wrong[:, 0] = False  # t0 is on the right side up to rounding
    cols = np.flatnonzero(wrong.any(axis=0))
    last = cols[0] if cols.size else probes + 1
    brackets = [(ts[last - 1], ts[last], j) for j in np.flatnonzero(wrong[:, last])]
    turning = ((sv[:, :last] > 0) & (sv[:, 1:last + 1] < 0) & ~active[:, None]) \
        | ((sv[:, :last] < 0) & (sv[:, 1:last + 1] > 0) & active[:, None])
    for j, k in zip(*np.nonzero(turning)):
        a, b = ts[k], ts[k + 1]
        # x_j's extremum lies within |v| (b - a) of its values at a and b
        if wrong[j, k + 1] or min(abs(g[j, k]), abs(g[j, k + 1])) > (abs(sv[j, k]) + abs(sv[j, k + 1])) * (b - a):
            continue
        te = brentq(lambda s: dense(s)[N + j], a, b, xtol=1e-18, rtol=8.9e-16)
        if (SIDES[j] * dense(te)[j] - GAPS[j] > 0.0) != active[j]:
            brackets.append((a, te, j))
    if not brackets:
        return None
    roots = []
    for a, b, j in brackets:
        gap = lambda s: SIDES[j] * dense(s)[j] - GAPS[j]
        if (gap(a) > 0.0) == (gap(b) > 0.0):  # a = t0, where j is on the wrong side by rounding
            roots.append((a, j))
        else:
            roots.append((brentq(gap, a, b, xtol=1e-18, rtol=8.9e-16), j))
    tc = min(r for r, _ in roots)
    return tc, [j for r, j in roots if r == tc]


def event_located(method, rtol, atol, times):
    """The ODE integrated without ever stepping across a kink: each interval on
    which the set of closed gaps is constant is a smooth (linear) ODE, integrated
    by scipy.integrate.DOP853 or Radau (constant sparse Jacobian) on `frozen`.
    After every step the step's dense output is searched for the first gap
    crossing (first_switch); the integration is then redone from the step's
    start to exactly that time (so no interpolated state is carried on), the
    set switched, and a new solver started there. Samples are integrated to
    exactly too."""
    solver_class = {"DOP853": DOP853, "Radau": Radau}[method]
    start_time = time.time()
    stats = dict(nfev=0, steps=0, switches=0, segments=0)

    def solver_from(active, t, z, t_bound, h):
        fun, jac = frozen(active)
        options = {"jac": jac} if method == "Radau" else {}
        return solver_class(fun, t, z, t_bound, rtol=rtol, atol=atol,
                            first_step=None if h is None else min(h, t_bound - t), **options)

    def run(solver):
        while solver.status == "running":
            solver.step()
            stats["steps"] += 1
        if solver.status != "finished":
            raise RuntimeError(f"{method} failed at t = {solver.t}")
        stats["nfev"] += solver.nfev
        return solver.y

    t_end = times[-1]
    t, z = 0.0, np.zeros(2 * N)
    active = SIDES * z[:N] - GAPS > 0.0
    out = np.empty((len(times), 2 * N))
    out[0] = z
    k = 1
    h, stuck = None, 0
    while True:
        solver = solver_from(active, t, z, t_end, h)
        stats["segments"] += 1
        hit = None
        while solver.status == "running":
            t0, y0 = solver.t, solver.y.copy()
            solver.step()
            stats["steps"] += 1
            if solver.status == "failed":
                raise RuntimeError(f"{method} failed at t = {solver.t}")
            t1, h = solver.t, solver.t - t0
            hit = first_switch(solver.dense_output(), t0, t1, active)
            while k < len(times) and times[k] <= (hit[0] if hit else t1):
                out[k] = solver.y if times[k] == t1 else run(solver_from(active, t0, y0, times[k], h))
                k += 1
            if hit:
                break
        stats["nfev"] += solver.nfev
        if hit is None:
            break
        tc, flip = hit
        stuck = stuck + 1 if tc == t else 0
        if stuck > 10:
            raise RuntimeError(f"gap set does not settle at t = {tc}")
        z = y0 if tc == t0 else run(solver_from(active, t0, y0, tc, h))
        t = tc
        active = active.copy()
        active[flip] = ~active[flip]
        stats["switches"] += len(flip)
    if k != len(times):
        raise RuntimeError("samples missed")
    stats["seconds"] = time.time() - start_time
    return dict(xs=out[:, :N], vs=out[:, N:], **stats)


def max_diff(a, b, key, columns=DOFS):
    return np.abs(a[key][:, columns] - b[key][:, columns]).max()


def fine():
    out = "reference-data/chain-1000"
    command = "python3 reference-data/generate/chain_scipy.py --fine"
    times = sample_times(FINE_T_END, FINE_SAMPLE)
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, python {sys.version.split()[0]}", flush=True)
    sweep = []
    for rtol in FINE_RTOLS:
        run = plain("DOP853", rtol, rtol * FINE_ATOL_PER_RTOL, times)
        print(f"DOP853 rtol {rtol:g} atol {rtol * FINE_ATOL_PER_RTOL:g}: {run['nfev']} evaluations, {run['seconds']:.0f} s", flush=True)
        sweep.append((rtol, run))
    rtol, best = sweep[-1]
    write(f"{out}/dop853-fine.csv", times, best["xs"], best["vs"], [
        f"chain-1000 over [0, {FINE_T_END:g}] s, SciPy solve_ivp DOP853 rtol {rtol:g} atol {rtol * FINE_ATOL_PER_RTOL:g}, "
        f"samples from its dense output (t_eval); reference-data/generate/chain_scipy.py",
        f"command: {command}; accuracy: see reference-data/chain-1000/SOURCE.md"])

    checks = []
    for check_rtol in CHECK_DOP853_RTOLS:
        run = event_located("DOP853", check_rtol, check_rtol * FINE_ATOL_PER_RTOL, times)
        print(f"event-located DOP853 rtol {check_rtol:g}: {run['switches']} gap switches, {run['steps']} steps, "
              f"{run['nfev']} evaluations, {run['seconds']:.0f} s", flush=True)
        checks.append((f"event-located DOP853 rtol {check_rtol:g}", run))
    run = event_located("Radau", CHECK_RADAU_RTOL, CHECK_RADAU_RTOL * FINE_ATOL_PER_RTOL, times)
    print(f"event-located Radau rtol {CHECK_RADAU_RTOL:g}: {run['switches']} gap switches, {run['steps']} steps, "
          f"{run['nfev']} evaluations, {run['seconds']:.0f} s", flush=True)
    checks.append((f"event-located Radau rtol {CHECK_RADAU_RTOL:g}", run))
    truth = checks[len(CHECK_DOP853_RTOLS) - 1][1]

    print("\nDOP853 tolerance sweep (max over the 101 x 5 samples; 'vs event-located' = against the last event-located DOP853 run)")
    print("| rtol | atol | RHS evaluations | run time [s] | max abs dx to previous [m] | max abs dv to previous [m/s] | max abs dx vs event-located [m] | max abs dv vs event-located [m/s] |")
    print("|---|---|---|---|---|---|---|---|")
    previous = None
    for rtol, run in sweep:
        dx = f"{max_diff(run, previous, 'xs'):.2e}" if previous else "-"
        dv = f"{max_diff(run, previous, 'vs'):.2e}" if previous else "-"
        print(f"| {rtol:g} | {rtol * FINE_ATOL_PER_RTOL:g} | {run['nfev']} | {run['seconds']:.0f} | {dx} | {dv} "
              f"| {max_diff(run, truth, 'xs'):.2e} | {max_diff(run, truth, 'vs'):.2e} |")
        previous = run
    every = list(range(N))
    print("\nCross-checks against dop853-fine.csv (sampled masses; all 1000 masses at the sample times)")
    print("| run | RHS evaluations | steps | gap switches | run time [s] | max abs dx [m] | max abs dv [m/s] | all masses: max abs dx [m] | max abs dv [m/s] |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, run in checks:
        print(f"| {name} | {run['nfev']} | {run['steps']} | {run['switches']} | {run['seconds']:.0f} "
              f"| {max_diff(run, best, 'xs'):.2e} | {max_diff(run, best, 'vs'):.2e} "
              f"| {max_diff(run, best, 'xs', every):.2e} | {max_diff(run, best, 'vs', every):.2e} |")
    print("\nEvent-located runs against each other")
    for (name_a, a), (name_b, b) in zip(checks, checks[1:]):
        print(f"{name_a} vs {name_b}: max abs dx {max_diff(a, b, 'xs'):.2e} m, dv {max_diff(a, b, 'vs'):.2e} m/s "
              f"(all masses {max_diff(a, b, 'xs', every):.2e} m, {max_diff(a, b, 'vs', every):.2e} m/s)")
    with open(f"{out}/dop853.csv") as f:
        coarse = np.array([[float(v) for v in line.split(",")] for line in f
                           if not line.startswith("#") and not line.startswith("t,")])
    coarse = coarse[coarse[:, 0] <= FINE_T_END + 1e-9]
    rows = np.round(coarse[:, 0] / FINE_SAMPLE).astype(int)
    print(f"dop853.csv (rtol 1e-8) on [0, {FINE_T_END:g}] s ({len(rows)} samples) vs {checks[len(CHECK_DOP853_RTOLS) - 1][0]}: "
          f"max abs dx {np.abs(coarse[:, 1:6] - truth['xs'][rows][:, DOFS]).max():.2e} m, "
          f"dv {np.abs(coarse[:, 6:11] - truth['vs'][rows][:, DOFS]).max():.2e} m/s")


def main():
    if "--fine" in sys.argv:
        fine()
        return
    out = "reference-data/chain-1000"
    # The peer at every step (the harness writes chain-1000 at every step).
    xs, vs = trapezoidal_peer(sample=DT)
    write(f"{out}/trapezoidal-peer.csv", sample_times(every=DT), xs, vs,
          "chain-1000, trapezoidal rule dt = 0.01 s, each step solved by a sparse active-set Newton (scipy.sparse.linalg.spsolve); reference-data/generate/chain_scipy.py")
    if "--peer-only" not in sys.argv:
        times = sample_times()
        xs, vs = dop853()
        write(f"{out}/dop853.csv", times, xs, vs,
              "chain-1000, SciPy solve_ivp DOP853 rtol 1e-8 atol 1e-12; reference-data/generate/chain_scipy.py")


if __name__ == "__main__":
    main()
