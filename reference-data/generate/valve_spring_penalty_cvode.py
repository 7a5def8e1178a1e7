#!/usr/bin/env python3
"""SUNDIALS CVODE (through scikit-sundae) on the dynamic penalty-contact model
of the multi-mass valve spring, beside SciPy's BDF and Radau
(valve_spring_penalty_scipy.py, whose model class `Penalty` this script
imports: the model is written once, in Python, from the definition in
reference-data/valve-spring/SOURCE.md; no code shared with the Rust crate).

A production stiff integrator on the same penalty model, so that "the NCP is
faster" cannot mean "the penalty integrators at hand are slow". CVODE's
variable-order (1-5) BDF with Newton iteration, SUNDIALS' dense direct
linear solver and the analytic Jacobian of `Penalty.jac` (the chain's
tridiagonal stiffness plus a k_p stencil per closed pair).

The error norm is the Rust crate's (one norm for every method): the state is
y = (u, v) with u = z - z(0) the displacements of the free nodes from the
installed state, rtol = tol, atol = tol x (1e-3 m for u, 1 m/s for v): the
weight of component i is tol (1 mm + |u_i|) or tol (1 m/s + |v_i|). (The
SciPy script scales on the absolute positions, 4-40 mm above the seat.)

Runs (c_p = 0, t in [0, 0.0125] s, first step 1e-6 s as in the SciPy
script, at most 10^7 steps): k_p = 1e6, 1e7, 1e8 N/m at rtol = 1e-6
(seat_force_cvode_<kp>), and a tight run at rtol = 1e-10 for k_p = 1e7
(seat_force_cvode_1e7_tight), an independent converged answer of the
penalty model beside SciPy's Radau at 1e-10. Each run is timed with
time.process_time (median of 3 if one run takes under 5 s) stepping with
'onestep' to t_end (tstop = t_end), then run once more to sample the seat
force from the solver's own interpolation at 32 points per output interval
of 2.5e-5 s. The file's seat-force columns are, like the Rust crate's
`seat_force` series and converged references, the mean over the output
interval ending at t (the mean of its 32 samples, the last at t; at t = 0
the value): the penalty seat force oscillates within an interval (contact
vibrations), so point values and interval means differ by about 3 N,
which a comparison of the one against the other would count as error.
The tight run's point values are kept as seat_force_sample_cvode_1e7_tight
(for the comparison with SciPy's point samples).

Writes, from the repository root,
  reference-data/valve-spring/cvode-penalty.csv       t, seat_force_cvode_<kp>,
      seat_force_cvode_1e7_tight, lift
  reference-data/valve-spring/cvode-penalty-cost.csv  method,k_p,rtol,cpu_s,
      steps,nfev,njev,nlu

Usage (from the repository root):
  python3 -m pip install numpy scipy scikit-sundae
  python3 reference-data/generate/valve_spring_penalty_cvode.py
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import sksundae  # noqa: E402
from sksundae.cvode import CVODE  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from valve_spring_model import Spring, params_line, versions  # noqa: E402
from valve_spring_penalty_scipy import (  # noqa: E402
    DT_OUT, FIRST_STEP, N_OUT, POS_SCALE, REPEAT_BELOW, VEL_SCALE, Penalty, kp_label)

OUT_DIR = os.path.join("reference-data", "valve-spring")
COMMAND = "python3 reference-data/generate/valve_spring_penalty_cvode.py"
KPS = [1e6, 1e7, 1e8]
RTOL = 1e-6
TIGHT_RTOL = 1e-10
TIGHT_KP = 1e7


class Shifted:
    """The penalty model in displacements u = z - z(0) (module doc)."""

    def __init__(self, model):
        self.model = model
        self.n = model.n
        self.y0 = model.y0()
        self.offset = np.concatenate([self.y0[:self.n], np.zeros(self.n)])
        self.nfev = 0
        self.njev = 0

    def rhs(self, t, u, up):
        self.nfev += 1
        up[:] = self.model.rhs(t, u + self.offset)

    def jac(self, t, u, up, jj):
        self.njev += 1
        jj[:, :] = self.model.jac(t, u + self.offset)

    def atol(self, rtol):
        return np.concatenate([np.full(self.n, rtol * POS_SCALE), np.full(self.n, rtol * VEL_SCALE)])

    def solver(self, rtol):
        return CVODE(self.rhs, method="BDF", rtol=rtol, atol=self.atol(rtol), linsolver="dense",
                     jacfn=self.jac, first_step=FIRST_STEP, max_num_steps=10_000_000)


SUB = 32  # samples per output interval for the interval means


def run_once(s, kp, rtol, times=None):
    """One run to t_end: (stats, None) when timing, else (None, (interval
    means at `times`, point values at `times`))."""
    sh = Shifted(Penalty(s, kp))
    t_end = s.p["t_end"]
    solver = sh.solver(rtol)
    if times is not None:
        fine = np.concatenate([[times[0]]] + [np.linspace(a, b, SUB + 1)[1:] for a, b in zip(times[:-1], times[1:])])
        sol = solver.solve(fine, np.zeros(2 * sh.n))
        if not sol.success:
            raise RuntimeError(f"CVODE k_p={kp:g} rtol={rtol:g}: {sol.message}")
        u = np.asarray(sol.y)
        F = np.array([sh.model.seat_force(t, u[i] + sh.offset)[0] for i, t in enumerate(sol.t)])
        means = np.concatenate([[F[0]], F[1:].reshape(-1, SUB).mean(axis=1)])
        points = F[::SUB]
        return None, (means, points)
    solver.init_step(0.0, np.zeros(2 * sh.n))
    steps = 0
    t = 0.0
    while t < t_end * (1.0 - 1e-14):
        sol = solver.step(t_end, method="onestep", tstop=t_end)
        if not sol.success:
            raise RuntimeError(f"CVODE k_p={kp:g} rtol={rtol:g} at t = {t}: {sol.message}")
        t = float(sol.t)
        steps += 1
    return dict(steps=steps, nfev=sh.nfev, njev=sh.njev), None


def timed(s, kp, rtol):
    times = []
    stats = None
    while True:
        t0 = time.process_time()
        stats, _ = run_once(s, kp, rtol)
        times.append(time.process_time() - t0)
        if times[0] >= REPEAT_BELOW or len(times) == 3:
            break
    stats["cpu"] = float(np.median(times))
    stats["cpu_all"] = times
    return stats


def main():
    print(versions() + f", scikit-sundae {sksundae.__version__}")
    print(f"command: {COMMAND}")
    s = Spring()
    times = np.round(np.arange(N_OUT) * DT_OUT, 12)
    columns = {}
    points = {}
    cost = []
    runs = [(kp, RTOL, f"seat_force_cvode_{kp_label(kp)}") for kp in KPS]
    runs.append((TIGHT_KP, TIGHT_RTOL, f"seat_force_cvode_{kp_label(TIGHT_KP)}_tight"))
    for kp, rtol, label in runs:
        st = timed(s, kp, rtol)
        _, (F, P) = run_once(s, kp, rtol, times)
        columns[label] = F
        points[label] = P
        cost.append(("cvode", kp, rtol, st))
        print(f"CVODE k_p={kp:.0e} rtol={rtol:.0e}: cpu {st['cpu']:8.3f} s (runs "
              f"{', '.join(f'{x:.2f}' for x in st['cpu_all'])})  steps {st['steps']:7d}  nfev {st['nfev']:8d}  "
              f"njev {st['njev']:6d}  max F_seat {F.max():9.3f} N", flush=True)
    # Against SciPy's Radau at rtol 1e-10 (the same model, k_p = 1e7), if present.
    path = os.path.join(OUT_DIR, "scipy-penalty.csv")
    if os.path.exists(path):
        rows = [ln for ln in open(path) if not ln.startswith("#")]
        head = rows[0].strip().split(",")
        data = np.array([[float(x) for x in r.split(",")] for r in rows[1:]])
        radau = data[:, head.index("seat_force_radau_1e7_tight")]
        for label in ("seat_force_cvode_1e7_tight", "seat_force_cvode_1e7"):
            d = np.abs(points[label] - radau)
            print(f"{label} (point values) against SciPy Radau rtol 1e-10: max |dF_seat| {d.max():.3e} N at t = "
                  f"{times[int(d.argmax())]:.6g} s")
        d = np.abs(columns["seat_force_cvode_1e7_tight"] - radau)
        print(f"interval means against point values (tight, k_p = 1e7): max difference {d.max():.3f} N")
    header = [
        "Multi-mass valve spring, dynamic penalty coil contact (c_p = 0), seat force by SUNDIALS CVODE; see "
        "reference-data/valve-spring/SOURCE.md",
        "parameters: " + params_line(),
        f"command: {COMMAND}   (from the repository root)",
        "method: SUNDIALS CVODE BDF (orders 1-5) via scikit-sundae, Newton with the dense direct solver and the "
        "analytic Jacobian, state (u, v), u = z - z(0) of the 35 free nodes, atol = rtol x (1e-3 m, 1 m/s); "
        "seat force: mean over the output interval ending at t of 32 samples of the solver's interpolation "
        "(seat_force_sample_*: the value at t)",
        f"tolerances: rtol = {RTOL:g} for the cvode_<kp> columns, rtol = {TIGHT_RTOL:g} for "
        "seat_force_cvode_1e7_tight",
        f"versions: {versions()}, scikit-sundae {sksundae.__version__}",
    ]
    labels = [lb for _, _, lb in runs]
    tight = f"seat_force_cvode_{kp_label(TIGHT_KP)}_tight"
    columns["seat_force_sample_cvode_1e7_tight"] = points[tight]
    labels.append("seat_force_sample_cvode_1e7_tight")
    os.makedirs(OUT_DIR, exist_ok=True)
    path = os.path.join(OUT_DIR, "cvode-penalty.csv")
    with open(path, "w") as fh:
        for line in header:
            fh.write("# " + line + "\n")
        fh.write("# columns: t [s], seat_force_cvode_<kp> [N] (F_seat = -f_{N_b} + lam of the pairs with "
                 "lower node on the seat; mean over the output interval ending at t), "
                 "seat_force_sample_cvode_1e7_tight [N] (the tight run's value at t), lift [m]\n")
        fh.write("t," + ",".join(labels) + ",lift\n")
        for i, t in enumerate(times):
            fh.write(f"{t:.12g}," + ",".join(f"{columns[lb][i]:.17g}" for lb in labels)
                     + f",{s.lift(t)[0]:.17g}\n")
    print(f"wrote {path} ({N_OUT} rows)")
    path = os.path.join(OUT_DIR, "cvode-penalty-cost.csv")
    with open(path, "w") as fh:
        for line in header:
            fh.write("# " + line + "\n")
        fh.write("# columns: method, k_p [N/m], rtol, cpu_s (time.process_time, median of 3 runs if one is "
                 f"under {REPEAT_BELOW:g} s, shared 2-core machine), steps (accepted, 'onestep' calls to t_end), "
                 "nfev, njev (calls of the right-hand side and the Jacobian), nlu (not reported: 0)\n")
        fh.write("method,k_p,rtol,cpu_s,steps,nfev,njev,nlu\n")
        for method, kp, rtol, st in cost:
            fh.write(f"{method},{kp:g},{rtol:g},{st['cpu']:.4g},{st['steps']},{st['nfev']},{st['njev']},0\n")
    print(f"wrote {path} ({len(cost)} rows)")


if __name__ == "__main__":
    if not os.path.isdir("reference-data"):
        sys.exit("run from the repository root: python3 reference-data/generate/valve_spring_penalty_cvode.py")
    main()
