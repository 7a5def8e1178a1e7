#!/usr/bin/env python3
"""Independent harmonic-balance reference for the folds of gap systems:

    M x'' + C x' + K x + sum_j k_j d_j max(0, d_j.x - g_j) = F cos(omega t).

The T-periodic response (T = 2 pi / omega) is written as a truncated Fourier
series in tau = omega t,

    x(tau) = a_0 + sum_{h=1..H} a_h cos(h tau) + b_h sin(h tau),

and the equation of motion is balanced harmonic by harmonic (Galerkin):

    cos h:  (K - h^2 omega^2 M) a_h + h omega C b_h + N_a,h = F [h = 1]
    sin h:  (K - h^2 omega^2 M) b_h - h omega C a_h + N_b,h = 0
    mean:   K a_0 + N_0 = 0,

where N are the Fourier coefficients of the gap forces D^T k max(0, D x - g).
They are integrated exactly over the contact intervals (not sampled as in
the alternating frequency-time method of Cameron & Griffin, J. Appl. Mech.
56 (1989) 149-154, whose Jacobian would jump whenever a sample enters
contact): the roots of each opening y_j(tau), a trigonometric polynomial,
are bracketed on 16 H phases and refined by Brent's method, and each
interval with y_j > 0 is integrated by Gauss-Legendre with 3 H + 16 nodes.
Newton with the exact Jacobian (the boundary terms vanish because y_j = 0
at the ends of a contact interval). The branch is continued in omega by
pseudo-arclength (Keller 1977; Seydel, Practical Bifurcation and Stability
Analysis, 2010, Ch. 4), and a fold (limit point in omega) is located where
the omega component of the unit tangent changes sign, by the Illinois
secant method on that component along the arclength, to |t_omega| < 1e-10.

Nothing here is shared with the Rust crate it checks (contact-harness: its
folds come from shooting on the exact event-driven flow with the monodromy
matrix); this is another discretization (Fourier, not time) and another
continuation code. Each system is run at two truncations (H and 2H
harmonics): the difference of their fold frequencies is the
reference's own accuracy, printed and written.

Writes, from the repository root,
  reference-data/gap-system/continuation-folds.csv
      columns system,fold,omega,amplitude,omega_coarse,amplitude_coarse,
      harmonics,samples: for every system below and every fold met between
      omega_from and omega_to (in the order met from omega_from), the fold
      frequency [rad/s] and the amplitude max |x_0| over the orbit at the
      fold [m] at the fine truncation, the same at the coarse one, and the
      fine truncation's harmonics and root-bracketing phases.

Usage: python3 reference-data/generate/gap_system_hb_folds.py
"""

import math
import os
import platform
import sys

import numpy as np
import scipy

# The systems. Keep them equal to the specs that check against this file:
# experiments/continuation.toml (sdof-continuation, three-dof-continuation)
# and tests/gap_continuation_cli.rs (the hidden-parameter systems).
SDOF_GAP = [([1.0], 0.5, 4.0)]
THREE_DOF = {
    "mass": [[1.0, 0.0, 0.0], [0.0, 1.5, 0.0], [0.0, 0.0, 2.0]],
    "damping": [[0.064, -0.024, 0.0], [-0.024, 0.07, -0.016], [0.0, -0.016, 0.056]],
    "stiffness": [[2.2, -1.2, 0.0], [-1.2, 2.0, -0.8], [0.0, -0.8, 0.8]],
    "gaps": [([1.0, 0.0, 0.0], 0.3, 5.0), ([-1.0, 1.0, 0.0], 0.2, 3.0), ([0.0, 0.0, -1.0], 0.4, 8.0)],
}
SYSTEMS = [
    {
        "name": "sdof-continuation",
        "mass": [[1.0]],
        "damping": [[0.1]],
        "stiffness": [[1.0]],
        "gaps": SDOF_GAP,
        "amplitude": [0.15],
        "omega_from": 0.8,
        "omega_to": 1.6,
        "harmonics": 32,
    },
    dict(THREE_DOF, name="three-dof-continuation", amplitude=[0.12, 0.0, 0.24],
         omega_from=0.95, omega_to=1.05, harmonics=16),
    {
        "name": "hidden-a",
        "mass": [[2.0]],
        "damping": [[0.12]],
        "stiffness": [[3.0]],
        "gaps": [([1.0], 0.2, 5.0)],
        "amplitude": [0.2],
        "omega_from": 1.0,
        "omega_to": 1.8,
        "harmonics": 32,
    },
    {
        "name": "hidden-b",
        "mass": [[0.5]],
        "damping": [[0.04]],
        "stiffness": [[1.0]],
        "gaps": [([1.0], 0.4, 3.0), ([-1.0], 0.6, 2.0)],
        "amplitude": [0.12],
        "omega_from": 1.2,
        "omega_to": 2.6,
        "harmonics": 32,
    },
]


