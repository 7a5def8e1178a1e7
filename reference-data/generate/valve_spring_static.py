#!/usr/bin/env python3
"""Exact quasi-static force-deflection curve of the multi-mass valve spring
(reference-data/valve-spring/SOURCE.md; model in valve_spring_model.py).

The retainer (top nodes N_b+N_a..N) is moved down by delta from the free
length, the seat nodes 0..N_b stay at their free positions; no dynamics, no
damping. With the displacements u = z - z0 of the 35 free nodes,

    K u = b delta + W lam,     g = g0 + W^T u - e delta,
    g >= 0,  lam >= 0,  g lam = 0          (Signorini, 43 contact pairs)

K = k_s tridiag(-1, 2, -1) (the active chain), b = -k_s e_last (the top
node of the active chain is prescribed), W[:, p] = +1 at the upper node and
-1 at the lower node of pair p (free nodes only), e_p = 1 if the upper node
of pair p moves with the retainer. K is positive definite and the contact
graph (edges (i, i+M), prescribed nodes merged into one ground node) has no
cycle short of a solid line of coils, so the KKT matrix of every active set
reached before solid is nonsingular and the solution is unique and piecewise
linear in delta.

Method (exact active-set tracking / parametric LCP): start at delta = 0 with
no contact. For the current active set A solve the KKT system

    [K  -W_A; W_A^T 0] [u; lam_A] = [b delta; -g0_A + e_A delta]

for the constant and the delta coefficient (u, lam affine in delta); the
next event is the smallest delta above the current one at which an inactive
gap reaches 0 (closing) or an active lam reaches 0 (opening). Switch that
pair and repeat up to delta = 10.5 mm. The static problem contains no pi
(masses do not enter), so with the parameters taken as the decimals they are
written as, every breakpoint and force is rational: the tracking is done in
exact rational arithmetic (fractions.Fraction) and every written value is the
exact one rounded once to float64. The exact solution is checked to satisfy
Signorini exactly at every grid point, each new contact's lam to grow after
its event; the same tracking in float64 (KKT matrix scaled to O(1)) is
compared with it.

Independent cross-check at every grid point: the same problem as a
quadratic program min 1/2 u^T K u - delta b^T u s.t. g(u) >= 0, turned into
a least-distance problem by the Cholesky factor of K and solved by
scipy.optimize.nnls (Lawson & Hanson, "Solving Least Squares Problems",
ch. 23: LDP via NNLS); its multipliers give lam. No active set is passed.

Writes, from the repository root,
  reference-data/valve-spring/static-curve.csv        delta, seat_force,
      closed_pairs at delta = 0, 0.05e-3, ..., 10.5e-3 m (211 rows)
  reference-data/valve-spring/static-breakpoints.csv  the events (exact
      breakpoints of the piecewise-linear curve)

Usage (from the repository root):
  python3 -m pip install numpy scipy
  python3 reference-data/generate/valve_spring_static.py
Shares no code with the Rust crate. Run time: a few seconds (the exact tracking about 2 s).
"""

import os
import sys
import time

from fractions import Fraction

import numpy as np
from scipy.linalg import cho_factor, cho_solve, solve_triangular
from scipy.optimize import nnls

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from valve_spring_model import Spring, params_line, versions  # noqa: E402

OUT_DIR = os.path.join("reference-data", "valve-spring")
COMMAND = "python3 reference-data/generate/valve_spring_static.py"
DELTA_END_STR = "10.5e-3"
DELTA_STEP_STR = "0.05e-3"
N_GRID = 211


