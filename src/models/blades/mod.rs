//! Two shrouded turbine blades with friction between their shrouds, after
//! the seed on friction in contact joints (a Czech study text, "Modelování
//! tření v kontaktních vazbách": eqs. (1)-(8), its application to two
//! blades, Figs. 2-4).
//!
//! Each blade is a clamped Euler-Bernoulli beam along x bending in y and z
//! ([`beam`]); its shroud is a rigid block at the tip node ([`shroud`]);
//! the shrouds touch on an inclined rectangle divided into 4 x 5 patches
//! whose penalty normal forces and friction forces act on both tips
//! ([`contact`]). The equations of motion (the seed's eq. (8))
//!
//!   blockdiag(M1, M2) q'' + blockdiag(B1, B2) q' + blockdiag(K1, K2) q
//!     = f(t) + sum_j H_j^T f_Aj^(2,1)(q, q'),
//!
//! with a step force on blade 1's tip pressing it towards blade 2, are
//! integrated two ways:
//!
//! - as the ODE y = (q, q', friction work, damping work, load work) of
//!   [`ode::BladeOde`] by the crate's explicit Runge-Kutta methods; a
//!   set-valued law then acts as the seed computed it, -N f(|c|) c/|c| with
//!   0 at c = 0 and no sticking;
//! - by the Moreau-Jean time stepping of
//!   [`crate::integrators::moreau::MoreauStepper`] ([`moreau`]: the pair as
//!   its problem) with true sticking for set-valued laws.
//!
//! [`simulate::simulate`] runs either and returns the time series a study
//! plots. The module imports nothing from the harness or the studies.
//!
//! # Defaults ([`BladePairParams::default`])
//!
//! The seed gives no dimensions; the blade is a small prismatic steel test
//! blade: L = 0.12 m (root to shroud centroid), chord b = 30 mm along y,
//! thickness h = 5 mm along z, no stagger; structural steel
//! E = 210 GPa, nu = 0.3 (EN 1993-1-1, 3.2.6; Euler-Bernoulli bending does
//! not use nu), rho = 7850 kg/m^3 (EN 1991-1-1, Table A.4). Ten elements.
//! Then I_y = b h^3 / 12 = 3.125e-10 m^4, I_z = h b^3 / 12 = 1.125e-8 m^4,
//! the tip static stiffness 3 E I / L^3 is 1.139e5 N/m in z (weak) and
//! 4.102e6 N/m in y, the blade's mass 0.1413 kg and its first bending
//! frequencies without shroud 290.1 Hz (z) and 1740.7 Hz (y).
//!
//! Shroud: a steel block 6 x 30 x 25 mm (x, y, z) centred on the tip node,
//! m_s = 35.3 g, J_y = 1.95e-6 kg m^2, J_z = 2.76e-6 kg m^2. With it the
//! first frequencies of one clamped blade are 203.9 Hz (z), 1222.6 Hz (y)
//! and 1433.5 Hz (z, second); the highest of the pair's model is
//! 1.5e7 rad/s (the strong plane's shortest element mode), which bounds an
//! explicit method's step near 2e-7 s.
//!
//! Pair: blade 2 is blade 1 translated by the pitch s = 25 mm along z (its
//! root at (0, 0, s)); the contact rectangle a x b = 6 mm (along x) x 10 mm
//! (in the y-z plane) is centred at (L, 0, s / 2), midway between the tip
//! nodes, its normal inclined by alpha = 30 deg from z, so that the
//! pressing force along z has the normal component F cos alpha and the
//! tangential one F sin alpha (a Z-shaped shroud's inclined face); zero gap
//! at rest. Patches 4 (along x) x 5, as in the seed.
//!
//! Damping: Rayleigh B = alpha M + beta K with zeta = 5e-4 at the first and
//! third frequencies of one blade with shroud (203.9 and 1433.5 Hz): the
//! order of the material damping of blade steels (loss factors 1e-4 to
//! 1e-3: Lazan, *Damping of Materials and Members in Structural Mechanics*,
//! 1968), low so that the friction's effect shows; alpha = 1.122 1/s,
//! beta = 9.72e-8 s (zeta = 0.73 at the highest mode: it stays
//! underdamped, so beta does not shrink an explicit step further).
//!
//! Contact: k_n = 100 x 1.139e5 N/m / 20 = 5.70e5 N/m per patch (total
//! contact stiffness 100 times the blade's tip stiffness in z; the seed
//! computes its normal forces in a previous text, not given here);
//! d_n = 2 zeta_c sqrt(k_total m_s / 2) / 20 = 4.49 N s/m per patch, the
//! damping ratio zeta_c = 0.1 of the two shrouds' relative normal
//! oscillation on the total contact stiffness (reduced mass m_s / 2).
//!
//! Load: F = 10 N along +z on blade 1's tip node, a step at t = 0 (the
//! seed's Fig. 3).
//!
//! Torsion (`torsion = true`; default false, rigid in torsion): one DOF per
//! blade, the tip's theta_x, the twist taken linear along the blade (the
//! first torsion mode of a clamped shaft with a heavy tip): stiffness
//! phi_t G J / L (phi_t = `torsion_factor`, default 1) with G = E / (2 (1 + nu)) = 80.8 GPa and Saint-Venant's
//! J = beta b h^3 of the 30 x 5 mm rectangle (beta = 0.2983, J = 1.119e-9
//! m^4; Roark, Table 10.7): G J / L = 753 N m/rad, 4.8e6 N/m at the
//! contact's s/2 lever, comparable to the total penalty stiffness 1.1e7
//! N/m; inertia the shroud's J_x = m_s (a_y^2 + a_z^2) / 12 plus a third of
//! the blade's rho I_p L (the Rayleigh quotient of the linear twist). The
//! Rayleigh coefficients are those of the bending modes.

