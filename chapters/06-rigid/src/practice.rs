//! Practice for chapter 6: the reader writes the rate of change of an orientation
//! quaternion, the inertia tensor of a block, the mass properties of a closed mesh
//! by signed tetrahedra, and the derivative of a rigid body's state. The rate is
//! checked by what any rotation rate must be (perpendicular to q, of length |ω|/2)
//! and by integrating a steady spin with RK4 against its closed-form rotation; the
//! block against a sum over a grid of point masses and against the parallel axis
//! theorem, which must rebuild it from its two halves; the mesh against closed forms
//! for a box and a tetrahedron, and against the same box moved and turned; the
//! state's derivative against L = I ω with I summed over the body's turned point
//! masses, and against the force and torque each applied force must give.

use crate::mass::MassProperties;
use crate::mesh::{TriMesh, box_mesh, l_shape, tetrahedron};
use crate::rotation::{
    Quat, quat_derivative, quat_from_axis_angle, quat_mul, quat_to_matrix,
};
use nalgebra::{Matrix3, Vector3};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{VectorField, state_of};
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, case, number, numbers, sequence};

/// A quaternion rate the reader writes (the signature of
/// [`crate::rotation::quat_derivative`]).
pub type QuatRateFn = fn(&Vector3<f64>, &Quat) -> Quat;

/// A block's inertia tensor the reader writes.
pub type BlockInertiaFn = fn(&Vector3<f64>, f64) -> Matrix3<f64>;

/// A closed mesh's mass properties the reader writes.
pub type MeshInertiaFn = fn(&TriMesh, f64) -> MassProperties;

/// A body's state derivative the reader writes: (M, I_body, X, forces at points).
pub type StateDerivativeFn =
    fn(f64, &Matrix3<f64>, &[f64; 13], &[(Vector3<f64>, Vector3<f64>)]) -> [f64; 13];

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "rigid/quaternion-rate",
        title: "the rate of change of an orientation quaternion",
        section: "Rigid Body Dynamics",
        page: "06-rigid/index.md",
        equation: "quaternion-rate",
        difficulty: 1,
        file: "quaternion_rate.rs",
        stub: include_str!("practice/quaternion_rate.rs"),
        check: "pbm_rigid::practice::check_quaternion_rate(reader::quaternion_rate)",
        hints: &[
            "[0, ω] is the pure quaternion with scalar part 0 and vector part ω; q̇ \
             is its product with q, halved.",
            "The order matters: ω is in world coordinates, so [0, ω] stands on the \
             left, [0, ω] q. Written out with q = [s, v]: [−ω·v, s ω + ω × v], then \
             times ½.",
        ],
        solution: Listing {
            source: include_str!("practice/quaternion_rate_solution.rs"),
            anchor: "quaternion_rate",
        },
    },
    Task {
        id: "rigid/block-inertia",
        title: "the inertia tensor of a solid block",
        section: "Mass properties",
        page: "06-rigid/mass.md",
        equation: "inertia-block",
        difficulty: 1,
        file: "block_inertia.rs",
        stub: include_str!("practice/block_inertia.rs"),
        check: "pbm_rigid::practice::check_block_inertia(reader::inertia_of_block)",
        hints: &[
            "By symmetry the products of inertia (the off-diagonal entries) vanish: \
             build a diagonal matrix with `Matrix3::from_diagonal`.",
            "The moment about an axis is mass times squared distance from that axis, \
             so it comes from the two sides across it: I_xx from y₀ and z₀.",
            "Each side s contributes M s²/12, the mean of x² over [−s/2, s/2] times M.",
        ],
        solution: Listing {
            source: include_str!("practice/block_inertia_solution.rs"),
            anchor: "inertia_of_block",
        },
    },
    Task {
        id: "rigid/mesh-inertia",
        title: "the mass properties of a closed mesh, by signed tetrahedra",
        section: "How good are they?",
        page: "06-rigid/mass.md",
        equation: "tetrahedron-second-moments",
        difficulty: 3,
        file: "mesh_inertia.rs",
        stub: include_str!("practice/mesh_inertia.rs"),
        check: "pbm_rigid::practice::check_mesh_inertia(reader::mesh_mass_properties)",
        hints: &[
            "Take o = mesh.vertices()[0] and, for each of mesh.corners(), the corners \
             relative to o: a tetrahedron o, a, b, c of signed volume a·(b × c)/6. \
             Sum the volumes, the first moments V s/4 and the second moments \
             V/20 (a aᵀ + b bᵀ + c cᵀ + s sᵀ), s = a + b + c.",
            "Keep the volumes signed: a triangle that faces o subtracts the part of \
             its tetrahedron that lies outside the solid. The centre is o + d with \
             d = (Σ V s/4)/(Σ V).",
            "Move the second moments to the centre, C = ρ (Σ second − V d dᵀ), and \
             turn them into the inertia tensor, I = tr C 1 − C: the diagonal is \
             ∫ (y² + z²), the off-diagonal −∫ x y.",
        ],
        solution: Listing {
            source: include_str!("practice/mesh_inertia_solution.rs"),
            anchor: "mesh_mass_properties",
        },
    },
    Task {
        id: "rigid/state-derivative",
        title: "the derivative of a rigid body's state",
        section: "The state and its derivative",
        page: "06-rigid/index.md",
        equation: "rigid-state-derivative",
        difficulty: 2,
        file: "state_derivative.rs",
        stub: include_str!("practice/state_derivative.rs"),
        check: "pbm_rigid::practice::check_state_derivative(reader::state_derivative)",
        hints: &[
            "Unpack the state: x = state[0..3], q = state[3..7] ([s, v]), P = \
             state[7..10], L = state[10..13]. Then v = P/M, F = Σ f and τ = Σ (p − \
             x) × f: the lever arm runs from the centre of mass to the point.",
            "I_body is fixed in the body; in the world it is turned, I⁻¹ = R \
             I_body⁻¹ Rᵀ with R = quat_to_matrix(q), so ω = R (I_body⁻¹ (Rᵀ L)): \
             L to body coordinates, through I_body⁻¹, back to the world.",
            "q̇ = ½ [0, ω] q with [0, ω] on the left, because ω is in world \
             coordinates: quat_mul(&Quat::new(0.0, ω.x, ω.y, ω.z), &q) * 0.5.",
        ],
        solution: Listing {
            source: include_str!("practice/state_derivative_solution.rs"),
            anchor: "state_derivative",
        },
    },
];

/// Twelve angular velocities and unit quaternions, from a fixed sequence.
fn spins() -> Vec<(Vector3<f64>, Quat)> {
    let mut next = sequence(0x5eed_0006);
    (0..12)
        .map(|_| {
            let omega = Vector3::new(next(), next(), next()) * 3.0;
            let q = Quat::new(next(), next(), next(), next()).normalize();
            (omega, q)
        })
        .collect()
}

/// A matrix for a message, row by row.
fn matrix(m: &Matrix3<f64>) -> String {
    let rows: Vec<String> =
        m.row_iter().map(|r| numbers(&[r[0], r[1], r[2]])).collect();
    format!("[{}]", rows.join(", "))
}

/// The rotation by `angle` about `axis`, as a matrix.
fn turn(axis: &Vector3<f64>, angle: f64) -> Matrix3<f64> {
    quat_to_matrix(&quat_from_axis_angle(axis, angle))
}

