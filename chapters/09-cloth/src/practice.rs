//! Practice for chapter 9: the reader writes a cloth triangle's stretch condition
//! with its gradient, and the Hessian of a condition's energy. The stretch is
//! checked on a triangle lying in its pattern and one stretched along its threads
//! (where C has a closed form), and its gradient against central differences of the
//! reader's own C; the Hessian against central differences of the gradient of the
//! chapter's own stretch, shear and bend conditions.

use crate::check::{Draws, Sample, samples};
use crate::energy::{Local, condition_hessians};
use crate::triangle::RestTriangle;
use nalgebra::{DMatrix, Rotation3, Vector3};
use pbm_particles::condition::Condition;
use pbm_prelim::PbmError;
use pbm_prelim::finite_difference::{EPSILON, central_jacobian, max_relative_error};
use pbm_prelim::practice::{Listing, Report, Task};

type V3 = Vector3<f64>;

/// A stretch condition the reader writes (the `position` of
/// [`crate::triangle::Stretch`] as a function).
pub type StretchFn =
    fn(&RestTriangle, &[V3], &mut [f64], &mut [V3]) -> Result<(), PbmError>;

/// A condition energy's Hessian the reader writes.
pub type HessianFn = fn(&[f64], &[V3], &[DMatrix<f64>], f64) -> DMatrix<f64>;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "cloth/stretch",
        title: "a triangle's stretch condition and its gradient",
        section: "Cloth",
        page: "09-cloth/cloth.md",
        equation: "cloth-stretch-energy",
        difficulty: 1,
        file: "stretch.rs",
        stub: include_str!("practice/stretch.rs"),
        check: "pbm_cloth::practice::check_stretch(reader::stretch_condition)",
        hints: &[
            "`let (wu, wv) = triangle.map(x);` gives the two thread vectors; their \
             lengths are how long a metre of warp and of weft have become.",
            "C = √A (|w_u| − 1, |w_v| − 1) with A = `triangle.area`: a thread at its \
             rest length gives zero.",
            "∂|w_u|/∂x_k = a_u[k] ŵ_u, since w_u = Σ a_u[k] x_k and ∂|w|/∂w = w/|w|: \
             so `j[k] = wu * (root * triangle.a_u[k] / lu)`, and the weft row likewise \
             into `j[3 + k]`.",
        ],
        solution: Listing {
            source: include_str!("practice/stretch_solution.rs"),
            anchor: "stretch_condition",
        },
    },
    Task {
        id: "cloth/hessian",
        title: "the Hessian of a condition's energy",
        section: "Draping Cloth with Large Steps",
        page: "09-cloth/drape.md",
        equation: "cloth-condition-hessian",
        difficulty: 2,
        file: "hessian.rs",
        stub: include_str!("practice/hessian.rs"),
        check: "pbm_cloth::practice::check_hessian(reader::condition_hessian)",
        hints: &[
            "The gradient of E = ½ k Σ_r C_r² is k Σ_r C_r ∇C_r; differentiate it once \
             more with the product rule: one term from ∇C_r, one from C_r.",
            "Jᵀ J is Σ_r g_r g_rᵀ with g_r the 3n-vector of row r's gradients: its \
             block (a, b) is the 3 × 3 outer product `ja * jb.transpose()` with \
             ja = j[r n + a] and jb = j[r n + b].",
            "Add C_r times `second[r]` for every row, and multiply the whole by k.",
        ],
        solution: Listing {
            source: include_str!("practice/hessian_solution.rs"),
            anchor: "condition_hessian",
        },
    },
];

/// Two rest triangles: one with its first edge along the warp, one turned and
/// flipped in the pattern (negative d).
fn triangles() -> Result<[RestTriangle; 2], PbmError> {
    Ok([
        RestTriangle::new([0, 1, 2], [[0.0, 0.0], [0.3, 0.0], [0.1, 0.2]])?,
        RestTriangle::new([4, 2, 7], [[0.1, 0.05], [0.0, 0.25], [0.35, 0.1]])?,
    ])
}