pub mod beam;
pub mod contact;
pub mod moreau;
pub mod ode;
pub mod shroud;

use crate::contact::normal::Penalty;
use crate::sparse::band::BandCholesky;
use crate::sparse::csr::Csr;
use beam::{Beam, THETA_Y, THETA_Z, V, W};
use contact::{BLADE_TIP_DOFS, TIP_DOFS};
use contact::{ContactSet, ContactTotals, PatchMap};
use nalgebra::{DMatrix, Vector3};
use shroud::{BEAM_COLUMNS, ContactSurface, ShroudBlock, rigid_map};
use sprs::{CsMat, TriMat};

/// The data of the blade pair (SI units); [`Default`] gives the documented
/// realistic values (module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct BladePairParams {
    /// L [m], root clamp to shroud centroid. Default 0.12 (assumed small
    /// test blade).
    pub length: f64,
    /// b [m], section width along y (the chord). Default 0.030.
    pub chord: f64,
    /// h [m], section thickness along z. Default 0.005.
    pub thickness: f64,
    /// gamma [rad], principal axes turned about x. Default 0.
    pub stagger: f64,
    /// E [Pa]. Default 2.1e11 (EN 1993-1-1).
    pub youngs_modulus: f64,
    /// rho [kg/m^3], blade and shroud. Default 7850 (EN 1991-1-1).
    pub density: f64,
    /// Beam elements per blade. Default 10.
    pub elements: usize,
    /// Mode numbers (1-based, one clamped blade with shroud) at which the
    /// Rayleigh damping has the ratios below. Default [1, 3].
    pub damping_modes: [usize; 2],
    /// zeta at those modes [-]. Default [5e-4, 5e-4] (material damping).
    pub damping_ratios: [f64; 2],
    /// Shroud block edges along x, y, z [m]. Default [0.006, 0.030, 0.025].
    pub shroud_size: [f64; 3],
    /// s [m], blade 2's root is at (0, 0, s). Default 0.025.
    pub pitch: f64,
    /// (x, y) offset of the contact rectangle's centre from blade 1's tip
    /// node [m]; its z offset is s / 2. Default [0, 0].
    pub contact_offset: [f64; 2],
    /// (a along x, b in the y-z plane) [m]. Default [0.006, 0.010].
    pub contact_size: [f64; 2],
    /// alpha [rad], the contact normal's angle from z in the y-z plane.
    /// Default 30 deg.
    pub inclination: f64,
    /// Patches (along xi = x, along eta). Default [4, 5] (the seed).
    pub patches: [usize; 2],
    /// g0 [m], the gap at rest; negative: interference (preload). Default 0.
    pub initial_gap: f64,
    /// Total normal contact stiffness over blade 1's tip stiffness in z
    /// [-]. Default 100.
    pub contact_stiffness_ratio: f64,
    /// zeta_c of the shrouds' relative normal oscillation [-]. Default 0.1.
    pub contact_damping_ratio: f64,
    /// F [N], the step force on blade 1's tip from t = 0. Default 10 (the
    /// seed).
    pub load: f64,
    /// Its direction (global, normalised here; no x component). Default
    /// [0, 0, 1]: towards blade 2.
    pub load_direction: [f64; 3],
    /// Whether the blades twist: false (default) holds theta_x (rigid in
    /// torsion); true adds one torsion DOF per blade, theta_x of the tip
    /// (module doc, "Torsion").
    pub torsion: bool,
    /// nu [-], for the shear modulus G = E / (2 (1 + nu)) of the torsion.
    /// Default 0.3 (EN 1993-1-1, 3.2.6).
    pub poisson_ratio: f64,
    /// phi_t [-], the torsion stiffness over the rectangle's G J / L (the
    /// section's Saint-Venant constant; an airfoil's is about half the
    /// enclosing rectangle's). Default 1.
    pub torsion_factor: f64,
}

