//! The chapter's runnable experiments: `pbm run rigid/<id> --set key=value`.

use crate::body::Representation;
use crate::mass::MassProperties;
use crate::mesh::{TriMesh, box_mesh, l_shape, tetrahedron};
use crate::motion::{
    DZHANIBEKOV_OMEGA, push, sign_changes, torque_free, translation_free,
};
use nalgebra::Vector3;
use pbm_prelim::{Exercise, ParamSpec, Params, PbmError};
use serde_json::{Value, json};

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise {
            id: "inertia-table",
            summary: "inertia tensors of a block, a tetrahedron and an L-shaped solid by three methods, against exact values",
            params: vec![ParamSpec::int(
                "n",
                "point sampling: grid cells along each side of the bounding box",
                32,
                2,
                100,
            )],
            run: inertia_table,
            optional: &[],
        },
        Exercise {
            id: "quat-vs-matrix",
            summary: "a tumbling block integrated with a rotation matrix and with a quaternion: how far each drifts",
            params: vec![
                ParamSpec::positive("t_end", "simulated time (s)", 100.0, 10_000.0),
                ParamSpec::positive("h", "RK4 step size (s)", 0.02, 0.5),
            ],
            run: quat_vs_matrix,
            optional: &[],
        },
        Exercise {
            id: "translation-free",
            summary: "section 5.4: two opposite forces f at two points give a torque (0, 6f, 0) and no net force",
            params: vec![ParamSpec::float(
                "f",
                "force magnitude (N)",
                1.0,
                -1e6,
                1e6,
            )],
            run: translation_free_run,
            optional: &[],
        },
        Exercise {
            id: "force-torque-puzzle",
            summary: "section 5.5: the same push off centre gives more kinetic energy, exactly the extra work done",
            params: vec![
                ParamSpec::positive(
                    "duration",
                    "how long the force pushes (s)",
                    2.0,
                    100.0,
                ),
                ParamSpec::float(
                    "offset",
                    "point of application along the block (m)",
                    1.5,
                    -2.0,
                    2.0,
                ),
            ],
            run: puzzle,
            optional: &[],
        },
        Exercise {
            id: "dzhanibekov",
            summary: "spin about the intermediate axis flips over and over; L and energy stay put",
            params: vec![ParamSpec::positive(
                "t_end",
                "simulated time (s)",
                30.0,
                1000.0,
            )],
            run: dzhanibekov,
            optional: &[],
        },
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

fn inertia_table(p: &Params) -> Result<Value, PbmError> {
    let n = p.usize("n")?;
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

fn quat_vs_matrix(p: &Params) -> Result<Value, PbmError> {
    let (t_end, h) = (p.f64("t_end")?, p.f64("h")?);
    // Two runs at under 1 µs per step each in release.
    pbm_prelim::budget::steps_within(t_end, h, 1.5e6)?;
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

fn translation_free_run(p: &Params) -> Result<Value, PbmError> {
    let (force, torque) = translation_free(p.f64("f")?)?;
    Ok(json!({
        "torque": [torque.x, torque.y, torque.z],
        "net_force": [force.x, force.y, force.z],
    }))
}

fn puzzle(p: &Params) -> Result<Value, PbmError> {
    let (duration, offset) = (p.f64("duration")?, p.f64("offset")?);
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

fn dzhanibekov(p: &Params) -> Result<Value, PbmError> {
    let t_end = p.f64("t_end")?;
    let samples = torque_free(
        DZHANIBEKOV_OMEGA,
        Representation::Quaternion,
        true,
        1e-3,
        t_end,
        10,
    )?;
    let (first, last) = (samples[0], samples[samples.len() - 1]);
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
    }))
}