/// Integrates q̇ = f(ω, q) with RK4 at step h for `duration` from `q0`: the final q.
fn integrate(
    f: QuatRateFn,
    omega: Vector3<f64>,
    q0: &Quat,
    h: f64,
    duration: f64,
) -> Result<Quat, PbmError> {
    let field = move |_: f64, x: &[f64], dx: &mut [f64]| {
        let rate = f(&omega, &Quat::from_column_slice(x));
        dx.copy_from_slice(rate.as_slice());
    };
    let mut system = VectorField::new(q0.as_slice(), 0.0, field)?;
    let mut rk4 = RungeKutta::new(RK4);
    let steps = (duration / h).round() as usize;
    for _ in 0..steps {
        rk4.step(&mut system, h)?;
    }
    Ok(Quat::from_column_slice(&state_of(&system)))
}

/// [s, v_x, v_y, v_z] read as nalgebra's `Quaternion::coords` order [i, j, k, w].
fn from_ijkw(a: &Quat) -> Quat {
    Quat::new(a[3], a[0], a[1], a[2])
}

/// [s, v_x, v_y, v_z] written in nalgebra's `coords` order [i, j, k, w].
fn to_ijkw(b: &Quat) -> Quat {
    Quat::new(b[1], b[2], b[3], b[0])
}

/// Whether the rate is the right one with q read, written, or both, in nalgebra's
/// coordinate order [i, j, k, w] (`Quaternion::from_vector`, `.coords`) instead of
/// the chapter's [s, v]: the advice for it, if so.
fn coordinate_order(f: QuatRateFn) -> Option<&'static str> {
    let all = |g: &dyn Fn(&Vector3<f64>, &Quat) -> Quat| {
        spins()
            .iter()
            .all(|(w, q)| (f(w, q) - g(w, q)).norm() < 1e-12 * (1.0 + w.norm()))
    };
    if all(&|w, q| to_ijkw(&quat_derivative(w, &from_ijkw(q)))) {
        Some(
            "your rate is right for a quaternion stored [v_x, v_y, v_z, s], nalgebra's \
             `Quaternion::coords` order [i, j, k, w]: here q is stored [s, v_x, v_y, \
             v_z], scalar first, so s = q[0] and v = (q[1], q[2], q[3]), and the rate is \
             written back in the same order (Quat::new(s, x, y, z))",
        )
    } else if all(&|w, q| quat_derivative(w, &from_ijkw(q))) {
        Some(
            "your rate reads q in nalgebra's `coords` order [i, j, k, w] but writes it \
             scalar first: here q is stored [s, v_x, v_y, v_z], so s = q[0] and v = \
             (q[1], q[2], q[3])",
        )
    } else if all(&|w, q| to_ijkw(&quat_derivative(w, q))) {
        Some(
            "your rate reads q scalar first but writes it in nalgebra's `coords` order \
             [i, j, k, w] (`.coords` of a `Quaternion`): return it as [s, v_x, v_y, v_z], \
             Quat::new(w, i, j, k)",
        )
    } else {
        None
    }
}

/// Checks a quaternion rate: at twelve orientations it must be perpendicular to q
/// (a turn keeps |q| = 1) and of length |ω|/2; integrated with RK4 it must turn a
/// body at a steady world-frame ω exactly as the closed-form rotation does.
pub fn check_quaternion_rate(f: QuatRateFn) -> Report {
    // The storage order first: a rate right in another order passes some of what
    // follows and fails the rest in ways that would point elsewhere.
    case("twelve orientations, each in two storage orders");
    if let Some(why) = coordinate_order(f) {
        return Report::fail(format!(
            "at twelve orientations {why}. The product itself is right"
        ));
    }
    let mut worst_along = 0.0_f64;
    for (omega, q) in spins() {
        case(format!(
            "ω = {}, q = {}",
            numbers(omega.as_slice()),
            numbers(q.as_slice())
        ));
        let rate = f(&omega, &q);
        if !rate.iter().all(|v| v.is_finite()) {
            return Report::fail(format!(
                "your rate at ω = {}, q = {} is {}: not a finite number",
                numbers(omega.as_slice()),
                numbers(q.as_slice()),
                numbers(rate.as_slice())
            ));
        }
        let along = q.dot(&rate);
        worst_along = worst_along.max(along.abs());
        if along.abs() > 1e-12 * (1.0 + omega.norm()) {
            return Report::fail(format!(
                "at ω = {} and the unit q = {} your rate has q·q̇ = {}, not 0: it \
                 changes the length of q, which a pure rotation never does \
                 (|q| = 1 must stay 1). The scalar part −ω·v and the s ω in the \
                 vector part belong together: ½ [0, ω][s, v] = ½ [−ω·v, s ω + ω × v].",
                numbers(omega.as_slice()),
                numbers(q.as_slice()),
                number(along)
            ));
        }
        let (length, want) = (rate.norm(), 0.5 * omega.norm());
        if (length - want).abs() > 1e-12 * (1.0 + want) {
            let why = if (length - 2.0 * want).abs() <= 1e-12 * (1.0 + want) {
                "twice as long as it should be: q̇ = ½ [0, ω] q, and the ½ is \
                 missing (a quaternion turns at half the body's rate)"
                    .to_string()
            } else {
                format!(
                    "its length should be |ω|/2 = {}: |[0, ω] q| = |ω| |q|, halved",
                    number(want)
                )
            };
            return Report::fail(format!(
                "at ω = {} and the unit q = {} your rate has length {}: {why}",
                numbers(omega.as_slice()),
                numbers(q.as_slice()),
                number(length)
            ));
        }
    }
    // A steady spin about a tilted axis, from an orientation R₀ that does not commute
    // with it: turned in the world, R(t) = Rot(ω̂, |ω|t) R₀; turned in the body's own
    // frame it would be R₀ Rot(ω̂, |ω|t).
    let omega = Vector3::new(0.3, -1.1, 0.7);
    let q0 = quat_from_axis_angle(&Vector3::new(1.0, 2.0, -0.5), 1.2);
    let (h, duration) = (0.01, 3.0);
    case(format!(
        "a steady spin at ω = {}, integrated with RK4",
        numbers(omega.as_slice())
    ));
    let q = match integrate(f, omega, &q0, h, duration) {
        Ok(q) => q,
        Err(e) => return Report::fail(format!("integrating your rate failed: {e}")),
    };
    let length = q.norm();
    if !length.is_finite() || length < 1e-6 {
        return Report::fail(format!(
            "after {duration} s of RK4 on your rate, q = {}: no orientation is left",
            numbers(q.as_slice())
        ));
    }
    let got = quat_to_matrix(&(q / length));
    let (r0, angle) = (quat_to_matrix(&q0), omega.norm() * duration);
    let world = (got - turn(&omega, angle) * r0).norm();
    let body = (got - r0 * turn(&omega, angle)).norm();
    let backwards = (got - turn(&omega, -angle) * r0).norm();
    let close = 1e-6;
    if world > close {
        let why = if body < close {
            "it has turned as R₀ Rot(ω̂, |ω|t), the turn applied in the body's own \
             frame: q [0, ω] treats ω as body coordinates. ω is given in world \
             coordinates, so [0, ω] multiplies q from the left, q̇ = ½ [0, ω] q \
             (look at the order of the product, or at the sign of its cross product \
             ω × v)"
        } else if backwards < close {
            "it has turned the other way, by −|ω|t: look at the sign of your rate"
        } else {
            "look at each part of the product [0, ω][s, v] = [−ω·v, s ω + ω × v]"
        };
        return Report::fail(format!(
            "a body spinning steadily at ω = {} (world) for {duration} s, integrated \
             with RK4 at h = {h} s on your rate, ends {} (in ‖R − R_exact‖) from the \
             closed form Rot(ω̂, |ω|t) R₀: {why}.",
            numbers(omega.as_slice()),
            number(world)
        ));
    }
    Report::pass(vec![
        format!(
            "at 12 orientations q̇ is perpendicular to q (largest |q·q̇| {}) and of \
             length |ω|/2",
            number(worst_along)
        ),
        format!(
            "a steady spin, {duration} s of RK4 at h = {h} s: within {} of the closed \
             form Rot(ω̂, |ω|t) R₀, with |q| − 1 = {}",
            number(world),
            number(length - 1.0)
        ),
    ])
}