impl Default for BladePairParams {
    fn default() -> Self {
        Self {
            length: 0.12,
            chord: 0.030,
            thickness: 0.005,
            stagger: 0.0,
            youngs_modulus: 2.1e11,
            density: 7850.0,
            elements: 10,
            damping_modes: [1, 3],
            damping_ratios: [5e-4, 5e-4],
            shroud_size: [0.006, 0.030, 0.025],
            pitch: 0.025,
            contact_offset: [0.0, 0.0],
            contact_size: [0.006, 0.010],
            inclination: 30f64.to_radians(),
            patches: [4, 5],
            initial_gap: 0.0,
            contact_stiffness_ratio: 100.0,
            contact_damping_ratio: 0.1,
            load: 10.0,
            load_direction: [0.0, 0.0, 1.0],
            torsion: false,
            poisson_ratio: 0.3,
            torsion_factor: 1.0,
        }
    }
}

/// H's column of a tip's theta_x (after v, w, theta_z, theta_y).
const TORSION_COLUMN: usize = 4;
/// The rigid map's column of theta_x.
const THETA_X_RIGID: usize = 3;

/// The assembled blade pair: blade 1's DOFs first, then blade 2's.
#[derive(Debug, Clone)]
pub struct BladePair {
    params: BladePairParams,
    beam: Beam,
    shroud: ShroudBlock,
    surface: ContactSurface,
    contact: ContactSet,
    /// M, B, K of the pair (block-diagonal, sparse).
    mass: CsMat<f64>,
    damping: CsMat<f64>,
    stiffness: CsMat<f64>,
    m_csr: Csr,
    b_csr: Csr,
    k_csr: Csr,
    /// K and B share their nonzero pattern (Rayleigh damping on the
    /// beams' consistent matrices): K q and B v take one pass.
    kb_pattern: bool,
    dense: [DMatrix<f64>; 3],
    mass_factor: BandCholesky,
    load: Vec<f64>,
    rayleigh: (f64, f64),
    anchors: [f64; 2],
    initial_q: Vec<f64>,
    /// DOFs of one blade: the beam's, plus theta_x of the tip with torsion.
    blade_dofs: usize,
    /// (G J / L [N m/rad], tip torsional inertia [kg m^2]) with torsion.
    torsion: Option<(f64, f64)>,
}

