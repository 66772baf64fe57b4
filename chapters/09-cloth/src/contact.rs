//! Contact between a cloth and a solid held exactly, inside the linear solve
//! (Baraff and Witkin, *Large Steps in Cloth Simulation*, 1998, §5): a particle
//! that touches the solid keeps the two directions along the surface free and has
//! its velocity along the normal *prescribed*, and CG is run on the free directions
//! alone by filtering every vector it makes.
//!
//! The pieces: the solids a cloth can rest on ([`Solid`], with the signed distance
//! and outward normal of a point), what the solve may change of each particle's Δv
//! ([`Filter`]), and the filtered, preconditioned CG ([`filtered_cg`]).

use pbm_implicit::cg::{CgReport, LinearOperator, dot};
use pbm_particles::particle::Vector;
use pbm_prelim::PbmError;

type V3 = Vector<3>;

/// A solid the cloth rests on, held by constraints rather than by a penalty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Solid {
    /// A ball (m).
    Sphere {
        /// Centre.
        center: V3,
        /// Radius, including the cloth's half-thickness.
        radius: f64,
    },
    /// A box with faces along the axes (m).
    Box {
        /// Centre.
        center: V3,
        /// Half its extent along x, y and z, including the cloth's half-thickness.
        half: V3,
    },
}

// ANCHOR: gap
impl Solid {
    /// The signed distance from `x` to the solid's surface (negative inside) and
    /// the outward unit normal of the surface nearest `x`.
    pub fn gap(&self, x: &V3) -> (f64, V3) {
        match *self {
            Solid::Sphere { center, radius } => {
                let r = x - center;
                let d = r.norm();
                // At the centre every direction is nearest: take +z.
                let n = if d > 0.0 { r / d } else { V3::z() };
                (d - radius, n)
            }
            Solid::Box { center, half } => {
                let r = x - center;
                // How far outside each pair of faces the point is (negative inside).
                let q = r.abs() - half;
                let sign = r.map(|c| if c < 0.0 { -1.0 } else { 1.0 });
                let outside = q.map(|c| c.max(0.0));
                if outside.norm() > 0.0 {
                    // Outside: the nearest point is on a face, an edge or a corner.
                    let n = outside.component_mul(&sign) / outside.norm();
                    (outside.norm(), n)
                } else {
                    // Inside: the nearest face is the one least deep.
                    let k = q.imax();
                    let mut n = V3::zeros();
                    n[k] = sign[k];
                    (q[k], n)
                }
            }
        }
    }
}
// ANCHOR_END: gap

// ANCHOR: filter
/// What the solve may change of one particle's Δv: the filter S of Baraff and
/// Witkin, a 3 × 3 projection per particle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Filter {
    /// Every direction: S = I.
    Free,
    /// Only the directions across the normal n: S = I − n nᵀ. The component along
    /// n is prescribed.
    Across(V3),
    /// None (a pinned particle): S = 0.
    Fixed,
}

impl Filter {
    /// Replaces the three entries `a` of one particle by S a.
    pub fn apply(&self, a: &mut [f64]) {
        match self {
            Filter::Free => {}
            Filter::Across(n) => {
                let along = n.x * a[0] + n.y * a[1] + n.z * a[2];
                for (k, value) in a.iter_mut().enumerate() {
                    *value -= along * n[k];
                }
            }
            Filter::Fixed => a.fill(0.0),
        }
    }
}

/// Applies each particle's filter to its three entries of `a`.
pub fn filter_all(filter: &[Filter], a: &mut [f64]) {
    for (s, a) in filter.iter().zip(a.chunks_exact_mut(3)) {
        s.apply(a);
    }
}
// ANCHOR_END: filter

// ANCHOR: filtered_cg
/// Solves A Δv = b + c for Δv and a constraint impulse c: Δv's filtered part is
/// free and c has no component in it (S c = 0); its prescribed part is
/// (I − S) z. Preconditioned CG runs in the free part alone, from
/// Δv = S Δv_start + (I − S) z, and stops when ‖S(b − A Δv)‖ ≤ max(tol ‖S b‖, floor):
/// the relative test of chapter 3 with an absolute floor, so that a cloth at
/// rest (b → 0) is not asked for digits it does not need.
pub fn filtered_cg<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    dv: &mut [f64],
    (filter, z): (&[Filter], &[f64]),
    (tol, floor): (f64, f64),
    max_iterations: usize,
) -> Result<CgReport, PbmError> {
    check_sizes(a.dimension(), [b.len(), dv.len(), z.len(), 3 * filter.len()])?;
    let mut search = start_search(a, b, dv, (filter, z));
    let mut free_b = b.to_vec();
    filter_all(filter, &mut free_b);
    let b_norm = dot(&free_b, &free_b).sqrt();
    let target = (tol * b_norm).max(floor);
    for iteration in 0.. {
        let residual = dot(&search.r, &search.r).sqrt();
        if residual <= target {
            let relative_residual = residual / b_norm.max(floor);
            return Ok(CgReport { iterations: iteration, relative_residual });
        }
        let stalled = iteration == max_iterations || !residual.is_finite();
        let c_q = search.curvature(a, filter);
        if stalled || c_q <= 0.0 || !c_q.is_finite() {
            let why = if stalled {
                format!("no convergence to {target:e} in {max_iterations} iterations")
            } else {
                "cᵀSASc ≤ 0: the matrix is not positive definite".to_string()
            };
            return Err(breakdown(iteration, residual, why));
        }
        search.advance(a, filter, dv, c_q);
    }
    unreachable!("the loop returns")
}
// ANCHOR_END: filtered_cg

