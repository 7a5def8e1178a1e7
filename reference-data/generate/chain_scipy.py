"""Independent references for the study chain-1000 (experiments/chain-1000.toml).

Two files, both computed with NumPy/SciPy only (no code shared with the Rust
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

Columns: t, then x<j> and v<j> for the sampled masses j (0, 250, 500, 750,
999) every 0.05 s over [0, 3] s.

Run from the repository root:
    python3 -m pip install numpy scipy
    python3 reference-data/generate/chain_scipy.py            # both files
    python3 reference-data/generate/chain_scipy.py --peer-only
"""
import sys
import time

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as spl
from scipy.integrate import solve_ivp

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


def sample_times():
    return np.round(np.arange(0.0, T_END + 1e-12, SAMPLE), 12)


def write(path, times, xs, vs, header_note):
    cols = ["t"] + [f"x{j}" for j in DOFS] + [f"v{j}" for j in DOFS]
    rows = np.column_stack([times] + [xs[:, j] for j in DOFS] + [vs[:, j] for j in DOFS])
    with open(path, "w") as out:
        out.write(f"# {header_note}\n")
        out.write(f"# numpy {np.__version__}, scipy {scipy.__version__}, python {sys.version.split()[0]}\n")
        out.write(",".join(cols) + "\n")
        for r in rows:
            out.write(",".join(f"{v:.17g}" for v in r) + "\n")


def trapezoidal_peer():
    beta, gamma = 0.25, 0.5
    keff = (K + (gamma / (beta * DT)) * C + M / (beta * DT * DT)).tocsc()
    x = np.zeros(N)
    v = np.zeros(N)
    a = spl.spsolve(M, F - C @ v - K @ x - gap_force(x))
    active = np.zeros(N, dtype=bool)
    steps = int(round(T_END / DT))
    every = int(round(SAMPLE / DT))
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


def dop853():
    def rhs(t, z):
        x, v = z[:N], z[N:]
        return np.concatenate([v, (F * np.cos(OMEGA * t) - C @ v - K @ x - gap_force(x)) / MASS])

    start = time.time()
    sol = solve_ivp(rhs, (0.0, T_END), np.zeros(2 * N), method="DOP853", rtol=1e-8, atol=1e-12, t_eval=sample_times())
    if not sol.success:
        raise RuntimeError(sol.message)
    print(f"DOP853: {sol.nfev} evaluations, {time.time() - start:.0f} s")
    return sol.y[:N].T, sol.y[N:].T


def main():
    out = "reference-data/chain-1000"
    times = sample_times()
    xs, vs = trapezoidal_peer()
    write(f"{out}/trapezoidal-peer.csv", times, xs, vs,
          "chain-1000, trapezoidal rule dt = 0.01 s, each step solved by a sparse active-set Newton (scipy.sparse.linalg.spsolve); reference-data/generate/chain_scipy.py")
    if "--peer-only" not in sys.argv:
        xs, vs = dop853()
        write(f"{out}/dop853.csv", times, xs, vs,
              "chain-1000, SciPy solve_ivp DOP853 rtol 1e-8 atol 1e-12; reference-data/generate/chain_scipy.py")


if __name__ == "__main__":
    main()