/// Saint-Venant's torsion constant of a b x h rectangle (b >= h), J =
/// beta b h^3 with beta = (1 - 0.630 (h/b) + 0.052 (h/b)^5) / 3 (Young &
/// Budynas, *Roark's Formulas for Stress and Strain*, 7th ed., Table 10.7,
/// case 4; within 4 % for every b/h).
pub fn rectangle_torsion_constant(b: f64, h: f64) -> f64 {
    let (b, h) = if b >= h { (b, h) } else { (h, b) };
    let r = h / b;
    (1.0 - 0.630 * r + 0.052 * r.powi(5)) / 3.0 * b * h.powi(3)
}

fn check_positive(name: &str, v: f64) -> Result<(), String> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(format!(
            "blade pair: {name} must be positive and finite, got {v}"
        ))
    }
}

fn block_diagonal(a: &DMatrix<f64>) -> DMatrix<f64> {
    let n = a.nrows();
    let mut d = DMatrix::zeros(2 * n, 2 * n);
    d.view_mut((0, 0), (n, n)).copy_from(a);
    d.view_mut((n, n), (n, n)).copy_from(a);
    d
}

fn sparse(a: &DMatrix<f64>) -> CsMat<f64> {
    let mut t = TriMat::new((a.nrows(), a.ncols()));
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            if a[(i, j)] != 0.0 {
                t.add_triplet(i, j, a[(i, j)]);
            }
        }
    }
    t.to_csr()
}

impl BladePair {
    /// Assembles the pair; fails on invalid data, naming the field.
    pub fn new(p: &BladePairParams) -> Result<Self, String> {
        validate(p)?;
        let d = Vector3::from(p.load_direction);
        let beam = Beam {
            length: p.length,
            width: p.chord,
            thickness: p.thickness,
            stagger: p.stagger,
            youngs_modulus: p.youngs_modulus,
            density: p.density,
            elements: p.elements,
        };
        beam.validate()?;
        let shroud = ShroudBlock {
            size: p.shroud_size,
            density: p.density,
        };
        let nb_beam = beam.dofs();
        let nb = nb_beam + usize::from(p.torsion);
        let tip = beam.tip();
        let (mut m1, k1) = beam.matrices();
        m1[(tip + V, tip + V)] += shroud.mass();
        m1[(tip + W, tip + W)] += shroud.mass();
        m1[(tip + THETA_Y, tip + THETA_Y)] += shroud.inertia_y();
        m1[(tip + THETA_Z, tip + THETA_Z)] += shroud.inertia_z();
        // Rayleigh damping from one blade with its shroud.
        let w = beam::natural_frequencies(&m1, &k1)?;
        let [a1, a2] = p.damping_modes;
        if a1 == 0 || a2 <= a1 || a2 > w.len() {
            return Err(format!(
                "blade pair: damping_modes must be 1 <= m1 < m2 <= {}, got {:?}",
                w.len(),
                p.damping_modes
            ));
        }
        let anchors = [w[a1 - 1], w[a2 - 1]];
        let (alpha, beta) = beam::rayleigh_coefficients(
            anchors[0],
            p.damping_ratios[0],
            anchors[1],
            p.damping_ratios[1],
        )?;
        let (m1, k1, torsion) = with_torsion(p, &shroud, nb_beam, m1, k1)?;
        let b1 = &m1 * alpha + &k1 * beta;
        let (m, b, k) = (
            block_diagonal(&m1),
            block_diagonal(&b1),
            block_diagonal(&k1),
        );
        let mass_factor = BandCholesky::new(&m)?;
        // Contact geometry: tips C1 = (L, 0, 0), C2 = (L, 0, s).
        let c1 = Vector3::new(p.length, 0.0, 0.0);
        let c2 = Vector3::new(p.length, 0.0, p.pitch);
        let centre = c1 + Vector3::new(p.contact_offset[0], p.contact_offset[1], 0.5 * p.pitch);
        let surface = ContactSurface::new(centre, p.contact_size, p.inclination, p.patches);
        let n_patches = surface.patches.len();
        let k_total = p.contact_stiffness_ratio * beam.tip_stiffness_weak();
        let d_total = 2.0 * p.contact_damping_ratio * (k_total * 0.5 * shroud.mass()).sqrt();
        let penalty = Penalty {
            stiffness: k_total / n_patches as f64,
            damping: d_total / n_patches as f64,
        };
        let contact = contact_set(p, &surface, [c1, c2], tip, nb_beam, penalty);
        let dir = d / d.norm();
        let mut load = vec![0.0; 2 * nb];
        load[tip + V] = p.load * dir.y;
        load[tip + W] = p.load * dir.z;
        let (mass, damping, stiffness) = (sparse(&m), sparse(&b), sparse(&k));
        let (b_csr, k_csr) = (Csr::from_sprs(&damping), Csr::from_sprs(&stiffness));
        let kb_pattern = k_csr.same_pattern(&b_csr);
        let mut pair = Self {
            params: p.clone(),
            beam,
            shroud,
            surface,
            contact,
            m_csr: Csr::from_sprs(&mass),
            b_csr,
            k_csr,
            kb_pattern,
            mass,
            damping,
            stiffness,
            dense: [m, b, k],
            mass_factor,
            load,
            rayleigh: (alpha, beta),
            anchors,
            initial_q: vec![0.0; 2 * nb],
            blade_dofs: nb,
            torsion,
        };
        if p.initial_gap < 0.0 {
            pair.initial_q = pair.static_equilibrium(0.0)?;
        }
        Ok(pair)
    }

