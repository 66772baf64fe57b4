//! The chapter's runnable experiments: `pbm run rigid/<id> --set key=value`.

use crate::body::Representation;
use crate::mass::MassProperties;
use crate::mesh::{TriMesh, box_mesh, l_shape, tetrahedron};
use crate::scenes::{
    DZHANIBEKOV_OMEGA, DZHANIBEKOV_STEP, DZHANIBEKOV_T_END, GYROSCOPIC, SpinSample,
    dzhanibekov_run, gyroscopic_run, push, sign_changes, torque_free,
    translation_free,
};
use nalgebra::Vector3;
use pbm_prelim::{Exercise, Optional, PbmError, params};
use serde_json::{Value, json};

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "inertia-table",
            "inertia tensors of a block, a tetrahedron and an L-shaped solid by three methods, against exact values",
            inertia_table,
        ),
        Exercise::new(
            "quat-vs-matrix",
            "a tumbling block integrated with a rotation matrix and with a quaternion: how far each drifts",
            quat_vs_matrix,
        )
        .limit(
            ("steps (two runs at under 1 µs a step)", "steps"),
            (1.5e6, "lower t_end or raise h"),
            |p: &QuatVsMatrixParams| pbm_prelim::budget::steps(p.t_end, p.h),
        ),
        Exercise::new(
            "translation-free",
            "section 5.4: two opposite forces f at two points give a torque (0, 6f, 0) and no net force",
            translation_free_run,
        ),
        Exercise::new(
            "force-torque-puzzle",
            "section 5.5: the same push off centre gives more kinetic energy, exactly the extra work done",
            puzzle,
        ),
        Exercise::new(
            "dzhanibekov",
            "spin about the intermediate axis flips over and over; L and energy stay put",
            dzhanibekov,
        )
        .promises(&[pbm_prelim::Promise {
            field: "/relative_angular_momentum_drift",
            over: None,
            max: 1e-12,
            says: "with no torque, RK4 keeps the world's L to rounding",
        }]),
        Exercise::new(
            "gyroscopic",
            "a brick tumbling with no torque at a large step: forward Euler on ω × Iω gains energy, backward Euler cannot",
            gyroscopic,
        )
        .limit(
            ("steps × (newton + 1)", "spin updates"),
            (4e5, "lower t_end or newton, or raise h"),
            spin_updates,
        )
        .optional(&[Optional {
            field: "explicit_runaway_time",
            null_when: "if the explicit run's energy stayed under 1000 times its start",
        }]),
    ]
}

