"""The multi-mass valve-spring model shared by valve_spring_static.py and
valve_spring_penalty_scipy.py (NumPy only; no code shared with the Rust
crate). See reference-data/valve-spring/SOURCE.md for the definition.

1-D axial model, SI units. The spring is a chain of N = 2 N_b + N_a segments
(M masses per coil): N_b rigid segments in the closed end coil at each end,
N_a active segments of stiffness k_s = k N_a. Nodes 0..N_b sit on the seat,
nodes N_b+N_a..N move with the retainer, nodes N_b+1..N_b+N_a-1 are free.
Coil contact: pairs (i, i+M) whose nodes are not both prescribed, gap
g = z_{i+M} - z_i - d >= 0; the contact force lam >= 0 pushes i+M up and i
down.
"""

import math
import platform

import numpy as np
import scipy

# ---------------------------------------------------------------------------
# Parameters (defaults of the brief; TU Delft ME46060 springparams1.m for
# L0, L_inst, n_a, n_e, G, rho, lift and engine speed; d and D chosen)
PARAMS = dict(
    d=4.0e-3,          # m, wire diameter
    D=24.0e-3,         # m, mean coil diameter
    n_a=4.5,           # active coils
    n_e=2,             # end coils (n_e / 2 closed coils at each end)
    G=81.5e9,          # Pa, shear modulus
    rho=7850.0,        # kg/m^3, density
    M=8,               # masses per coil
    L0=41e-3,          # m, free length
    L_inst=39e-3,      # m, installed length
    H=8e-3,            # m, valve lift
    a=0.5,             # progressivity of the pitch
    zeta=0.02,         # damping ratio at the first mode
    n_cam=40.0,        # rev/s, camshaft speed (engine 80 rev/s)
    beta=math.pi / 3,  # rad, rise (= return) cam angle
    t_end=0.0125,      # s
)


def params_line(p=PARAMS):
    return ("d = {d:g} m, D = {D:g} m, n_a = {n_a:g}, n_e = {n_e:g}, G = {G:g} Pa, rho = {rho:g} kg/m^3, "
            "M = {M:d}, L0 = {L0:g} m, L_inst = {L_inst:g} m, H = {H:g} m, a = {a:g}, zeta = {zeta:g}, "
            "n_cam = {n_cam:g} rev/s, beta = pi/3 rad").format(**p)


def versions():
    return (f"Python {platform.python_version()}, NumPy {np.__version__}, SciPy {scipy.__version__}")