    /// The data it was built from.
    pub fn params(&self) -> &BladePairParams {
        &self.params
    }

    /// Number of DOFs of the pair (8 n, plus 2 with torsion).
    pub fn dofs(&self) -> usize {
        2 * self.blade_dofs
    }

    /// (G J / L [N m/rad], the tip's torsional inertia [kg m^2]) when the
    /// blades twist, else None (rigid in torsion).
    pub fn torsion(&self) -> Option<(f64, f64)> {
        self.torsion
    }

    /// Number of contact patches.
    pub fn patch_count(&self) -> usize {
        self.contact.patches.len()
    }

    /// One blade's beam.
    pub fn beam(&self) -> &Beam {
        &self.beam
    }

    /// The shroud block.
    pub fn shroud(&self) -> &ShroudBlock {
        &self.shroud
    }

    /// The contact rectangle and its patches.
    pub fn surface(&self) -> &ContactSurface {
        &self.surface
    }

    /// The patch maps and the penalty law.
    pub fn contact(&self) -> &ContactSet {
        &self.contact
    }

    /// Global index of blade `i`'s (0 or 1) tip v; w, theta_z, theta_y follow.
    pub fn tip(&self, blade: usize) -> usize {
        blade * self.blade_dofs + self.beam.tip()
    }

    /// (alpha [1/s], beta [s]) of the Rayleigh damping.
    pub fn rayleigh(&self) -> (f64, f64) {
        self.rayleigh
    }

    /// The circular frequencies [rad/s] at which the damping ratios hold.
    pub fn damping_anchors(&self) -> [f64; 2] {
        self.anchors
    }

    /// M, B, K (sparse, block-diagonal).
    pub fn matrices(&self) -> (&CsMat<f64>, &CsMat<f64>, &CsMat<f64>) {
        (&self.mass, &self.damping, &self.stiffness)
    }

    /// Dense copies of M, B, K.
    pub fn dense_matrices(&self) -> &[DMatrix<f64>; 3] {
        &self.dense
    }

    /// The load vector f (constant for t >= 0, zero before) [N].
    pub fn load_vector(&self) -> &[f64] {
        &self.load
    }

    /// The step's factor: 1 for t >= 0, else 0.
    #[inline]
    pub fn load_factor(&self, t: f64) -> f64 {
        if t >= 0.0 { 1.0 } else { 0.0 }
    }

    /// The state at rest before the load: zero, or, when the gap at rest
    /// is negative (interference), the frictionless static equilibrium of
    /// the preload ([`BladePair::static_equilibrium`] with no load; the
    /// shrouds' tips tilt under it, so some patches may open).
    pub fn initial_state(&self) -> (Vec<f64>, Vec<f64>) {
        (self.initial_q.clone(), vec![0.0; self.dofs()])
    }