/// The corners of `t` placed in space: the pattern point (u, v) goes to
/// R (s_u u, s_v v, 0) + (0.2, −0.1, 0.4), R a fixed turn.
fn placed(t: &RestTriangle, (s_u, s_v): (f64, f64)) -> Vec<V3> {
    let turn = Rotation3::from_scaled_axis(V3::new(0.4, -0.9, 0.3));
    let shift = V3::new(0.2, -0.1, 0.4);
    t.pattern
        .iter()
        .map(|p| turn * V3::new(s_u * p[0], s_v * p[1], 0.0) + shift)
        .collect()
}

/// The reader's C and J at `x`, starting from NaN so that entries left unwritten
/// show; an error or an entry left unwritten as a sentence.
fn stretch_at(
    f: StretchFn,
    t: &RestTriangle,
    x: &[V3],
) -> Result<([f64; 2], [V3; 6]), String> {
    let (mut c, mut j) = ([f64::NAN; 2], [V3::repeat(f64::NAN); 6]);
    if let Err(e) = f(t, x, &mut c, &mut j) {
        return Err(format!(
            "your condition returned an error for a triangle that is not degenerate: {e}"
        ));
    }
    if !c.iter().all(|v| v.is_finite()) || !j.iter().flatten().all(|v| v.is_finite())
    {
        return Err(format!(
            "your condition left C = {c:?} and J = {j:?}: write both rows of C into c, \
             and the six gradients into j (row 0's three corners, then row 1's), as \
             finite numbers"
        ));
    }
    Ok((c, j))
}

/// What a wrong stretch C on the triangle stretched by (s_u, s_v) along its threads
/// most likely has wrong.
fn diagnose_stretch_value(c: [f64; 2], (s_u, s_v): (f64, f64), area: f64) -> String {
    let root = area.sqrt();
    let near =
        |want: [f64; 2]| (c[0] - want[0]).abs() + (c[1] - want[1]).abs() < 1e-9;
    let strains = [s_u - 1.0, s_v - 1.0];
    if near([strains[0], strains[1]]) {
        "it is missing the factor √A: the energy ½k|C|² must be the energy density \
         ½k(S_u² + S_v²) times the area A, so C carries √A"
            .to_string()
    } else if near([area * strains[0], area * strains[1]]) {
        "it is scaled by A, where it should be √A: ½k|C|² then grows as A², and the \
         same k would be a different cloth at every mesh size"
            .to_string()
    } else if near([root * strains[1], root * strains[0]]) {
        "its rows are swapped: row 0 is the warp, |w_u| − 1, and row 1 the weft"
            .to_string()
    } else if near([root * (s_u * s_u - 1.0), root * (s_v * s_v - 1.0)]) {
        "it uses |w|² − 1 where the strain is |w| − 1, the length a metre of thread has \
         gained"
            .to_string()
    } else {
        format!(
            "it should be √A (|w_u| − 1, |w_v| − 1) = {:?}",
            [root * strains[0], root * strains[1]]
        )
    }
}