/// The block's inertia as a sum over an n × n × n grid of point masses at the cells'
/// centres, by the chapter's equation for point masses.
fn grid_inertia(
    size: &Vector3<f64>,
    mass: f64,
    n: usize,
) -> Result<Matrix3<f64>, PbmError> {
    let cell = size / n as f64;
    let m = mass / (n * n * n) as f64;
    let mut points = Vec::with_capacity(n * n * n);
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                let at = Vector3::new(i as f64 + 0.5, j as f64 + 0.5, k as f64 + 0.5);
                points.push((m, cell.component_mul(&at) - size / 2.0));
            }
        }
    }
    Ok(MassProperties::point_masses(&points)?.inertia)
}

/// The solid block's inertia from two grids: a grid's sums of squares are the
/// midpoint rule on x², whose error is exactly proportional to 1/n², so
/// (4 I(2n) − I(n))/3 is the integral itself (Richardson extrapolation).
fn brute_force_inertia(
    size: &Vector3<f64>,
    mass: f64,
) -> Result<Matrix3<f64>, PbmError> {
    let (coarse, fine) =
        (grid_inertia(size, mass, 10)?, grid_inertia(size, mass, 20)?);
    Ok((fine * 4.0 - coarse) / 3.0)
}

const AXES: [&str; 3] = ["x", "y", "z"];

/// Checks a block's inertia tensor: proportional to the mass, each moment unchanged
/// by lengthening the block along its own axis, against a brute-force sum over point
/// masses for three blocks, and rebuilt from the block's halves by the parallel
/// axis theorem.
pub fn check_block_inertia(f: BlockInertiaFn) -> Report {
    let blocks = [
        (Vector3::new(1.0, 2.0, 3.0), 6.0),
        (Vector3::new(0.3, 0.5, 2.0), 1.5),
        (Vector3::new(4.0, 1.0, 0.5), 0.2),
    ];
    for (size, mass) in &blocks {
        let got = f(size, *mass);
        if !got.iter().all(|v| v.is_finite()) {
            return Report::fail(format!(
                "your inertia of a {} block of mass {mass} is {}: not a finite number",
                numbers(size.as_slice()),
                matrix(&got)
            ));
        }
    }
    let (size, mass) = blocks[0];
    let one = f(&size, mass);
    let scale = one.norm().max(1e-300);
    let two = f(&size, 2.0 * mass);
    if (two - one * 2.0).norm() > 1e-12 * scale {
        return Report::fail(format!(
            "doubling the mass of the 1 × 2 × 3 block took your inertia from {} to \
             {}, not to twice it: every entry is a sum of mass times squared \
             distance, proportional to M",
            matrix(&one),
            matrix(&two)
        ));
    }
    for (k, axis) in AXES.iter().enumerate() {
        let mut longer = size;
        longer[k] *= 1.5;
        case(format!("the 1 × 2 × 3 block lengthened 1.5 times along {axis}"));
        let stretched = f(&longer, mass);
        let shrunk = one[(k, k)] / 1.5;
        if (stretched[(k, k)] - shrunk).abs() <= 1e-12 * scale && shrunk.abs() > 0.0 {
            return Report::fail(format!(
                "lengthening the 1 × 2 × 3 block 1.5 times along {axis} (same mass) \
                 divided your moment about the {axis} axis by exactly 1.5, from {} to \
                 {}: that is the factor by which the volume grew, so your moments scale \
                 as 1/V, as the density ρ = M/V does. The formula takes the mass itself: \
                 I_xx = M/12 (y₀² + z₀²), and ρ appears only inside the integral, where \
                 ∫ρ dV = M",
                number(one[(k, k)]),
                number(stretched[(k, k)])
            ));
        }
        if (stretched[(k, k)] - one[(k, k)]).abs() > 1e-12 * scale {
            return Report::fail(format!(
                "lengthening the 1 × 2 × 3 block along {axis} (same mass) changed \
                 your moment about the {axis} axis from {} to {}: stretching \
                 along an axis moves no mass away from it. The moment about an axis \
                 comes from the two sides across it: I_xx = M/12 (y₀² + z₀²), I_yy = \
                 M/12 (x₀² + z₀²), I_zz = M/12 (x₀² + y₀²)",
                number(one[(k, k)]),
                number(stretched[(k, k)])
            ));
        }
    }
    let mut worst = 0.0_f64;
    for (size, mass) in &blocks {
        let got = f(size, *mass);
        let want = match brute_force_inertia(size, *mass) {
            Ok(want) => want,
            Err(e) => {
                return Report::fail(format!("the check's own sum failed: {e}"));
            }
        };
        let error = (got - want).norm() / want.norm();
        worst = worst.max(error);
        if error <= 1e-10 {
            continue;
        }
        let off_diagonal = got - Matrix3::from_diagonal(&got.diagonal());
        let ratios = got.diagonal().component_div(&want.diagonal());
        let ratio = ratios.mean();
        let why = if off_diagonal.norm() > 1e-10 * want.norm() {
            "its off-diagonal entries (the products of inertia) are not 0; a block \
             centred on its centre of mass is symmetric about its three centre planes, \
             so −Σ m x y and the others vanish"
                .to_string()
        } else if (ratios - Vector3::repeat(ratio)).norm() > 1e-9 * ratio.abs() {
            "look at each moment: M/12 diag(y₀² + z₀², x₀² + z₀², x₀² + y₀²)"
                .to_string()
        } else if (ratio - 4.0).abs() < 1e-9 {
            "it is 4 times too large: with the full sides x₀, y₀, z₀ the constant is \
             M/12 (M/3 belongs with the half sides, or with an axis through an end)"
                .to_string()
        } else if (ratio - 0.25).abs() < 1e-9 {
            "it is 4 times too small: the sides in M/12 (y₀² + z₀²) are the full \
             sides, not the half sides"
                .to_string()
        } else if (ratio - 12.0).abs() < 1e-9 {
            "it is 12 times too large: the factor 1/12 is missing".to_string()
        } else {
            format!(
                "every moment is {} times the right one: look at the constant M/12",
                number(ratio)
            )
        };
        return Report::fail(format!(
            "for a {} × {} × {} block of mass {mass}, a sum over 8000 point masses \
             on a grid (extrapolated to the solid) gives I = {}, yours is {}: {why}",
            size.x,
            size.y,
            size.z,
            matrix(&want),
            matrix(&got)
        ));
    }
    // The parallel axis theorem: two half blocks, each from the reader's function,
    // moved to their common centre, must make the whole block again.
    let (size, mass) = blocks[1];
    let whole = f(&size, mass);
    let mut worst_split = 0.0_f64;
    for (k, axis) in AXES.iter().enumerate() {
        let mut half = size;
        half[k] /= 2.0;
        let part = |sign: f64| {
            let mut centre = Vector3::zeros();
            centre[k] = sign * size[k] / 4.0;
            MassProperties { mass: mass / 2.0, centre, inertia: f(&half, mass / 2.0) }
        };
        let combined = match MassProperties::combine(&[part(-1.0), part(1.0)]) {
            Ok(combined) => combined.inertia,
            Err(e) => {
                return Report::fail(format!("combining the halves failed: {e}"));
            }
        };
        let error = (combined - whole).norm() / whole.norm();
        worst_split = worst_split.max(error);
        if error > 1e-12 {
            return Report::fail(format!(
                "cut the 0.3 × 0.5 × 2 block in two across {axis}: your two halves, \
                 moved to the common centre by the parallel axis theorem \
                 (`MassProperties::combine`), add up to {}, but your whole block is \
                 {}. Only M/12 with the full sides makes the halves and the whole \
                 agree.",
                matrix(&combined),
                matrix(&whole)
            ));
        }
    }
    Report::pass(vec![
        format!(
            "three blocks against sums over point masses on grids of 1000 and 8000 \
             points, extrapolated: largest relative difference {}",
            number(worst)
        ),
        format!(
            "proportional to M; each moment unchanged by stretching along its own \
             axis; halves moved by the parallel axis theorem make the whole to {}",
            number(worst_split)
        ),
    ])
}

