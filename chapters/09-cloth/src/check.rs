//! The derivative check behind the tests and `cloth/gradient-check`: every cloth
//! energy's gradient against central differences of the energy, and its Hessian
//! against central differences of the gradient, over random deformed triangles
//! and hinges, a quarter of them slivers.

use crate::energy::{Curvature, LocalTerms, MAX_PARTICLES, local_terms};
use crate::hinge::{Bend, RestHinge};
use crate::triangle::{RestTriangle, Shear, Stretch};
use nalgebra::{Rotation3, Vector3};
use pbm_particles::condition::Condition;
use pbm_prelim::PbmError;
use pbm_prelim::finite_difference::{EPSILON, central_jacobian, max_relative_error};
use pbm_prelim::sampling::sample;

type V3 = Vector3<f64>;

/// Deterministic samples drawn one after another.
pub struct Draws(u64);

impl Draws {
    /// Draws starting from `seed`; different seeds give unrelated sequences.
    pub fn new(seed: u64) -> Self {
        Draws(seed << 32)
    }
    /// In [−1, 1).
    pub fn symmetric(&mut self) -> f64 {
        self.0 += 1;
        sample(self.0)
    }
    /// In [0, 1).
    pub fn uniform(&mut self) -> f64 {
        0.5 * (self.symmetric() + 1.0)
    }
    /// A vector with entries in [−scale, scale).
    pub fn vector(&mut self, scale: f64) -> V3 {
        V3::new(self.symmetric(), self.symmetric(), self.symmetric()) * scale
    }
}

/// A condition and its particles' positions.
type Shape = (Box<dyn Condition<3>>, Vec<V3>);

/// A random deformed shape for every kind of cloth condition: a triangle (for
/// stretch and shear) and a hinge (for bend), with their corners' positions. With
/// `thin` the far corners stand only 1/100 of the edge's length off it.
fn shapes(draws: &mut Draws, thin: bool) -> Result<Vec<Shape>, PbmError> {
    let height = if thin { 0.001 } else { 0.1 };
    let width = 0.1 + 0.05 * draws.uniform();
    let c = [
        0.03 * draws.symmetric() + 0.5 * width,
        height * (1.0 + 0.5 * draws.uniform()),
    ];
    let d = [
        0.03 * draws.symmetric() + 0.5 * width,
        -height * (1.0 + 0.5 * draws.uniform()),
    ];
    let t1 = RestTriangle::new([0, 1, 2], [[0.0, 0.0], [width, 0.0], c])?;
    let t2 = RestTriangle::new([1, 0, 3], [[width, 0.0], [0.0, 0.0], d])?;
    let hinge = RestHinge::between(&t1, &t2)?;
    // Lay the pattern in 3-D, stretch and shear it, fold it about the shared edge
    // (the x axis) by up to ±2.5 rad, turn it anywhere and jiggle every corner.
    let fold = Rotation3::from_axis_angle(&V3::x_axis(), 2.5 * draws.symmetric());
    let turn = Rotation3::from_scaled_axis(draws.vector(3.0));
    let strain = 1.0 + 0.3 * draws.symmetric();
    let shear = 0.3 * draws.symmetric();
    let place = |p: [f64; 2]| V3::new(strain * p[0] + shear * p[1], p[1], 0.0);
    let mut x = [place([0.0, 0.0]), place([width, 0.0]), place(c), fold * place(d)];
    for p in &mut x {
        *p = turn * *p + draws.vector(0.1 * height);
    }
    let triangle = x[..3].to_vec();
    Ok(vec![
        (Box::new(Stretch(t1.clone())), triangle.clone()),
        (Box::new(Shear(t1)), triangle),
        (Box::new(Bend(hinge)), x.to_vec()),
    ])
}

/// One condition at a random deformed shape of its particles.
pub struct Sample {
    /// A stretch, shear or bend condition on particles 0, 1, 2 (and 3).
    pub condition: Box<dyn Condition<3>>,
    /// Its particles' positions.
    pub x: Vec<V3>,
    /// Whether the shape is a sliver (far corners 1/100 of the edge off it).
    pub thin: bool,
}

