//! What a world is set up with: Newton's world or a first-order one, how the
//! contacts are solved and the collision time found, and the constants of a run
//! ([`Settings`]), checked before the world is made.

use nalgebra::Vector3;
use pbm_particles::forces::G;
use pbm_prelim::{Choice, PbmError};

type V3 = Vector3<f64>;

/// Friction coefficients below this are taken as zero: the friction they allow is
/// below what the solve resolves (its regularisation is 1e-9 of A's scale), and the
/// rounds that settle the friction bounds then chase roundoff and need not settle.
pub const MIN_FRICTION: f64 = 1e-6;

/// How forces move the bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Newton's world: F = M v̇, bodies coast and collide.
    #[default]
    Second,
    /// Baraff's first-order world: F = M v, a body moves only while pushed (for
    /// trying out mechanisms). Initial velocities are ignored.
    First,
}

impl Choice for Order {
    const OPTIONS: &'static [(&'static str, Self)] =
        &[("second", Order::Second), ("first", Order::First)];
}

/// How a step that went too deep finds the collision time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CollisionSearch {
    /// On chapter 7's interpolation of the step just taken, then one step that long
    /// to check (bisection if the check fails).
    #[default]
    Interpolated,
    /// By re-taking the whole step shorter and shorter (the notes' way).
    Bisection,
}

/// How the contacts are solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Solver {
    /// This chapter's: the complementarity problem on accelerations, solved exactly
    /// (pivoting, warm-started) at every RK4 stage, collisions by impulses, steps
    /// cut back to collision times, and interpenetration corrected.
    #[default]
    Exact,
    /// Production engines': one velocity solve per step by this many sweeps of
    /// sequential impulses ([`crate::sequential`]), warm-started from the last
    /// step's impulses, with speculative contacts for what may touch within the step
    /// and Baumgarte's feedback for what interpenetrates; then the positions move
    /// with the new velocities (symplectic Euler).
    SequentialImpulses {
        /// Sweeps over the rows per step.
        sweeps: usize,
    },
    /// The time-stepping LCP (Stewart–Trinkle, Anitescu–Potra): the same velocity
    /// problem as sequential impulses, once per step and solved exactly (pivoting),
    /// with the same speculative contacts and split push out; no collision times.
    TimeStepping,
}

/// Which contact solver an exercise's world uses (the sweeps of sequential
/// impulses are a parameter of their own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolverKind {
    /// [`Solver::Exact`].
    Exact,
    /// [`Solver::SequentialImpulses`].
    Sequential,
}

impl Choice for SolverKind {
    const OPTIONS: &'static [(&'static str, Self)] =
        &[("exact", SolverKind::Exact), ("sequential", SolverKind::Sequential)];
}

impl SolverKind {
    /// The world's solver, with `sweeps` for sequential impulses.
    pub fn with(self, sweeps: usize) -> Solver {
        match self {
            SolverKind::Exact => Solver::Exact,
            SolverKind::Sequential => Solver::SequentialImpulses { sweeps },
        }
    }
}

/// The most sweeps a step may ask for.
pub const MAX_SWEEPS: usize = 10_000;

/// The world's constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Gravity (m/s²).
    pub gravity: V3,
    /// Coefficient of restitution e of every impact, in [0, 1].
    pub restitution: f64,
    /// Coefficient of friction μ of every contact, ≥ 0. Below [`MIN_FRICTION`] it
    /// counts as zero.
    pub friction: f64,
    /// Contact tolerance (m): closer than this is touching.
    pub tolerance: f64,
    /// Closing speeds below this (m/s) are resting, not colliding.
    pub resting_speed: f64,
    /// Impacts closing slower than this many steps of gravity, `bounce_steps` · |g| h
    /// (m/s), do not bounce: they get e = 0. A rebound slower than that is caught
    /// again within a step or two, so with ε > 0 a body would hop on the spot for
    /// ever instead of coming to rest. The default is 2.
    pub bounce_steps: f64,
    /// Time step (s).
    pub h: f64,
    /// Second-order (Newton) or first-order world.
    pub order: Order,
    /// How the collision time is found.
    pub search: CollisionSearch,
    /// How the contacts are solved.
    pub solver: Solver,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            gravity: V3::new(0.0, -G, 0.0),
            restitution: 0.5,
            friction: 0.0,
            tolerance: 1e-4,
            resting_speed: 1e-3,
            bounce_steps: 2.0,
            h: 0.01,
            order: Order::Second,
            search: CollisionSearch::Interpolated,
            solver: Solver::Exact,
        }
    }
}

pub(super) fn check_settings(s: &Settings) -> Result<(), PbmError> {
    let bad = |what: &'static str, why: String| Err(PbmError::invalid(what, why));
    if !(0.0..=1.0).contains(&s.restitution) {
        return bad(
            "coefficient of restitution",
            format!("{}: it must lie in [0, 1]", s.restitution),
        );
    }
    if !(s.friction >= 0.0 && s.friction.is_finite()) {
        return bad(
            "coefficient of friction",
            format!("{}: it must be finite and not negative", s.friction),
        );
    }
    for (what, x) in [
        ("tolerance", s.tolerance),
        ("resting speed", s.resting_speed),
        ("time step", s.h),
    ] {
        if !(x > 0.0 && x.is_finite()) {
            return bad(what, format!("{x}: it must be positive and finite"));
        }
    }
    if !(s.bounce_steps >= 0.0 && s.bounce_steps.is_finite()) {
        return bad(
            "bounce threshold",
            format!(
                "{} steps of gravity: it must be finite and not negative",
                s.bounce_steps
            ),
        );
    }
    if s.gravity.iter().any(|g| !g.is_finite()) {
        return bad("gravity", "it must be finite".to_string());
    }
    if let Solver::SequentialImpulses { sweeps } = s.solver {
        if !(1..=MAX_SWEEPS).contains(&sweeps) {
            let why = format!("{sweeps}: it must be 1 to {MAX_SWEEPS}");
            return bad("sweeps of sequential impulses", why);
        }
        if s.order == Order::First {
            let why =
                "they solve the velocities of Newton's world, and a first-order \
                       world has none to solve: use the exact solver"
                    .to_string();
            return bad("sequential impulses", why);
        }
    }
    if s.solver == Solver::TimeStepping && s.restitution != 0.0 {
        let why = format!(
            "restitution {}: the time-stepping LCP is inelastic, as Stewart and Trinkle \
             pose it (a bounce needs an impact phase of its own); set restitution = 0",
            s.restitution
        );
        return bad("the time-stepping LCP", why);
    }
    if s.solver == Solver::TimeStepping && s.order == Order::First {
        let why =
            "it solves the velocities of Newton's world, and a first-order world \
                   has none to solve: use the exact solver"
                .to_string();
        return bad("the time-stepping LCP", why);
    }
    Ok(())
}