// ANCHOR: filtered_search
/// Filtered CG's state: the filtered residual r = S(b − A Δv), the filtered
/// preconditioned residual s, the search direction c, q = S A c, and δ = r·s.
struct FilteredSearch {
    r: Vec<f64>,
    s: Vec<f64>,
    q: Vec<f64>,
    c: Vec<f64>,
    delta: f64,
}

/// Puts `dv` in the filter's set, its free part from the caller's guess and its
/// prescribed part from z, and starts the search at its residual.
fn start_search<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    dv: &mut [f64],
    (filter, z): (&[Filter], &[f64]),
) -> FilteredSearch {
    let n = a.dimension();
    let mut fixed = z.to_vec();
    for k in 0..n {
        fixed[k] -= dv[k];
    }
    filter_all(filter, &mut fixed);
    for k in 0..n {
        dv[k] = z[k] - fixed[k];
    }
    let (mut r, mut s, mut q) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    a.apply(dv, &mut q);
    for k in 0..n {
        r[k] = b[k] - q[k];
    }
    filter_all(filter, &mut r);
    a.precondition(&r, &mut s);
    filter_all(filter, &mut s);
    let (c, delta) = (s.clone(), dot(&r, &s));
    FilteredSearch { r, s, q, c, delta }
}
// ANCHOR_END: filtered_search
// ANCHOR: filtered_advance
impl FilteredSearch {
    /// Sets q = S A c and returns cᵀSASc, positive while S A S is positive
    /// definite on the free directions.
    fn curvature<A: LinearOperator + ?Sized>(
        &mut self,
        a: &A,
        filter: &[Filter],
    ) -> f64 {
        a.apply(&self.c, &mut self.q);
        filter_all(filter, &mut self.q);
        dot(&self.c, &self.q)
    }

    /// One step of CG given `c_q` = cᵀSASc: Δv to the minimum along c, then the
    /// next direction, conjugate to the last; every vector filtered.
    fn advance<A: LinearOperator + ?Sized>(
        &mut self,
        a: &A,
        filter: &[Filter],
        dv: &mut [f64],
        c_q: f64,
    ) {
        let alpha = self.delta / c_q;
        for (k, dv) in dv.iter_mut().enumerate() {
            *dv += alpha * self.c[k];
            self.r[k] -= alpha * self.q[k];
        }
        a.precondition(&self.r, &mut self.s);
        filter_all(filter, &mut self.s);
        let next = dot(&self.r, &self.s);
        for (c, s) in self.c.iter_mut().zip(&self.s) {
            *c = s + (next / self.delta) * *c;
        }
        self.delta = next;
    }
}
// ANCHOR_END: filtered_advance

/// The error filtered CG stops with after `iterations`, at `residual`.
fn breakdown(iterations: usize, residual: f64, why: String) -> PbmError {
    let solver = "filtered conjugate gradient";
    PbmError::Solver { solver, iterations, residual, why }
}

