//! Practice for chapter 9: the reader writes the weights of a triangle's map from
//! its pattern, a triangle's stretch condition with its gradient, a hinge's fold
//! angle with its gradient, and the Hessian of a condition's energy. The map is
//! checked by what it must do, send each pattern edge to its world edge; the stretch
//! on a triangle lying in its pattern and one stretched along its threads (where C
//! has a closed form); the fold angle on hinges folded by a known angle; each
//! gradient against central differences of the reader's own function; the Hessian
//! against central differences of the gradient of the chapter's own stretch, shear
//! and bend conditions.

use crate::check::{Draws, Sample, samples};
use crate::energy::{Local, condition_hessians};
use crate::triangle::RestTriangle;
use nalgebra::{DMatrix, Matrix2, Rotation3, Vector3};
use pbm_particles::condition::Condition;
use pbm_prelim::PbmError;
use pbm_prelim::finite_difference::{EPSILON, central_jacobian, max_relative_error};
use pbm_prelim::practice::{Listing, Report, Task, case, number, numbers};

type V3 = Vector3<f64>;

/// A stretch condition the reader writes (the `position` of
/// [`crate::triangle::Stretch`] as a function).
pub type StretchFn =
    fn(&RestTriangle, &[V3], &mut [f64], &mut [V3]) -> Result<(), PbmError>;

/// A condition energy's Hessian the reader writes.
pub type HessianFn = fn(&[f64], &[V3], &[DMatrix<f64>], f64) -> DMatrix<f64>;

/// A triangle's thread weights the reader writes: pattern → (a_u, a_v, area).
pub type ThreadWeightsFn =
    fn([[f64; 2]; 3]) -> Result<([f64; 3], [f64; 3], f64), PbmError>;