/// Whether `off` is beyond `tolerance`, NaN included (a NaN is never within it).
fn beyond(off: f64, tolerance: f64) -> bool {
    off.is_nan() || off > tolerance
}

/// A mesh the reader's function is tried on, with its mass properties from sources
/// independent of any mesh code, and the point the "about the origin" slips refer to.
struct MeshCase {
    what: String,
    mesh: TriMesh,
    density: f64,
    want: MassProperties,
}

/// The same mesh with every vertex turned by `r` and moved by `t`.
fn moved(
    mesh: &TriMesh,
    r: &Matrix3<f64>,
    t: &Vector3<f64>,
) -> Result<TriMesh, PbmError> {
    let vertices = mesh.vertices().iter().map(|v| r * v + t).collect();
    TriMesh::new(vertices, mesh.triangles().to_vec())
}

/// The meshes of the check: a box about the origin against the block's closed form,
/// a corner tetrahedron against its integrals done by hand, the box moved (its
/// inertia must not change) and turned (it must become R I Rᵀ), and a non-convex L
/// against its two blocks joined by the parallel axis theorem, far from the origin.
fn mesh_cases() -> Result<Vec<MeshCase>, PbmError> {
    let size = Vector3::new(1.0, 2.0, 3.0);
    let density = 1.3;
    let block = MassProperties::block(size, density * size.product())?;
    let cube = box_mesh(size)?;
    // The tetrahedron (0, a e_x, b e_y, c e_z): V = abc/6, and about the origin
    // ∫ x² dV = V a²/10, ∫ x y dV = V a b/20 (and so on).
    let (a, b, c) = (2.0, 1.0, 1.5);
    let corner = tetrahedron([
        Vector3::zeros(),
        Vector3::new(a, 0.0, 0.0),
        Vector3::new(0.0, b, 0.0),
        Vector3::new(0.0, 0.0, c),
    ])?;
    let volume = a * b * c / 6.0;
    let sides = Vector3::new(a, b, c);
    let second = Matrix3::from_fn(|i, j| {
        let k = if i == j { 10.0 } else { 20.0 };
        density * volume * sides[i] * sides[j] / k
    });
    let centre = sides / 4.0;
    let mass = density * volume;
    let about_centre = second - centre * centre.transpose() * mass;
    let tetra = MassProperties {
        mass,
        centre,
        inertia: Matrix3::identity() * about_centre.trace() - about_centre,
    };
    let shift = Vector3::new(4.0, -3.0, 2.0);
    let turn =
        quat_to_matrix(&quat_from_axis_angle(&Vector3::new(1.0, 2.0, -0.5), 0.9));
    // The L: a 2 × 1 × 1 block and a 1 × 1 × 1 block on top of its left end.
    let l_parts = [
        MassProperties::block(Vector3::new(2.0, 1.0, 1.0), 2.0 * density)?,
        MassProperties::block(Vector3::new(1.0, 1.0, 1.0), density)?,
    ];
    let far = Vector3::new(-5.0, 3.0, 6.0);
    let l_whole = MassProperties::combine(&[
        MassProperties { centre: Vector3::new(1.0, 0.5, 0.5) + far, ..l_parts[0] },
        MassProperties { centre: Vector3::new(0.5, 1.5, 0.5) + far, ..l_parts[1] },
    ])?;
    Ok(vec![
        MeshCase {
            what: "a 1 × 2 × 3 box centred on the origin".to_string(),
            mesh: cube.clone(),
            density,
            want: block,
        },
        MeshCase {
            what: "the tetrahedron with corners 0, (2, 0, 0), (0, 1, 0), (0, 0, 1.5)"
                .to_string(),
            mesh: corner,
            density,
            want: tetra,
        },
        MeshCase {
            what: format!("the 1 × 2 × 3 box moved to {}", numbers(shift.as_slice())),
            mesh: moved(&cube, &Matrix3::identity(), &shift)?,
            density,
            want: MassProperties { centre: shift, ..block },
        },
        MeshCase {
            what: format!(
                "the 1 × 2 × 3 box turned by 0.9 rad about (1, 2, −0.5) and moved to {}",
                numbers(shift.as_slice())
            ),
            mesh: moved(&cube, &turn, &shift)?,
            density,
            want: MassProperties {
                centre: shift,
                inertia: turn * block.inertia * turn.transpose(),
                ..block
            },
        },
        MeshCase {
            what: format!(
                "the L-shaped prism (non-convex) with its corner at {}",
                numbers(far.as_slice())
            ),
            mesh: moved(&l_shape()?, &Matrix3::identity(), &far)?,
            density,
            want: l_whole,
        },
    ])
}

/// (d·d) 1 − d dᵀ: the parallel axis theorem's matrix for an offset d.
fn offset_matrix(d: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::identity() * d.dot(d) - d * d.transpose()
}