class Static:
    def __init__(self, s):
        self.s = s
        n = s.n_free
        self.n = n
        col = {node: c for c, node in enumerate(s.free)}
        K = np.zeros((n, n))
        for c in range(n):
            K[c, c] = 2.0 * s.k_s
            if c > 0:
                K[c, c - 1] = -s.k_s
            if c < n - 1:
                K[c, c + 1] = -s.k_s
        self.K = K
        self.b = np.zeros(n)
        self.b[-1] = -s.k_s
        W = np.zeros((n, s.n_pairs))
        for p, (lo, hi) in enumerate(zip(s.pair_lo, s.pair_hi)):
            if lo in col:
                W[col[lo], p] -= 1.0
            if hi in col:
                W[col[hi], p] += 1.0
        self.W = W
        self.e = s.is_top[s.pair_hi].astype(float)
        self.g0 = s.gaps(s.z0)
        self.first = 0   # column of node N_b+1

    def seat_force(self, u, lam):
        s = self.s
        return -s.k_s * u[self.first] + lam[s.pair_on_seat].sum()

    def retainer_force(self, u, lam, delta):
        s = self.s
        # segment N_b+N_a-1 joins the last free node and the first top node (u = -delta)
        f_last = s.k_s * (-delta - u[-1])
        return -f_last + lam[self.e > 0].sum()

    def piece(self, active):
        """u = u0 + delta u1, lam = l0 + delta l1 on the active set."""
        n, A = self.n, list(active)
        na = len(A)
        WA = self.W[:, A]
        KKT = np.zeros((n + na, n + na))
        KKT[:n, :n] = self.K
        KKT[:n, n:] = -WA
        KKT[n:, :n] = WA.T
        rhs = np.zeros((n + na, 2))
        rhs[n:, 0] = -self.g0[A]
        rhs[:n, 1] = self.b
        rhs[n:, 1] = self.e[A]
        # solved for (u, lam / k_s): O(1) matrix entries (condition number ~1e4)
        KKT[:n, :n] /= self.s.k_s
        rhs[:n] /= self.s.k_s
        sol = np.linalg.solve(KKT, rhs)
        sol[n:] *= self.s.k_s
        u0, u1 = sol[:n, 0], sol[:n, 1]
        l0 = np.zeros(self.s.n_pairs)
        l1 = np.zeros(self.s.n_pairs)
        l0[A] = sol[n:, 0]
        l1[A] = sol[n:, 1]
        g0 = self.g0 + self.W.T @ u0
        g1 = self.W.T @ u1 - self.e
        cond = np.linalg.cond(KKT)   # of the scaled matrix
        return dict(u0=u0, u1=u1, l0=l0, l1=l1, gg0=g0, gg1=g1, active=frozenset(A), cond=cond)

    def at(self, pc, delta):
        u = pc["u0"] + delta * pc["u1"]
        lam = pc["l0"] + delta * pc["l1"]
        g = pc["gg0"] + delta * pc["gg1"]
        return u, lam, g

    def track(self, delta_end):
        """Active-set tracking from delta = 0. Returns the pieces
        [(delta_start, delta_stop, piece)] and the events."""
        active = set()
        delta = 0.0
        pieces, events = [], []
        while True:
            pc = self.piece(active)
            cand = []
            for p in range(self.s.n_pairs):
                if p in active:
                    if pc["l1"][p] < 0.0:
                        cand.append((-pc["l0"][p] / pc["l1"][p], p, "open"))
                else:
                    if pc["gg1"][p] < 0.0:
                        cand.append((-pc["gg0"][p] / pc["gg1"][p], p, "close"))
            cand = [c for c in cand if c[0] > delta * (1.0 + 1e-12) + 1e-15]
            cand.sort()
            if not cand or cand[0][0] >= delta_end:
                pieces.append((delta, delta_end, pc))
                break
            d_ev, p_ev, kind = cand[0]
            if len(cand) > 1 and cand[1][0] - d_ev < 1e-9 * d_ev:
                raise RuntimeError(f"near-simultaneous events at delta = {d_ev:.17g}: {cand[:3]}")
            pieces.append((delta, d_ev, pc))
            if kind == "close":
                active.add(p_ev)
            else:
                active.discard(p_ev)
            new = self.piece(active)
            # the new piece must move the right way
            if kind == "close" and not new["l1"][p_ev] > 0.0:
                raise RuntimeError(f"pair {p_ev} closes at {d_ev} but its lam would decrease")
            if kind == "open" and not new["gg1"][p_ev] > 0.0:
                raise RuntimeError(f"pair {p_ev} opens at {d_ev} but its gap would close")
            events.append(dict(delta=d_ev, pair=p_ev, kind=kind, n_active=len(active)))
            delta = d_ev
        return pieces, events

    # -- independent solve: QP -> LDP -> NNLS -------------------------------
    def ldp_solve(self, delta):
        """Lawson-Hanson LDP via NNLS, in units of mm and k_s (O(1) numbers)."""
        s = self.s
        Kt = self.K / s.k_s
        bt = self.b / s.k_s                     # so that Kt u~ = bt delta~ + W mu
        dt = delta / 1e-3
        c = (-self.g0 + self.e * delta) / 1e-3  # W^T u~ >= c
        R = np.linalg.cholesky(Kt).T            # Kt = R^T R, R upper
        Kinv_b = cho_solve(cho_factor(Kt), bt * dt)
        Rinv = solve_triangular(R, np.eye(self.n))
        G = self.W.T @ Rinv                     # constraints G x >= h, x = R u~ - R^{-T} bt dt
        h = c - self.W.T @ Kinv_b
        E = np.vstack([G.T, h[None, :]])
        f = np.zeros(self.n + 1)
        f[-1] = 1.0
        y, _ = nnls(E, f, maxiter=50 * E.shape[1])
        r = E @ y - f
        if abs(r[-1]) < 1e-14:
            raise RuntimeError("LDP infeasible")
        x = -r[:-1] / r[-1]
        mu = y / (-r[-1])
        u = (Rinv @ x + Kinv_b) * 1e-3
        lam = mu * s.k_s * 1e-3
        return u, lam