/// What a gradient that disagrees with central differences most likely has wrong,
/// from the ways it can be built from the thread vectors.
fn diagnose_stretch_gradient(
    t: &RestTriangle,
    x: &[V3],
    j: &[V3; 6],
    numeric: &[V3],
) -> String {
    let (wu, wv) = t.map(x);
    let root = t.area.sqrt();
    let close = |other: &dyn Fn(usize) -> V3| {
        (0..6).all(|i| (j[i] - other(i)).norm() <= 1e-6 * (1.0 + numeric[i].norm()))
    };
    let weights = |i: usize| if i < 3 { t.a_u[i] } else { t.a_v[i - 3] };
    let other_weights = |i: usize| if i < 3 { t.a_v[i] } else { t.a_u[i - 3] };
    let thread = |i: usize| if i < 3 { wu } else { wv };
    if close(&|i| -numeric[i]) {
        "it points the wrong way: stretching the thread raises C, so the gradient \
         of row 0 is +√A a_u[k] ŵ_u"
            .to_string()
    } else if close(&|i| thread(i) * (root * weights(i))) {
        "it uses w_u where it needs the unit vector ŵ_u = w_u/|w_u|: the derivative of \
         a length |w| is w/|w|"
            .to_string()
    } else if close(&|i| numeric[i] / root) {
        "it is missing the factor √A that C has".to_string()
    } else if close(&|i| numeric[(i + 3) % 6]) {
        "its rows are swapped: j[0..3] are the warp row's gradients, j[3..6] the \
         weft's"
            .to_string()
    } else if close(&|i| thread(i).normalize() * (root * other_weights(i))) {
        "it weights the warp's direction by the weft's weights: row 0 uses a_u, \
         because w_u = Σ a_u[k] x_k"
            .to_string()
    } else {
        let (i, _) = (0..6)
            .map(|i| (i, (j[i] - numeric[i]).norm()))
            .fold((0, -1.0), |w, e| if e.1 > w.1 { e } else { w });
        format!(
            "∂C_{}/∂x_{} is {} where central differences of your own C give {}: \
             the gradient is √A a_u[k] ŵ_u for row 0 and √A a_v[k] ŵ_v for row 1",
            i / 3,
            i % 3,
            show(&j[i]),
            show(&numeric[i])
        )
    }
}

/// A vector for a message, to four decimals.
fn show(v: &V3) -> String {
    format!("({:.4}, {:.4}, {:.4})", v.x, v.y, v.z)
}