    /// y = K x.
    #[inline]
    pub fn stiffness_mul(&self, x: &[f64], y: &mut [f64]) {
        self.k_csr.mul_vec(x, y);
    }

    /// y = B x.
    #[inline]
    pub fn damping_mul(&self, x: &[f64], y: &mut [f64]) {
        self.b_csr.mul_vec(x, y);
    }

    /// kq = K q and bv = B v (one pass where K and B share their pattern;
    /// the same values as [`Self::stiffness_mul`] and
    /// [`Self::damping_mul`]).
    #[inline]
    pub fn stiffness_damping_mul(
        &self,
        (q, v): (&[f64], &[f64]),
        (kq, bv): (&mut [f64], &mut [f64]),
    ) {
        if self.kb_pattern {
            self.k_csr.mul_vec_pair(&self.b_csr, (q, v), (kq, bv));
        } else {
            self.k_csr.mul_vec(q, kq);
            self.b_csr.mul_vec(v, bv);
        }
    }

    /// x <- M^-1 x.
    #[inline]
    pub fn solve_mass(&self, x: &mut [f64]) {
        self.mass_factor.solve_in_place(x);
    }

    fn quadratic(a: &Csr, x: &[f64]) -> f64 {
        x.iter()
            .enumerate()
            .map(|(i, xi)| xi * a.row_dot(i, x))
            .sum()
    }

    /// Kinetic energy v M v / 2 [J].
    pub fn kinetic_energy(&self, v: &[f64]) -> f64 {
        0.5 * Self::quadratic(&self.m_csr, v)
    }

    /// Strain energy of the blades q K q / 2 [J].
    pub fn strain_energy(&self, q: &[f64]) -> f64 {
        0.5 * Self::quadratic(&self.k_csr, q)
    }

    /// Kinetic + strain + penalty-spring energy [J].
    pub fn energy(&self, q: &[f64], v: &[f64]) -> f64 {
        let law = crate::contact::friction::FrictionLaw::constant(0.0);
        let c: ContactTotals = self.contact.evaluate(&law, q, v, 0, None);
        self.kinetic_energy(v) + self.strain_energy(q) + c.potential
    }

    /// The linear static solution with every patch's normal spring active
    /// (frictionless) and, when `tangential_stiffness` > 0, tangential
    /// springs of that stiffness per patch (a contact stuck at q = 0):
    ///
    ///   (K + sum_j k_n h_zeta^T h_zeta + k_t (h_xi^T h_xi + h_eta^T h_eta)) q
    ///     = s f - sum_j k_n g0_j h_zeta^T.
    ///
    /// It is the static equilibrium of the model when every patch stays
    /// penetrated (check with [`ContactSet::kinematics`]).
    pub fn linear_static(
        &self,
        load_scale: f64,
        tangential_stiffness: f64,
    ) -> Result<Vec<f64>, String> {
        let active = vec![true; self.patch_count()];
        self.solve_static(load_scale, &active, tangential_stiffness)
    }

    /// The frictionless static equilibrium under s f: the piecewise-linear
    /// problem K q = s f + sum_j h_zeta^T k_n max(0, g_j(q)) solved by an
    /// active-set (semi-smooth Newton) iteration from all patches active,
    /// re-solving with the patches whose penetration is positive until the
    /// set repeats (at most 50 solves).
    pub fn static_equilibrium(&self, load_scale: f64) -> Result<Vec<f64>, String> {
        let np = self.patch_count();
        let mut active = vec![true; np];
        let zero = vec![0.0; self.dofs()];
        for _ in 0..50 {
            let q = self.solve_static(load_scale, &active, 0.0)?;
            let next: Vec<bool> = (0..np)
                .map(|j| self.contact.kinematics(j, &q, &zero).penetration > 0.0)
                .collect();
            if next == active {
                return Ok(q);
            }
            if !next.iter().any(|&a| a) {
                return Err("static equilibrium: every patch opens (no contact)".into());
            }
            active = next;
        }
        Err("static equilibrium: the active set did not settle in 50 solves".into())
    }