# ---------------------------------------------------------------------------
# Exact rational tracking. The static problem involves no pi (masses do not
# enter): with the parameters taken as the decimal numbers they are written
# as, k, k_s, the pitches, the free gaps and hence every breakpoint and every
# force are rational numbers. This repeats the tracking in fractions.Fraction
# arithmetic (Gaussian elimination without rounding), so the written values
# are the exact ones rounded once to float64.
def frac(x):
    return Fraction(repr(float(x)))


def solve_exact(A, B):
    """Solves A X = B exactly (A: list of lists of Fraction, B: list of rows)."""
    n = len(A)
    A = [row[:] + brow[:] for row, brow in zip(A, B)]
    m = len(A[0])
    for c in range(n):
        piv = next(r for r in range(c, n) if A[r][c] != 0)
        if piv != c:
            A[c], A[piv] = A[piv], A[c]
        pr = A[c]
        inv = 1 / pr[c]
        nz = [j for j in range(c, m) if pr[j] != 0]
        for r in range(c + 1, n):
            f = A[r][c]
            if f != 0:
                f *= inv
                row = A[r]
                for j in nz:
                    row[j] -= f * pr[j]
    X = [[Fraction(0)] * (m - n) for _ in range(n)]
    for c in range(n - 1, -1, -1):
        for k in range(m - n):
            acc = A[c][n + k]
            for j in range(c + 1, n):
                if A[c][j] != 0:
                    acc -= A[c][j] * X[j][k]
            X[c][k] = acc / A[c][c]
    return X