/// Checks a stretch condition: zero at rest, √A times the strains when stretched
/// along the threads, a gradient that central differences of its own C confirm and
/// that sums to zero over the corners, and an error for a collapsed thread.
pub fn check_stretch(f: StretchFn) -> Report {
    let Ok(tris) = triangles() else {
        return Report::fail("the check's triangles could not be built");
    };
    for t in &tris {
        let (c, _) = match stretch_at(f, t, &placed(t, (1.0, 1.0))) {
            Ok(at) => at,
            Err(why) => return Report::fail(why),
        };
        if c.iter().any(|v| v.abs() > 1e-12) {
            let why = if (c[0] - t.area.sqrt()).abs() < 1e-9 {
                ": is the −1 missing? At rest |w_u| = |w_v| = 1, and the strain is \
                 |w| − 1"
            } else {
                ""
            };
            return Report::fail(format!(
                "a triangle lying in its pattern (turned and moved, not stretched) has \
                 C = {c:?}: it stores no energy, so C must be zero{why}"
            ));
        }
        let stretch = (1.3, 0.8);
        let (c, _) = match stretch_at(f, t, &placed(t, stretch)) {
            Ok(at) => at,
            Err(why) => return Report::fail(why),
        };
        let root = t.area.sqrt();
        let want = [root * 0.3, root * -0.2];
        if (c[0] - want[0]).abs() + (c[1] - want[1]).abs() > 1e-9 {
            return Report::fail(format!(
                "a triangle of area A = {} stretched by 30 % along the warp and \
                 compressed by 20 % along the weft has C = {c:?}, not √A (0.3, −0.2) = \
                 {want:?}: {}",
                t.area,
                diagnose_stretch_value(c, stretch, t.area)
            ));
        }
    }
    // The gradient, on randomly deformed triangles.
    let mut draws = Draws::new(0x57c);
    let (mut worst, mut worst_sum) = (0.0_f64, 0.0_f64);
    for s in 0..12 {
        let t = &tris[s % 2];
        let x: Vec<V3> =
            placed(t, (1.0 + 0.3 * draws.symmetric(), 1.0 + 0.3 * draws.symmetric()))
                .iter()
                .map(|p| p + draws.vector(0.03))
                .collect();
        let (_, j) = match stretch_at(f, t, &x) {
            Ok(at) => at,
            Err(why) => return Report::fail(why),
        };
        let flat: Vec<f64> = x.iter().flat_map(|p| p.iter().copied()).collect();
        let numeric = central_jacobian(
            |probe, out| {
                let corners: Vec<V3> =
                    probe.chunks_exact(3).map(V3::from_column_slice).collect();
                let (c, _) = stretch_at(f, t, &corners)?;
                out.copy_from_slice(&c);
                Ok::<(), String>(())
            },
            &flat,
            2,
            EPSILON,
        );
        let numeric = match numeric {
            Ok(n) => n,
            Err(why) => return Report::fail(why),
        };
        // Row r, corner k: entries 9r + 3k … 9r + 3k + 2.
        let numeric: Vec<V3> =
            numeric.chunks_exact(3).map(V3::from_column_slice).collect();
        let analytic: Vec<f64> = j.iter().flat_map(|g| g.iter().copied()).collect();
        let numeric_flat: Vec<f64> =
            numeric.iter().flat_map(|g| g.iter().copied()).collect();
        let error = max_relative_error(&analytic, &numeric_flat);
        if error > 1e-6 {
            return Report::fail(format!(
                "on a randomly deformed triangle your gradient disagrees with central \
                 differences of your own C by {error:.1e}: {}",
                diagnose_stretch_gradient(t, &x, &j, &numeric)
            ));
        }
        worst = worst.max(error);
        for row in [&j[..3], &j[3..]] {
            worst_sum = worst_sum.max(row.iter().sum::<V3>().norm());
        }
    }
    let t = &tris[0];
    let collapsed = vec![V3::new(0.1, 0.2, 0.3); 3];
    let (mut c, mut j) = ([0.0; 2], [V3::zeros(); 6]);
    if f(t, &collapsed, &mut c, &mut j).is_ok() {
        return Report::fail(format!(
            "for a triangle collapsed to a point your condition gave C = {c:?} and no \
             error: its threads have no direction, so ŵ is 0/0. Return \
             PbmError::degenerate for |w| = 0"
        ));
    }
    Report::pass(vec![
        "C = 0 for a triangle lying in its pattern; √A (0.3, −0.2) stretched 30 % along \
         the warp and compressed 20 % along the weft"
            .to_string(),
        format!(
            "the gradient matches central differences of C to {worst:.0e} on 12 deformed \
             triangles, and each row sums to zero over the corners to {:.0e}",
            worst_sum.max(1e-17)
        ),
        "a triangle collapsed to a point is an error".to_string(),
    ])
}

/// The condition's C and J at `x` (rows × n gradients, row by row).
fn c_and_j(
    condition: &dyn Condition<3>,
    x: &[V3],
) -> Result<(Vec<f64>, Vec<V3>), PbmError> {
    let rows = condition.rows();
    let (mut c, mut j) = (vec![0.0; rows], vec![V3::zeros(); rows * x.len()]);
    condition.position(x, &mut c, &mut j)?;
    Ok((c, j))
}

/// Σ_r g_r g_rᵀ, 3n × 3n, with g_r row r of `j`.
fn outer(j: &[V3], rows: usize) -> DMatrix<f64> {
    let n = j.len() / rows;
    let g = DMatrix::from_fn(rows, 3 * n, |r, i| j[r * n + i / 3][i % 3]);
    g.transpose() * g
}