fn check_sizes(n: usize, lengths: [usize; 4]) -> Result<(), PbmError> {
    if lengths.iter().all(|&l| l == n) {
        return Ok(());
    }
    let why = format!(
        "the matrix has {n} rows but b, Δv, z and the filter have {lengths:?}"
    );
    Err(PbmError::invalid("filtered conjugate gradient", why))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    /// A dense symmetric positive definite matrix as an operator with no
    /// preconditioner.
    struct Dense(DMatrix<f64>);

    impl LinearOperator for Dense {
        fn dimension(&self) -> usize {
            self.0.nrows()
        }
        fn apply(&self, x: &[f64], y: &mut [f64]) {
            let product = &self.0 * DVector::from_column_slice(x);
            y.copy_from_slice(product.as_slice());
        }
    }

    /// An SPD matrix of two particles: a random-looking B Bᵀ plus the identity.
    fn matrix() -> DMatrix<f64> {
        let b = DMatrix::from_fn(6, 6, |i, j| ((3 * i + 5 * j) % 7) as f64 - 3.0);
        &b * b.transpose() + DMatrix::identity(6, 6)
    }

    #[test]
    fn filtered_cg_matches_the_dense_solve_of_the_constrained_system() {
        // Particle 0 constrained along n, particle 1 free. The answer: Δv with
        // n·Δv₀ = n·z₀, and A Δv − b along n at particle 0 only (the constraint
        // impulse), solved densely with a Lagrange multiplier.
        let a = matrix();
        let n = V3::new(1.0, 2.0, 2.0) / 3.0;
        let b = [0.3, -1.0, 0.5, 2.0, 0.1, -0.7];
        let mut z = [0.0; 6];
        z[..3].copy_from_slice((n * 0.25).as_slice());
        let filter = [Filter::Across(n), Filter::Free];
        let mut dv = vec![1.0; 6];
        let report = filtered_cg(
            &Dense(a.clone()),
            &b,
            &mut dv,
            (&filter, &z),
            (1e-13, 0.0),
            100,
        )
        .unwrap();
        // Dense: [A  −g; gᵀ 0] [Δv; μ] = [b; 0.25], g = (n, 0).
        let mut kkt = DMatrix::zeros(7, 7);
        kkt.view_mut((0, 0), (6, 6)).copy_from(&a);
        for k in 0..3 {
            kkt[(k, 6)] = -n[k];
            kkt[(6, k)] = n[k];
        }
        let mut rhs = DVector::zeros(7);
        rhs.rows_mut(0, 6).copy_from_slice(&b);
        rhs[6] = 0.25;
        let exact = kkt.lu().solve(&rhs).unwrap();
        for k in 0..6 {
            assert!(
                (dv[k] - exact[k]).abs() < 1e-10,
                "{k}: {} vs {}",
                dv[k],
                exact[k]
            );
        }
        assert!(report.iterations <= 5, "{report:?}");
    }

    #[test]
    fn a_fixed_particle_keeps_its_prescribed_change_and_the_floor_spares_a_cloth_at_rest()
     {
        let a = matrix();
        let z = [0.0, 0.0, 0.0, 0.5, 0.5, 0.5];
        let filter = [Filter::Free, Filter::Fixed];
        let mut dv = vec![0.0; 6];
        filtered_cg(
            &Dense(a.clone()),
            &[1.0; 6],
            &mut dv,
            (&filter, &z),
            (1e-10, 0.0),
            50,
        )
        .unwrap();
        assert_eq!(&dv[3..], &[0.5, 0.5, 0.5]);
        // At rest b is tiny: the relative test alone still asks for its digits,
        // the floor does not.
        let b = [1e-9; 6];
        let rest = [0.0; 6];
        let mut strict = vec![0.0; 6];
        let relative = filtered_cg(
            &Dense(a.clone()),
            &b,
            &mut strict,
            (&filter, &rest),
            (1e-6, 0.0),
            50,
        )
        .unwrap();
        let mut floored = vec![0.0; 6];
        let with_floor = filtered_cg(
            &Dense(a),
            &b,
            &mut floored,
            (&filter, &rest),
            (1e-6, 1e-6),
            50,
        )
        .unwrap();
        assert!(relative.iterations >= 2, "{relative:?}");
        assert_eq!(with_floor.iterations, 0);
    }

    #[test]
    fn the_box_gap_is_the_distance_to_its_surface() {
        let solid = Solid::Box { center: V3::zeros(), half: V3::new(1.0, 2.0, 3.0) };
        // Outside a face, beyond an edge, beyond a corner, inside near a face.
        let cases = [
            (V3::new(0.5, 0.0, 3.5), 0.5, V3::z()),
            (
                V3::new(2.0, 3.0, 0.0),
                2f64.sqrt(),
                V3::new(1.0, 1.0, 0.0) / 2f64.sqrt(),
            ),
            (V3::new(-2.0, -3.0, -4.0), 3f64.sqrt(), -V3::repeat(1.0) / 3f64.sqrt()),
            (V3::new(0.0, -1.9, 0.0), -0.1, -V3::y()),
        ];
        for (x, gap, normal) in cases {
            let (g, n) = solid.gap(&x);
            assert!(
                (g - gap).abs() < 1e-12 && (n - normal).norm() < 1e-12,
                "{x}: {g} {n}"
            );
            // The gap's gradient is the normal, away from edges, by central differences.
            let d = 1e-6;
            let fd = V3::from_fn(|k, _| {
                let e = V3::from_fn(|j, _| if j == k { d } else { 0.0 });
                (solid.gap(&(x + e)).0 - solid.gap(&(x - e)).0) / (2.0 * d)
            });
            assert!((fd - n).norm() < 1e-6, "{x}: {fd} vs {n}");
        }
        let ball = Solid::Sphere { center: V3::zeros(), radius: 1.0 };
        assert_eq!(ball.gap(&V3::new(0.0, 0.0, 3.0)), (2.0, V3::z()));
    }
}