class ExactStatic:
    """The same parametric LCP in rational arithmetic (unknowns u, mu = lam / k_s)."""

    def __init__(self, s):
        p = s.p
        d, D, n_a, n_e, G = (frac(p[k]) for k in ("d", "D", "n_a", "n_e", "G"))
        L0, a = frac(p["L0"]), frac(p["a"])
        M, N_a, N_b, N = s.M, s.N_a, s.N_b, s.N
        self.s = s
        self.k = G * d ** 4 / (8 * D ** 3 * n_a)
        self.k_s = self.k * N_a
        gbar = (L0 - d * (1 + n_e + n_a)) / n_a
        self.gbar = gbar
        pitch = []
        for j in range(N):
            if N_b <= j < N_b + N_a:
                u = Fraction(2 * (j - N_b) + 1, 2 * N_a)
                pitch.append(d + gbar * (1 + a * (2 * u - 1)))
            else:
                pitch.append(d)
        seg = [pj / M for pj in pitch]
        self.clear = [pj - d for pj in pitch]
        self.g0 = [sum(seg[lo:hi]) - d for lo, hi in zip(s.pair_lo, s.pair_hi)]
        self.n = s.n_free
        col = {int(node): c for c, node in enumerate(s.free)}
        self.W = [[0] * s.n_pairs for _ in range(self.n)]
        for q, (lo, hi) in enumerate(zip(s.pair_lo, s.pair_hi)):
            if int(lo) in col:
                self.W[col[int(lo)]][q] -= 1
            if int(hi) in col:
                self.W[col[int(hi)]][q] += 1
        self.e = [1 if s.is_top[hi] else 0 for hi in s.pair_hi]

    def piece(self, active):
        n, A = self.n, sorted(active)
        na = len(A)
        Z = Fraction(0)
        KKT = [[Z] * (n + na) for _ in range(n + na)]
        for c in range(n):
            KKT[c][c] = Fraction(2)
            if c > 0:
                KKT[c][c - 1] = Fraction(-1)
            if c < n - 1:
                KKT[c][c + 1] = Fraction(-1)
            for k, q in enumerate(A):
                KKT[c][n + k] = Fraction(-self.W[c][q])
                KKT[n + k][c] = Fraction(self.W[c][q])
        rhs = [[Z, Z] for _ in range(n + na)]
        rhs[n - 1][1] = Fraction(-1)          # bt = b / k_s = -e_last
        for k, q in enumerate(A):
            rhs[n + k][0] = -self.g0[q]
            rhs[n + k][1] = Fraction(self.e[q])
        X = solve_exact(KKT, rhs)
        u0 = [X[c][0] for c in range(n)]
        u1 = [X[c][1] for c in range(n)]
        l0 = [Z] * self.s.n_pairs
        l1 = [Z] * self.s.n_pairs
        for k, q in enumerate(A):
            l0[q] = X[n + k][0] * self.k_s
            l1[q] = X[n + k][1] * self.k_s
        gg0 = [self.g0[q] + sum(self.W[c][q] * u0[c] for c in range(n) if self.W[c][q]) for q in
               range(self.s.n_pairs)]
        gg1 = [sum(self.W[c][q] * u1[c] for c in range(n) if self.W[c][q]) - self.e[q] for q in
               range(self.s.n_pairs)]
        seat = [q for q in range(self.s.n_pairs) if self.s.pair_on_seat[q]]
        F0 = -self.k_s * u0[0] + sum(l0[q] for q in seat)
        F1 = -self.k_s * u1[0] + sum(l1[q] for q in seat)
        return dict(u0=u0, u1=u1, l0=l0, l1=l1, gg0=gg0, gg1=gg1, F0=F0, F1=F1, active=frozenset(A))

    def track(self, delta_end):
        active, delta = set(), Fraction(0)
        pieces, events = [], []
        while True:
            pc = self.piece(active)
            cand = []
            for q in range(self.s.n_pairs):
                if q in active and pc["l1"][q] < 0:
                    cand.append((-pc["l0"][q] / pc["l1"][q], q, "open"))
                elif q not in active and pc["gg1"][q] < 0:
                    cand.append((-pc["gg0"][q] / pc["gg1"][q], q, "close"))
            cand = sorted(c for c in cand if c[0] > delta)
            if not cand or cand[0][0] >= delta_end:
                pieces.append((delta, delta_end, pc))
                return pieces, events
            d_ev, q_ev, kind = cand[0]
            if len(cand) > 1 and cand[1][0] == d_ev:
                raise RuntimeError(f"simultaneous events at delta = {float(d_ev)!r}")
            pieces.append((delta, d_ev, pc))
            (active.add if kind == "close" else active.discard)(q_ev)
            events.append(dict(delta=d_ev, pair=q_ev, kind=kind, n_active=len(active)))
            delta = d_ev