/// The three test solids: name, mesh and exact mass properties at unit density.
pub fn test_solids() -> Result<Vec<(&'static str, TriMesh, MassProperties)>, PbmError>
{
    let size = Vector3::new(2.0, 1.0, 0.5);
    let tet = [
        Vector3::new(0.0, 0.0, 0.0),
        Vector3::new(2.0, 0.0, 0.0),
        Vector3::new(0.5, 1.5, 0.0),
        Vector3::new(0.7, 0.4, 1.2),
    ];
    // The L as two blocks: [0,2]×[0,1]×[0,1] and [0,1]×[1,2]×[0,1].
    let mut lower = MassProperties::block(Vector3::new(2.0, 1.0, 1.0), 2.0)?;
    lower.centre = Vector3::new(1.0, 0.5, 0.5);
    let mut upper = MassProperties::block(Vector3::new(1.0, 1.0, 1.0), 1.0)?;
    upper.centre = Vector3::new(0.5, 1.5, 0.5);
    Ok(vec![
        ("block", box_mesh(size)?, MassProperties::block(size, size.product())?),
        ("tetrahedron", tetrahedron(tet)?, MassProperties::tetrahedron(&tet, 1.0)?),
        ("L-shape", l_shape()?, MassProperties::combine(&[lower, upper])?),
    ])
}

params! {
    /// `rigid/inertia-table`.
    pub struct InertiaTableParams {
        n: usize = int(
            "point sampling: grid cells along each side of the bounding box",
            32,
            2,
            100,
        ),
    }
}

fn inertia_table(p: InertiaTableParams) -> Result<Value, PbmError> {
    let n = p.n;
    let mut rows = Vec::new();
    for (shape, mesh, exact) in test_solids()? {
        let methods = [
            ("bounding box", MassProperties::bounding_box(&mesh, 1.0)?),
            ("box, true mass", MassProperties::bounding_box_true_mass(&mesh, 1.0)?),
            ("point sampling", MassProperties::point_sampling(&mesh, 1.0, n)?),
            ("polyhedral", MassProperties::polyhedron(&mesh, 1.0)?),
        ];
        for (method, props) in methods {
            rows.push(json!({
                "shape": shape,
                "method": method,
                "relative_error": props.relative_error(&exact),
            }));
        }
    }
    Ok(json!({ "rows": rows }))
}

params! {
    /// `rigid/quat-vs-matrix`.
    pub struct QuatVsMatrixParams {
        t_end: f64 = duration(100.0, 0.0, 10_000.0),
        h: f64 = positive("RK4 step size", "s", 0.02, 0.5),
    }
}

fn quat_vs_matrix(p: QuatVsMatrixParams) -> Result<Value, PbmError> {
    let (t_end, h) = (p.t_end, p.h);
    let omega = Vector3::new(1.0, 2.0, 3.0);
    let worst = |r| -> Result<f64, PbmError> {
        Ok(torque_free(omega, r, false, h, t_end, 1)?
            .iter()
            .fold(0.0_f64, |m, s| m.max(s.orientation_error)))
    };
    Ok(json!({
        "matrix_orthogonality_error": worst(Representation::Matrix)?,
        "quaternion_norm_error": worst(Representation::Quaternion)?,
    }))
}

params! {
    /// `rigid/translation-free`.
    pub struct TranslationFreeParams {
        f: f64 = float("force magnitude", "N", 1.0, -1e6, 1e6),
    }
}

fn translation_free_run(p: TranslationFreeParams) -> Result<Value, PbmError> {
    let (force, torque) = translation_free(p.f)?;
    Ok(json!({
        "torque": [torque.x, torque.y, torque.z],
        "net_force": [force.x, force.y, force.z],
    }))
}

params! {
    /// `rigid/force-torque-puzzle`.
    pub struct ForceTorquePuzzleParams {
        t_end: f64 = positive("how long the force pushes", "s", 2.0, 100.0),
        offset: f64 = float(
            "point of application along the block", "m", 1.5, -2.0, 2.0,
        ),
    }
}

fn puzzle(p: ForceTorquePuzzleParams) -> Result<Value, PbmError> {
    let (duration, offset) = (p.t_end, p.offset);
    let h = 1e-3;
    let centred = push(Vector3::zeros(), duration, h)?;
    let off = push(Vector3::new(offset, 0.0, 0.0), duration, h)?;
    Ok(json!({
        "kinetic_energy_centred": centred.kinetic_energy,
        "kinetic_energy_off_centre": off.kinetic_energy,
        "kinetic_energy_difference": off.kinetic_energy - centred.kinetic_energy,
        "extra_work": off.work - centred.work,
        "speed_centred": centred.speed,
        "speed_off_centre": off.speed,
    }))
}

params! {
    /// `rigid/dzhanibekov`.
    pub struct DzhanibekovParams {
        t_end: f64 = duration(DZHANIBEKOV_T_END, 0.0, 1000.0),
    }
}

fn dzhanibekov(p: DzhanibekovParams) -> Result<Value, PbmError> {
    let samples = dzhanibekov_run(p.t_end)?;
    let (first, last) = (samples[0], samples[samples.len() - 1]);
    let start = DZHANIBEKOV_OMEGA;
    let energy_drift = samples
        .iter()
        .fold(0.0_f64, |m, s| m.max((s.energy - first.energy).abs() / first.energy));
    let l_drift = samples
        .iter()
        .fold(0.0_f64, |m, s| m.max((s.l - first.l).norm() / first.l.norm()));
    Ok(json!({
        "flips": sign_changes(&samples, 1),
        "relative_energy_drift": energy_drift,
        "relative_angular_momentum_drift": l_drift,
        "final_body_omega": [last.body_omega.x, last.body_omega.y, last.body_omega.z],
        "start_body_omega": [start.x, start.y, start.z],
        "h": DZHANIBEKOV_STEP,
    }))
}

params! {
    /// `rigid/gyroscopic`.
    pub struct GyroscopicParams {
        spin: f64 = float(
            "spin about the skew axis at the start",
            "rad/s",
            GYROSCOPIC.spin,
            0.01,
            30.0,
        ),
        h: f64 = step(GYROSCOPIC.h, 0.0, 0.05),
        t_end: f64 = duration(GYROSCOPIC.t_end, 0.0, 100.0),
        newton: usize = int(
            "Newton steps per backward-Euler step", GYROSCOPIC.newton as u64, 1, 20,
        ),
    }
}

/// The explicit run's update and `newton` Newton steps for each step: the work.
fn spin_updates(p: &GyroscopicParams) -> f64 {
    // The run keeps every step's sample (56 bytes): 4e5 updates are at most 2e5
    // steps, about 11 MB, and take a few milliseconds.
    pbm_prelim::budget::steps(p.t_end, p.h) * (p.newton + 1) as f64
}

fn gyroscopic(p: GyroscopicParams) -> Result<Value, PbmError> {
    let samples = gyroscopic_run(p.spin, p.h, p.t_end, p.newton)?;
    let first = samples[0];
    let reached = samples.iter().rev().find(|s| s.energy_explicit.is_some());
    let last = samples[samples.len() - 1];
    let gain = |end: Option<f64>, start: f64| end.map_or(0.0, |e| e / start - 1.0);
    let start_l = first.momentum_implicit;
    let start_e = first.energy_implicit;
    let runaway = samples.iter().find(|s: &&SpinSample| s.energy_explicit.is_none());
    Ok(json!({
        "energy_gain_explicit": gain(reached.and_then(|s| s.energy_explicit), start_e),
        "energy_gain_implicit": last.energy_implicit / start_e - 1.0,
        "momentum_gain_explicit": gain(reached.and_then(|s| s.momentum_explicit), start_l),
        "momentum_gain_implicit": last.momentum_implicit / start_l - 1.0,
        "explicit_runaway_time": runaway.map(|s| s.t),
        "steps": samples.len() - 1,
        "h": p.h,
    }))
}
