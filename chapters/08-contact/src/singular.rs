//! Redundant contacts: a table resting on four legs has four contact forces but only
//! three equations (vertical force and two torques), so A is singular and the forces
//! are not unique. Pivoting from scratch picks some answer each time, and nothing in
//! it promises that the answer for a slightly moved load is near the last one.
//! Baraff's (1995) rule picks, among the right answers, the one nearest the last, so
//! the forces stay continuous by construction. (In this experiment pivoting in a
//! fixed order happens to be continuous too; what the rule buys is a warm start that
//! can accept a singular partition.)

use crate::impulse::{Contact, contact_matrix};
use crate::lcp::{Bounds, LcpSolution, solve_basis, solve_warm};
use crate::resting::{Kind, Load, RestingContact, b_vector};
use crate::rows::BodyState;
use nalgebra::{DVector, Matrix3, Vector3};
use pbm_particles::forces::G;
use pbm_prelim::PbmError;

type V3 = Vector3<f64>;

/// The table: a 1 × 0.1 × 1 m top of 10 kg on legs at its four corners (the legs'
/// feet at (±0.5, 0, ±0.5)), gravity 9.81 m/s².
const MASS: f64 = 10.0;

/// The four leg forces (N) with a load of `load` newtons pressing down at (x, z).
fn problem(load: f64, x: f64, z: f64) -> (nalgebra::DMatrix<f64>, DVector<f64>) {
    let inertia = Matrix3::from_diagonal(&V3::new(
        MASS * (0.01 + 1.0) / 12.0,
        MASS * 2.0 / 12.0,
        MASS * (1.0 + 0.01) / 12.0,
    ));
    let top = BodyState {
        x: V3::new(0.0, 0.05, 0.0),
        v: V3::zeros(),
        omega: V3::zeros(),
        inv_mass: 1.0 / MASS,
        inv_inertia: inertia.try_inverse().unwrap_or_else(Matrix3::zeros),
    };
    let bodies = [top, BodyState::fixed(V3::zeros())];
    let contacts: Vec<RestingContact> =
        [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
            .iter()
            .map(|&(px, pz)| RestingContact {
                contact: Contact { a: 0, b: 1, p: V3::new(px, 0.0, pz), n: V3::y() },
                kind: Kind::VertexFace,
            })
            .collect();
    let push = V3::new(0.0, -load, 0.0);
    let at = V3::new(x, 0.1, z) - top.x;
    let loads = [
        Load { force: V3::new(0.0, -G * MASS, 0.0) + push, torque: at.cross(&push) },
        Load { force: V3::zeros(), torque: V3::zeros() },
    ];
    let plain: Vec<Contact> = contacts.iter().map(|c| c.contact).collect();
    (contact_matrix(&bodies, &plain), b_vector(&bodies, &loads, &contacts))
}

/// The leg forces as the load goes once round a circle, solved both ways.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The load's angle on its circle (rad), one per sample.
    pub angle: Vec<f64>,
    /// Leg forces from pivoting afresh at every sample (N).
    pub scratch: Vec<[f64; 4]>,
    /// Leg forces with the warm start and the nearest-answer rule (N).
    pub warm: Vec<[f64; 4]>,
    /// The largest complementarity residual of either.
    pub residual: f64,
    /// Samples at which the warm start's guess held (one linear solve, no pivots).
    pub held: usize,
    /// How far the warm start's legs end from where they began once the load is
    /// back at its start (N): the split it keeps depends on the path.
    pub loop_gap: f64,
}

fn legs(sol: &LcpSolution) -> [f64; 4] {
    [sol.f[0], sol.f[1], sol.f[2], sol.f[3]]
}

/// Refuses a load that is negative or not finite, or a radius off the table.
fn check_load(load: f64, radius: f64) -> Result<(), PbmError> {
    if !(load >= 0.0 && load.is_finite() && (0.0..0.5).contains(&radius)) {
        let why = format!(
            "load {load} N at radius {radius} m: the load must be ≥ 0 \
             and the radius in [0, 0.5)"
        );
        return Err(PbmError::invalid("table load", why));
    }
    Ok(())
}

// ANCHOR: sweep
/// A load of `load` N moving once round a circle of `radius` m about the table's
/// centre, in `samples` steps.
pub fn sweep(load: f64, radius: f64, samples: usize) -> Result<Sweep, PbmError> {
    check_load(load, radius)?;
    let mut out = Sweep {
        angle: Vec::new(),
        scratch: Vec::new(),
        warm: Vec::new(),
        residual: 0.0,
        held: 0,
        loop_gap: 0.0,
    };
    let mut previous: Option<LcpSolution> = None;
    for k in 0..samples {
        let angle = std::f64::consts::TAU * k as f64 / samples as f64;
        let (a, b) = problem(load, radius * angle.cos(), radius * angle.sin());
        let fresh = solve_basis(&a, &b, &Bounds::contacts(4))?;
        let warm = match &previous {
            Some(p) => {
                let (sol, held) = solve_warm(&a, &b, &Bounds::contacts(4), p)?;
                out.held += usize::from(held);
                sol
            }
            None => fresh.clone(),
        };
        let s = crate::lcp::scale(&a, &b);
        out.residual = out.residual.max(fresh.residual(s)).max(warm.residual(s));
        out.angle.push(angle);
        out.scratch.push(legs(&fresh));
        out.warm.push(legs(&warm));
        previous = Some(warm);
    }
    if let (Some(last), Some(first)) = (&previous, out.warm.first()) {
        let (a, b) = problem(load, radius, 0.0);
        let (back, _) = solve_warm(&a, &b, &Bounds::contacts(4), last)?;
        out.loop_gap =
            (0..4).map(|i| (back.f[i] - first[i]).abs()).fold(0.0, f64::max);
    }
    Ok(out)
}
// ANCHOR_END: sweep

/// The largest change of any leg's force between neighbouring samples (N).
pub fn largest_jump(forces: &[[f64; 4]]) -> f64 {
    forces
        .windows(2)
        .flat_map(|w| (0..4).map(move |i| (w[1][i] - w[0][i]).abs()))
        .fold(0.0, f64::max)
}