def write_curve(path, grid_rows, header):
    with open(path, "w") as fh:
        for line in header:
            fh.write("# " + line + "\n")
        fh.write("delta,seat_force,closed_pairs\n")
        for d, F, n in grid_rows:
            fh.write(f"{d:.12g},{F:.17g},{n:d}\n")


def main():
    print(versions())
    print(f"command: {COMMAND}")
    t_start = time.perf_counter()
    s = Spring()
    st = Static(s)
    ex = ExactStatic(s)
    print(f"k = {s.k!r} N/m (exact {ex.k}), k_s = {s.k_s!r} N/m, m_coil = {s.m_coil!r} kg, m = {s.m!r} kg")
    print(f"gbar = {s.gbar!r} m (exact {ex.gbar}), solid length = {s.solid_length!r} m")
    print("free gaps of the pairs [mm]: " + " ".join(f"{g * 1e3:.4f}" for g in st.g0))

    delta_end = Fraction(DELTA_END_STR)
    t0 = time.perf_counter()
    xpieces, xevents = ex.track(delta_end)
    t_exact = time.perf_counter() - t0
    fpieces, fevents = st.track(float(delta_end))
    print(f"\nexact tracking: {len(xevents)} events on [0, {float(delta_end) * 1e3:g}] mm, {len(xpieces)} "
          f"linear pieces ({t_exact:.1f} s); float64 tracking: {len(fevents)} events "
          f"(max condition number of the scaled KKT matrices {max(pc['cond'] for _, _, pc in fpieces):.2e})")
    assert [(e["pair"], e["kind"]) for e in xevents] == [(e["pair"], e["kind"]) for e in fevents]
    max_ddelta = max(abs(float(a["delta"]) - b["delta"]) for a, b in zip(xevents, fevents))
    print(f"float64 tracking against exact: same event sequence, max |delta difference| = {max_ddelta:.1e} m")

    pc0 = xpieces[0][2]
    rate0 = pc0["F1"]
    print(f"rate before any closure: {float(rate0)!r} N/m (exact {rate0}); k = {float(ex.k)!r} N/m; "
          f"equal exactly: {rate0 == ex.k}; force at delta = 0: {pc0['F0']}")

    bp_rows = [("start", Fraction(0), pc0["F0"], -1, -1, 0, rate0)]
    print(f"{'#':>3s} {'kind':>5s} {'pair (lo,hi)':>13s} {'delta [mm]':>20s} {'F_seat [N]':>20s} "
          f"{'closed':>6s} {'rate after [N/m]':>18s}   exact delta [m]")
    for k_ev, ev in enumerate(xevents):
        before, after = xpieces[k_ev][2], xpieces[k_ev + 1][2]
        d = ev["delta"]
        F_left, F_right = before["F0"] + before["F1"] * d, after["F0"] + after["F1"] * d
        assert F_left == F_right
        q = ev["pair"]
        if ev["kind"] == "close":
            assert after["l1"][q] > 0          # the new contact is loaded as delta grows
        else:
            assert after["gg1"][q] > 0
        lo, hi = int(s.pair_lo[q]), int(s.pair_hi[q])
        bp_rows.append((ev["kind"], d, F_left, lo, hi, ev["n_active"], after["F1"]))
        print(f"{k_ev + 1:3d} {ev['kind']:>5s} {f'({lo},{hi})':>13s} {float(d) * 1e3:20.15f} "
              f"{float(F_left):20.13f} {ev['n_active']:6d} {float(after['F1']):18.6f}   {d}")
    last = xpieces[-1][2]
    bp_rows.append(("end", delta_end, last["F0"] + last["F1"] * delta_end, -1, -1, len(last["active"]),
                    last["F1"]))
    first = next(ev for ev in xevents if ev["kind"] == "close")
    print(f"first closure at delta = {float(first['delta'])!r} m = {first['delta']} m "
          f"(pair ({s.pair_lo[first['pair']]},{s.pair_hi[first['pair']]}))")
    print(f"openings (lam back to 0): {sum(ev['kind'] == 'open' for ev in xevents)}")
    # closed form observed: pair (i, i+M) closes when the seat force reaches k_s (p_j - d) / M with
    # j = N_b + i - 1, the clearance of the one segment the new contact bridges beyond the closed ones
    closed_form = all(
        ev["kind"] == "close" and F == ex.k_s * ex.clear[s.N_b + lo - 1] / s.M
        for (kind, d, F, lo, hi, n, rate), ev in zip(bp_rows[1:], xevents))
    print(f"every closure force equals k_s (p_(N_b+i-1) - d) / M for pair (i, i+M) exactly: {closed_form}")
    steps = [float(b[2] - a[2]) for a, b in zip(bp_rows[1:], bp_rows[2:-1])]
    if steps:
        print(f"force increments between consecutive closures: min {min(steps)!r}, max {max(steps)!r} N")

    # uniform grid, exact values
    grid = [Fraction(i, 1) * Fraction(DELTA_STEP_STR) for i in range(N_GRID)]
    assert grid[-1] == delta_end
    rows = []
    max_dF_float = max_dF = max_du = max_dlam = 0.0
    max_res = max_comp = max_seat_ret = 0.0
    min_g = min_lam = np.inf
    near = []
    for dq in grid:
        a, b_, pc = next(x for x in xpieces if x[0] <= dq <= x[1])
        F = pc["F0"] + pc["F1"] * dq
        for ev in xevents:
            if ev["delta"] == dq:
                near.append(float(dq))
        # the exact solution must satisfy Signorini exactly
        lam = [l0 + l1 * dq for l0, l1 in zip(pc["l0"], pc["l1"])]
        gap = [g0 + g1 * dq for g0, g1 in zip(pc["gg0"], pc["gg1"])]
        assert all(x >= 0 for x in lam) and all(x >= 0 for x in gap)
        assert all(gap[q] == 0 for q in pc["active"]) and all(lam[q] == 0 for q in range(s.n_pairs)
                                                              if q not in pc["active"])
        rows.append((float(dq), float(F), len(pc["active"])))
        d = float(dq)
        # float64 tracking at the same point
        fpc = next(x[2] for x in fpieces if x[0] <= d <= x[1])
        u, lamf, g = st.at(fpc, d)
        Ff = st.seat_force(u, lamf)
        max_dF_float = max(max_dF_float, abs(Ff - float(F)))
        res = st.K @ u - st.b * d - st.W @ lamf
        max_res = max(max_res, np.abs(res).max() / s.k_s)
        act = np.array([q in fpc["active"] for q in range(s.n_pairs)])
        if (~act).any():
            min_g = min(min_g, g[~act].min())
        if act.any():
            min_lam = min(min_lam, lamf[act].min())
            max_comp = max(max_comp, np.abs(g[act]).max())
        max_seat_ret = max(max_seat_ret, abs(Ff - st.retainer_force(u, lamf, d)))
        # independent QP solve (LDP/NNLS), against the exact values
        u2, lam2 = st.ldp_solve(d)
        F2 = st.seat_force(u2, lam2)
        max_dF = max(max_dF, abs(F2 - float(F)))
        ue = np.array([float(x0 + x1 * dq) for x0, x1 in zip(pc["u0"], pc["u1"])]) * 1.0
        max_du = max(max_du, np.abs(u2 - ue).max())
        max_dlam = max(max_dlam, np.abs(lam2 - np.array([float(x) for x in lam])).max())
    print(f"\nGrid (211 points): exact solution satisfies g >= 0, lam >= 0, g lam = 0 exactly.")
    print(f"float64 tracking: max |dF_seat| against exact = {max_dF_float:.2e} N; its KKT residual "
          f"max |K u - b delta - W lam| / k_s = {max_res:.1e} m, min inactive gap = {min_g:.3e} m, "
          f"min active lam = {min_lam:.3e} N, max |active gap| = {max_comp:.1e} m, "
          f"max |seat - retainer force| = {max_seat_ret:.1e} N")
    print(f"independent LDP/NNLS QP solve against exact: max |dF_seat| = {max_dF:.2e} N, max |du| = "
          f"{max_du:.2e} m, max |dlam| = {max_dlam:.2e} N")
    print(f"grid points exactly at a breakpoint: {near}")
    for dq in (2e-3, 6e-3, 10e-3):
        r = min(rows, key=lambda rr: abs(rr[0] - dq))
        print(f"seat force at delta = {dq * 1e3:g} mm: {r[1]!r} N, closed pairs {r[2]}, "
              f"no-contact k delta = {float(ex.k) * dq!r} N")

    os.makedirs(OUT_DIR, exist_ok=True)
    header = [
        "Multi-mass valve spring, quasi-static force-deflection curve (exact piecewise-linear solution, "
        "Signorini coil contact); see reference-data/valve-spring/SOURCE.md",
        "parameters: " + params_line(),
        f"derived: k = {s.k:.10g} N/m, k_s = k N_a = {s.k_s:.10g} N/m, N_a = {s.N_a}, N_b = {s.N_b}, "
        f"N = {s.N}, gbar = {s.gbar:.10g} m, solid length = {s.solid_length:.10g} m, {s.n_pairs} contact pairs",
        "delta: retainer displacement down from the free length L0 (installed: delta = L0 - L_inst = 2e-3 m; "
        "full lift: 10e-3 m)",
        f"command: {COMMAND}   (from the repository root)",
        "method: active-set tracking (parametric LCP) in exact rational arithmetic (fractions.Fraction; the "
        "parameters as decimals), values rounded once to float64; checked by float64 tracking "
        f"(max |dF_seat| {max_dF_float:.1e} N) and an independent QP solve at every grid point (LDP via "
        f"scipy.optimize.nnls, max |dF_seat| {max_dF:.1e} N)",
        f"versions: {versions()}",
    ]
    path = os.path.join(OUT_DIR, "static-curve.csv")
    write_curve(path, rows, header + [
        "columns: delta [m], seat_force [N] (-f_{N_b} + lam of the pairs with lower node on the seat), "
        "closed_pairs (active contacts; no grid point is a breakpoint)"])
    print(f"\nwrote {path} ({len(rows)} rows)")
    path = os.path.join(OUT_DIR, "static-breakpoints.csv")
    with open(path, "w") as fh:
        for line in header + [
                "columns: event (start | close | open | end), delta [m], seat_force [N] at delta, pair_lo, "
                "pair_hi (nodes of the pair switched; -1 for start/end), closed_pairs (after the event), "
                "rate_after [N/m] (d seat_force / d delta on the piece that follows; for end: on the last "
                "piece), delta_exact [m] (the rational value)"]:
            fh.write("# " + line + "\n")
        fh.write("event,delta,seat_force,pair_lo,pair_hi,closed_pairs,rate_after,delta_exact\n")
        for kind, d, F, lo, hi, n, rate in bp_rows:
            fh.write(f"{kind},{float(d)!r},{float(F)!r},{lo},{hi},{n},{float(rate)!r},{d}\n")
    print(f"wrote {path} ({len(bp_rows)} rows)")
    print(f"total run time {time.perf_counter() - t_start:.1f} s (process time {time.process_time():.1f} s)")


if __name__ == "__main__":
    if not os.path.isdir("reference-data"):
        sys.exit("run from the repository root: python3 reference-data/generate/valve_spring_static.py")
    main()
