//! The contact laws in impulse form over one time step h: the local
//! problems the Moreau-Jean stepper solves per contact
//! ([`crate::integrators::moreau`]). The local velocity at the step's end
//! is affine in the contact's own impulse, c+ = b + G P (G the contact's
//! block of the Delassus operator), and the impulse satisfies the law at
//! c+:
//!
//! **Normal** ([`penalty_impulse`]): the implicit penalty law at the theta
//! point, P_N = h F_N with F_N = max(0, k_n g_th + d_n gdot_th) for
//! g_th > 0, g_th = g - th h c_zeta,th, gdot_th = -c_zeta,th,
//! c_zeta,th = (1 - th) c_zeta + th c+_zeta. F_N is non-increasing in
//! c+_zeta, so the scalar equation P_N = h F_N(x0 + G_nn P_N) has one
//! solution, found in closed form (no force; the linear branch; or exactly
//! touching, g_th = 0). A prescribed normal force N gives P_N = h N.
//!
//! **Friction** from the complementarity condition of the law (Moreau,
//! CISM 302, 1988; Jean, CMAME 177 (1999) 235-257): P_t = -P_N f(|c+|)
//! c+/|c+| while slipping (c+ != 0); |P_t| <= f_stick P_N while sticking
//! (c+ = 0). A set-valued law (f_stick = f(0+) > 0) sticks when the impulse
//! that stops the slip, P = -G_tt^-1 b, lies in the disc |P| <= f_stick
//! P_N; otherwise it slips. A regularised law (f(0) = 0) never sticks: the
//! slip equation below is its implicit force.
//!
//! - in the plane ([`planar_impulse`]): P_t = -lambda c+ with
//!   c+ = (I + lambda G_tt)^-1 b and the scalar equation
//!   lambda |c+(lambda)| = P_N f(|c+(lambda)|), solved by Newton safeguarded
//!   by bisection (|c+| falls and lambda |c+| rises with lambda, so a
//!   bracket exists). With a frozen coefficient mu (`frozen = Some(mu)`,
//!   [`SlipCoefficient::StepStart`]) the equation is
//!   lambda |c+(lambda)| = P_N mu: the slip coefficient of a set-valued
//!   law taken at the slip speed of the step's start, f(|c_t(t)|),
//!   explicit in the speed dependence (first order, like the step). With
//!   the implicit f(|c+|) a steeply falling law (ANSYS with DC = 2 s/mm:
//!   df/dv = -400 per m/s at v = 0) makes the Gauss-Seidel sweeps over
//!   coupled contacts oscillate without converging; for a law with a
//!   constant slip coefficient (constant, Coulomb) the two are the same;
//! - on a line ([`line_impulse`]): the slip keeps the sign sigma of b, and
//!   s = |c+| is the root in (0, |b|) of s - |b| + G_tt P_N f(s) = 0
//!   (safeguarded Newton), P_t = -P_N f(s) sigma.

use crate::contact::friction::FrictionLaw;
use crate::contact::normal::Penalty;

/// Where a set-valued law's slip coefficient is evaluated while slipping
/// (module doc). A regularised law is always implicit, f(|c+|): its
/// slip equation is its smooth local problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SlipCoefficient {
    /// f(|c+|), at the step's end slip (implicit).
    #[default]
    StepEnd,
    /// f(|c_t(t)|), at the slip speed of the step's start (explicit in
    /// the speed dependence).
    StepStart,
}

/// Why a local slip equation has no solution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LocalError {
    /// No bracket of the planar slip equation was found.
    NoBracket,
    /// The iteration did not converge in 200 steps.
    NotConverged,
}

/// One contact's tangential outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tangential {
    /// The tangential impulse (P_1, P_2) [N s] (P_2 = 0 on a line).
    pub impulse: [f64; 2],
    /// Whether the contact sticks (c+_t = 0).
    pub stick: bool,
    /// Newton iterations of the slip equation.
    pub iterations: usize,
}

impl Tangential {
    fn none() -> Self {
        Self {
            impulse: [0.0, 0.0],
            stick: false,
            iterations: 0,
        }
    }
}

fn solve2(a: [[f64; 2]; 2], b: [f64; 2]) -> [f64; 2] {
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    [
        (a[1][1] * b[0] - a[0][1] * b[1]) / det,
        (a[0][0] * b[1] - a[1][0] * b[0]) / det,
    ]
}