/// What is wrong with a mesh's mass properties, if anything.
fn mesh_diagnosis(got: &MassProperties, case: &MeshCase) -> Option<String> {
    let want = &case.want;
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1e-300);
    if !got.mass.is_finite()
        || !got.centre.iter().chain(got.inertia.iter()).all(|v| v.is_finite())
    {
        return Some(format!(
            "your mass {}, centre {} or inertia {} is not a finite number",
            number(got.mass),
            numbers(got.centre.as_slice()),
            matrix(&got.inertia)
        ));
    }
    if !close(got.mass, want.mass) {
        let ratio = got.mass / want.mass;
        let why = if close(ratio, 6.0) {
            "6 times too large: a tetrahedron's volume is a·(b × c)/6, a sixth of the \
             parallelepiped its three edges span"
                .to_string()
        } else if close(ratio, 1.0 / case.density) {
            format!(
                "that is the volume: the mass is ρ V, with ρ = {}",
                number(case.density)
            )
        } else if ratio > 1.0 {
            "too large, though the box about the origin may be right: keep each \
             tetrahedron's volume signed. A triangle that faces the common point o \
             gives a negative volume, which takes away the part outside the solid; \
             |a·(b × c)| counts it instead"
                .to_string()
        } else {
            "the mass is ρ Σ V, with V = a′·(b′ × c′)/6 signed, the corners taken \
             relative to the common point o"
                .to_string()
        };
        return Some(format!(
            "your mass is {} where it is ρ V = {}: {why}",
            number(got.mass),
            number(want.mass)
        ));
    }
    let scale = want.centre.norm().max(1.0);
    if (got.centre - want.centre).norm() > 1e-9 * scale {
        let why = if (got.centre - want.centre * (4.0 / 3.0)).norm() <= 1e-9 * scale {
            "4/3 of the way: a tetrahedron's centroid is the mean of its four corners, \
             (o + a + b + c)/4, so its first moment is V s/4 from o, not V s/3"
        } else if got.centre.norm() <= 1e-12 * scale {
            "at the origin: the centre of mass is o + (Σ V s/4)/(Σ V), which moves \
             with the mesh"
        } else {
            "the centre is o + d with d = (Σ V s/4)/(Σ V), s = a′ + b′ + c′ the \
             corners relative to o"
        };
        return Some(format!(
            "your centre of mass is {} where it is {}: {why}",
            numbers(got.centre.as_slice()),
            numbers(want.centre.as_slice())
        ));
    }
    let size = want.inertia.norm();
    let near = |m: Matrix3<f64>| (got.inertia - m).norm() <= 1e-9 * size;
    if near(want.inertia) {
        return None;
    }
    let i = want.inertia;
    let shift = offset_matrix(&want.centre) * want.mass;
    let flipped =
        Matrix3::from_fn(|r, c| if r == c { i[(r, c)] } else { -i[(r, c)] });
    let ratio = got.inertia.trace() / i.trace();
    let why = if near(-i) {
        "it is −I: the inertia tensor is tr C 1 − C for the second moments C = \
         ∫ρ x xᵀ dV, not C − tr C 1"
            .to_string()
    } else if near(Matrix3::identity() * (0.5 * i.trace()) - i) {
        "that is the second-moment matrix C = ∫ρ (x − c)(x − c)ᵀ dV itself; the \
         inertia tensor is made from it, I = tr C 1 − C"
            .to_string()
    } else if near(flipped) {
        "the diagonal is right and the products of inertia have the wrong sign: \
         they are −∫ρ x y dV, as I = tr C 1 − C makes them"
            .to_string()
    } else if want.centre.norm() > 0.0 && near(i + shift) {
        "that is the inertia about the origin: move it to the centre of mass with \
         the parallel axis theorem, subtracting M((c·c) 1 − c cᵀ) (or, for the \
         second moments, V d dᵀ)"
            .to_string()
    } else if want.centre.norm() > 0.0 && near(i + shift * 2.0) {
        "the parallel axis term is added where it must be subtracted: about the \
         centre, I = I_o − M((d·d) 1 − d dᵀ), the smallest inertia of all parallel \
         axes"
            .to_string()
    } else if near(i * ratio) {
        format!(
            "every entry is {} times the right one: look at the constants, V = \
             a′·(b′ × c′)/6 and the second moments V/20 (Σ v vᵀ + s sᵀ), and at ρ",
            number(ratio)
        )
    } else {
        "I = tr C 1 − C with C = ρ (Σ V/20 (a′a′ᵀ + b′b′ᵀ + c′c′ᵀ + s sᵀ) − V d dᵀ), \
         the second moments moved to the centre of mass"
            .to_string()
    };
    Some(format!(
        "your inertia is {} where it is {}: {why}",
        matrix(&got.inertia),
        matrix(&want.inertia)
    ))
}

/// Checks a mesh's mass properties: a box about the origin and a tetrahedron against
/// closed forms, the box moved and turned against the parallel axis theorem and
/// R I Rᵀ, and a non-convex L far from the origin against its two blocks. Each mesh
/// that fails gets its line, unless an earlier one already said the same.
pub fn check_mesh_inertia(f: MeshInertiaFn) -> Report {
    let cases = match mesh_cases() {
        Ok(cases) => cases,
        Err(e) => return Report::fail(format!("the check's own meshes failed: {e}")),
    };
    let mut failures: Vec<String> = Vec::new();
    let mut said: Vec<String> = Vec::new();
    for c in &cases {
        case(c.what.clone());
        let got = f(&c.mesh, c.density);
        if let Some(why) = mesh_diagnosis(&got, c) {
            // One line per mistake: the same advice on a later mesh adds nothing.
            let advice = why.split(": ").last().unwrap_or("").to_string();
            if !said.contains(&advice) {
                said.push(advice);
                failures.push(format!(
                    "for {} at density {}, {why}",
                    c.what,
                    number(c.density)
                ));
            }
        }
    }
    if !failures.is_empty() {
        return Report::fail_all(failures);
    }
    Report::pass(vec![
        "a box and a tetrahedron: mass, centre and inertia as their closed forms give"
            .to_string(),
        "the box moved keeps its inertia, turned it becomes R I Rᵀ, and the \
         non-convex L far from the origin is its two blocks joined by the parallel \
         axis theorem"
            .to_string(),
    ])
}

/// A body as the state-derivative check builds it: its mass, its point masses about
/// the centre of mass, and I_body.
type PointBody = (f64, Vec<(f64, Vector3<f64>)>, Matrix3<f64>);

/// The body of the state-derivative check: point masses about their centre, and
/// I_body from them.
fn derivative_body() -> Result<PointBody, PbmError> {
    let raw = [
        (1.0, Vector3::new(0.6, 0.1, -0.2)),
        (2.0, Vector3::new(-0.3, 0.5, 0.1)),
        (0.5, Vector3::new(0.2, -0.7, 0.4)),
        (1.5, Vector3::new(-0.1, -0.2, -0.6)),
        (0.8, Vector3::new(0.4, 0.3, 0.5)),
    ];
    let props = MassProperties::point_masses(&raw)?;
    let points = raw.iter().map(|(m, r)| (*m, r - props.centre)).collect();
    Ok((props.mass, points, props.inertia))
}