class System:
    def __init__(self, spec):
        self.m = np.array(spec["mass"], dtype=float)
        self.c = np.array(spec["damping"], dtype=float)
        self.k = np.array(spec["stiffness"], dtype=float)
        self.d = np.array([g[0] for g in spec["gaps"]], dtype=float)
        self.g = np.array([g[1] for g in spec["gaps"]], dtype=float)
        self.kg = np.array([g[2] for g in spec["gaps"]], dtype=float)
        self.f = np.array(spec["amplitude"], dtype=float)
        self.n = self.m.shape[0]


class Balance:
    """Harmonic balance of one system at H harmonics.

    The gap forces' Fourier coefficients are integrated exactly over the
    contact intervals: the roots of each opening y_j(tau) = d_j.x(tau) - g_j
    (a trigonometric polynomial) are bracketed on `samples` phases and
    refined by Brent's method, and each interval where y_j > 0 is integrated
    by Gauss-Legendre with `nodes` points (the integrand y_j(tau) cos(h tau)
    is analytic there, so the rule converges exponentially). A sampled AFT
    would make the residual's Jacobian jump whenever a sample enters
    contact, and the fold (where the tangent's omega component vanishes)
    could not be located smoothly.
    """

    def __init__(self, system, harmonics, samples):
        self.s = system
        self.h = harmonics
        self.samples = samples
        self.nodes, self.weights = np.polynomial.legendre.leggauss(3 * harmonics + 16)
        self.size = system.n * (2 * harmonics + 1)

    def basis(self, tau):
        """basis[q, :] = [1, cos tau_q, sin tau_q, cos 2 tau_q, ...]."""
        cols = [np.ones_like(tau)]
        for h in range(1, self.h + 1):
            cols.append(np.cos(h * tau))
            cols.append(np.sin(h * tau))
        return np.array(cols).T

    def split(self, u):
        """u = [X (n x (2H+1), row-major per DOF), omega]."""
        n, w = self.s.n, 2 * self.h + 1
        return u[:-1].reshape(n, w), u[-1]

    def linear(self, omega):
        """Linear operator on X (as an (n w) x (n w) matrix) and its omega derivative."""
        s, n, w = self.s, self.s.n, 2 * self.h + 1
        lin = np.zeros((n * w, n * w))
        dlin = np.zeros((n * w, n * w))

        def idx(i, c):
            return i * w + c

        for i in range(n):
            for j in range(n):
                lin[idx(i, 0), idx(j, 0)] = s.k[i, j]
                for h in range(1, self.h + 1):
                    ca, cb = 2 * h - 1, 2 * h
                    stiff = s.k[i, j] - h * h * omega * omega * s.m[i, j]
                    dstiff = -2.0 * h * h * omega * s.m[i, j]
                    damp = h * omega * s.c[i, j]
                    ddamp = h * s.c[i, j]
                    lin[idx(i, ca), idx(j, ca)] = stiff
                    lin[idx(i, ca), idx(j, cb)] = damp
                    lin[idx(i, cb), idx(j, cb)] = stiff
                    lin[idx(i, cb), idx(j, ca)] = -damp
                    dlin[idx(i, ca), idx(j, ca)] = dstiff
                    dlin[idx(i, ca), idx(j, cb)] = ddamp
                    dlin[idx(i, cb), idx(j, cb)] = dstiff
                    dlin[idx(i, cb), idx(j, ca)] = -ddamp
        return lin, dlin

    def contact_rule(self, coef, gap):
        """Quadrature nodes and weights over {tau in [0, 2 pi): coef.basis(tau) > gap}."""
        from scipy.optimize import brentq

        def y(tau):
            return float((self.basis(np.array([tau])) @ coef)[0]) - gap

        grid = 2.0 * math.pi * np.arange(self.samples + 1) / self.samples
        values = self.basis(grid) @ coef - gap
        cuts = [0.0]
        for q in range(self.samples):
            if (values[q] > 0.0) != (values[q + 1] > 0.0):
                cuts.append(brentq(y, grid[q], grid[q + 1], xtol=1e-15, rtol=1e-15))
        cuts.append(2.0 * math.pi)
        taus, weights = [], []
        for a, b in zip(cuts[:-1], cuts[1:]):
            if b <= a or y(0.5 * (a + b)) <= 0.0:
                continue
            half = 0.5 * (b - a)
            taus.append(0.5 * (a + b) + half * self.nodes)
            weights.append(half * self.weights)
        if not taus:
            return np.zeros(0), np.zeros(0)
        return np.concatenate(taus), np.concatenate(weights)

    def residual(self, u, jacobian=True):
        s, n, w = self.s, self.s.n, 2 * self.h + 1
        x_coef, omega = self.split(u)
        lin, dlin = self.linear(omega)
        r = lin @ x_coef.ravel()
        for i in range(n):
            r[i * w + 1] -= s.f[i]
        jac = np.zeros((n * w, n * w + 1))
        jac[:, :-1] = lin
        jac[:, -1] = dlin @ x_coef.ravel()
        # Fourier weights of the projection: 1/(2 pi) for the mean, 1/pi otherwise
        scale = np.full(w, 1.0 / math.pi)
        scale[0] = 0.5 / math.pi
        for j in range(len(s.g)):
            coef = s.d[j] @ x_coef  # opening's coefficients (without the gap)
            taus, weights = self.contact_rule(coef, s.g[j])
            if taus.size == 0:
                continue
            b = self.basis(taus)
            force = s.kg[j] * (b @ coef - s.g[j])  # k_j y_j at the nodes
            proj = (b * weights[:, None]).T * scale[:, None]  # w x q
            nl = proj @ force  # coefficients of k_j y_j
            gram = s.kg[j] * (proj @ b)  # d nl / d coef
            for i in range(n):
                r[i * w:(i + 1) * w] += s.d[j, i] * nl
                for l in range(n):
                    jac[i * w:(i + 1) * w, l * w:(l + 1) * w] += s.d[j, i] * s.d[j, l] * gram
        if not jacobian:
            return r
        return r, jac

    def amplitude(self, u, fine=8192):
        x_coef, _ = self.split(u)
        tau = 2.0 * math.pi * np.arange(fine) / fine
        x0 = self.basis(tau) @ x_coef[0]
        # refine the extreme samples by Newton on x0'(tau) = 0
        best = 0.0
        hs = np.arange(1, self.h + 1)
        a, bb = x_coef[0, 1::2], x_coef[0, 2::2]
        for k in (int(np.argmax(x0)), int(np.argmin(x0))):
            t = tau[k]
            for _ in range(20):
                d1 = np.sum(hs * (-a * np.sin(hs * t) + bb * np.cos(hs * t)))
                d2 = np.sum(hs * hs * (-a * np.cos(hs * t) - bb * np.sin(hs * t)))
                if d2 == 0.0:
                    break
                t -= d1 / d2
            best = max(best, abs(float((self.basis(np.array([t])) @ x_coef[0])[0])))
        return best