/// The penalty force at the theta point as a function of the end normal
/// velocity x, for a step h, theta `th`, the start penetration g and normal
/// velocity c: F_N(x) = max(0, a - b x) = max(0, k_n g_th - d_n c_th) while
/// g_th(x) = g - th h ((1 - th) c + th x) > 0, else 0 (module doc).
pub struct ThetaPenalty {
    /// a = k_n g - (k_n th h + d_n) (1 - th) c [N].
    pub a: f64,
    /// b = (k_n th h + d_n) th [N s/m].
    pub b: f64,
    g: f64,
    c: f64,
    h: f64,
    th: f64,
}

impl ThetaPenalty {
    /// The law of one contact over one step.
    pub fn new(pen: &Penalty, h: f64, th: f64, g: f64, c: f64) -> Self {
        let kd = pen.stiffness * th * h + pen.damping;
        Self {
            a: pen.stiffness * g - kd * (1.0 - th) * c,
            b: kd * th,
            g,
            c,
            h,
            th,
        }
    }

    /// The penetration at the theta point, g_th(x).
    pub fn g_theta(&self, x: f64) -> f64 {
        self.g - self.th * self.h * ((1.0 - self.th) * self.c + self.th * x)
    }

    /// F_N(x).
    pub fn force(&self, x: f64) -> f64 {
        if self.g_theta(x) > 0.0 {
            (self.a - self.b * x).max(0.0)
        } else {
            0.0
        }
    }
}

/// The normal impulse P_N = h F_N(x) of the implicit penalty law at the
/// theta point, x = x0 + g_nn P_N the end normal velocity, for a step h,
/// theta `th`, the start penetration g and normal velocity c (module doc).
pub fn penalty_impulse(pen: &Penalty, h: f64, th: f64, g: f64, c: f64, gz: f64, x0: f64) -> f64 {
    let law = ThetaPenalty::new(pen, h, th, g, c);
    let (a, b) = (law.a, law.b);
    if law.force(x0) <= 0.0 {
        return 0.0;
    }
    let p = h * (a - b * x0) / (1.0 + h * b * gz);
    if law.g_theta(x0 + gz * p) > 0.0 {
        return p;
    }
    // Exactly touching at the theta point.
    let xg = (g / (th * h) - (1.0 - th) * c) / th;
    ((xg - x0) / gz).max(0.0)
}

/// The tangential impulse in the plane for c+_t = b + G_tt P_t, the normal
/// impulse pn, `stick` = Some(f_stick) for a set-valued law, and `frozen`
/// = Some(mu) for a slip coefficient held at mu instead of f(|c+|)
/// (module doc).
pub fn planar_impulse(
    law: &FrictionLaw,
    stick: Option<f64>,
    frozen: Option<f64>,
    gt: [[f64; 2]; 2],
    b: [f64; 2],
    pn: f64,
) -> Result<Tangential, LocalError> {
    if pn <= 0.0 {
        return Ok(Tangential::none());
    }
    let bn = b[0].hypot(b[1]);
    if let Some(mu) = stick {
        let ps = solve2(gt, b);
        let ps = [-ps[0], -ps[1]];
        if ps[0].hypot(ps[1]) <= mu * pn {
            return Ok(Tangential {
                impulse: ps,
                stick: true,
                iterations: 0,
            });
        }
    }
    if bn == 0.0 {
        return Ok(Tangential::none());
    }
    let c_of = |lam: f64| {
        solve2(
            [
                [1.0 + lam * gt[0][0], lam * gt[0][1]],
                [lam * gt[1][0], 1.0 + lam * gt[1][1]],
            ],
            b,
        )
    };
    let coefficient = |s: f64| frozen.unwrap_or_else(|| law.coefficient(s));
    let slope = |s: f64| if frozen.is_some() { 0.0 } else { law.slope(s) };
    let h_of = |lam: f64| {
        let c = c_of(lam);
        let s = c[0].hypot(c[1]);
        (lam * s - pn * coefficient(s), c, s)
    };
    let (h0, _, _) = h_of(0.0);
    if h0 >= 0.0 {
        return Ok(Tangential::none());
    }
    let mut hi = 2.0 * pn * coefficient(bn) / bn;
    if hi <= 0.0 || !hi.is_finite() {
        hi = 1.0;
    }
    let mut grow = 0;
    while h_of(hi).0 < 0.0 {
        hi *= 4.0;
        grow += 1;
        if grow > 200 {
            return Err(LocalError::NoBracket);
        }
    }
    let slipping = |lam: f64, c: [f64; 2], iterations: usize| Tangential {
        impulse: [-lam * c[0], -lam * c[1]],
        stick: false,
        iterations,
    };
    let mut lo = 0.0;
    let mut lam = 0.5 * hi;
    for it in 0..200 {
        let (hv, c, s) = h_of(lam);
        if hv.abs() <= 1e-13 * (lam * s).max(pn * coefficient(s)) {
            return Ok(slipping(lam, c, it));
        }
        if hv > 0.0 {
            hi = lam;
        } else {
            lo = lam;
        }
        // dc/dlam = -(I + lam G)^-1 G c.
        let gc = [
            gt[0][0] * c[0] + gt[0][1] * c[1],
            gt[1][0] * c[0] + gt[1][1] * c[1],
        ];
        let dc = solve2(
            [
                [1.0 + lam * gt[0][0], lam * gt[0][1]],
                [lam * gt[1][0], 1.0 + lam * gt[1][1]],
            ],
            gc,
        );
        let ds = if s > 0.0 {
            -(c[0] * dc[0] + c[1] * dc[1]) / s
        } else {
            0.0
        };
        let dh = s + lam * ds - pn * slope(s) * ds;
        let next = lam - hv / dh;
        lam = if dh > 0.0 && next > lo && next < hi {
            next
        } else {
            0.5 * (lo + hi)
        };
        if hi - lo <= 1e-15 * hi {
            let (_, c, _) = h_of(lam);
            return Ok(slipping(lam, c, it + 1));
        }
    }
    Err(LocalError::NotConverged)
}