/// What a wrong Hessian most likely has wrong, from the two terms it is made of.
fn diagnose_hessian(
    h: &DMatrix<f64>,
    (jtj, curvature): (&DMatrix<f64>, &DMatrix<f64>),
    (k, rows): (f64, usize),
    (c, j, second): (&[f64], &[V3], &[DMatrix<f64>]),
) -> String {
    let close =
        |other: &DMatrix<f64>| (h - other).amax() <= 1e-9 * (1.0 + other.amax());
    if close(&(jtj * k)) {
        format!(
            "it is k JᵀJ alone, the Gauss–Newton part: exact only where C = 0. Here C = \
             {c:.4?}, and the curvature of C itself adds k Σ_r C_r ∇²C_r"
        )
    } else if close(&((jtj - curvature) * k)) {
        "its second term has the wrong sign: differentiating k C_r ∇C_r gives \
         + k C_r ∇²C_r"
            .to_string()
    } else if close(&(jtj * k + curvature)) || close(&(jtj + curvature * k)) {
        "k must multiply both terms: ∇²E = k (JᵀJ + Σ_r C_r ∇²C_r)".to_string()
    } else if rows > 1
        && close(&((outer(&j[..j.len() / rows], 1) + &second[0] * c[0]) * k))
    {
        "it has row 0 of the condition only: sum JᵀJ and C_r ∇²C_r over every row \
         (stretch has two)"
            .to_string()
    } else {
        let n = j.len() / rows;
        let dots = DMatrix::from_fn(3 * n, 3 * n, |p, q| {
            let mut sum = 0.0;
            if p % 3 == q % 3 {
                for r in 0..rows {
                    sum += j[r * n + p / 3].dot(&j[r * n + q / 3]);
                }
            }
            sum
        });
        if close(&((dots + curvature) * k)) {
            "its JᵀJ blocks are dot products times I: block (a, b) of JᵀJ is the outer \
             product ∇_a C (∇_b C)ᵀ, a full 3 × 3 matrix"
                .to_string()
        } else {
            let (p, q) = h
                .iter()
                .enumerate()
                .map(|(i, _)| (i % h.nrows(), i / h.nrows()))
                .max_by(|&(p, q), &(s, t)| {
                    let e = |a: usize, b: usize| {
                        (h[(a, b)] - (jtj[(a, b)] + curvature[(a, b)]) * k).abs()
                    };
                    e(p, q).total_cmp(&e(s, t))
                })
                .unwrap_or((0, 0));
            format!(
                "entry ({p}, {q}) is {:.6} where k (JᵀJ + Σ C_r ∇²C_r) is {:.6}",
                h[(p, q)],
                (jtj[(p, q)] + curvature[(p, q)]) * k
            )
        }
    }
}