def tangent(jac, previous=None):
    q, _ = np.linalg.qr(jac.T, mode="complete")
    t = q[:, -1]
    if previous is not None and t @ previous < 0.0:
        t = -t
    elif previous is None and t[-1] < 0.0:
        t = -t
    return t


def newton(bal, u, predictor, t, tol=1e-11, iters=30):
    """Solve R(u) = 0, t.(u - predictor) = 0."""
    for _ in range(iters):
        r, jac = bal.residual(u)
        g = np.append(r, t @ (u - predictor))
        if np.max(np.abs(g)) < tol * (1.0 + np.max(np.abs(u))):
            return u, jac
        big = np.vstack([jac, t])
        step = np.linalg.solve(big, g)
        norm = np.max(np.abs(g))
        lam = 1.0
        while lam > 1e-4:
            trial = u - lam * step
            gt = np.append(bal.residual(trial, jacobian=False), t @ (trial - predictor))
            if np.max(np.abs(gt)) < norm:
                break
            lam *= 0.5
        u = trial
    raise RuntimeError("Newton did not converge")


def solve_at(bal, u, omega):
    """Natural-parameter solve at fixed omega."""
    t = np.zeros(bal.size + 1)
    t[-1] = 1.0
    v = u.copy()
    v[-1] = omega
    return newton(bal, v, v, t)