    fn solve_static(
        &self,
        load_scale: f64,
        active: &[bool],
        tangential_stiffness: f64,
    ) -> Result<Vec<f64>, String> {
        let n = self.dofs();
        let mut a = self.dense[2].clone();
        let mut rhs = nalgebra::DVector::from_iterator(n, self.load.iter().map(|f| f * load_scale));
        let k_n = self.contact.penalty.stiffness;
        let td = self.contact.tip_dofs;
        for (p, _) in self.contact.patches.iter().zip(active).filter(|(_, a)| **a) {
            for (row, k) in [
                (2, k_n),
                (0, tangential_stiffness),
                (1, tangential_stiffness),
            ] {
                if k == 0.0 {
                    continue;
                }
                let h = &p.h[row];
                for a_ in 0..TIP_DOFS {
                    for b_ in 0..TIP_DOFS {
                        a[(td[a_], td[b_])] += k * h[a_] * h[b_];
                    }
                }
            }
            for a_ in 0..TIP_DOFS {
                rhs[td[a_]] -= k_n * p.gap * p.h[2][a_];
            }
        }
        let q = a
            .cholesky()
            .ok_or("static solution: the stiffness with contact springs is not positive definite")?
            .solve(&rhs);
        Ok(q.iter().copied().collect())
    }
}

/// The parameters a blade pair needs beyond the beam's own checks:
/// positive sizes and stiffness ratio, damping ratio >= 0, inclination
/// within (-90, 90) deg, at least one patch each way, finite load, gap and
/// offset, and a load direction in the y-z plane.
fn validate(p: &BladePairParams) -> Result<(), String> {
    for (name, v) in [
        ("pitch", p.pitch),
        ("contact_size[0]", p.contact_size[0]),
        ("contact_size[1]", p.contact_size[1]),
        ("contact_stiffness_ratio", p.contact_stiffness_ratio),
    ] {
        check_positive(name, v)?;
    }
    for (k, s) in p.shroud_size.iter().enumerate() {
        check_positive(&format!("shroud_size[{k}]"), *s)?;
    }
    if !(p.contact_damping_ratio.is_finite() && p.contact_damping_ratio >= 0.0) {
        return Err(format!(
            "blade pair: contact_damping_ratio must be >= 0, got {}",
            p.contact_damping_ratio
        ));
    }
    if !(p.inclination.is_finite() && p.inclination.abs() < 0.5 * std::f64::consts::PI) {
        return Err(format!(
            "blade pair: inclination must be within (-90, 90) deg, got {} rad",
            p.inclination
        ));
    }
    if p.patches[0] == 0 || p.patches[1] == 0 {
        return Err(format!(
            "blade pair: patches must be >= 1, got {:?}",
            p.patches
        ));
    }
    if !p.load.is_finite() {
        return Err(format!("blade pair: load must be finite, got {}", p.load));
    }
    if !p.initial_gap.is_finite() || !p.contact_offset.iter().all(|v| v.is_finite()) {
        return Err("blade pair: initial_gap and contact_offset must be finite".into());
    }
    let d = Vector3::from(p.load_direction);
    if !(d.norm() > 0.0 && d.norm().is_finite()) || d.x.abs() > 1e-12 * d.norm() {
        return Err(format!(
            "blade pair: load_direction must be a nonzero vector in the y-z plane (no \
             axial DOF), got {:?}",
            p.load_direction
        ));
    }
    Ok(())
}

/// One blade's mass and stiffness matrices and its torsion (stiffness,
/// inertia), if it has the DOF.
type BladeMatrices = (DMatrix<f64>, DMatrix<f64>, Option<(f64, f64)>);

