//! The event-driven solver's settings and the method name its errors carry.

/// Method name used in errors and timings.
pub const METHOD: &str = "event-driven";

/// Settings of the event-driven solver.
#[derive(Debug, Clone, PartialEq)]
pub struct EventDrivenOptions {
    /// Sample steps per shortest period of a regime (2 pi / spectral radius
    /// of 𝒜_A, which includes omega); crossings are searched per sample
    /// interval. Default 64; at least 4.
    pub samples_per_period: usize,
    /// Event-time tolerance relative to the regime's shortest period.
    /// Default 1e-13.
    pub time_tol: f64,
    /// Maximum number of spring switches in one march (guards against
    /// accumulating events). Default 10^7.
    pub max_events: usize,
    /// Shooting tolerance: ||Phi_T(z) - z||_inf <= newton_tol (1 + ||z||_inf).
    /// Default 1e-11.
    pub newton_tol: f64,
    /// Maximum Newton iterations of the shooting method. Default 50.
    pub max_newton_iterations: usize,
}

impl Default for EventDrivenOptions {
    fn default() -> Self {
        EventDrivenOptions {
            samples_per_period: 64,
            time_tol: 1e-13,
            max_events: 10_000_000,
            newton_tol: 1e-11,
            max_newton_iterations: 50,
        }
    }
}
