#!/usr/bin/env python3
"""SciPy reference for the dynamic penalty-contact model of the multi-mass
valve spring (reference-data/valve-spring/SOURCE.md; model in
valve_spring_model.py, written from the definition, no code shared with the
Rust crate).

State y = (z_f, v_f): absolute positions [m] and velocities [m/s] of the 35
free nodes N_b+1..N_b+N_a-1. Seat nodes fixed at z0, retainer nodes at
z0 - (L0 - L_inst) - h(t) (cycloidal rise-return lift, 8 mm, camshaft
40 rev/s). For a free node i

    m z_i'' = f_i - f_{i-1} + sum of the contact forces on i,
    f_j = k_s (z_{j+1} - z_j - p_j/M) + c_s (v_{j+1} - v_j),
    lam = max(0, k_p (-g) + c_p (-g')) if g < 0 else 0,  g = z_{i+M} - z_i - d,

lam pushing node i+M up and node i down. Start: static equilibrium at the
installed length, at rest. t in [0, 0.0125] s. Output: the seat force
F_seat = -f_{N_b} + sum of lam over the pairs whose lower node is on the seat.

Runs: solve_ivp, methods BDF and Radau, with the analytic Jacobian (a dense
70 x 70 array: the chain is tridiagonal, every closed pair adds a k_p / c_p
stencil), k_p = 1e6, 1e7, 1e8 N/m, c_p = 0, rtol = 1e-6 and atol per
component = rtol x scale with scale 1e-3 m for positions and 1 m/s for
velocities (atol = 1e-9 m, 1e-6 m/s). Every run is timed with
time.process_time (median of 3 runs if one run takes under 5 s) with
t_eval = None and dense_output = False; steps = len(sol.t) - 1 of that run.
The output samples (every 2.5e-5 s) come from one more run with t_eval
(same steps: solve_ivp evaluates the method's own dense output at t_eval;
the script checks that nfev is the same). Tight reference: Radau at
rtol = 1e-10 (same scales) for k_p = 1e7; its own error is estimated by
Radau at 1e-9 and 1e-11, BDF at 1e-10 and an event-located Radau run at
1e-10 (set of closed pairs frozen between gap crossings, every crossing a
terminal event: no step straddles a kink of max(0, .)).

All runs start with first_step = 1e-6 s: at t = 0 the state is the static
equilibrium (f(0, y0) = 0 up to rounding), and SciPy's automatic first step
for BDF is then 9.2 ms, which jumps over the whole lift event (h(9.2 ms) = 0,
so the quasi-static implicit-Euler step passes the error test) and returns a
wrong, flat answer in 2 steps.

Writes, from the repository root,
  reference-data/valve-spring/scipy-penalty.csv       t, one seat-force column
      per run (seat_force_<method>_<kp>, seat_force_radau_1e7_tight), lift
  reference-data/valve-spring/scipy-penalty-cost.csv  method,k_p,rtol,cpu_s,
      steps,nfev,njev,nlu

Usage (from the repository root):
  python3 -m pip install numpy scipy
  python3 reference-data/generate/valve_spring_penalty_scipy.py
Single-threaded BLAS is requested (OPENBLAS_NUM_THREADS=1 etc. before NumPy
is imported), so process_time is one core's time.
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from valve_spring_model import Spring, params_line, versions  # noqa: E402

OUT_DIR = os.path.join("reference-data", "valve-spring")
COMMAND = "python3 reference-data/generate/valve_spring_penalty_scipy.py"
KPS = [1e6, 1e7, 1e8]
METHODS = ["BDF", "Radau"]
RTOL = 1e-6
TIGHT_RTOL = 1e-10
CHECK_RUNS = [("Radau", 1e-9), ("Radau", 1e-11), ("BDF", 1e-10)]  # error of the tight reference
# plus an event-located Radau run at TIGHT_RTOL (no step across a kink of max(0, .))
POS_SCALE = 1e-3   # m
VEL_SCALE = 1.0    # m/s
DT_OUT = 2.5e-5
N_OUT = 501
CPU_LIMIT = 300.0  # s: a run that takes longer is dropped
REPEAT_BELOW = 5.0  # s: median of 3 runs below this
FIRST_STEP = 1e-6  # s: see SOURCE.md (BDF's automatic first step jumps over the whole lift event)


class TooSlow(Exception):
    pass


class Penalty:
    def __init__(self, s, k_p, c_p=0.0):
        self.s = s
        self.k_p = k_p
        self.c_p = c_p
        n = s.n_free
        self.n = n
        col = {int(node): c for c, node in enumerate(s.free)}
        W = np.zeros((n, s.n_pairs))
        for p, (lo, hi) in enumerate(zip(s.pair_lo, s.pair_hi)):
            if int(lo) in col:
                W[col[int(lo)], p] -= 1.0
            if int(hi) in col:
                W[col[int(hi)], p] += 1.0
        self.W = W
        T = np.zeros((n, n))
        for c in range(n):
            T[c, c] = 2.0
            if c > 0:
                T[c, c - 1] = -1.0
            if c < n - 1:
                T[c, c + 1] = -1.0
        self.Kz = -s.k_s * T / s.m       # d acc / d z (chain)
        self.Kv = -s.c_s * T / s.m       # d acc / d v (chain)
        self.free = s.free
        self.seg = s.active_segments
        self.inst = s.L0 - s.L_inst
        self.deadline = None
        # workspace
        self.z = s.z0.copy()
        self.v = np.zeros(s.N + 1)

    def fill(self, t, y):
        s = self.s
        h, hd = s.lift(t)
        z, v = self.z, self.v
        z[s.top] = s.z0[s.top] - self.inst - h
        v[s.top] = -hd
        z[self.free] = y[:self.n]
        v[self.free] = y[self.n:]
        return z, v

    frozen = None   # boolean array: fixed set of closed pairs (event-located runs), else None

    def contact(self, z, v):
        s = self.s
        g = z[s.pair_hi] - z[s.pair_lo] - s.d
        lam = np.zeros(s.n_pairs)
        closed = g < 0.0 if self.frozen is None else self.frozen
        if self.c_p == 0.0:
            lam[closed] = -self.k_p * g[closed]
            act = closed
        else:
            gd = v[s.pair_hi] - v[s.pair_lo]
            trial = -self.k_p * g - self.c_p * gd
            act = closed & (trial > 0.0)
            lam[act] = trial[act]
        return g, lam, act

    def rhs(self, t, y):
        if self.deadline is not None and time.process_time() > self.deadline:
            raise TooSlow()
        s = self.s
        z, v = self.fill(t, y)
        j = self.seg
        f = s.k_s * (z[j + 1] - z[j] - s.seg_len[j]) + s.c_s * (v[j + 1] - v[j])   # f_j, j = N_b..
        acc = (f[1:] - f[:-1]) / s.m
        _, lam, _ = self.contact(z, v)
        acc += self.W @ lam / s.m
        return np.concatenate([y[self.n:], acc])

    def jac(self, t, y):
        s = self.s
        n = self.n
        z, v = self.fill(t, y)
        _, _, act = self.contact(z, v)
        J = np.zeros((2 * n, 2 * n))
        J[:n, n:] = np.eye(n)
        Az = self.Kz.copy()
        Av = self.Kv.copy()
        if act.any():
            Wa = self.W[:, act]
            WW = Wa @ Wa.T / s.m
            Az -= self.k_p * WW
            if self.c_p != 0.0:
                Av -= self.c_p * WW
        J[n:, :n] = Az
        J[n:, n:] = Av
        return J

    def seat_force(self, t, y):
        s = self.s
        z, v = self.fill(t, y)
        f_b = s.k_s * (z[s.N_b + 1] - z[s.N_b] - s.seg_len[s.N_b]) + s.c_s * (v[s.N_b + 1] - v[s.N_b])
        g, lam, _ = self.contact(z, v)
        return -f_b + lam[s.pair_on_seat].sum(), g, lam

    def gaps_now(self, t, y):
        z, _ = self.fill(t, y)
        return self.s.gaps(z)

    def seat_force_true(self, t, y):
        """Seat force with lam = max(0, -k_p g) whatever the frozen set."""
        frozen, self.frozen = self.frozen, None
        F = self.seat_force(t, y)[0]
        self.frozen = frozen
        return F

    def y0(self):
        z = self.s.installed_state()
        return np.concatenate([z[self.free], np.zeros(self.n)])


def event_located(s, kp, rtol, times):
    """k_p-penalty model (c_p = 0) with every kink located: within a segment the
    set of closed pairs is frozen (lam = -k_p g for those pairs, even if g > 0:
    a linear, smooth right-hand side); every gap crossing is a terminal event,
    where the set is switched and the integration restarts; the integration
    also stops at every output time. Radau, analytic Jacobian."""
    model = Penalty(s, kp)
    y = model.y0()
    t = 0.0
    n = model.n
    lo, hi = s.pair_lo, s.pair_hi
    # gap of pair p as a function of (t, y)
    idx = np.full(s.N + 1, -1)
    idx[s.free] = np.arange(n)

    def node_z(t_, y_, node):
        if idx[node] >= 0:
            return y_[idx[node]]
        if s.is_top[node]:
            return s.z0[node] - model.inst - s.lift(t_)[0]
        return s.z0[node]

    model.frozen = model.gaps_now(t, y) < 0.0
    out = [model.seat_force_true(t, y)]
    stats = dict(steps=0, nfev=0, njev=0, nlu=0, switches=0, log=[])
    t0 = time.process_time()
    k = 1
    while k < len(times):
        events = []
        for p in range(s.n_pairs):
            def ev(t_, y_, p=p):
                return node_z(t_, y_, hi[p]) - node_z(t_, y_, lo[p]) - s.d
            ev.terminal = True
            ev.direction = 1.0 if model.frozen[p] else -1.0
            events.append(ev)
        sol = solve_ivp(model.rhs, (t, times[k]), y, method="Radau", rtol=rtol, atol=atol_vector(n, rtol),
                        jac=model.jac, events=events, first_step=min(FIRST_STEP, times[k] - t))
        if sol.status < 0:
            raise RuntimeError(sol.message)
        stats["steps"] += len(sol.t) - 1
        stats["nfev"] += sol.nfev
        stats["njev"] += sol.njev
        stats["nlu"] += sol.nlu
        t = sol.t[-1]
        y = sol.y[:, -1].copy()
        if sol.status == 1:
            hit = [p for p in range(s.n_pairs) if len(sol.t_events[p])]
            for p in hit:
                model.frozen[p] = not model.frozen[p]
                stats["log"].append((t, int(lo[p]), int(hi[p]), bool(model.frozen[p]), int(model.frozen.sum())))
            stats["switches"] += len(hit)
        else:
            out.append(model.seat_force_true(t, y))
            k += 1
    stats["cpu"] = time.process_time() - t0
    return np.array(out), stats


def static_penalty_force(s, kp, delta):
    """Quasi-static equilibrium of the penalty model (no lift dynamics, no
    damping) with the retainer at delta below the free length: semi-smooth
    Newton on K u = b delta + W lam(u), lam = k_p max(0, -g(u)). Returns the
    seat force and the number of closed pairs."""
    model = Penalty(s, kp)
    n = model.n
    K = -model.Kz * s.m                              # k_s tridiag(-1, 2, -1)
    b = np.zeros(n)
    b[-1] = -s.k_s
    W = model.W
    e = s.is_top[s.pair_hi].astype(float)
    g0 = s.gaps(s.z0)
    u = np.zeros(n)
    for _ in range(200):
        g = g0 + W.T @ u - e * delta
        act = g < 0.0
        lam = np.where(act, -kp * g, 0.0)
        r = K @ u - b * delta - W @ lam
        Wa = W[:, act]
        u_new = u - np.linalg.solve(K + kp * Wa @ Wa.T, r)
        if np.array_equal((g0 + W.T @ u_new - e * delta) < 0.0, act):
            u = u_new
            break
        u = u_new
    else:
        raise RuntimeError("static penalty Newton did not settle")
    g = g0 + W.T @ u - e * delta
    lam = np.where(g < 0.0, -kp * g, 0.0)
    return -s.k_s * u[0] + lam[s.pair_on_seat].sum(), int((g < 0.0).sum())


def read_static_curve():
    path = os.path.join(OUT_DIR, "static-curve.csv")
    rows = [ln for ln in open(path) if not ln.startswith("#")][1:]
    return {round(float(r.split(",")[0]), 9): float(r.split(",")[1]) for r in rows}


def atol_vector(n, rtol):
    return np.concatenate([np.full(n, rtol * POS_SCALE), np.full(n, rtol * VEL_SCALE)])


def integrate(model, method, rtol, t_eval=None):
    y0 = model.y0()
    return solve_ivp(model.rhs, (0.0, model.s.p["t_end"]), y0, method=method, rtol=rtol,
                     atol=atol_vector(model.n, rtol), jac=model.jac, t_eval=t_eval, first_step=FIRST_STEP)


def timed(model, method, rtol):
    """CPU time (median of 3 if under REPEAT_BELOW), steps and counters."""
    times = []
    sol = None
    while True:
        model.deadline = time.process_time() + CPU_LIMIT
        t0 = time.process_time()
        try:
            sol = integrate(model, method, rtol)
        except TooSlow:
            model.deadline = None
            return None
        times.append(time.process_time() - t0)
        model.deadline = None
        if not sol.success:
            raise RuntimeError(f"{method} k_p={model.k_p:g} rtol={rtol:g}: {sol.message}")
        if times[0] >= REPEAT_BELOW or len(times) == 3:
            break
    return dict(cpu=float(np.median(times)), cpu_all=times, steps=len(sol.t) - 1, nfev=sol.nfev,
                njev=sol.njev, nlu=sol.nlu)


def sampled(model, method, rtol, stats, times):
    sol = integrate(model, method, rtol, t_eval=times)
    if not sol.success:
        raise RuntimeError(sol.message)
    if stats is not None and sol.nfev != stats["nfev"]:
        print(f"  note: the t_eval run took nfev {sol.nfev} against {stats['nfev']}")
    F = np.empty(len(times))
    pen = 0.0
    nclosed = 0
    Fmax_seat = 0.0
    for i, t in enumerate(sol.t):
        F[i], g, lam = model.seat_force(t, sol.y[:, i])
        pen = max(pen, -g.min())
        nclosed = max(nclosed, int((lam > 0).sum()))
    return F, dict(max_penetration=pen, max_closed=nclosed)


def labels_all(columns):
    return [lb for lb in columns if lb.startswith("seat_force_")]


def kp_label(kp):
    return f"1e{int(round(math.log10(kp)))}"


def check_jacobian(s):
    """Analytic Jacobian against central differences at a state with contacts."""
    model = Penalty(s, 1e7)
    rng = np.random.default_rng(1)
    y = model.y0()
    # compress the lower coils into contact and add velocities
    y[:model.n] -= np.linspace(2.0e-3, 0.0, model.n) + 1e-6 * rng.standard_normal(model.n)
    y[model.n:] = rng.standard_normal(model.n)
    t = 0.003
    J = model.jac(t, y)
    Jn = np.zeros_like(J)
    for k in range(len(y)):
        hstep = 1e-9 if k < model.n else 1e-6
        e = np.zeros(len(y))
        e[k] = hstep
        Jn[:, k] = (model.rhs(t, y + e) - model.rhs(t, y - e)) / (2 * hstep)
    _, _, act = model.contact(*model.fill(t, y))
    rel = np.abs(J - Jn).max() / np.abs(J).max()
    return rel, int(act.sum())


def main():
    print(versions())
    print(f"command: {COMMAND}")
    print(f"BLAS threads: OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}")
    t_start = time.perf_counter()
    s = Spring()
    n = s.n_free
    print(f"k = {s.k!r} N/m, m_coil = {s.m_coil!r} kg, m = {s.m!r} kg, k_s = {s.k_s!r} N/m, "
          f"c_s = {s.c_s!r} N s/m, w1/(2 pi) = {s.w1 / (2 * math.pi)!r} Hz, "
          f"0.5 sqrt(k/(n_a m_coil)) = {s.f_surge!r} Hz, gbar = {s.gbar!r} m, solid = {s.solid_length!r} m")
    print(f"k (L0 - L_inst) = {s.k * (s.L0 - s.L_inst)!r} N, k (L0 - L_inst + H) = "
          f"{s.k * (s.L0 - s.L_inst + s.H)!r} N; 13 x cam frequency = {13 * s.p['n_cam']:g} Hz; "
          f"highest chain mode {2 * math.sqrt(s.k_s / s.m) / (2 * math.pi):.0f} Hz, contact "
          + ", ".join(f"sqrt(2 k_p/m)/(2 pi) = {math.sqrt(2 * kp / s.m) / (2 * math.pi):.0f} Hz" for kp in KPS))
    try:
        curve = read_static_curve()
        print("\nQuasi-static penalty model against the exact Signorini curve (static-curve.csv), seat force [N]:")
        for dq in (6e-3, 8e-3, 10e-3):
            ref = curve[round(dq, 9)]
            parts = []
            for kp in KPS:
                F, nc = static_penalty_force(s, kp, dq)
                parts.append(f"k_p {kp:.0e}: {F:.6f} ({F - ref:+.3e}, {nc} closed)")
            print(f"  delta = {dq * 1e3:g} mm: exact {ref:.6f}; " + "; ".join(parts))
    except FileNotFoundError:
        print("static-curve.csv not found: run valve_spring_static.py first for the static penalty check")
    rel, nact = check_jacobian(s)
    print(f"analytic Jacobian against central differences ({nact} closed pairs): max rel. difference {rel:.1e}")
    model0 = Penalty(s, 1e7)
    r0 = model0.rhs(0.0, model0.y0())
    print(f"|rhs| at t = 0 (equilibrium): {np.abs(r0).max():.1e}")

    times = np.round(np.arange(N_OUT) * DT_OUT, 12)
    columns = {}
    cost = []
    extra = {}

    def run(method, kp, rtol, label, record=True):
        model = Penalty(s, kp)
        st = timed(model, method, rtol)
        if st is None:
            print(f"{method:6s} k_p={kp:.0e} rtol={rtol:.0e}: dropped (over {CPU_LIMIT:.0f} s CPU)", flush=True)
            return None
        F, info = sampled(model, method, rtol, st, times)
        columns[label] = F
        extra[label] = info
        print(f"{method:6s} k_p={kp:.0e} rtol={rtol:.0e}: cpu {st['cpu']:8.3f} s "
              f"(runs {', '.join(f'{x:.2f}' for x in st['cpu_all'])})  steps {st['steps']:7d}  "
              f"nfev {st['nfev']:8d}  njev {st['njev']:6d}  nlu {st['nlu']:7d}  max F_seat {F.max():9.3f} N  "
              f"max penetration {info['max_penetration']:.3e} m  max closed {info['max_closed']}", flush=True)
        if record:
            cost.append((method.lower(), kp, rtol, st))
        return F

    print(f"\nRuns at rtol = {RTOL:g} (atol = rtol x ({POS_SCALE:g} m, {VEL_SCALE:g} m/s)) on [0, "
          f"{s.p['t_end']:g}] s:")
    for method in METHODS:
        for kp in KPS:
            run(method, kp, RTOL, f"seat_force_{method.lower()}_{kp_label(kp)}")

    print(f"\nTight reference for k_p = 1e7 and its checks:")
    tight = run("Radau", 1e7, TIGHT_RTOL, "seat_force_radau_1e7_tight")
    checks = {}
    for method, rtol in CHECK_RUNS:
        label = f"check_{method.lower()}_1e7_{rtol:.0e}"
        checks[label] = run(method, 1e7, rtol, label, record=False)
    F_ev, st_ev = event_located(s, 1e7, TIGHT_RTOL, times)
    columns["check_radau_1e7_1e-10_event_located"] = F_ev
    print(f"Radau  k_p=1e+07 rtol={TIGHT_RTOL:.0e} event-located (every gap crossing a terminal event, "
          f"stops at the samples): cpu {st_ev['cpu']:.2f} s  steps {st_ev['steps']}  nfev {st_ev['nfev']}  "
          f"njev {st_ev['njev']}  nlu {st_ev['nlu']}  switches {st_ev['switches']}")
    log = st_ev["log"]
    closes = [x for x in log if x[3]]
    print(f"  contact switches (k_p = 1e7): {len(closes)} closures, {len(log) - len(closes)} openings; first "
          f"closure at t = {closes[0][0]:.6g} s (pair ({closes[0][1]},{closes[0][2]})); most closed at once "
          f"{max(x[4] for x in log)}; last opening at t = {max(x[0] for x in log if not x[3]):.6g} s; "
          f"closed at t_end: {log[-1][4]}")
    opened_early = [x for x in log if not x[3] and x[0] < 4.1667e-3]
    print(f"  openings before full lift (4.1667 ms): {len(opened_early)}"
          + (f", first at t = {opened_early[0][0]:.6g} s pair ({opened_early[0][1]},{opened_early[0][2]})"
             if opened_early else ""))

    print(f"\nError of each run against the tight reference (k_p = 1e7, max |dF_seat| over the "
          f"{N_OUT} samples):")
    errors = {}
    for label, F in columns.items():
        if label.endswith("_1e7") or label.startswith("check_"):
            e = np.abs(F - tight).max()
            k = int(np.abs(F - tight).argmax())
            errors[label] = e
            print(f"  {label:32s} {e:.3e} N  (at t = {times[k]:.6g} s)")
    print("\nDifferences between k_p values (Radau rtol 1e-6), max |dF_seat|: "
          f"1e6-1e7 {np.abs(columns['seat_force_radau_1e6'] - columns['seat_force_radau_1e7']).max():.3f} N, "
          f"1e7-1e8 {np.abs(columns['seat_force_radau_1e7'] - columns['seat_force_radau_1e8']).max():.3f} N")
    for kp in KPS:
        a = columns.get(f"seat_force_bdf_{kp_label(kp)}")
        b = columns.get(f"seat_force_radau_{kp_label(kp)}")
        if a is not None and b is not None:
            print(f"  BDF against Radau at k_p = {kp:.0e}: max |dF_seat| {np.abs(a - b).max():.3e} N")
    F_t = tight
    k_max = int(F_t.argmax())
    print(f"tight reference: max F_seat {float(F_t.max())!r} N at t = {times[k_max]:.6g} s, min "
          f"{float(F_t.min())!r} N at t = {times[int(F_t.argmin())]:.6g} s, F(0) = {float(F_t[0])!r} N, "
          f"F(t_end) = {float(F_t[-1])!r} N")
    for label in labels_all(columns):
        F = columns[label]
        print(f"  {label:32s} max {F.max():9.3f} N at t = {times[int(F.argmax())]:.6g} s, min {F.min():8.3f} N at "
              f"t = {times[int(F.argmin())]:.6g} s, F(t_end) = {F[-1]:8.3f} N")

    os.makedirs(OUT_DIR, exist_ok=True)
    header = [
        "Multi-mass valve spring, dynamic penalty coil contact (c_p = 0), seat force; see "
        "reference-data/valve-spring/SOURCE.md",
        "parameters: " + params_line(),
        f"derived: k = {s.k:.10g} N/m, m = {s.m:.10g} kg, k_s = {s.k_s:.10g} N/m, c_s = {s.c_s:.10g} N s/m, "
        f"w1/(2 pi) = {s.w1 / (2 * math.pi):.10g} Hz",
        f"command: {COMMAND}   (from the repository root)",
        "method: scipy.integrate.solve_ivp BDF / Radau, analytic dense Jacobian, state (z, v) of the 35 free "
        "nodes (absolute positions), atol = rtol x (1e-3 m, 1 m/s); samples from the solver's dense output "
        "(t_eval)",
        f"tolerances: rtol = {RTOL:g} for the <method>_<kp> columns, rtol = {TIGHT_RTOL:g} for "
        "seat_force_radau_1e7_tight",
        f"versions: {versions()}",
    ]
    labels = [f"seat_force_{m.lower()}_{kp_label(kp)}" for m in METHODS for kp in KPS]
    labels = [lb for lb in labels if lb in columns] + ["seat_force_radau_1e7_tight"]
    path = os.path.join(OUT_DIR, "scipy-penalty.csv")
    with open(path, "w") as fh:
        for line in header:
            fh.write("# " + line + "\n")
        fh.write("# columns: t [s], seat_force_<method>_<kp> [N] (F_seat = -f_{N_b} + lam of the pairs with "
                 "lower node on the seat), lift [m] (valve lift h(t))\n")
        fh.write("t," + ",".join(labels) + ",lift\n")
        for i, t in enumerate(times):
            fh.write(f"{t:.12g}," + ",".join(f"{columns[lb][i]:.17g}" for lb in labels)
                     + f",{s.lift(t)[0]:.17g}\n")
    print(f"\nwrote {path} ({N_OUT} rows)")
    path = os.path.join(OUT_DIR, "scipy-penalty-cost.csv")
    with open(path, "w") as fh:
        for line in header:
            fh.write("# " + line + "\n")
        fh.write("# columns: method, k_p [N/m], rtol, cpu_s (time.process_time, median of 3 runs if one is "
                 f"under {REPEAT_BELOW:g} s, single-threaded BLAS, shared 2-core machine), steps (accepted, "
                 "len(sol.t) - 1 with t_eval = None), nfev, njev, nlu (solve_ivp counters)\n")
        fh.write("method,k_p,rtol,cpu_s,steps,nfev,njev,nlu\n")
        for method, kp, rtol, st in cost:
            fh.write(f"{method},{kp:g},{rtol:g},{st['cpu']:.4g},{st['steps']},{st['nfev']},{st['njev']},"
                     f"{st['nlu']}\n")
    print(f"wrote {path} ({len(cost)} rows)")
    print(f"total run time {time.perf_counter() - t_start:.0f} s")


if __name__ == "__main__":
    if not os.path.isdir("reference-data"):
        sys.exit("run from the repository root: python3 reference-data/generate/valve_spring_penalty_scipy.py")
    main()