/// Checks a condition energy's Hessian on the chapter's stretch, shear and bend
/// conditions at random deformed shapes: against central differences of the
/// gradient k Jᵀ C, symmetric, and blind to a rigid translation.
pub fn check_hessian(f: HessianFn) -> Report {
    let k = 7.0;
    let Ok(all) = samples(8) else {
        return Report::fail("the check's shapes could not be built");
    };
    let (mut worst, mut worst_symmetry, mut worst_translation) =
        (0.0_f64, 0.0_f64, 0.0_f64);
    let mut checked = 0;
    for Sample { condition, x, .. } in all.iter().filter(|s| !s.thin) {
        let (name, rows, n) = (condition.name(), condition.rows(), x.len());
        let Ok((c, j)) = c_and_j(condition.as_ref(), x) else {
            return Report::fail(format!(
                "the check's {name} could not be evaluated"
            ));
        };
        let mut local = [Local::zeros(); 2];
        condition_hessians(condition.as_ref(), x, &mut local);
        let second: Vec<DMatrix<f64>> = local[..rows]
            .iter()
            .map(|l| DMatrix::from_fn(3 * n, 3 * n, |p, q| l[(p, q)]))
            .collect();
        let h = f(&c, &j, &second, k);
        if h.shape() != (3 * n, 3 * n) {
            return Report::fail(format!(
                "for a {name} condition on {n} particles your Hessian is {}×{}, not \
                 {}×{}: three rows and columns per particle",
                h.nrows(),
                h.ncols(),
                3 * n,
                3 * n
            ));
        }
        if !h.iter().all(|v| v.is_finite()) {
            return Report::fail(format!(
                "for a {name} condition your Hessian is {h}"
            ));
        }
        // The gradient k Jᵀ C by central differences.
        let flat: Vec<f64> = x.iter().flat_map(|p| p.iter().copied()).collect();
        let numeric = central_jacobian(
            |probe, out| {
                let corners: Vec<V3> =
                    probe.chunks_exact(3).map(V3::from_column_slice).collect();
                let (c, j) = c_and_j(condition.as_ref(), &corners)?;
                out.fill(0.0);
                for r in 0..rows {
                    for a in 0..n {
                        for p in 0..3 {
                            out[3 * a + p] += k * c[r] * j[r * n + a][p];
                        }
                    }
                }
                Ok::<(), PbmError>(())
            },
            &flat,
            3 * n,
            EPSILON,
        );
        let Ok(numeric) = numeric else {
            return Report::fail(format!("the check's {name} failed near its shape"));
        };
        let analytic: Vec<f64> = (0..3 * n)
            .flat_map(|p| (0..3 * n).map(move |q| (p, q)))
            .map(|i| h[i])
            .collect();
        let error = max_relative_error(&analytic, &numeric);
        if error > 1e-5 {
            let jtj = outer(&j, rows);
            let curvature = second
                .iter()
                .zip(&c)
                .fold(DMatrix::zeros(3 * n, 3 * n), |s, (m, c)| s + m * *c);
            return Report::fail(format!(
                "for a deformed {name} condition (C = {c:.4?}, k = {k}) your Hessian \
                 differs from central differences of the gradient k Jᵀ C by {error:.1e} \
                 of its largest entry: {}",
                diagnose_hessian(
                    &h,
                    (&jtj, &curvature),
                    (k, rows),
                    (&c, &j, &second)
                )
            ));
        }
        worst = worst.max(error);
        worst_symmetry = worst_symmetry.max((&h - h.transpose()).amax() / h.amax());
        let shift = DMatrix::from_fn(3 * n, 1, |p, _| [0.3, -0.5, 0.8][p % 3]);
        worst_translation = worst_translation.max((&h * shift).amax() / h.amax());
        checked += 1;
    }
    if worst_symmetry > 1e-9 {
        return Report::fail(format!(
            "your Hessian is not symmetric (by {worst_symmetry:.1e} of its largest \
             entry): ∂²E/∂x_i∂x_j = ∂²E/∂x_j∂x_i, and JᵀJ and each ∇²C_r are symmetric"
        ));
    }
    Report::pass(vec![
        format!(
            "matches central differences of k Jᵀ C to {worst:.0e} on {checked} stretch, \
             shear and bend conditions at random deformed shapes"
        ),
        format!(
            "symmetric to {:.0e}; a rigid translation of every particle is in its null \
             space to {:.0e}",
            worst_symmetry.max(1e-17),
            worst_translation.max(1e-17)
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers! {
        stretch => check_stretch(stretch::stretch_condition),
        hessian => check_hessian(hessian::condition_hessian),
    }

    /// The stretch condition with C and J from `value` and `gradient`, given w, |w|,
    /// √A and the corner's weight.
    fn stretch_with(
        t: &RestTriangle,
        x: &[V3],
        (c, j): (&mut [f64], &mut [V3]),
        value: fn(f64, f64, f64) -> f64,
        gradient: fn(V3, f64, f64, f64) -> V3,
    ) -> Result<(), PbmError> {
        let (wu, wv) = t.map(x);
        if wu.norm() == 0.0 || wv.norm() == 0.0 {
            return Err(PbmError::degenerate("stretch", "collapsed"));
        }
        let area = t.area;
        (c[0], c[1]) = (value(wu.norm(), area, 0.0), value(wv.norm(), area, 1.0));
        for k in 0..3 {
            j[k] = gradient(wu, wu.norm(), area.sqrt(), t.a_u[k]);
            j[3 + k] = gradient(wv, wv.norm(), area.sqrt(), t.a_v[k]);
        }
        Ok(())
    }

    #[test]
    fn stretch_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: StretchFn, expect: &str| check_stretch(f).assert_fails_with(expect);
        failing(
            |t, x, c, j| {
                stretch_with(
                    t,
                    x,
                    (c, j),
                    |l, a, _| a.sqrt() * l,
                    |w, l, r, a| w * (r * a / l),
                )
            },
            "the −1 missing",
        );
        failing(
            |t, x, c, j| {
                stretch_with(
                    t,
                    x,
                    (c, j),
                    |l, _, _| l - 1.0,
                    |w, l, _, a| w * (a / l),
                )
            },
            "missing the factor √A",
        );
        failing(
            |t, x, c, j| {
                stretch_with(
                    t,
                    x,
                    (c, j),
                    |l, a, _| a * (l - 1.0),
                    |w, l, _, a| w * (a / l),
                )
            },
            "scaled by A",
        );
        failing(
            |t, x, c, j| {
                stretch_with(
                    t,
                    x,
                    (c, j),
                    |l, a, _| a.sqrt() * (l - 1.0),
                    |w, _, r, a| w * (r * a),
                )
            },
            "unit vector",
        );
        failing(
            |t, x, c, j| {
                stretch_with(
                    t,
                    x,
                    (c, j),
                    |l, a, _| a.sqrt() * (l - 1.0),
                    |w, l, r, a| -w * (r * a / l),
                )
            },
            "wrong way",
        );
        // The gradient without √A.
        failing(
            |t, x, c, j| {
                stretch_with(
                    t,
                    x,
                    (c, j),
                    |l, a, _| a.sqrt() * (l - 1.0),
                    |w, l, _, a| w * (a / l),
                )
            },
            "the factor √A that C has",
        );
        // No error for a collapsed triangle: the length is guarded, not refused.
        failing(
            |t, x, c, j| {
                let (wu, wv) = t.map(x);
                let root = t.area.sqrt();
                let (lu, lv) = (wu.norm().max(1e-300), wv.norm().max(1e-300));
                (c[0], c[1]) = (root * (lu - 1.0), root * (lv - 1.0));
                for k in 0..3 {
                    j[k] = wu * (root * t.a_u[k] / lu);
                    j[3 + k] = wv * (root * t.a_v[k] / lv);
                }
                Ok(())
            },
            "collapsed to a point",
        );
    }

    #[test]
    fn hessian_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: HessianFn, expect: &str| check_hessian(f).assert_fails_with(expect);
        // Gauss–Newton: the second term left out.
        failing(|c, j, _, k| outer(j, c.len()) * k, "Gauss–Newton");
        failing(
            |c, j, second, k| {
                // JᵀJ does not depend on C: only the curvature term changes sign.
                let flipped: Vec<f64> = c.iter().map(|x| -x).collect();
                hessian::condition_hessian(&flipped, j, second, k)
            },
            "wrong sign",
        );
        failing(
            |c, j, second, k| {
                let first = outer(j, c.len()) * k;
                second.iter().zip(c).fold(first, |h, (m, c)| h + m * *c)
            },
            "k must multiply both",
        );
        failing(
            |c, j, second, k| {
                let n = j.len() / c.len();
                hessian::condition_hessian(&c[..1], &j[..n], second, k)
            },
            "row 0 of the condition only",
        );
        failing(
            |c, j, second, k| {
                let (rows, n) = (c.len(), j.len() / c.len());
                let mut h = DMatrix::zeros(3 * n, 3 * n);
                for r in 0..rows {
                    for a in 0..n {
                        for b in 0..n {
                            let d = j[r * n + a].dot(&j[r * n + b]);
                            for p in 0..3 {
                                h[(3 * a + p, 3 * b + p)] += d;
                            }
                        }
                    }
                    h += &second[r] * c[r];
                }
                h * k
            },
            "dot products times I",
        );
    }
}