class Spring:
    """Derived quantities, index sets and the force evaluation."""

    def __init__(self, p=PARAMS):
        self.p = dict(p)
        d, D, n_a, n_e = p["d"], p["D"], p["n_a"], p["n_e"]
        G, rho, M = p["G"], p["rho"], p["M"]
        self.d = d
        self.M = M
        self.k = G * d ** 4 / (8.0 * D ** 3 * n_a)                       # N/m, rate
        self.m_coil = rho * (math.pi * d ** 2 / 4.0) * (math.pi * D)      # kg
        self.m = self.m_coil / M                                          # kg, node mass
        N_a = int(round(n_a * M))
        N_b = int(round(n_e / 2 * M))
        assert abs(N_a - n_a * M) < 1e-12 and abs(N_b - n_e / 2 * M) < 1e-12
        self.N_a, self.N_b = N_a, N_b
        self.N = N = 2 * N_b + N_a                                        # nodes 0..N
        self.gbar = (p["L0"] - d * (1.0 + n_e + n_a)) / n_a
        self.solid_length = d * (n_a + n_e + 1.0)
        pitch = np.full(N, d)
        j = np.arange(N_b, N_b + N_a)
        u = (j - N_b + 0.5) / N_a
        pitch[j] = d + self.gbar * (1.0 + p["a"] * (2.0 * u - 1.0))
        self.pitch = pitch                                                # p_j, j = 0..N-1
        self.seg_len = pitch / M                                          # free segment lengths
        z0 = np.empty(N + 1)
        z0[0] = d / 2.0
        for i in range(N):
            z0[i + 1] = z0[i] + pitch[i] / M
        self.z0 = z0
        self.k_s = self.k * N_a
        self.w1 = 2.0 * math.sqrt(self.k_s / self.m) * math.sin(math.pi / (2.0 * N_a))
        self.c_s = 2.0 * p["zeta"] * self.k_s / self.w1
        self.f_surge = 0.5 * math.sqrt(self.k / (n_a * self.m_coil))
        # DOFs
        self.free = np.arange(N_b + 1, N_b + N_a)                         # 35 free nodes
        self.bottom = np.arange(0, N_b + 1)
        self.top = np.arange(N_b + N_a, N + 1)
        self.n_free = len(self.free)
        self.is_free = np.zeros(N + 1, bool)
        self.is_free[self.free] = True
        self.is_bottom = np.zeros(N + 1, bool)
        self.is_bottom[self.bottom] = True
        self.is_top = np.zeros(N + 1, bool)
        self.is_top[self.top] = True
        lo = np.arange(0, N - M + 1)
        hi = lo + M
        keep = self.is_free[lo] | self.is_free[hi]
        self.pair_lo, self.pair_hi = lo[keep], hi[keep]                    # 43 contact pairs
        self.n_pairs = len(self.pair_lo)
        self.pair_on_seat = self.pair_lo <= N_b                            # enter the seat force
        self.active_segments = np.arange(N_b, N_b + N_a)
        # cam
        self.w_cam = 2.0 * math.pi * p["n_cam"]
        self.beta = p["beta"]
        self.H = p["H"]
        self.L0, self.L_inst = p["L0"], p["L_inst"]

    # -- valve lift (cycloidal rise-return) --------------------------------
    def lift(self, t):
        """h(t), h'(t) [m, m/s]."""
        theta = self.w_cam * t
        b = self.beta
        if theta <= 0.0 or theta >= 2.0 * b:
            return 0.0, 0.0
        if theta <= b:
            u, sgn = theta / b, 1.0
        else:
            u, sgn = (2.0 * b - theta) / b, -1.0
        c = u - math.sin(2.0 * math.pi * u) / (2.0 * math.pi)
        dc = 1.0 - math.cos(2.0 * math.pi * u)
        return self.H * c, sgn * self.H * dc * self.w_cam / b

    # -- prescribed motion -------------------------------------------------
    def prescribed(self, delta_top, vel_top=0.0):
        """Full position and velocity vectors with the prescribed nodes set:
        bottom nodes at z0, top nodes at z0 - delta_top (velocity -vel_top)."""
        z = self.z0.copy()
        v = np.zeros(self.N + 1)
        z[self.top] -= delta_top
        v[self.top] = -vel_top
        return z, v

    def installed_state(self):
        """Static equilibrium at the installed length without contact."""
        N_b, N_a = self.N_b, self.N_a
        z = self.z0.copy()
        i = np.arange(N_b, N_b + N_a + 1)
        z[i] = self.z0[i] - (self.L0 - self.L_inst) * (i - N_b) / N_a
        z[self.top] = self.z0[self.top] - (self.L0 - self.L_inst)
        return z

    def tensions(self, z, v=None, damped=True):
        """Segment tensions f_j for the active segments j = N_b..N_b+N_a-1
        (returned as a length-N array, zero for the rigid end segments)."""
        j = self.active_segments
        f = np.zeros(self.N)
        f[j] = self.k_s * (z[j + 1] - z[j] - self.seg_len[j])
        if damped and v is not None:
            f[j] += self.c_s * (v[j + 1] - v[j])
        return f

    def gaps(self, z):
        return z[self.pair_hi] - z[self.pair_lo] - self.d

    def seat_force(self, f, lam):
        """F_seat = -f_{N_b} + sum of lam over the pairs with lower node on the seat."""
        return -f[self.N_b] + lam[self.pair_on_seat].sum()

    def retainer_force(self, f, lam):
        """What the spring presses on the retainer (check in statics)."""
        return -f[self.N_b + self.N_a - 1] + lam[self.is_top[self.pair_hi]].sum()