/// `count` random shapes, every fourth a sliver, each giving a stretch, a shear
/// and a bend condition: the same samples every run.
pub fn samples(count: usize) -> Result<Vec<Sample>, PbmError> {
    let mut draws = Draws::new(0x9c1);
    let mut out = Vec::with_capacity(3 * count);
    for s in 0..count {
        let thin = s % 4 == 0;
        for (condition, x) in shapes(&mut draws, thin)? {
            out.push(Sample { condition, x, thin });
        }
    }
    Ok(out)
}

/// The largest relative errors found.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DerivativeErrors {
    /// Gradient of E against central differences of E.
    pub gradient: f64,
    /// Hessian of E against central differences of the gradient.
    pub hessian: f64,
    /// Shapes checked (each gives a stretch, a shear and a bend).
    pub shapes: usize,
}

fn flat(x: &[f64]) -> Vec<V3> {
    x.chunks_exact(3).map(V3::from_column_slice).collect()
}

// ANCHOR: check
/// Checks E = ½ |C|² (k = 1) for every condition of `count` random shapes.
pub fn derivative_errors(count: usize) -> Result<DerivativeErrors, PbmError> {
    let mut worst = DerivativeErrors { shapes: count, ..Default::default() };
    for Sample { condition, x, thin } in samples(count)? {
        // Central differences need a step small beside the shape: a sliver's corner
        // stands 1/100 as far off its edge, so it gets a step 1/100 as long.
        let eps = if thin { EPSILON / 100.0 } else { EPSILON };
        let at = unit_terms(condition.as_ref(), &x)?;
        let n = x.len();
        // The gradient is minus the (undamped) force.
        let gradient: Vec<f64> = at.force[..n]
            .iter()
            .flat_map(|f| (-f).iter().copied().collect::<Vec<_>>())
            .collect();
        let hessian: Vec<f64> = (0..3 * n)
            .flat_map(|r| (0..3 * n).map(move |c| (r, c)))
            .map(|(r, c)| at.hessian[(r, c)])
            .collect();
        let (numeric_gradient, numeric_hessian) =
            numeric_derivatives(condition.as_ref(), &x, eps)?;
        worst.gradient =
            worst.gradient.max(max_relative_error(&gradient, &numeric_gradient));
        worst.hessian =
            worst.hessian.max(max_relative_error(&hessian, &numeric_hessian));
    }
    Ok(worst)
}
// ANCHOR_END: check

// ANCHOR: numeric_derivatives
/// The gradient and the Hessian (row by row) of E = ½ |C|² for `condition` at `x`
/// by central differences of step `eps`: of the energy, and of the gradient.
fn numeric_derivatives(
    condition: &dyn Condition<3>,
    x: &[V3],
    eps: f64,
) -> Result<(Vec<f64>, Vec<f64>), PbmError> {
    let n = x.len();
    let flat_x: Vec<f64> = x.iter().flat_map(|p| p.iter().copied()).collect();
    let gradient = central_jacobian(
        |probe, out| {
            out[0] = unit_terms(condition, &flat(probe))?.energy;
            Ok::<(), PbmError>(())
        },
        &flat_x,
        1,
        eps,
    )?;
    let hessian = central_jacobian(
        |probe, out| {
            let t = unit_terms(condition, &flat(probe))?;
            for (k, f) in t.force[..n].iter().enumerate() {
                for a in 0..3 {
                    out[3 * k + a] = -f[a];
                }
            }
            Ok::<(), PbmError>(())
        },
        &flat_x,
        3 * n,
        eps,
    )?;
    Ok((gradient, hessian))
}
// ANCHOR_END: numeric_derivatives

// ANCHOR: unit_terms
/// The local terms of `condition` with k = 1, no damping and the full Hessian, at
/// positions `x` and at rest.
fn unit_terms(
    condition: &dyn Condition<3>,
    x: &[V3],
) -> Result<LocalTerms, PbmError> {
    let still = [V3::zeros(); MAX_PARTICLES];
    let mut out = LocalTerms::default();
    let rest = (x, &still[..x.len()]);
    local_terms(condition, rest, (1.0, 0.0), Curvature::Full, &mut out)?;
    Ok(out)
}
// ANCHOR_END: unit_terms