/// Checks a rigid body's state derivative at five states of a body of point masses:
/// ẋ = P/M, Ṗ = Σ f, L̇ = Σ (p − x) × f, and q̇ through the ω it encodes, 2 q̇ q̄ =
/// [0, ω], which must satisfy L = I ω with I summed over the point masses turned by
/// R. Wrong forms are named by the candidates they match.
pub fn check_state_derivative(f: StateDerivativeFn) -> Report {
    let (mass, points, i_body) = match derivative_body() {
        Ok(body) => body,
        Err(e) => return Report::fail(format!("the check's own body failed: {e}")),
    };
    let Some(i_body_inv) = i_body.try_inverse() else {
        return Report::fail("the check's own body has a singular inertia");
    };
    let mut next = sequence(0x6b0d_7e11);
    let mut vector = |k: f64| Vector3::new(next(), next(), next()) * k;
    let mut lines: [Option<String>; 4] = [None, None, None, None];
    let mut worst = 0.0_f64;
    for n in 0..5 {
        let x = vector(2.0);
        let (a, b) = (vector(1.0), vector(1.0));
        let q = Quat::new(a.x, a.y, a.z, b.x).normalize();
        let (p, l) = (vector(3.0), vector(2.0));
        let forces: Vec<(Vector3<f64>, Vector3<f64>)> = if n == 0 {
            Vec::new()
        } else {
            (0..n.min(3)).map(|_| (x + vector(1.0), vector(4.0))).collect()
        };
        let mut state = [0.0; 13];
        state[0..3].copy_from_slice(x.as_slice());
        state[3..7].copy_from_slice(q.as_slice());
        state[7..10].copy_from_slice(p.as_slice());
        state[10..13].copy_from_slice(l.as_slice());
        let at = format!(
            "at x = {}, q = {}, P = {}, L = {} with {} force{}",
            numbers(x.as_slice()),
            numbers(q.as_slice()),
            numbers(p.as_slice()),
            numbers(l.as_slice()),
            forces.len(),
            if forces.len() == 1 { "" } else { "s" }
        );
        case(format!("a body of {} kg {at}", number(mass)));
        let rate = f(mass, &i_body, &state, &forces);
        if !rate.iter().all(|v| v.is_finite()) {
            return Report::fail(format!(
                "{at} your derivative is {}: not a finite number",
                numbers(&rate)
            ));
        }
        let part =
            |from: usize| Vector3::new(rate[from], rate[from + 1], rate[from + 2]);
        let (v, force, torque) = (part(0), part(7), part(10));
        let q_dot = Quat::new(rate[3], rate[4], rate[5], rate[6]);
        let tolerance = |want: &Vector3<f64>| 1e-10 * (1.0 + want.norm());
        let find = |got: &Vector3<f64>, forms: &[(Vector3<f64>, &str)]| {
            forms
                .iter()
                .find(|(form, _)| (got - form).norm() <= tolerance(form))
                .map(|(_, why)| why.to_string())
        };
        // ẋ = P/M.
        let want_v = p / mass;
        if lines[0].is_none() && beyond((v - want_v).norm(), tolerance(&want_v)) {
            let why = find(
                &v,
                &[
                    (p, "that is P itself: the velocity is P/M"),
                    (p * mass, "that is P M: the velocity is P/M"),
                ],
            )
            .unwrap_or_else(|| {
                "ẋ = v = P/M, state[0..3] of the derivative".to_string()
            });
            lines[0] = Some(format!(
                "{at} your ẋ is {} where v = P/M = {}: {why}",
                numbers(v.as_slice()),
                numbers(want_v.as_slice())
            ));
        }
        // Ṗ = Σ f and L̇ = Σ (p − x) × f.
        let total: Vector3<f64> = forces.iter().map(|(_, f)| f).sum();
        let lever = |o: &Vector3<f64>| -> Vector3<f64> {
            forces.iter().map(|(at, f)| (at - o).cross(f)).sum()
        };
        let want_tau = lever(&x);
        if lines[1].is_none() && beyond((force - total).norm(), tolerance(&total)) {
            let first = forces.first().map_or(Vector3::zeros(), |(_, f)| *f);
            let why = find(
                &force,
                &[
                    (
                        first,
                        "that is the first force alone: Ṗ = F is the sum of them all",
                    ),
                    (Vector3::zeros(), "it is zero: Ṗ = F = Σ f, wherever each acts"),
                ],
            )
            .unwrap_or_else(|| "Ṗ = F = Σ f, wherever each force acts".to_string());
            lines[1] = Some(format!(
                "{at} your Ṗ is {} where F = Σ f = {}: {why}",
                numbers(force.as_slice()),
                numbers(total.as_slice())
            ));
        }
        if lines[2].is_none()
            && beyond((torque - want_tau).norm(), tolerance(&want_tau))
        {
            let why = find(&torque, &[
                (
                    lever(&Vector3::zeros()),
                    "that is Σ p × f, the torque about the world's origin: the lever \
                     arm runs from the centre of mass, p − x",
                ),
                (
                    -want_tau,
                    "it has the wrong sign: τ = (p − x) × f, the lever arm first (f × (p \
                     − x) turns the other way)",
                ),
                (
                    Vector3::zeros(),
                    "it is zero: a force off the centre of mass turns the body, τ = \
                     Σ (p − x) × f",
                ),
            ])
            .unwrap_or_else(|| "L̇ = τ = Σ (p − x) × f".to_string());
            lines[2] = Some(format!(
                "{at} your L̇ is {} where τ = Σ (p − x) × f = {}: {why}",
                numbers(torque.as_slice()),
                numbers(want_tau.as_slice())
            ));
        }
        // q̇ = ½ [0, ω] q, so 2 q̇ q̄ = [0, ω]: the ω the reader's q̇ turns the body at.
        let conjugate = Quat::new(q[0], -q[1], -q[2], -q[3]);
        let encoded = quat_mul(&q_dot, &conjugate) * 2.0;
        let omega = Vector3::new(encoded[1], encoded[2], encoded[3]);
        let r = quat_to_matrix(&q);
        let i_world: Matrix3<f64> =
            points.iter().map(|(m, r0)| offset_matrix(&(r * r0)) * *m).sum();
        let want_omega =
            i_world.try_inverse().map_or(Vector3::zeros(), |inv| inv * l);
        let residual = i_world * omega - l;
        worst = worst.max(residual.norm() / (1.0 + l.norm()));
        let turning_right = residual.norm() <= 1e-9 * (1.0 + l.norm());
        if lines[3].is_none() && !(turning_right && encoded[0].abs() <= 1e-10) {
            let why = if encoded[0].abs() > 1e-10 && turning_right {
                "it also changes |q|, which no rotation does: q̇ = ½ [0, ω] q has no part \
                 along q"
                    .to_string()
            } else {
                find(&omega, &[
                    (
                        i_body_inv * l,
                        "that is I_body⁻¹ L, with the body's inertia used as if the body \
                         were unturned: in the world I⁻¹ = R I_body⁻¹ Rᵀ",
                    ),
                    (
                        r.transpose() * i_body_inv * r * l,
                        "that is Rᵀ I_body⁻¹ R L, turned the wrong way: I⁻¹ = R \
                         I_body⁻¹ Rᵀ (L to body coordinates with Rᵀ, back with R)",
                    ),
                    (
                        i_body_inv * r.transpose() * l,
                        "that is I_body⁻¹ Rᵀ L, ω in body coordinates: turn it back to \
                         the world with R, ω = R I_body⁻¹ Rᵀ L",
                    ),
                    (
                        r * i_body * r.transpose() * l,
                        "that is I L, not I⁻¹ L: ω = R I_body⁻¹ Rᵀ L, with the inverse",
                    ),
                    (
                        r * want_omega,
                        "the product is in the wrong order: q [0, ω] turns about ω in \
                         body coordinates. ω is in the world, so q̇ = ½ [0, ω] q",
                    ),
                    (
                        want_omega * 2.0,
                        "it turns twice as fast: q̇ = ½ [0, ω] q, and the ½ is missing",
                    ),
                    (
                        want_omega * 0.5,
                        "it turns half as fast: q̇ = ½ [0, ω] q, halved once",
                    ),
                    (
                        -want_omega,
                        "it turns the other way: q̇ = + ½ [0, ω] q",
                    ),
                ])
                .unwrap_or_else(|| {
                    "ω = R I_body⁻¹ Rᵀ L and q̇ = ½ [0, ω] q = ½ [−ω·v, s ω + ω × v]"
                        .to_string()
                })
            };
            lines[3] = Some(format!(
                "{at} your q̇ turns the body at ω = 2 q̇ q̄ = {} where L = I ω, with I \
                 summed over the body's point masses turned by R, gives ω = {}: {why}",
                numbers(omega.as_slice()),
                numbers(want_omega.as_slice())
            ));
        }
    }
    let failures: Vec<String> = lines.into_iter().flatten().collect();
    if !failures.is_empty() {
        return Report::fail_all(failures);
    }
    Report::pass(vec![
        "at 5 states: ẋ = P/M, Ṗ = Σ f and L̇ = Σ (p − x) × f for up to three forces"
            .to_string(),
        format!(
            "q̇ turns the body at the ω with L = I ω, I summed over its point masses \
             turned by R (to {} relative), and keeps |q|",
            number(worst)
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rotation::{quat_derivative, quat_mul};

    pbm_prelim::answers! {
        quaternion_rate => check_quaternion_rate(quaternion_rate::quaternion_rate),
        block_inertia => check_block_inertia(block_inertia::inertia_of_block),
        mesh_inertia => check_mesh_inertia(mesh_inertia::mesh_mass_properties),
        state_derivative => check_state_derivative(state_derivative::state_derivative),
    }

    #[test]
    fn the_books_functions_pass_their_checks() {
        check_quaternion_rate(quat_derivative).assert_passed();
        let block = check_block_inertia(|size, mass| {
            MassProperties::block(*size, mass).map_or(Matrix3::zeros(), |p| p.inertia)
        });
        block.assert_passed();
    }

    fn pure(omega: &Vector3<f64>) -> Quat {
        Quat::new(0.0, omega.x, omega.y, omega.z)
    }

    #[test]
    fn quaternion_rate_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: QuatRateFn, expect: &str| {
            check_quaternion_rate(f).assert_fails_with(expect)
        };
        // Multiplied on the wrong side: ω taken as body coordinates.
        failing(|w, q| quat_mul(q, &pure(w)) * 0.5, "body's own frame");
        // The ½ forgotten.
        failing(|w, q| quat_mul(&pure(w), q), "the ½ is missing");
        // The scalar part left at zero (the −v₁·v₂ of the product dropped).
        failing(
            |w, q| {
                let mut rate = quat_mul(&pure(w), q) * 0.5;
                rate[0] = 0.0;
                rate
            },
            "scalar part",
        );
        // Turning backwards.
        failing(|w, q| quat_mul(&pure(w), q) * -0.5, "the other way");
        // nalgebra's Quaternion on the stored vector: coords are [i, j, k, w].
        failing(
            |w, q| {
                let q = nalgebra::Quaternion::from_vector(*q);
                (nalgebra::Quaternion::from_imag(*w) * q * 0.5).coords
            },
            "`Quaternion::coords` order [i, j, k, w]",
        );
        // Read in that order, written scalar first.
        failing(
            |w, q| {
                let r = nalgebra::Quaternion::from_imag(*w)
                    * nalgebra::Quaternion::from_vector(*q)
                    * 0.5;
                Quat::new(r.w, r.i, r.j, r.k)
            },
            "reads q in nalgebra's `coords` order",
        );
        // NaN.
        failing(|_, _| Quat::repeat(f64::NAN), "not a finite number");
    }

    fn diagonal(d: Vector3<f64>, k: f64) -> Matrix3<f64> {
        Matrix3::from_diagonal(&d) * k
    }

    #[test]
    fn block_inertia_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: BlockInertiaFn, expect: &str| {
            check_block_inertia(f).assert_fails_with(expect)
        };
        // M/3 with the full sides.
        failing(
            |s, m| {
                let q = s.component_mul(s);
                diagonal(Vector3::new(q.y + q.z, q.x + q.z, q.x + q.y), m / 3.0)
            },
            "4 times too large",
        );
        // M/12 with the half sides.
        failing(
            |s, m| {
                let q = (s / 2.0).component_mul(&(s / 2.0));
                diagonal(Vector3::new(q.y + q.z, q.x + q.z, q.x + q.y), m / 12.0)
            },
            "4 times too small",
        );
        // The sides along the axis instead of across it.
        failing(
            |s, m| {
                let q = s.component_mul(s);
                diagonal(Vector3::new(q.x + q.y, q.y + q.z, q.z + q.x), m / 12.0)
            },
            "sides across it",
        );
        // The mass forgotten.
        failing(
            |s, _| {
                let q = s.component_mul(s);
                diagonal(Vector3::new(q.y + q.z, q.x + q.z, q.x + q.y), 1.0 / 12.0)
            },
            "proportional to M",
        );
        // Products of inertia where there are none.
        failing(
            |s, m| {
                let q = s.component_mul(s);
                let mut i =
                    diagonal(Vector3::new(q.y + q.z, q.x + q.z, q.x + q.y), m / 12.0);
                i[(0, 1)] = -m * s.x * s.y / 12.0;
                i[(1, 0)] = i[(0, 1)];
                i
            },
            "products of inertia",
        );
        failing(|_, _| Matrix3::repeat(f64::INFINITY), "not a finite number");
        // The density M/V used where the mass goes.
        failing(
            |s, m| {
                let q = s.component_mul(s);
                let density = m / s.product();
                diagonal(
                    Vector3::new(q.y + q.z, q.x + q.z, q.x + q.y),
                    density / 12.0,
                )
            },
            "scale as 1/V",
        );
    }

    /// Signed tetrahedra about `o` (None: the first vertex), with slips: `abs` takes
    /// each volume's size, `sixth` is the volume's divisor, `centroid` the first
    /// moment's, `shift` how much of V d dᵀ is taken off (1 right, 0 none, −1 added),
    /// `form` 0 for tr C 1 − C, 1 for C itself, 2 for the products' sign flipped.
    #[derive(Clone, Copy)]
    struct Slips {
        origin: bool,
        abs: bool,
        sixth: f64,
        centroid: f64,
        shift: f64,
        form: u8,
    }

    const NONE: Slips = Slips {
        origin: false,
        abs: false,
        sixth: 6.0,
        centroid: 4.0,
        shift: 1.0,
        form: 0,
    };

    fn tetrahedra(mesh: &TriMesh, density: f64, slips: Slips) -> MassProperties {
        let o = if slips.origin { Vector3::zeros() } else { mesh.vertices()[0] };
        let (mut volume, mut first, mut second) =
            (0.0, Vector3::zeros(), Matrix3::zeros());
        for [a, b, c] in mesh.corners() {
            let (a, b, c) = (a - o, b - o, c - o);
            let mut v = a.dot(&b.cross(&c)) / slips.sixth;
            if slips.abs {
                v = v.abs();
            }
            let s = a + b + c;
            volume += v;
            first += s * (v / slips.centroid);
            second += (a * a.transpose()
                + b * b.transpose()
                + c * c.transpose()
                + s * s.transpose())
                * (v / 20.0);
        }
        let d = first / volume;
        let c = (second - d * d.transpose() * volume * slips.shift) * density;
        let inertia = match slips.form {
            0 => Matrix3::identity() * c.trace() - c,
            1 => c,
            _ => Matrix3::from_fn(|i, j| {
                if i == j { c.trace() - c[(i, j)] } else { c[(i, j)] }
            }),
        };
        MassProperties { mass: density * volume, centre: o + d, inertia }
    }

    #[test]
    fn mesh_inertia_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: MeshInertiaFn, expect: &str| {
            check_mesh_inertia(f).assert_fails_with(expect)
        };
        check_mesh_inertia(|m, rho| tetrahedra(m, rho, NONE)).assert_passed();
        check_mesh_inertia(|m, rho| {
            tetrahedra(m, rho, Slips { origin: true, ..NONE })
        })
        .assert_passed();
        failing(
            |m, rho| tetrahedra(m, rho, Slips { origin: true, abs: true, ..NONE }),
            "keep each tetrahedron's volume signed",
        );
        failing(
            |m, rho| tetrahedra(m, rho, Slips { sixth: 1.0, ..NONE }),
            "6 times too large",
        );
        failing(
            |m, rho| {
                tetrahedra(m, rho, Slips { origin: true, centroid: 3.0, ..NONE })
            },
            "4/3 of the way",
        );
        failing(
            |m, rho| tetrahedra(m, rho, Slips { form: 1, ..NONE }),
            "second-moment matrix",
        );
        failing(
            |m, rho| tetrahedra(m, rho, Slips { form: 2, ..NONE }),
            "products of inertia have the wrong sign",
        );
        failing(
            |m, rho| tetrahedra(m, rho, Slips { origin: true, shift: 0.0, ..NONE }),
            "inertia about the origin",
        );
        failing(
            |m, rho| tetrahedra(m, rho, Slips { origin: true, shift: -1.0, ..NONE }),
            "added where it must be subtracted",
        );
        check_mesh_inertia(|_, _| MassProperties {
            mass: f64::NAN,
            centre: Vector3::zeros(),
            inertia: Matrix3::zeros(),
        })
        .assert_fails_with("not a finite number");
    }

    #[test]
    fn mirtichs_integrals_pass_the_mesh_check_too() {
        check_mesh_inertia(|m, rho| {
            MassProperties::polyhedron(m, rho).unwrap_or(MassProperties {
                mass: 0.0,
                centre: Vector3::zeros(),
                inertia: Matrix3::zeros(),
            })
        })
        .assert_passed();
    }

    /// The derivative with a slip: 0 none, 1 ω = I_body⁻¹ L, 2 ω = Rᵀ I_body⁻¹ R L,
    /// 3 q̇ = ½ q [0, ω], 4 τ = Σ p × f, 5 τ = Σ f × (p − x), 6 ẋ = P, 7 Ṗ = first f.
    fn derivative_with(
        mass: f64,
        i_body: &Matrix3<f64>,
        state: &[f64; 13],
        forces: &[(Vector3<f64>, Vector3<f64>)],
        slip: u8,
    ) -> [f64; 13] {
        let x = Vector3::new(state[0], state[1], state[2]);
        let q = Quat::new(state[3], state[4], state[5], state[6]);
        let (p, l) = (
            Vector3::new(state[7], state[8], state[9]),
            Vector3::new(state[10], state[11], state[12]),
        );
        let r = quat_to_matrix(&q);
        let inv = i_body.try_inverse().unwrap_or_else(Matrix3::zeros);
        let omega = match slip {
            1 => inv * l,
            2 => r.transpose() * inv * r * l,
            _ => r * inv * r.transpose() * l,
        };
        let q_dot = if slip == 3 {
            quat_mul(&q, &pure(&omega)) * 0.5
        } else {
            quat_mul(&pure(&omega), &q) * 0.5
        };
        let force: Vector3<f64> = if slip == 7 {
            forces.first().map_or(Vector3::zeros(), |(_, f)| *f)
        } else {
            forces.iter().map(|(_, f)| f).sum()
        };
        let torque: Vector3<f64> = forces
            .iter()
            .map(|(at, f)| match slip {
                4 => at.cross(f),
                5 => f.cross(&(at - x)),
                _ => (at - x).cross(f),
            })
            .sum();
        let v = if slip == 6 { p } else { p / mass };
        let mut rate = [0.0; 13];
        rate[0..3].copy_from_slice(v.as_slice());
        rate[3..7].copy_from_slice(q_dot.as_slice());
        rate[7..10].copy_from_slice(force.as_slice());
        rate[10..13].copy_from_slice(torque.as_slice());
        rate
    }

    #[test]
    fn state_derivative_mutants_fail_with_the_diagnosis_meant_for_them() {
        check_state_derivative(|m, i, s, f| derivative_with(m, i, s, f, 0))
            .assert_passed();
        let cases: [(StateDerivativeFn, &str); 7] = [
            (
                |m, i, s, f| derivative_with(m, i, s, f, 1),
                "as if the body were unturned",
            ),
            (|m, i, s, f| derivative_with(m, i, s, f, 2), "turned the wrong way"),
            (
                |m, i, s, f| derivative_with(m, i, s, f, 3),
                "product is in the wrong order",
            ),
            (|m, i, s, f| derivative_with(m, i, s, f, 4), "the world's origin"),
            (|m, i, s, f| derivative_with(m, i, s, f, 5), "the lever arm first"),
            (|m, i, s, f| derivative_with(m, i, s, f, 6), "that is P itself"),
            (|m, i, s, f| derivative_with(m, i, s, f, 7), "the first force alone"),
        ];
        for (f, expect) in cases {
            check_state_derivative(f).assert_fails_with(expect);
        }
        // Two slips at once: two lines.
        let two = check_state_derivative(|m, i, s, f| {
            let mut rate = derivative_with(m, i, s, f, 1);
            rate[0..3].copy_from_slice(&derivative_with(m, i, s, f, 6)[0..3]);
            rate
        });
        two.assert_fails_with("that is P itself");
        two.assert_fails_with("as if the body were unturned");
    }

    #[test]
    fn a_state_derivative_that_solves_for_omega_and_writes_the_product_out_passes() {
        check_state_derivative(|m, i_body, s, forces| {
            let x = Vector3::new(s[0], s[1], s[2]);
            let (w, v) = (s[3], Vector3::new(s[4], s[5], s[6]));
            let r = quat_to_matrix(&Quat::new(s[3], s[4], s[5], s[6]));
            let l = Vector3::new(s[10], s[11], s[12]);
            // Solve (R I_body Rᵀ) ω = L instead of forming the inverse.
            let omega =
                (r * i_body * r.transpose()).lu().solve(&l).unwrap_or_default();
            let turn = (omega * w + omega.cross(&v)) * 0.5;
            let mut rate = [0.0; 13];
            for k in 0..3 {
                rate[k] = s[7 + k] / m;
                rate[4 + k] = turn[k];
                rate[7 + k] = forces.iter().map(|(_, f)| f[k]).sum();
                rate[10 + k] = forces.iter().map(|(p, f)| (p - x).cross(f)[k]).sum();
            }
            rate[3] = -0.5 * omega.dot(&v);
            rate
        })
        .assert_passed();
    }
}
