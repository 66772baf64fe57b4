//! Practice for chapter 6: the reader writes the rate of change of an orientation
//! quaternion and the inertia tensor of a block. The rate is checked by what any
//! rotation rate must be (perpendicular to q, of length |ω|/2) and by integrating a
//! steady spin with RK4 against its closed-form rotation; the block against a sum
//! over a grid of point masses and against the parallel axis theorem, which must
//! rebuild it from its two halves.

use crate::mass::MassProperties;
use crate::rotation::{Quat, quat_from_axis_angle, quat_to_matrix};
use nalgebra::{Matrix3, Vector3};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{VectorField, state_of};
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, numbers, sequence};

/// A quaternion rate the reader writes (the signature of
/// [`crate::rotation::quat_derivative`]).
pub type QuatRateFn = fn(&Vector3<f64>, &Quat) -> Quat;

/// A block's inertia tensor the reader writes.
pub type BlockInertiaFn = fn(&Vector3<f64>, f64) -> Matrix3<f64>;

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

/// Checks a quaternion rate: at twelve orientations it must be perpendicular to q
/// (a turn keeps |q| = 1) and of length |ω|/2; integrated with RK4 it must turn a
/// body at a steady world-frame ω exactly as the closed-form rotation does.
pub fn check_quaternion_rate(f: QuatRateFn) -> Report {
    let mut worst_along = 0.0_f64;
    for (omega, q) in spins() {
        let rate = f(&omega, &q);
        if !rate.iter().all(|v| v.is_finite()) {
            return Report::fail(format!(
                "your rate at ω = {}, q = {} is {rate:?}: not a finite number",
                numbers(omega.as_slice()),
                numbers(q.as_slice())
            ));
        }
        let along = q.dot(&rate);
        worst_along = worst_along.max(along.abs());
        if along.abs() > 1e-12 * (1.0 + omega.norm()) {
            return Report::fail(format!(
                "at ω = {} and the unit q = {} your rate has q·q̇ = {along:.3e}, not \
                 0: it changes the length of q, which a pure rotation never does \
                 (|q| = 1 must stay 1). The scalar part −ω·v and the s ω in the \
                 vector part belong together: ½ [0, ω][s, v] = ½ [−ω·v, s ω + ω × v].",
                numbers(omega.as_slice()),
                numbers(q.as_slice())
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
                    "its length should be |ω|/2 = {want:.4}: |[0, ω] q| = |ω| |q|, halved"
                )
            };
            return Report::fail(format!(
                "at ω = {} and the unit q = {} your rate has length {length:.4}: {why}",
                numbers(omega.as_slice()),
                numbers(q.as_slice())
            ));
        }
    }
    // A steady spin about a tilted axis, from an orientation R₀ that does not commute
    // with it: turned in the world, R(t) = Rot(ω̂, |ω|t) R₀; turned in the body's own
    // frame it would be R₀ Rot(ω̂, |ω|t).
    let omega = Vector3::new(0.3, -1.1, 0.7);
    let q0 = quat_from_axis_angle(&Vector3::new(1.0, 2.0, -0.5), 1.2);
    let (h, duration) = (0.01, 3.0);
    let q = match integrate(f, omega, &q0, h, duration) {
        Ok(q) => q,
        Err(e) => return Report::fail(format!("integrating your rate failed: {e}")),
    };
    let length = q.norm();
    if !length.is_finite() || length < 1e-6 {
        return Report::fail(format!(
            "after {duration} s of RK4 on your rate, q = {q:?}: no orientation is left"
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
             with RK4 at h = {h} s on your rate, ends {world:.3} (in ‖R − R_exact‖) \
             from the closed form Rot(ω̂, |ω|t) R₀: {why}.",
            numbers(omega.as_slice())
        ));
    }
    Report::pass(vec![
        format!(
            "at 12 orientations q̇ is perpendicular to q (largest |q·q̇| \
             {worst_along:.1e}) and of length |ω|/2"
        ),
        format!(
            "a steady spin, {duration} s of RK4 at h = {h} s: within {world:.1e} of \
             the closed form Rot(ω̂, |ω|t) R₀, with |q| − 1 = {:.1e}",
            length - 1.0
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
        let stretched = f(&longer, mass);
        if (stretched[(k, k)] - one[(k, k)]).abs() > 1e-12 * scale {
            return Report::fail(format!(
                "lengthening the 1 × 2 × 3 block along {axis} (same mass) changed \
                 your moment about the {axis} axis from {:.6} to {:.6}: stretching \
                 along an axis moves no mass away from it. The moment about an axis \
                 comes from the two sides across it: I_xx = M/12 (y₀² + z₀²), I_yy = \
                 M/12 (x₀² + z₀²), I_zz = M/12 (x₀² + y₀²)",
                one[(k, k)],
                stretched[(k, k)]
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
                "every moment is {ratio:.4} times the right one: look at the \
                 constant M/12"
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
             points, extrapolated: largest relative difference {worst:.1e}"
        ),
        format!(
            "proportional to M; each moment unchanged by stretching along its own \
             axis; halves moved by the parallel axis theorem make the whole to \
             {worst_split:.1e}"
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
    }
}