/// The tangential impulse on a line for c+ = b + g P, g = G_tt > 0, the
/// normal impulse pn and `stick` = Some(f_stick) for a set-valued law
/// (module doc): stick when |b| <= g pn f_stick (P = -b / g), else slip
/// with s the root of s - |b| + g pn f(s) = 0.
pub fn line_impulse(
    law: &FrictionLaw,
    stick: Option<f64>,
    g: f64,
    b: f64,
    pn: f64,
) -> Result<Tangential, LocalError> {
    if pn <= 0.0 {
        return Ok(Tangential::none());
    }
    let a = g * pn;
    let stick = stick.unwrap_or(0.0);
    if b.abs() <= a * stick {
        return Ok(Tangential {
            impulse: [-b / g, 0.0],
            stick: stick > 0.0,
            iterations: 0,
        });
    }
    let target = b.abs();
    let f = |s: f64| s - target + a * law.coefficient(s);
    let (mut lo, mut hi) = (0.0, target);
    let mut s = target;
    let mut iterations = 0;
    loop {
        let r = f(s);
        if r.abs() <= 4.0 * f64::EPSILON * target.max(a * stick) || hi - lo <= 1e-15 * target {
            break;
        }
        if r > 0.0 {
            hi = s;
        } else {
            lo = s;
        }
        iterations += 1;
        if iterations > 200 {
            return Err(LocalError::NotConverged);
        }
        let slope = 1.0 + a * law.slope(s);
        let newton = s - r / slope;
        s = if slope > 0.0 && newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
    }
    Ok(Tangential {
        impulse: [-pn * law.coefficient(s) * b.signum(), 0.0],
        stick: false,
        iterations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::friction::{Coulomb, Tanh};

    fn coulomb() -> FrictionLaw {
        FrictionLaw::SetValued(
            Coulomb {
                static_coefficient: 0.15,
                kinetic_coefficient: 0.1,
            }
            .into(),
        )
    }

    /// On a line: inside the cone the impulse stops the slip exactly;
    /// outside it the end slip keeps the sign of b, its impulse is the
    /// kinetic one, and c+ = b + g P holds.
    #[test]
    fn a_line_contact_sticks_inside_the_cone_and_slips_outside() {
        let (g, pn) = (0.5, 2.0);
        let t = line_impulse(&coulomb(), Some(0.15), g, 0.1, pn).unwrap();
        assert!(t.stick);
        assert_eq!(t.impulse[0], -0.1 / g);
        let t = line_impulse(&coulomb(), Some(0.15), g, 0.2, pn).unwrap();
        assert!(!t.stick);
        assert!((t.impulse[0] + 0.1 * pn).abs() < 1e-15);
        let s = 0.2 + g * t.impulse[0];
        assert!((s - 0.1).abs() < 1e-15 && s > 0.0);
    }

    /// A regularised law never sticks, and its impulse is its force at the
    /// end slip: P = -pn f(s), s = b + g P.
    #[test]
    fn a_regularised_law_is_its_implicit_force() {
        let law = FrictionLaw::Regularized(
            Tanh {
                static_coefficient: 0.2,
                sharpness: 100.0,
            }
            .into(),
        );
        for (b, stick) in [(0.01, None), (-0.03, None)] {
            let t = line_impulse(&law, stick, 0.5, b, 2.0).unwrap();
            assert!(!t.stick);
            let s = b + 0.5 * t.impulse[0];
            assert!((t.impulse[0] + 2.0 * law.coefficient(s.abs()) * s.signum()).abs() < 1e-14);
            let p =
                planar_impulse(&law, stick, None, [[0.5, 0.0], [0.0, 0.5]], [b, 0.0], 2.0).unwrap();
            assert!((p.impulse[0] - t.impulse[0]).abs() < 1e-13, "{p:?} {t:?}");
        }
    }

    /// In the plane: the stick test uses the full G_tt, and a slipping
    /// impulse opposes the end slip with magnitude pn f(|c+|).
    #[test]
    fn a_planar_contact_obeys_the_cone() {
        let gt = [[0.5, 0.1], [0.1, 0.4]];
        let t = planar_impulse(&coulomb(), Some(0.15), None, gt, [0.01, -0.02], 2.0).unwrap();
        assert!(t.stick);
        let t = planar_impulse(&coulomb(), Some(0.15), None, gt, [0.3, -0.2], 2.0).unwrap();
        assert!(!t.stick);
        let c = [
            0.3 + gt[0][0] * t.impulse[0] + gt[0][1] * t.impulse[1],
            -0.2 + gt[1][0] * t.impulse[0] + gt[1][1] * t.impulse[1],
        ];
        let s = c[0].hypot(c[1]);
        assert!((t.impulse[0].hypot(t.impulse[1]) - 0.2).abs() < 1e-12);
        assert!((t.impulse[0] * c[1] - t.impulse[1] * c[0]).abs() < 1e-12 * s);
        assert!(t.impulse[0] * c[0] + t.impulse[1] * c[1] < 0.0);
    }

    /// A frozen slip coefficient mu replaces f(|c+|): the slipping impulse
    /// has magnitude pn mu and opposes c+; a falling law with the implicit
    /// f(|c+|) gives a different impulse (pn f at the end slip).
    #[test]
    fn a_frozen_coefficient_holds_the_slip_impulse_at_pn_mu() {
        use crate::contact::friction::AnsysExponential;
        let law = FrictionLaw::Exponential(
            AnsysExponential {
                kinetic_coefficient: 0.2,
                static_ratio: 2.0,
                decay: 2000.0,
            }
            .into(),
        );
        let gt = [[0.5, 0.1], [0.1, 0.4]];
        let (b, pn) = ([0.3, -0.2], 2.0);
        let mu = law.coefficient(1e-4);
        let t = planar_impulse(&law, Some(0.4), Some(mu), gt, b, pn).unwrap();
        assert!(!t.stick);
        assert!((t.impulse[0].hypot(t.impulse[1]) - pn * mu).abs() < 1e-12);
        let c = [
            b[0] + gt[0][0] * t.impulse[0] + gt[0][1] * t.impulse[1],
            b[1] + gt[1][0] * t.impulse[0] + gt[1][1] * t.impulse[1],
        ];
        assert!(t.impulse[0] * c[0] + t.impulse[1] * c[1] < 0.0);
        assert!((t.impulse[0] * c[1] - t.impulse[1] * c[0]).abs() < 1e-12);
        let implicit = planar_impulse(&law, Some(0.4), None, gt, b, pn).unwrap();
        let s = {
            let p = implicit.impulse;
            (b[0] + gt[0][0] * p[0] + gt[0][1] * p[1])
                .hypot(b[1] + gt[1][0] * p[0] + gt[1][1] * p[1])
        };
        let m = implicit.impulse[0].hypot(implicit.impulse[1]);
        assert!((m - pn * law.coefficient(s)).abs() < 1e-12 * m);
        assert!((m - pn * mu).abs() > 1e-3, "{m} vs {}", pn * mu);
    }

    /// The penalty impulse: none when open at the theta point, the linear
    /// branch h F_N at the end velocity while penetrating.
    #[test]
    fn the_penalty_impulse_is_the_force_at_the_theta_point() {
        let pen = Penalty {
            stiffness: 1e4,
            damping: 2.0,
        };
        let (h, th, gz) = (1e-3, 0.5, 0.3);
        assert_eq!(penalty_impulse(&pen, h, th, -1e-3, 0.0, gz, 0.0), 0.0);
        let (g, c, x0) = (1e-4, -0.01, -0.02);
        let p = penalty_impulse(&pen, h, th, g, c, gz, x0);
        let x = x0 + gz * p;
        let c_th = (1.0 - th) * c + th * x;
        let g_th = g - th * h * c_th;
        assert!(g_th > 0.0);
        let force = pen.normal_force(g_th, -c_th);
        assert!((p - h * force).abs() < 1e-12 * p, "{p} vs {}", h * force);
    }
}
