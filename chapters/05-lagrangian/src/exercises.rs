//! The chapter's runnable experiments: `pbm run lagrangian/<id> --set key=value`.

use crate::models::Bead;
use crate::parametric::LagrangianSystem;
use crate::scenes::{compare, separation_time};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::{Exercise, Optional, PbmError, params};
use serde_json::{Value, json};

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "bead",
            "the bead on a circle with θ as its only coordinate: it cannot leave the circle",
            bead,
        )
        .promises(&[pbm_prelim::Promise {
            field: "/max_radius_error",
            over: None,
            max: 1e-12,
            says: "with θ its only coordinate, the bead stays on its circle to rounding",
        }])
        .limit(
            ("steps (about 4 µs a step)", "steps"),
            (6e5, "lower t_end or raise h"),
            |p: &BeadParams| pbm_prelim::budget::steps(p.t_end, p.h),
        ),
        Exercise::new(
            "compare",
            "the double pendulum in angles against chapter 4's constrained particles: agreement, then chaos",
            compare_run,
        )
        .limit(
            ("steps (both models at about 8 µs a step)", "steps"),
            (4e5, "lower t_end or raise h"),
            |p: &CompareParams| pbm_prelim::budget::steps(p.t_end, p.h),
        )
        .optional(&[Optional {
                field: "separation_time",
                null_when: "if the bobs never get 1 cm apart",
            }]),
    ]
}

params! {
    /// `lagrangian/bead`.
    pub struct BeadParams {
        // 6e5 steps at the default h.
        t_end: f64 = duration(100.0, 0.0, 6_000.0),
        h: f64 = step(0.01, 0.0, 0.5),
    }
}

fn bead(p: BeadParams) -> Result<Value, PbmError> {
    let (t_end, h) = (p.t_end, p.h);
    let model = Bead::new(1.0, 1.0, G)?;
    let mut system = LagrangianSystem::new(model, vec![0.0], vec![0.0])?;
    let mut rk4 = RungeKutta::new(RK4);
    let e0 = system.energy();
    let (mut radius_error, mut energy_drift) = (0.0_f64, 0.0_f64);
    for _ in 0..pbm_ode::runge_kutta::step_count(h, t_end)? {
        rk4.step(&mut system, h)?;
        radius_error = radius_error.max((system.positions().norm() - 1.0).abs());
        energy_drift = energy_drift.max((system.energy() - e0).abs() / G);
    }
    Ok(json!({
        "steps": rk4.steps(),
        "max_radius_error": radius_error,
        "relative_energy_drift": energy_drift,
    }))
}

params! {
    /// `lagrangian/compare`.
    pub struct CompareParams {
        t_end: f64 = duration(20.0, 0.0, 200.0),
        h: f64 = step(1e-3, 0.0, 0.01),
    }
}

fn compare_run(p: CompareParams) -> Result<Value, PbmError> {
    let (t_end, h) = (p.t_end, p.h);
    let samples = compare(h, t_end, 1)?;
    let first_second = samples
        .iter()
        .take_while(|s| s.t <= 1.0 + 1e-9)
        .fold(0.0_f64, |m, s| m.max(s.distance));
    Ok(json!({
        "max_distance_first_second": first_second,
        "separation_time": separation_time(&samples, 1e-2),
        "final_distance": samples.last().map_or(0.0, |s| s.distance),
    }))
}