/// A hinge's fold angle the reader writes: [a, b, c, d] → (θ, ∂θ/∂x).
pub type FoldAngleFn = fn(&[V3; 4]) -> Result<(f64, [V3; 4]), PbmError>;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "cloth/thread-weights",
        title: "the weights of a triangle's map from its pattern",
        section: "Cloth",
        page: "09-cloth/cloth.md",
        equation: "cloth-thread-vectors",
        difficulty: 1,
        file: "thread_weights.rs",
        stub: include_str!("practice/thread_weights.rs"),
        check: "pbm_cloth::practice::check_thread_weights(reader::thread_weights)",
        hints: &[
            "In w_u = (Δv₂ Δx₁ − Δv₁ Δx₂)/d put Δx₁ = x_j − x_i and Δx₂ = x_k − x_i: \
             x_j appears once, with the weight Δv₂/d, and x_k once, with −Δv₁/d.",
            "x_i appears in both edges with a minus sign, so its weight is minus the \
             other two's sum: the weights of each thread sum to zero. w_v likewise, \
             with −Δu₂/d for x_j and Δu₁/d for x_k.",
            "Divide by d itself, signed: a pattern whose corners run clockwise has \
             d < 0, and its weights need that sign. Only the area takes |d|/2.",
        ],
        solution: Listing {
            source: include_str!("practice/thread_weights_solution.rs"),
            anchor: "thread_weights",
        },
    },
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
        id: "cloth/fold-angle",
        title: "a hinge's fold angle and its gradient",
        section: "Cloth",
        page: "09-cloth/cloth.md",
        equation: "cloth-hinge-edge-gradients",
        difficulty: 3,
        file: "fold_angle.rs",
        stub: include_str!("practice/fold_angle.rs"),
        check: "pbm_cloth::practice::check_fold_angle(reader::fold_angle)",
        hints: &[
            "Build e = b − a, n_c = (c − a) × (c − b) and n_d = (d − b) × (d − a), and \
             return the error before dividing by any of them if one has zero length.",
            "`f64::atan2(sin, cos)` with sin = (n̂_d × n̂_c)·ê and cos = n̂_c·n̂_d: the \
             sine alone loses the angles past a right angle, the cosine alone the sign.",
            "∂θ/∂c = n_c |e|/|n_c|² (the normal over the corner's height). With \
             α_c = (c − a)·e/|e|² and α_d likewise, ∂θ/∂b = −α_c ∂θ/∂c − α_d ∂θ/∂d and \
             ∂θ/∂a takes the rest, so that the four sum to zero.",
        ],
        solution: Listing {
            source: include_str!("practice/fold_angle_solution.rs"),
            anchor: "fold_angle",
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

/// A vector for a message: `[0.25, −1.5, 3]`.
fn show(v: &V3) -> String {
    numbers(v.as_slice())
}

// ---------------------------------------------------------------------------------
// cloth/thread-weights

/// The two pattern edges (Δu₁, Δv₁), (Δu₂, Δv₂) of `pattern`.
fn pattern_edges(pattern: &[[f64; 2]; 3]) -> [[f64; 2]; 2] {
    let [p0, p1, p2] = pattern;
    [[p1[0] - p0[0], p1[1] - p0[1]], [p2[0] - p0[0], p2[1] - p0[1]]]
}

/// The weights of the map found another way: [w_u w_v] = [Δx₁ Δx₂] P⁻¹ with P the
/// pattern's edge matrix, inverted by nalgebra. None for a pattern with no area.
fn weights_by_inverse(pattern: &[[f64; 2]; 3]) -> Option<([f64; 3], [f64; 3])> {
    let [[du1, dv1], [du2, dv2]] = pattern_edges(pattern);
    let inverse = Matrix2::new(du1, du2, dv1, dv2).try_inverse()?;
    let (u1, u2) = (inverse[(0, 0)], inverse[(1, 0)]);
    let (v1, v2) = (inverse[(0, 1)], inverse[(1, 1)]);
    Some(([-(u1 + u2), u1, u2], [-(v1 + v2), v1, v2]))
}

/// Σ_c a[c] x_c.
fn combine(a: &[f64; 3], x: &[V3; 3]) -> V3 {
    x[0] * a[0] + x[1] * a[1] + x[2] * a[2]
}

/// Whether two weight triples agree to rounding, relative to `scale`.
fn same_weights(a: &[f64; 3], b: &[f64; 3], scale: f64) -> bool {
    a.iter().zip(b).all(|(p, q)| (p - q).abs() <= 1e-9 * scale)
}

/// What wrong weights most likely have wrong, given the right ones.
fn diagnose_weights(
    (a_u, a_v): (&[f64; 3], &[f64; 3]),
    (right_u, right_v): (&[f64; 3], &[f64; 3]),
    d: f64,
    scale: f64,
) -> Option<String> {
    let same = |a: &[f64; 3], b: &[f64; 3]| same_weights(a, b, scale);
    let neg = |a: &[f64; 3]| a.map(|x| -x);
    // The transposed inverse: w_u's weights from the first row of P⁻¹.
    let transposed_u = [-(right_u[1] + right_v[1]), right_u[1], right_v[1]];
    let transposed_v = [-(right_u[2] + right_v[2]), right_u[2], right_v[2]];
    let ratio = {
        let (num, den) = a_u
            .iter()
            .chain(a_v)
            .zip(right_u.iter().chain(right_v))
            .fold((0.0, 0.0), |(n, d), (a, r)| (n + a * r, d + r * r));
        num / den
    };
    let scaled = |r: f64| {
        same(a_u, &right_u.map(|x| x * r)) && same(a_v, &right_v.map(|x| x * r))
    };
    if same(a_u, right_v) && same(a_v, right_u) {
        Some(
            "your a_u and a_v are swapped: w_u, the warp, is (Δv₂ Δx₁ − Δv₁ Δx₂)/d, \
             built from the edges' v's"
                .to_string(),
        )
    } else if d < 0.0 && same(a_u, &neg(right_u)) && same(a_v, &neg(right_v)) {
        Some(
            "on this pattern, whose corners run clockwise (d < 0), your weights have \
             the wrong sign: divide by d itself, signed; only the area takes |d|"
                .to_string(),
        )
    } else if same(a_u, &transposed_u) && same(a_v, &transposed_v) {
        Some(
            "you inverted the pattern matrix transposed: x_j's weight in w_u is Δv₂/d \
             and x_k's is −Δv₁/d (both v's), in w_v −Δu₂/d and Δu₁/d"
                .to_string(),
        )
    } else if (ratio - 1.0).abs() > 1e-6 && scaled(ratio) {
        Some(format!(
            "your weights are {} times the right ones, every one of them: the \
             determinant d = Δu₁ Δv₂ − Δu₂ Δv₁ is the whole divisor (it is twice the \
             area, not the area)",
            number(ratio)
        ))
    } else if same(a_u, right_u) {
        Some(
            "w_u's weights are right but w_v's are not: w_v = (Δu₁ Δx₂ − Δu₂ Δx₁)/d"
                .to_string(),
        )
    } else if same(a_v, right_v) {
        Some(
            "w_v's weights are right but w_u's are not: w_u = (Δv₂ Δx₁ − Δv₁ Δx₂)/d"
                .to_string(),
        )
    } else {
        None
    }
}

/// Checks a triangle's thread weights: on three patterns (one laid out clockwise)
/// the map they give must take each pattern edge to its world edge for arbitrary
/// world corners, each thread's weights must sum to zero, the area must be the
/// pattern's, and a pattern in a line, exactly or to rounding, must be an error.
pub fn check_thread_weights(f: ThreadWeightsFn) -> Report {
    let patterns = [
        ("a triangle at the pattern's origin", [[0.0, 0.0], [0.3, 0.0], [0.1, 0.2]]),
        (
            "a triangle whose corners run clockwise (d < 0)",
            [[0.1, 0.05], [0.0, 0.25], [0.35, 0.1]],
        ),
        (
            "a skewed triangle away from the origin",
            [[1.2, -0.4], [1.45, -0.3], [1.3, -0.1]],
        ),
    ];
    let mut draws = Draws::new(0x7ea);
    // One line per property, from the first pattern that shows it.
    let (mut errors, mut sums_wrong, mut map_wrong, mut area_wrong) =
        (None, None, None, None);
    let mut worst = 0.0_f64;
    for (what, pattern) in patterns {
        case(what);
        let [[du1, dv1], [du2, dv2]] = pattern_edges(&pattern);
        let d = du1 * dv2 - du2 * dv1;
        let Some((right_u, right_v)) = weights_by_inverse(&pattern) else {
            return Report::fail("the check's own pattern has no inverse");
        };
        let (a_u, a_v, area) = match f(pattern) {
            Ok(found) => found,
            Err(e) => {
                errors.get_or_insert(format!(
                    "for {what} your function returned an error, though its corners \
                     are not in a line (d = {}): {e}",
                    number(d)
                ));
                continue;
            }
        };
        if !a_u.iter().chain(&a_v).chain([&area]).all(|v| v.is_finite()) {
            errors.get_or_insert(format!(
                "for {what} your function gave a_u = {}, a_v = {}, area = {}: every \
                 number must be finite",
                numbers(&a_u),
                numbers(&a_v),
                number(area)
            ));
            continue;
        }
        let scale =
            right_u.iter().chain(&right_v).fold(0.0_f64, |m, w| m.max(w.abs()));
        let sums = [a_u.iter().sum::<f64>(), a_v.iter().sum::<f64>()];
        // The map, tried on arbitrary world corners.
        let x = [draws.vector(1.0), draws.vector(1.0), draws.vector(1.0)];
        let (wu, wv) = (combine(&a_u, &x), combine(&a_v, &x));
        let edges = [(x[1] - x[0], du1, dv1), (x[2] - x[0], du2, dv2)];
        let miss = edges
            .iter()
            .map(|(dx, du, dv)| (wu * *du + wv * *dv - dx).norm() / dx.norm())
            .fold(0.0_f64, f64::max);
        if sums.iter().any(|s| s.abs() > 1e-9 * scale) {
            sums_wrong.get_or_insert(format!(
                "for {what} your weights sum to {} (a_u) and {} (a_v), not zero: \
                 sliding the whole triangle must change neither thread, so x_i's \
                 weight is minus the other two's (x_i is subtracted in both edges)",
                number(sums[0]),
                number(sums[1])
            ));
        } else if miss > 1e-9 {
            let why =
                diagnose_weights((&a_u, &a_v), (&right_u, &right_v), d, scale)
                    .unwrap_or_else(|| {
                        let (dx, du, dv) = &edges[0];
                        format!(
                            "the pattern edge p_j − p_i = {} must go to the world edge \
                             x_j − x_i = {}, but w_u Δu₁ + w_v Δv₁ with your weights is \
                             {}",
                            numbers(&[*du, *dv]),
                            show(dx),
                            show(&(wu * *du + wv * *dv))
                        )
                    });
            map_wrong.get_or_insert(format!(
                "for {what}, placed at random corners in space, the map your weights \
                 give does not take the pattern's edges to the world's edges: {why}"
            ));
        }
        worst = worst.max(miss);
        let right_area = 0.5 * d.abs();
        if (area - right_area).abs() > 1e-12 {
            let why = if (area - 0.5 * d).abs() < 1e-12 {
                "it is d/2 with d's sign; an area is |d|/2, positive whichever way \
                 round the corners run"
            } else if (area - d.abs()).abs() < 1e-12 {
                "d is twice the area: the area is |d|/2"
            } else {
                "the area is |d|/2 with d = Δu₁ Δv₂ − Δu₂ Δv₁"
            };
            area_wrong.get_or_insert(format!(
                "for {what} your area is {} m², not {} m²: {why}",
                number(area),
                number(right_area)
            ));
        }
    }
    let mut failures: Vec<String> =
        [errors, sums_wrong, map_wrong, area_wrong].into_iter().flatten().collect();
    for (what, pattern) in [
        (
            "a pattern whose corners are in a line",
            [[0.0, 0.0], [1.0, 2.0], [2.0, 4.0]],
        ),
        (
            "a pattern whose corners are in a line to rounding (d ≈ 9e−15)",
            [[0.0, 0.0], [1.0, 2.0], [2.0, 4.0 + 1e-14]],
        ),
    ] {
        case(what);
        if let Ok((a_u, a_v, area)) = f(pattern) {
            failures.push(format!(
                "for {what} your function gave a_u = {}, a_v = {}, area = {} and no \
                 error: such a triangle has no map (d = 0 has no inverse). Return \
                 PbmError::invalid when |d| ≤ 1e-12 times the longer edge squared, so \
                 that rounding does not hide it",
                numbers(&a_u),
                numbers(&a_v),
                number(area)
            ));
            break;
        }
    }
    if !failures.is_empty() {
        return Report::fail_all(failures);
    }
    Report::pass(vec![
        format!(
            "on three patterns, one of them clockwise, the map takes each pattern edge \
             to its world edge to {}, for corners placed at random in space",
            number(worst.max(1e-17))
        ),
        "each thread's weights sum to zero, the areas are |d|/2, and corners in a line \
         (exactly or to rounding) are an error"
            .to_string(),
    ])
}

// ---------------------------------------------------------------------------------
// cloth/stretch

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
    if !c.iter().all(|v| v.is_finite()) {
        return Err(format!(
            "your condition left C = {}: write both rows, C₀ for the warp and C₁ for the \
             weft, into c as finite numbers",
            numbers(&c)
        ));
    }
    if let Some(i) = j.iter().position(|g| !g.iter().all(|v| v.is_finite())) {
        return Err(format!(
            "your condition left j[{i}] = {}: write all six gradients into j, \
             j[k] = ∂C₀/∂x_k and j[3 + k] = ∂C₁/∂x_k, as finite numbers",
            show(&j[i])
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
            "it should be √A (|w_u| − 1, |w_v| − 1) = {}",
            numbers(&[root * strains[0], root * strains[1]])
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
    } else if close(&|i| numeric[3 * (i % 2) + i / 2]) {
        "you laid the gradients out corner by corner (j[2k + r]); the chapter's \
         conditions write them row by row: j[k] = ∂C₀/∂x_k for the three corners, then \
         j[3 + k] = ∂C₁/∂x_k"
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

/// The values of the stretch condition: zero at rest, √A (0.3, −0.2) stretched by
/// 30 % along the warp and compressed by 20 % along the weft; a failure as a line.
fn stretch_values(f: StretchFn, tris: &[RestTriangle; 2]) -> Option<String> {
    for (k, t) in tris.iter().enumerate() {
        case(format!("triangle {k} lying in its pattern, turned and moved"));
        let c = match stretch_at(f, t, &placed(t, (1.0, 1.0))) {
            Ok((c, _)) => c,
            Err(why) => return Some(why),
        };
        if c.iter().any(|v| v.abs() > 1e-12) {
            let why = if (c[0] - t.area.sqrt()).abs() < 1e-9 {
                ": is the −1 missing? At rest |w_u| = |w_v| = 1, and the strain is \
                 |w| − 1"
            } else {
                ""
            };
            return Some(format!(
                "a triangle lying in its pattern (turned and moved, not stretched) has \
                 C = {}: it stores no energy, so C must be zero{why}",
                numbers(&c)
            ));
        }
        let stretch = (1.3, 0.8);
        case(format!("triangle {k} stretched 30 % along the warp, 20 % less weft"));
        let c = match stretch_at(f, t, &placed(t, stretch)) {
            Ok((c, _)) => c,
            Err(why) => return Some(why),
        };
        let root = t.area.sqrt();
        let want = [root * 0.3, root * -0.2];
        if (c[0] - want[0]).abs() + (c[1] - want[1]).abs() > 1e-9 {
            return Some(format!(
                "a triangle of area A = {} m² stretched by 30 % along the warp and \
                 compressed by 20 % along the weft has C = {}, not √A (0.3, −0.2) = {}: \
                 {}",
                number(t.area),
                numbers(&c),
                numbers(&want),
                diagnose_stretch_value(c, stretch, t.area)
            ));
        }
    }
    None
}

/// The gradient on 12 randomly deformed triangles against central differences of
/// the reader's own C: the worst error and the worst row sum, or a failure.
fn stretch_gradients(
    f: StretchFn,
    tris: &[RestTriangle; 2],
) -> Result<(f64, f64), String> {
    let mut draws = Draws::new(0x57c);
    let (mut worst, mut worst_sum) = (0.0_f64, 0.0_f64);
    for s in 0..12 {
        case(format!("randomly deformed triangle {s}"));
        let t = &tris[s % 2];
        let x: Vec<V3> =
            placed(t, (1.0 + 0.3 * draws.symmetric(), 1.0 + 0.3 * draws.symmetric()))
                .iter()
                .map(|p| p + draws.vector(0.03))
                .collect();
        let (_, j) = stretch_at(f, t, &x)?;
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
        )?;
        // Row r, corner k: entries 9r + 3k … 9r + 3k + 2.
        let numeric: Vec<V3> =
            numeric.chunks_exact(3).map(V3::from_column_slice).collect();
        let analytic: Vec<f64> = j.iter().flat_map(|g| g.iter().copied()).collect();
        let numeric_flat: Vec<f64> =
            numeric.iter().flat_map(|g| g.iter().copied()).collect();
        let error = max_relative_error(&analytic, &numeric_flat);
        if error > 1e-6 {
            return Err(format!(
                "on a randomly deformed triangle your gradient disagrees with central \
                 differences of your own C by {}: {}",
                number(error),
                diagnose_stretch_gradient(t, &x, &j, &numeric)
            ));
        }
        worst = worst.max(error);
        for row in [&j[..3], &j[3..]] {
            worst_sum = worst_sum.max(row.iter().sum::<V3>().norm());
        }
    }
    Ok((worst, worst_sum))
}

/// A triangle collapsed to a point, and two collapsed along one thread only: each
/// must be an error. A failure as a line.
fn stretch_degenerate(f: StretchFn) -> Option<String> {
    // A right-angled pattern: corners i and j differ in u alone, i and k in v alone,
    // so x_i = x_j makes w_u exactly zero and x_i = x_k makes w_v exactly zero.
    let Ok(t) = RestTriangle::new([0, 1, 2], [[0.0, 0.0], [0.3, 0.0], [0.0, 0.2]])
    else {
        return Some("the check's right-angled triangle could not be built".into());
    };
    let (p, q) = (V3::new(0.1, 0.2, 0.3), V3::new(0.4, -0.1, 0.25));
    let cases = [
        (
            "a triangle collapsed to a point",
            vec![p; 3],
            "its threads have no direction, so ŵ is 0/0. Return \
             PbmError::degenerate for |w| = 0",
        ),
        (
            "a triangle whose warp has collapsed (x_i = x_j) but whose weft has not",
            vec![p, p, q],
            "w_u = 0 has no direction, so ŵ_u is 0/0, even though w_v has one. \
             Return PbmError::degenerate when |w_u| = 0 or |w_v| = 0, either one \
             (`||`, not `&&`)",
        ),
        (
            "a triangle whose weft has collapsed (x_i = x_k) but whose warp has not",
            vec![p, q, p],
            "w_v = 0 has no direction, so ŵ_v is 0/0, even though w_u has one. \
             Return PbmError::degenerate when |w_u| = 0 or |w_v| = 0, either one \
             (`||`, not `&&`)",
        ),
    ];
    for (what, x, why) in cases {
        case(what);
        let (mut c, mut j) = ([0.0; 2], [V3::zeros(); 6]);
        if f(&t, &x, &mut c, &mut j).is_ok() {
            return Some(format!(
                "for {what} your condition gave C = {} and no error: {why}",
                numbers(&c)
            ));
        }
    }
    None
}

/// Checks a stretch condition: zero at rest, √A times the strains when stretched
/// along the threads, a gradient that central differences of its own C confirm and
/// that sums to zero over the corners, and an error for a collapsed thread (both
/// together, or either alone).
pub fn check_stretch(f: StretchFn) -> Report {
    let Ok(tris) = triangles() else {
        return Report::fail("the check's triangles could not be built");
    };
    let mut failures = Vec::new();
    failures.extend(stretch_values(f, &tris));
    let gradients = stretch_gradients(f, &tris);
    if let Err(why) = &gradients {
        failures.push(why.clone());
    }
    failures.extend(stretch_degenerate(f));
    match gradients {
        Ok((worst, worst_sum)) if failures.is_empty() => Report::pass(vec![
            "C = 0 for a triangle lying in its pattern; √A (0.3, −0.2) stretched 30 % \
             along the warp and compressed 20 % along the weft"
                .to_string(),
            format!(
                "the gradient matches central differences of C to {} on 12 deformed \
                 triangles, and each row sums to zero over the corners to {}",
                number(worst.max(1e-17)),
                number(worst_sum.max(1e-17))
            ),
            "a triangle collapsed to a point, or along its warp or its weft alone, is \
             an error"
                .to_string(),
        ]),
        _ => Report::fail_all(failures),
    }
}

// ---------------------------------------------------------------------------------
// cloth/fold-angle

/// A hinge with its edge from a = 0 to b = (0.3, 0, 0), c's triangle flat in the
/// plane z = 0 on the +y side, and d's folded about the edge by `fold` towards +z
/// (the side both normals face when it lies flat), then turned and moved.
fn folded_hinge(fold: f64) -> [V3; 4] {
    let turn = Rotation3::from_scaled_axis(V3::new(-0.5, 0.8, 1.1));
    let shift = V3::new(0.3, -0.2, 0.7);
    let d =
        Rotation3::from_axis_angle(&V3::x_axis(), -fold) * V3::new(0.18, -0.15, 0.0);
    [V3::zeros(), V3::new(0.3, 0.0, 0.0), V3::new(0.1, 0.2, 0.0), d]
        .map(|p| turn * p + shift)
}

/// The reader's θ and gradient at `x`, or what came back instead, as a line.
fn fold_at(f: FoldAngleFn, x: &[V3; 4]) -> Result<(f64, [V3; 4]), String> {
    let (theta, g) = f(x).map_err(|e| {
        format!("your function returned an error for a hinge with area: {e}")
    })?;
    if !theta.is_finite() || !g.iter().flatten().all(|v| v.is_finite()) {
        return Err(format!(
            "your function gave θ = {} and ∂θ/∂x = {}, {}, {}, {}: every number must be \
             finite",
            number(theta),
            show(&g[0]),
            show(&g[1]),
            show(&g[2]),
            show(&g[3])
        ));
    }
    Ok((theta, g))
}

/// How a wrong fold angle goes wrong, for the gradient check that follows it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Fold {
    /// Right, or wrong in a way the gradient check need not avoid.
    Any,
    /// |θ|: its gradient is checked on hinges folded towards the normals only.
    Unsigned,
    /// asin(sin θ): its gradient is checked within a right angle only.
    WithinRightAngle,
}

/// The fold angle on hinges folded by known angles; a failure as a line, with what
/// it says of the range the gradient check can use.
fn fold_values(f: FoldAngleFn) -> Result<(), (String, Fold)> {
    let folds = [0.0, 0.5, -0.8, 2.6, -2.9];
    let mut got = Vec::new();
    for fold in folds {
        case(format!("a hinge folded by {} rad", number(fold)));
        got.push(fold_at(f, &folded_hinge(fold)).map_err(|why| (why, Fold::Any))?.0);
    }
    let all = |want: &dyn Fn(f64) -> f64| {
        folds.iter().zip(&got).all(|(&fold, &g)| (g - want(fold)).abs() < 1e-9)
    };
    if all(&|fold| fold) {
        return Ok(());
    }
    let mut kind = Fold::Any;
    let why = if all(&|fold: f64| fold.abs()) {
        kind = Fold::Unsigned;
        "your angle never goes below zero: an arccosine of n̂_c·n̂_d gives the size of \
         the fold but not its side. Take the sign from (n̂_d × n̂_c)·ê, or use atan2"
    } else if all(&|fold: f64| -fold) {
        "your angle has the opposite sign: it is positive when d's face turns towards \
         the side the normals face, with n_c = (c − a) × (c − b), n_d = (d − b) × (d − a) \
         and the sine (n̂_d × n̂_c)·ê, in that order"
    } else if all(&|fold: f64| {
        let pi = std::f64::consts::PI;
        if fold.abs() <= 0.5 * pi { fold } else { fold.signum() * (pi - fold.abs()) }
    }) {
        kind = Fold::WithinRightAngle;
        "past a right angle your angle turns back: the arcsine of the sine alone \
         cannot tell 2.6 rad from π − 2.6. atan2(sin, cos) can"
    } else if (got[0].abs() - std::f64::consts::PI).abs() < 1e-9 {
        "a flat hinge gives ±π: your two normals face opposite sides when the hinge is \
         flat. n_d = (d − b) × (d − a), with b first, where n_c starts from a"
    } else {
        "θ = atan2((n̂_d × n̂_c)·ê, n̂_c·n̂_d)"
    };
    Err((
        format!(
            "hinges folded by {} rad (towards the side the normals face, then turned \
             and moved) gave θ = {}: {why}",
            numbers(&folds),
            numbers(&got)
        ),
        kind,
    ))
}

/// What a gradient that disagrees with central differences (`numeric`, by corner)
/// most likely has wrong.
fn diagnose_fold_gradient(x: &[V3; 4], g: &[V3; 4], numeric: &[V3; 4]) -> String {
    let [a, b, c, d] = *x;
    let e = b - a;
    let (n_c, n_d) = ((c - a).cross(&(c - b)), (d - b).cross(&(d - a)));
    let near = |p: &V3, q: &V3| (p - q).norm() <= 1e-6 * (1.0 + q.norm());
    let far_right = near(&g[2], &numeric[2]) && near(&g[3], &numeric[3]);
    let sum: V3 = g.iter().sum();
    let scale = numeric.iter().fold(0.0_f64, |m, v| m.max(v.norm()));
    if (0..4).all(|k| near(&g[k], &(-numeric[k]))) {
        "it points the wrong way: folding d's face further towards its normal raises θ, \
         so ∂θ/∂d = +|e| n_d/|n_d|²"
            .to_string()
    } else if near(&g[2], &n_c.normalize()) || near(&g[3], &n_d.normalize()) {
        "its far corners' gradients are unit normals: moving c by δ along its normal \
         turns its face by δ/h_c, with h_c = |n_c|/|e| the corner's height, so \
         ∂θ/∂c = |e| n_c/|n_c|²"
            .to_string()
    } else if near(&(g[2] * e.norm()), &numeric[2])
        || near(&(g[3] * e.norm()), &numeric[3])
    {
        "its far corners' gradients are missing the factor |e|: ∂θ/∂c = |e| n_c/|n_c|², \
         the normal over the corner's height |n_c|/|e|"
            .to_string()
    } else if far_right && sum.norm() > 1e-6 * scale {
        format!(
            "the far corners are right, but the four gradients sum to {}, not zero: \
             sliding the whole hinge changes no angle, so a and b share −(∂θ/∂c + \
             ∂θ/∂d)",
            show(&sum)
        )
    } else if far_right && near(&g[0], &((numeric[0] + numeric[1]) * 0.5)) {
        "the far corners are right, but the edge's ends split their push equally: each \
         end takes a share by where c and d stand along the edge, ∂θ/∂b = −α_c ∂θ/∂c \
         − α_d ∂θ/∂d with α = (p − a)·e/|e|²"
            .to_string()
    } else if far_right && near(&g[0], &numeric[1]) {
        "the far corners are right, but the edge's ends are swapped: α_c = (c − a)·e/|e|² \
         is 0 when c stands over a, and then b carries none of c's push: \
         ∂θ/∂b = −α_c ∂θ/∂c − α_d ∂θ/∂d"
            .to_string()
    } else {
        let (k, _) = (0..4)
            .map(|k| (k, (g[k] - numeric[k]).norm()))
            .fold((0, -1.0), |w, e| if e.1 > w.1 { e } else { w });
        format!(
            "∂θ/∂{} is {} where central differences of your own θ give {}",
            ["a", "b", "c", "d"][k],
            show(&g[k]),
            show(&numeric[k])
        )
    }
}

/// The gradient on 12 random hinges against central differences of the reader's
/// own θ: the worst error, or a failure as a line. The folds go up to ±2.5 rad, or
/// only where a wrong angle found by [`fold_values`] still has the right gradient.
fn fold_gradients(f: FoldAngleFn, range: Fold) -> Result<f64, String> {
    let mut draws = Draws::new(0xf01d);
    let mut worst = 0.0_f64;
    for s in 0..12 {
        case(format!("random hinge {s}"));
        let fold = match range {
            Fold::Any => 2.5 * draws.symmetric(),
            Fold::Unsigned => 0.1 + 2.4 * draws.uniform(),
            Fold::WithinRightAngle => 1.4 * draws.symmetric(),
        };
        // Where c and d stand along the edge: α from −0.2 to 1.2.
        let along = [0.7 * draws.symmetric() + 0.5, 0.7 * draws.symmetric() + 0.5];
        // Turned by −fold about e = +x: towards the normals, so that θ = fold.
        let d = Rotation3::from_axis_angle(&V3::x_axis(), -fold)
            * V3::new(along[1] * 0.3, -0.1 - 0.1 * draws.uniform(), 0.0);
        let turn = Rotation3::from_scaled_axis(draws.vector(3.0));
        let x = [
            V3::zeros(),
            V3::new(0.3, 0.0, 0.0),
            V3::new(along[0] * 0.3, 0.1 + 0.1 * draws.uniform(), 0.0),
            d,
        ]
        .map(|p| turn * p + draws.vector(0.01));
        let (_, g) = fold_at(f, &x)?;
        let flat: Vec<f64> = x.iter().flat_map(|p| p.iter().copied()).collect();
        let numeric = central_jacobian(
            |probe, out| {
                let corners: [V3; 4] =
                    std::array::from_fn(|k| V3::from_column_slice(&probe[3 * k..]));
                out[0] = fold_at(f, &corners)?.0;
                Ok::<(), String>(())
            },
            &flat,
            1,
            EPSILON,
        )?;
        let numeric: [V3; 4] =
            std::array::from_fn(|k| V3::from_column_slice(&numeric[3 * k..]));
        let analytic: Vec<f64> = g.iter().flat_map(|v| v.iter().copied()).collect();
        let numeric_flat: Vec<f64> =
            numeric.iter().flat_map(|v| v.iter().copied()).collect();
        let error = max_relative_error(&analytic, &numeric_flat);
        if error > 1e-6 {
            return Err(format!(
                "on a random hinge folded by {} rad your gradient disagrees with central \
                 differences of your own θ by {}: {}",
                number(fold),
                number(error),
                diagnose_fold_gradient(&x, &g, &numeric)
            ));
        }
        worst = worst.max(error);
    }
    Ok(worst)
}

/// Hinges with no edge or a face with no area: each must be an error.
fn fold_degenerate(f: FoldAngleFn) -> Option<String> {
    let (a, b) = (V3::zeros(), V3::new(0.3, 0.0, 0.0));
    let (c, d) = (V3::new(0.1, 0.2, 0.0), V3::new(0.18, -0.15, 0.05));
    let on_edge = V3::new(0.15, 0.0, 0.0);
    let cases = [
        ("a hinge whose edge has no length (a = b)", [a, a, c, d]),
        ("a hinge whose corner c lies on the edge's line", [a, b, on_edge, d]),
        ("a hinge whose corner d lies on the edge's line", [a, b, c, on_edge]),
    ];
    for (what, x) in cases {
        case(what);
        if let Ok((theta, _)) = f(&x) {
            return Some(format!(
                "for {what} your function gave θ = {} and no error: a face with no area \
                 has no normal, and n/|n|² is 0/0. Return PbmError::degenerate when \
                 |e|, |n_c| or |n_d| is zero, any one of them",
                number(theta)
            ));
        }
    }
    None
}

/// Checks a hinge's fold angle: its value on hinges folded by known angles (past a
/// right angle, and both ways), its gradient against central differences of the
/// reader's own θ on random hinges, and an error for a hinge with no edge or a face
/// with no area.
pub fn check_fold_angle(f: FoldAngleFn) -> Report {
    let mut failures = Vec::new();
    let mut range = Fold::Any;
    if let Err((why, kind)) = fold_values(f) {
        failures.push(why);
        range = kind;
    }
    let gradients = fold_gradients(f, range);
    if let Err(why) = &gradients {
        failures.push(why.clone());
    }
    failures.extend(fold_degenerate(f));
    match gradients {
        Ok(worst) if failures.is_empty() => Report::pass(vec![
            "hinges folded by 0, 0.5, −0.8, 2.6 and −2.9 rad, turned and moved, give \
             those angles"
                .to_string(),
            format!(
                "the gradient matches central differences of θ to {} on 12 random \
                 hinges folded up to ±2.5 rad",
                number(worst.max(1e-17))
            ),
            "a hinge with no edge, or with a corner on the edge's line, is an error"
                .to_string(),
        ]),
        _ => Report::fail_all(failures),
    }
}

// ---------------------------------------------------------------------------------
// cloth/hessian

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

/// Which coordinate entry p of a 3n-vector is, in words: "particle 1's y".
fn coordinate(p: usize) -> String {
    format!("particle {}'s {}", p / 3, ["x", "y", "z"][p % 3])
}

/// Where a Hessian is not symmetric, and what that most likely says: its JᵀJ part
/// (what is left after the curvature) empty below the diagonal, or a generic line.
fn diagnose_asymmetry(
    h: &DMatrix<f64>,
    (k, curvature): (f64, &DMatrix<f64>),
) -> String {
    let size = h.nrows();
    let (mut p, mut q, mut worst) = (0, 0, -1.0);
    for a in 0..size {
        for b in 0..a {
            let gap = (h[(a, b)] - h[(b, a)]).abs();
            if gap > worst {
                (p, q, worst) = (a, b, gap);
            }
        }
    }
    let part = h / k - curvature;
    let largest = part.amax();
    let empty_below = |below: &dyn Fn(usize, usize) -> bool| {
        (0..size).all(|a| {
            (0..size).all(|b| !below(a, b) || part[(a, b)].abs() <= 1e-9 * largest)
        })
    };
    let why = if empty_below(&|a, b| a > b) || empty_below(&|a, b| a / 3 > b / 3) {
        "its JᵀJ part is empty below the diagonal: JᵀJ = Σ_r g_r g_rᵀ is symmetric, so \
         fill every block (a, b), not only those with b ≥ a"
    } else {
        "∂²E/∂x_p∂x_q = ∂²E/∂x_q∂x_p, and JᵀJ and each ∇²C_r are symmetric, so their \
         sum is"
    };
    format!(
        "your Hessian is not symmetric: entry ({p}, {q}) ({} against {}) is {} but \
         entry ({q}, {p}) is {}: {why}",
        coordinate(p),
        coordinate(q),
        number(h[(p, q)]),
        number(h[(q, p)])
    )
}

/// If the whole Hessian is one factor times the right one (the central differences
/// `numeric`), what that factor says.
fn diagnose_ratio(
    h: &DMatrix<f64>,
    numeric: &DMatrix<f64>,
    k: f64,
) -> Option<String> {
    let ratio = h.dot(numeric) / numeric.dot(numeric);
    let uniform = (h - numeric * ratio).amax() <= 1e-6 * numeric.amax();
    if !uniform || (ratio - 1.0).abs() < 1e-6 {
        return None;
    }
    let near = |x: f64| (ratio - x).abs() <= 1e-6 * x.abs();
    let why = if near(0.5) {
        "the ½ of E = ½ k |C|² is used up by the derivative of C², 2 C ∇C: the \
         gradient is k Jᵀ C and the Hessian k (JᵀJ + Σ_r C_r ∇²C_r), with no ½"
            .to_string()
    } else if near(2.0) {
        "both terms are counted twice: ∇²E = k (JᵀJ + Σ_r C_r ∇²C_r), each once"
            .to_string()
    } else if near(1.0 / k) {
        "k is missing: ∇²E = k (JᵀJ + Σ_r C_r ∇²C_r)".to_string()
    } else if near(k) {
        "k is applied twice: multiply the sum by k once".to_string()
    } else if near(-1.0) {
        "it has the wrong sign: the energy's Hessian is +k (JᵀJ + Σ_r C_r ∇²C_r); the \
         force's derivative is its negative"
            .to_string()
    } else {
        "every entry is off by the same factor, so the terms are right and a scale \
         factor is wrong"
            .to_string()
    };
    Some(format!(
        "your Hessian is {} times the right one, entry for entry: {why}",
        number(ratio)
    ))
}

/// What a wrong Hessian most likely has wrong, from the two terms it is made of
/// and the central differences `numeric` it should equal.
fn diagnose_hessian(
    h: &DMatrix<f64>,
    (jtj, curvature, numeric): (&DMatrix<f64>, &DMatrix<f64>, &DMatrix<f64>),
    (k, rows): (f64, usize),
    (c, j, second): (&[f64], &[V3], &[DMatrix<f64>]),
) -> String {
    let close =
        |other: &DMatrix<f64>| (h - other).amax() <= 1e-9 * (1.0 + other.amax());
    let n = j.len() / rows;
    // How many times the reader's Hessian holds the curvature term, if it is
    // k (JᵀJ + s Σ C_r ∇²C_r) for some s.
    let times = (h / k - jtj).dot(curvature) / curvature.dot(curvature);
    if let Some(ratio) = diagnose_ratio(h, numeric, k) {
        ratio
    } else if close(&((jtj + curvature * times) * k)) {
        let near = |x: f64| (times - x).abs() <= 1e-6 * (1.0 + x.abs());
        if near(0.0) {
            format!(
                "it is k JᵀJ alone, the Gauss–Newton part: exact only where C = 0. Here \
                 C = {}, and the curvature of C itself adds k Σ_r C_r ∇²C_r",
                numbers(c)
            )
        } else if near(-1.0) {
            "its second term has the wrong sign: differentiating k C_r ∇C_r gives \
             + k C_r ∇²C_r"
                .to_string()
        } else if near(1.0 / k) {
            "k must multiply both terms: ∇²E = k (JᵀJ + Σ_r C_r ∇²C_r)".to_string()
        } else if near((n * n) as f64) {
            format!(
                "its curvature term is there {} times, n² for n = {n} particles: add \
                 C_r ∇²C_r once per row, outside the loop over the blocks (a, b)",
                number(times)
            )
        } else {
            format!(
                "its JᵀJ is right, but it holds {} times Σ_r C_r ∇²C_r where it should \
                 hold it once",
                number(times)
            )
        }
    } else if close(&(jtj + curvature * k)) {
        "k must multiply both terms: ∇²E = k (JᵀJ + Σ_r C_r ∇²C_r)".to_string()
    } else if rows > 1 && close(&((outer(&j[..n], 1) + &second[0] * c[0]) * k)) {
        "it has row 0 of the condition only: sum JᵀJ and C_r ∇²C_r over every row \
         (stretch has two)"
            .to_string()
    } else if rows > 1 && {
        // j read corner by corner: ∂C_r/∂x_a taken from j[a rows + r].
        let corner_major: Vec<V3> =
            (0..rows * n).map(|i| j[(i % n) * rows + i / n]).collect();
        close(&((outer(&corner_major, rows) + curvature) * k))
    } {
        "it reads j corner by corner, j[a·rows + r]; the chapter lays J out row by \
         row: j[r·n + a] = ∂C_r/∂x_a, with n = j.len() / c.len()"
            .to_string()
    } else {
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
            let size = h.nrows();
            let (p, q) = (0..size * size)
                .map(|i| (i % size, i / size))
                .max_by(|&(p, q), &(s, t)| {
                    let e = |a: usize, b: usize| (h[(a, b)] - numeric[(a, b)]).abs();
                    e(p, q).total_cmp(&e(s, t))
                })
                .unwrap_or((0, 0));
            format!(
                "entry ({p}, {q}), {} against {}, is {} where central differences give \
                 {}; of that, k JᵀJ is {} and k Σ_r C_r ∇²C_r is {}",
                coordinate(p),
                coordinate(q),
                number(h[(p, q)]),
                number(numeric[(p, q)]),
                number(k * jtj[(p, q)]),
                number(k * curvature[(p, q)])
            )
        }
    }
}

/// Checks a condition energy's Hessian on the chapter's stretch, shear and bend
/// conditions at random deformed shapes: symmetric, against central differences of
/// the gradient k Jᵀ C, and blind to a rigid translation.
pub fn check_hessian(f: HessianFn) -> Report {
    let k = 7.0;
    let Ok(all) = samples(8) else {
        return Report::fail("the check's shapes could not be built");
    };
    let (mut worst, mut worst_symmetry, mut worst_translation) =
        (0.0_f64, 0.0_f64, 0.0_f64);
    let mut checked = 0;
    for (s, Sample { condition, x, .. }) in all.iter().filter(|s| !s.thin).enumerate()
    {
        let (name, rows, n) = (condition.name(), condition.rows(), x.len());
        case(format!("a deformed {name} condition (shape {s})"));
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
        if let Some(i) = h.iter().position(|v| !v.is_finite()) {
            let (p, q) = (i % h.nrows(), i / h.nrows());
            return Report::fail(format!(
                "for a {name} condition your Hessian's entry ({p}, {q}) is {}: every \
                 entry must be a finite number",
                number(h[(p, q)])
            ));
        }
        let jtj = outer(&j, rows);
        let curvature = second
            .iter()
            .zip(&c)
            .fold(DMatrix::zeros(3 * n, 3 * n), |s, (m, c)| s + m * *c);
        let symmetry = (&h - h.transpose()).amax() / h.amax();
        if symmetry > 1e-9 {
            return Report::fail(format!(
                "for a deformed {name} condition (C = {}, k = {k}) {}",
                numbers(&c),
                diagnose_asymmetry(&h, (k, &curvature))
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
            let numeric = DMatrix::from_row_slice(3 * n, 3 * n, &numeric);
            return Report::fail(format!(
                "for a deformed {name} condition (C = {}, k = {k}) your Hessian \
                 differs from central differences of the gradient k Jᵀ C by {} of its \
                 largest entry: {}",
                numbers(&c),
                number(error),
                diagnose_hessian(
                    &h,
                    (&jtj, &curvature, &numeric),
                    (k, rows),
                    (&c, &j, &second)
                )
            ));
        }
        worst = worst.max(error);
        worst_symmetry = worst_symmetry.max(symmetry);
        let shift = DMatrix::from_fn(3 * n, 1, |p, _| [0.3, -0.5, 0.8][p % 3]);
        worst_translation = worst_translation.max((&h * shift).amax() / h.amax());
        checked += 1;
    }
    Report::pass(vec![
        format!(
            "matches central differences of k Jᵀ C to {} on {checked} stretch, shear \
             and bend conditions at random deformed shapes",
            number(worst.max(1e-17))
        ),
        format!(
            "symmetric to {}; a rigid translation of every particle is in its null \
             space to {}",
            number(worst_symmetry.max(1e-17)),
            number(worst_translation.max(1e-17))
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers! {
        thread_weights => check_thread_weights(thread_weights::thread_weights),
        stretch => check_stretch(stretch::stretch_condition),
        fold_angle => check_fold_angle(fold_angle::fold_angle),
        hessian => check_hessian(hessian::condition_hessian),
    }

    /// The right weights, with `edit` applied to (u1, u2, v1, v2, d) before they
    /// are built, and the area from `area(d)`.
    fn weights_with(
        pattern: [[f64; 2]; 3],
        divisor: fn(f64) -> f64,
        transposed: bool,
        area: fn(f64) -> f64,
    ) -> Result<([f64; 3], [f64; 3], f64), PbmError> {
        let [[du1, dv1], [du2, dv2]] = pattern_edges(&pattern);
        let d = du1 * dv2 - du2 * dv1;
        let scale = (du1 * du1 + dv1 * dv1).max(du2 * du2 + dv2 * dv2);
        if d.abs() <= 1e-12 * scale {
            return Err(PbmError::invalid("cloth triangle", "in a line"));
        }
        let q = divisor(d);
        let (u1, mut u2) = (dv2 / q, -dv1 / q);
        let (mut v1, v2) = (-du2 / q, du1 / q);
        if transposed {
            (u2, v1) = (v1, u2);
        }
        Ok(([-(u1 + u2), u1, u2], [-(v1 + v2), v1, v2], area(d)))
    }

    #[test]
    fn thread_weight_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: ThreadWeightsFn, expect: &str| {
            check_thread_weights(f).assert_fails_with(expect)
        };
        fn half_abs(d: f64) -> f64 {
            0.5 * d.abs()
        }
        // Another right answer: nalgebra's inverse of the pattern matrix.
        check_thread_weights(|p| {
            let (a_u, a_v) = weights_by_inverse(&p)
                .filter(|_| {
                    let [[du1, dv1], [du2, dv2]] = pattern_edges(&p);
                    (du1 * dv2 - du2 * dv1).abs() > 1e-9
                })
                .ok_or(PbmError::invalid("cloth triangle", "in a line"))?;
            let [[du1, dv1], [du2, dv2]] = pattern_edges(&p);
            Ok((a_u, a_v, 0.5 * (du1 * dv2 - du2 * dv1).abs()))
        })
        .assert_passed();
        check_thread_weights(|p| weights_with(p, |d| d, false, half_abs))
            .assert_passed();
        failing(|p| weights_with(p, f64::abs, false, half_abs), "wrong sign");
        failing(|p| weights_with(p, |d| d, true, half_abs), "transposed");
        failing(|p| weights_with(p, |d| 0.5 * d, false, half_abs), "2 times");
        failing(|p| weights_with(p, |d| d, false, |d| 0.5 * d), "positive whichever");
        failing(|p| weights_with(p, |d| d, false, f64::abs), "twice the area");
        failing(
            |p| {
                let (a_u, a_v, area) = weights_with(p, |d| d, false, half_abs)?;
                Ok((a_v, a_u, area))
            },
            "swapped",
        );
        failing(
            |p| {
                let (mut a_u, a_v, area) = weights_with(p, |d| d, false, half_abs)?;
                a_u[0] = 0.0;
                Ok((a_u, a_v, area))
            },
            "minus the other two's",
        );
        // Only an exact zero refused: rounding lets a line through.
        failing(
            |p| {
                let [[du1, dv1], [du2, dv2]] = pattern_edges(&p);
                let d = du1 * dv2 - du2 * dv1;
                if d == 0.0 {
                    return Err(PbmError::invalid("cloth triangle", "in a line"));
                }
                let (u1, u2, v1, v2) = (dv2 / d, -dv1 / d, -du2 / d, du1 / d);
                Ok(([-(u1 + u2), u1, u2], [-(v1 + v2), v1, v2], 0.5 * d.abs()))
            },
            "to rounding",
        );
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
        // Another right answer: the threads from the pattern's edges, each length
        // through its square.
        check_stretch(|t, x, c, j| {
            let (wu, wv) = t.map(x);
            let (su, sv) = (wu.dot(&wu), wv.dot(&wv));
            if su * sv == 0.0 {
                return Err(PbmError::degenerate("stretch", "collapsed"));
            }
            let root = t.area.sqrt();
            (c[0], c[1]) = (root * (su.sqrt() - 1.0), root * (sv.sqrt() - 1.0));
            for k in 0..3 {
                j[k] = wu * (t.a_u[k] * root / su.sqrt());
                j[3 + k] = wv * (t.a_v[k] * root / sv.sqrt());
            }
            Ok(())
        })
        .assert_passed();
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
        // The gradients laid out corner by corner: j[2k + r].
        failing(
            |t, x, c, j| {
                let mut rows = [V3::zeros(); 6];
                stretch::stretch_condition(t, x, c, &mut rows)?;
                for k in 0..3 {
                    (j[2 * k], j[2 * k + 1]) = (rows[k], rows[3 + k]);
                }
                Ok(())
            },
            "corner by corner",
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
        // `&&` where `||` is meant: only the fully collapsed triangle is refused.
        failing(
            |t, x, c, j| {
                let (wu, wv) = t.map(x);
                let (lu, lv) = (wu.norm(), wv.norm());
                if lu == 0.0 && lv == 0.0 {
                    return Err(PbmError::degenerate("stretch", "collapsed"));
                }
                let root = t.area.sqrt();
                (c[0], c[1]) = (root * (lu - 1.0), root * (lv - 1.0));
                for k in 0..3 {
                    j[k] = wu * (root * t.a_u[k] / lu);
                    j[3 + k] = wv * (root * t.a_v[k] / lv);
                }
                Ok(())
            },
            "either one",
        );
    }

    /// The fold angle with its pieces changed: `theta` from (sin, cos), the far
    /// corners' gradient from (n, |e|), and the edge's split from (α_c, α_d).
    fn fold_with(
        x: &[V3; 4],
        theta: fn(f64, f64) -> f64,
        far: fn(V3, f64) -> V3,
        split: fn(f64) -> f64,
    ) -> Result<(f64, [V3; 4]), PbmError> {
        let [a, b, c, d] = *x;
        let e = b - a;
        let (n_c, n_d) = ((c - a).cross(&(c - b)), (d - b).cross(&(d - a)));
        if e.norm() == 0.0 || n_c.norm() == 0.0 || n_d.norm() == 0.0 {
            return Err(PbmError::degenerate("cloth bend", "no area"));
        }
        let (unit_c, unit_d) = (n_c.normalize(), n_d.normalize());
        let sin = unit_d.cross(&unit_c).dot(&e.normalize());
        let (gc, gd) = (far(n_c, e.norm()), far(n_d, e.norm()));
        let alpha = |p: V3| split((p - a).dot(&e) / e.norm_squared());
        let (alpha_c, alpha_d) = (alpha(c), alpha(d));
        let gb = -(gc * alpha_c + gd * alpha_d);
        let ga = -(gc * (1.0 - alpha_c) + gd * (1.0 - alpha_d));
        Ok((theta(sin, unit_c.dot(&unit_d)), [ga, gb, gc, gd]))
    }

    #[test]
    fn fold_angle_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: FoldAngleFn, expect: &str| {
            check_fold_angle(f).assert_fails_with(expect)
        };
        fn right(n: V3, e: f64) -> V3 {
            n * (e / n.norm_squared())
        }
        // Another right answer: the sign from the sine, the size from the arccosine,
        // and the edge's gradients as signed distances along it (`hinge.rs`).
        check_fold_angle(|x| {
            let [a, b, c, d] = *x;
            let e = b - a;
            let (n_c, n_d) = ((c - a).cross(&(c - b)), (d - b).cross(&(d - a)));
            if e.norm() * n_c.norm() * n_d.norm() == 0.0 {
                return Err(PbmError::degenerate("cloth bend", "no area"));
            }
            let cos = n_c.normalize().dot(&n_d.normalize()).clamp(-1.0, 1.0);
            let sin = n_d.normalize().cross(&n_c.normalize()).dot(&e);
            let theta = cos.acos().copysign(sin);
            let (gc, gd) = (right(n_c, e.norm()), right(n_d, e.norm()));
            let s = |p: V3, q: V3| (p - q).dot(&e) / e.norm();
            let ga = gc * (s(c, b) / e.norm()) + gd * (s(d, b) / e.norm());
            let gb = -(gc * (s(c, a) / e.norm()) + gd * (s(d, a) / e.norm()));
            Ok((theta, [ga * e.norm() / e.norm(), gb, gc, gd]))
        })
        .assert_passed();
        check_fold_angle(|x| fold_with(x, f64::atan2, right, |a| a)).assert_passed();
        failing(
            |x| fold_with(x, |s, c| f64::atan2(s, c).abs(), right, |a| a),
            "never goes below zero",
        );
        failing(
            |x| fold_with(x, |s, c| f64::atan2(-s, c), |n, e| -right(n, e), |a| a),
            "opposite sign",
        );
        failing(|x| fold_with(x, |s, _| s.asin(), right, |a| a), "turns back");
        failing(
            |x| fold_with(x, f64::atan2, |n, e| -right(n, e), |a| a),
            "wrong way",
        );
        failing(
            |x| fold_with(x, f64::atan2, |n, _| n / n.norm_squared(), |a| a),
            "missing the factor |e|",
        );
        failing(
            |x| fold_with(x, f64::atan2, |n, _| n.normalize(), |a| a),
            "unit normals",
        );
        failing(
            |x| fold_with(x, f64::atan2, right, |_| 0.5),
            "split their push equally",
        );
        failing(|x| fold_with(x, f64::atan2, right, |a| 1.0 - a), "swapped");
        // Only c's face checked for area.
        failing(
            |x| {
                let [a, b, c, d] = *x;
                let (n_c, n_d) = ((c - a).cross(&(c - b)), (d - b).cross(&(d - a)));
                if n_c.norm() == 0.0 || (b - a).norm() == 0.0 {
                    return Err(PbmError::degenerate("cloth bend", "no area"));
                }
                let _ = n_d;
                fold_angle::fold_angle(&[a, b, c, d + V3::new(0.0, 0.0, 1e-300)])
                    .or(Ok((0.0, [V3::zeros(); 4])))
            },
            "any one of them",
        );
    }

    #[test]
    fn hessian_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: HessianFn, expect: &str| check_hessian(f).assert_fails_with(expect);
        // Another right answer: J as a rows × 3n matrix G, and k (GᵀG + Σ C_r ∇²C_r).
        check_hessian(|c, j, second, k| {
            let (rows, n) = (c.len(), j.len() / c.len());
            let g = DMatrix::from_fn(rows, 3 * n, |r, i| j[r * n + i / 3][i % 3]);
            let curvature =
                second.iter().zip(c).fold(g.transpose() * &g, |h, (m, c)| h + m * *c);
            curvature * k
        })
        .assert_passed();
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
        // ½ k: the ½ of the energy kept.
        failing(
            |c, j, second, k| hessian::condition_hessian(c, j, second, 0.5 * k),
            "the ½ of E",
        );
        // JᵀJ's blocks filled only for b ≥ a.
        failing(
            |c, j, second, k| {
                let (rows, n) = (c.len(), j.len() / c.len());
                let mut h = DMatrix::zeros(3 * n, 3 * n);
                for r in 0..rows {
                    for a in 0..n {
                        for b in a..n {
                            let block = j[r * n + a] * j[r * n + b].transpose();
                            let mut view = h.fixed_view_mut::<3, 3>(3 * a, 3 * b);
                            view += block;
                        }
                    }
                    h += &second[r] * c[r];
                }
                h * k
            },
            "empty below the diagonal",
        );
        // J read corner by corner: j[a rows + r].
        failing(
            |c, j, second, k| {
                let (rows, n) = (c.len(), j.len() / c.len());
                let swapped: Vec<V3> =
                    (0..rows * n).map(|i| j[(i % n) * rows + i / n]).collect();
                hessian::condition_hessian(c, &swapped, second, k)
            },
            "corner by corner",
        );
        // The curvature added inside the loop over blocks: n² times a row.
        failing(
            |c, j, second, k| {
                let (rows, n) = (c.len(), j.len() / c.len());
                let mut h = DMatrix::zeros(3 * n, 3 * n);
                for r in 0..rows {
                    for a in 0..n {
                        for b in 0..n {
                            let block = j[r * n + a] * j[r * n + b].transpose();
                            let mut view = h.fixed_view_mut::<3, 3>(3 * a, 3 * b);
                            view += block;
                            h += &second[r] * c[r];
                        }
                    }
                }
                h * k
            },
            "n² for n",
        );
    }
}