def continue_branch(bal, omega_from, omega_to, ds=0.02):
    ds_max = ds
    u0 = np.zeros(bal.size + 1)
    u0[-1] = omega_from
    u, jac = solve_at(bal, u0, omega_from)
    t = tangent(jac)
    folds = []
    steps = 0
    while u[-1] <= omega_to and steps < 20000:
        steps += 1
        try:
            v, vjac = newton(bal, u + ds * t, u + ds * t, t)
        except (RuntimeError, np.linalg.LinAlgError):
            ds *= 0.5
            if ds < 1e-9:
                raise
            continue
        tv = tangent(vjac, t)
        if tv @ t < 0.98:  # the tangent turned by more than 11 degrees: smaller steps
            ds *= 0.5
            continue
        if v[-1] < omega_from:
            break
        if t[-1] * tv[-1] < 0.0:
            folds.append(locate_fold(bal, u, t, ds))
        u, t = v, tv
        ds = min(1.3 * ds, ds_max)
    return folds


def locate_fold(bal, u, t, ds):
    """Illinois secant on s -> t_omega(point at arclength s from u)."""

    def f(s):
        v, vjac = newton(bal, u + s * t, u + s * t, t)
        return tangent(vjac, t)[-1], v

    a, fa = 0.0, t[-1]
    b = ds
    fb, vb = f(b)
    for _ in range(200):
        c = b - fb * (b - a) / (fb - fa)
        fc, vc = f(c)
        if abs(fc) < 1e-10:
            return vc
        if fc * fb < 0.0:
            a, fa = b, fb
        else:
            fa *= 0.5
        b, fb, vb = c, fc, vc
    raise RuntimeError("fold location did not converge")


def main():
    print(f"Python {platform.python_version()}, NumPy {np.__version__}, SciPy {scipy.__version__}")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = os.path.join(root, "reference-data", "gap-system", "continuation-folds.csv")
    only = sys.argv[1:]
    rows = []
    for spec in SYSTEMS:
        if only and spec["name"] not in only:
            continue
        system = System(spec)
        coarse_h = spec["harmonics"]
        results = []
        for h in (coarse_h, 2 * coarse_h):
            bal = Balance(system, h, 16 * h)
            folds = continue_branch(bal, spec["omega_from"], spec["omega_to"])
            results.append([(f[-1], bal.amplitude(f)) for f in folds])
        coarse, fine = results
        if len(coarse) != len(fine):
            raise RuntimeError(f"{spec['name']}: {len(coarse)} folds at H, {len(fine)} at 2H")
        for i, ((wc, ac), (wf, af)) in enumerate(zip(coarse, fine)):
            print(f"{spec['name']} fold {i}: omega = {wf:.12f} (coarse {wc:.12f}, diff {abs(wf - wc):.2e}), "
                  f"amplitude = {af:.9f} (coarse {ac:.9f})")
            rows.append((spec["name"], i, wf, af, wc, ac, 2 * coarse_h, 32 * coarse_h))
        if not fine:
            print(f"{spec['name']}: no fold between {spec['omega_from']} and {spec['omega_to']}")
    if only:
        return
    with open(out, "w") as fh:
        fh.write("system,fold,omega,amplitude,omega_coarse,amplitude_coarse,harmonics,samples\n")
        for r in rows:
            fh.write(f"{r[0]},{r[1]},{r[2]:.17g},{r[3]:.17g},{r[4]:.17g},{r[5]:.17g},{r[6]},{r[7]}\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