/// One blade's mass and stiffness matrices with the torsion DOF appended
/// when `p.torsion` (its stiffness and inertia as `Some((k_t, j_t))`), else
/// unchanged with `None`.
fn with_torsion(
    p: &BladePairParams,
    shroud: &ShroudBlock,
    nb_beam: usize,
    m1: DMatrix<f64>,
    k1: DMatrix<f64>,
) -> Result<BladeMatrices, String> {
    let nb = nb_beam + usize::from(p.torsion);
    // Torsion: one DOF theta_x of the tip, the twist linear along the
    // blade (the first mode of a clamped shaft with a heavy tip):
    // stiffness G J / L, inertia the shroud's J_x plus a third of the
    // blade's rho I_p L (the Rayleigh quotient of the linear twist).
    // The Rayleigh coefficients stay those of the bending modes.
    if p.torsion {
        if !(p.poisson_ratio.is_finite() && p.poisson_ratio > -1.0 && p.poisson_ratio < 0.5) {
            return Err(format!(
                "blade pair: poisson_ratio must be in (-1, 0.5), got {}",
                p.poisson_ratio
            ));
        }
        let g = p.youngs_modulus / (2.0 * (1.0 + p.poisson_ratio));
        if !(p.torsion_factor.is_finite() && p.torsion_factor > 0.0) {
            return Err(format!(
                "blade pair: torsion_factor must be > 0, got {}",
                p.torsion_factor
            ));
        }
        let k_t =
            p.torsion_factor * g * rectangle_torsion_constant(p.chord, p.thickness) / p.length;
        let i_p = p.chord * p.thickness * (p.chord.powi(2) + p.thickness.powi(2)) / 12.0;
        let j_t = shroud.inertia_x() + p.density * i_p * p.length / 3.0;
        let grow = |a: &DMatrix<f64>, d: f64| {
            let mut g = DMatrix::zeros(nb, nb);
            g.view_mut((0, 0), (nb_beam, nb_beam)).copy_from(a);
            g[(nb_beam, nb_beam)] = d;
            g
        };
        Ok((grow(&m1, j_t), grow(&k1, k_t), Some((k_t, j_t))))
    } else {
        Ok((m1, k1, None))
    }
}

/// The contact set: per patch its map from the tip DOFs of both blades to
/// the relative displacement in the surface frame (and the rigid maps of
/// the two tips C1, C2), the tip DOFs of both blades, and the penalty.
fn contact_set(
    p: &BladePairParams,
    surface: &ContactSurface,
    [c1, c2]: [Vector3<f64>; 2],
    tip: usize,
    nb_beam: usize,
    penalty: Penalty,
) -> ContactSet {
    let nb = nb_beam + usize::from(p.torsion);
    let patches = surface
        .patches
        .iter()
        .map(|pj| {
            let t1 = rigid_map(&surface.frame, &(pj - c1));
            let t2 = rigid_map(&surface.frame, &(pj - c2));
            let mut h = [[0.0; TIP_DOFS]; 3];
            for row in 0..3 {
                for (k, &col) in BEAM_COLUMNS.iter().enumerate() {
                    h[row][k] = t1[row][col];
                    h[row][BLADE_TIP_DOFS + k] = -t2[row][col];
                }
                if p.torsion {
                    h[row][TORSION_COLUMN] = t1[row][THETA_X_RIGID];
                    h[row][BLADE_TIP_DOFS + TORSION_COLUMN] = -t2[row][THETA_X_RIGID];
                }
            }
            PatchMap {
                h,
                rigid: [t1, t2],
                gap: p.initial_gap,
            }
        })
        .collect();
    let mut tip_dofs = [0; TIP_DOFS];
    for k in 0..BEAM_COLUMNS.len() {
        tip_dofs[k] = tip + k;
        tip_dofs[BLADE_TIP_DOFS + k] = nb + tip + k;
    }
    // theta_x: the torsion DOF, else the tip's v again (zero column).
    let twist = if p.torsion { nb_beam } else { tip };
    tip_dofs[TORSION_COLUMN] = twist;
    tip_dofs[BLADE_TIP_DOFS + TORSION_COLUMN] = nb + twist;
    ContactSet {
        patches,
        tip_dofs,
        penalty,
    }
}

#[cfg(test)]
mod tests;
