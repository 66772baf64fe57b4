//! An energy E = ½ k |C|² made from any condition, with its gradient and Hessian.
//!
//! The gradient is k Jᵀ C. The Hessian has two parts,
//!
//! ∇²E = k (Jᵀ J + Σ_r C_r ∇²C_r),
//!
//! and the second needs the second derivatives of C, which no condition states
//! separately: they are already inside J̇. When the particles move at v, J̇ = dJ/dt =
//! Σ_i (∂J/∂x_i) v_i, so J̇ for a v that moves only coordinate i is column i of ∇²C.
//! A condition whose J̇ passes its finite-difference check therefore has an exact
//! Hessian too.

use nalgebra::{Matrix3, SMatrix, SymmetricEigen};
use pbm_particles::condition::Condition;
use pbm_particles::particle::Vector;
use pbm_prelim::PbmError;

type V3 = Vector<3>;

/// The most particles one cloth condition involves (a hinge has four).
pub const MAX_PARTICLES: usize = 4;

/// A local matrix: 3 rows and columns per particle, at most four particles.
pub type Local = SMatrix<f64, 12, 12>;

/// Which Hessian the implicit step is given. The full Hessian is exact but can be
/// indefinite (a compressed thread buckles: its energy curves downwards sideways),
/// and conjugate gradients then fail; the other two are the usual fixes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curvature {
    /// k Jᵀ J only (Gauss–Newton): always positive semidefinite; exact where C = 0.
    GaussNewton,
    /// k (Jᵀ J + Σ C_r ∇²C_r): the exact Hessian.
    Full,
    /// The exact Hessian of each condition with its negative eigenvalues set to
    /// zero: the nearest positive semidefinite matrix.
    Projected,
}

impl pbm_prelim::Choice for Curvature {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("gauss-newton", Curvature::GaussNewton),
        ("full", Curvature::Full),
        ("projected", Curvature::Projected),
    ];
}

// ANCHOR: hessian_of_c
/// ∇²C_r for every row r of `condition` at positions `x` of its particles, as
/// (3n × 3n) matrices in the top-left corner of [`Local`] (the rest is left as it
/// is): column i is J̇_r for the velocity that moves coordinate i alone at unit
/// speed.
pub fn condition_hessians(condition: &dyn Condition<3>, x: &[V3], out: &mut [Local]) {
    let (rows, n) = (condition.rows(), x.len());
    let mut v = [V3::zeros(); MAX_PARTICLES];
    let mut j_dot = [V3::zeros(); 2 * MAX_PARTICLES];
    for i in 0..3 * (n - 1) {
        v[i / 3][i % 3] = 1.0;
        condition.jacobian_dot(x, &v[..n], &mut j_dot[..rows * n]);
        v[i / 3][i % 3] = 0.0;
        for (r, h) in out.iter_mut().enumerate().take(rows) {
            for k in 0..n {
                for a in 0..3 {
                    h[(3 * k + a, i)] = j_dot[r * n + k][a];
                }
            }
        }
    }
    // Sliding every particle together changes no cloth condition, so it changes
    // no row of J either: the last particle's columns are minus the others' sum.
    for h in out.iter_mut().take(rows) {
        for i in 3 * (n - 1)..3 * n {
            for row in 0..3 * n {
                h[(row, i)] =
                    -(0..n - 1).map(|k| h[(row, 3 * k + i % 3)]).sum::<f64>();
            }
        }
    }
}
// ANCHOR_END: hessian_of_c

/// One condition's share of the cloth's energy, force and stiffness at one state.
#[derive(Debug, Clone)]
pub struct LocalTerms {
    /// ½ k |C|².
    pub energy: f64,
    /// The force on each particle, −k Jᵀ C − k_d Jᵀ Ċ.
    pub force: [V3; MAX_PARTICLES],
    /// ∂²E/∂x² in the chosen [`Curvature`] (the force's ∂f/∂x is its negative).
    pub hessian: Local,
    /// Jᵀ J, which times k_d is −∂f/∂v.
    pub jtj: Local,
    /// Whether the exact Hessian had a negative eigenvalue (only known when the
    /// projected curvature was asked for).
    pub indefinite: bool,
}

impl Default for LocalTerms {
    fn default() -> Self {
        LocalTerms {
            energy: 0.0,
            force: [V3::zeros(); MAX_PARTICLES],
            hessian: Local::zeros(),
            jtj: Local::zeros(),
            indefinite: false,
        }
    }
}

// ANCHOR: local_terms
/// Evaluates E = ½ k |C|², the force −k Jᵀ C − k_d Jᵀ Ċ and the Hessian of E for one
/// condition at positions `x` and velocities `v` of its particles, into `out`.
pub fn local_terms(
    condition: &dyn Condition<3>,
    (x, v): (&[V3], &[V3]),
    (k, k_d): (f64, f64),
    curvature: Curvature,
    out: &mut LocalTerms,
) -> Result<(), PbmError> {
    let (rows, n) = (condition.rows(), x.len());
    let mut c = [0.0; 2];
    let mut j = [V3::zeros(); 2 * MAX_PARTICLES];
    condition.position(x, &mut c[..rows], &mut j[..rows * n])?;
    first_order_terms((&c[..rows], &j[..rows * n]), (v, n), (k, k_d), out);
    out.hessian = out.jtj * k;
    out.indefinite = false;
    if curvature != Curvature::GaussNewton {
        let mut second = [Local::zeros(); 2];
        condition_hessians(condition, x, &mut second);
        for r in 0..rows {
            let kc = k * c[r];
            out.hessian.zip_apply(&second[r], |h, s| *h += kc * s);
        }
        if curvature == Curvature::Projected {
            out.indefinite = project_to_semidefinite(&mut out.hessian, 3 * n);
        }
    }
    Ok(())
}
// ANCHOR_END: local_terms

// ANCHOR: first_order_terms
/// The terms that need only C and J (given row by row for `n` particles moving at
/// `v`): the energy, the force with its damping along Ċ = J v, and JᵀJ.
fn first_order_terms(
    (c, j): (&[f64], &[V3]),
    (v, n): (&[V3], usize),
    (k, k_d): (f64, f64),
    out: &mut LocalTerms,
) {
    out.energy = 0.0;
    out.force = [V3::zeros(); MAX_PARTICLES];
    out.jtj.fill(0.0);
    for (r, &c) in c.iter().enumerate() {
        let row = &j[r * n..(r + 1) * n];
        let c_dot: f64 = row.iter().zip(v).map(|(jk, vk)| jk.dot(vk)).sum();
        out.energy += 0.5 * k * c * c;
        for (f, jk) in out.force.iter_mut().zip(row) {
            *f -= jk * (k * c + k_d * c_dot);
        }
        for (a, ja) in row.iter().enumerate() {
            for (b, jb) in row.iter().enumerate() {
                let block = ja * jb.transpose();
                let mut view = out.jtj.fixed_view_mut::<3, 3>(3 * a, 3 * b);
                view += block;
            }
        }
    }
}
// ANCHOR_END: first_order_terms

// ANCHOR: helmert
/// Each particle's weight in each direction apart.
type Helmert = [[f64; MAX_PARTICLES - 1]; MAX_PARTICLES];

/// Helmert's weights: column k of `w` (k < n − 1) is one on each of the first
/// k + 1 particles and −(k + 1) on particle k + 2, over √((k + 1)(k + 2)). The
/// columns are orthonormal and each sums to zero, so with a 3 × 3 identity per
/// weight they span the 3(n − 1) directions in which `n` particles move apart:
/// sliding every particle by the same vector has no component along any of them.
fn helmert(n: usize) -> Helmert {
    let mut w = [[0.0; MAX_PARTICLES - 1]; MAX_PARTICLES];
    for k in 0..n - 1 {
        let m = (k + 1) as f64;
        let scale = 1.0 / (m * (m + 1.0)).sqrt();
        for row in w.iter_mut().take(k + 1) {
            row[k] = scale;
        }
        w[k + 1][k] = -m * scale;
    }
    w
}
// ANCHOR_END: helmert

/// (W ⊗ I₃)ᵀ H (W ⊗ I₃) for the top-left 3n × 3n block of `h`, block by block
/// (particle i's weight in direction k is zero past i = k + 1).
fn to_apart<const R: usize>(h: &Local, w: &Helmert, n: usize) -> SMatrix<f64, R, R> {
    let mut left = [[Matrix3::zeros(); MAX_PARTICLES]; MAX_PARTICLES - 1];
    for (k, row) in left.iter_mut().enumerate().take(n - 1) {
        for (j, block) in row.iter_mut().enumerate().take(n) {
            for (i, wi) in w.iter().enumerate().take(k + 2) {
                *block += h.fixed_view::<3, 3>(3 * i, 3 * j) * wi[k];
            }
        }
    }
    let mut m = SMatrix::<f64, R, R>::zeros();
    for (k, row) in left.iter().enumerate().take(n - 1) {
        for l in 0..n - 1 {
            let mut block = m.fixed_view_mut::<3, 3>(3 * k, 3 * l);
            for (j, wj) in w.iter().enumerate().take(l + 2) {
                block += row[j] * wj[l];
            }
        }
    }
    m
}

/// (W ⊗ I₃) F (W ⊗ I₃)ᵀ, written into the top-left 3n × 3n block of `h`.
fn from_apart<const R: usize>(
    f: &SMatrix<f64, R, R>,
    w: &Helmert,
    n: usize,
    h: &mut Local,
) {
    let mut right = [[Matrix3::zeros(); MAX_PARTICLES - 1]; MAX_PARTICLES];
    // Particle i's weight is zero in the directions k < i − 1.
    for ((i, row), wi) in right.iter_mut().enumerate().take(n).zip(w) {
        for (l, block) in row.iter_mut().enumerate().take(n - 1) {
            for (k, &weight) in
                wi.iter().enumerate().take(n - 1).skip(i.saturating_sub(1))
            {
                *block += f.fixed_view::<3, 3>(3 * k, 3 * l) * weight;
            }
        }
    }
    for (i, row) in right.iter().enumerate().take(n) {
        for (j, wj) in w.iter().enumerate().take(n) {
            let mut block = Matrix3::zeros();
            for (part, &weight) in
                row.iter().zip(wj).take(n - 1).skip(j.saturating_sub(1))
            {
                block += part * weight;
            }
            h.fixed_view_mut::<3, 3>(3 * i, 3 * j).copy_from(&block);
        }
    }
}

/// How small the eigensolver's off-diagonal must get, relative to its diagonal,
/// before it calls an eigenvalue found. nalgebra's default is the machine's
/// epsilon; the projected matrix only has to be positive semidefinite (it is, by
/// construction, whatever the tolerance) and close to the Hessian, which is already
/// a linearization: 1e-8 saves the last QR sweeps, about a tenth of the drape's
/// time.
pub const EIGEN_TOLERANCE: f64 = 1e-8;

// ANCHOR: project_apart
/// Whether any eigenvalue is below zero by more than rounding: more than 1e-12
/// of the largest.
fn has_negative(eigenvalues: &[f64]) -> bool {
    let largest = eigenvalues.iter().fold(0.0_f64, |m, l| m.max(l.abs()));
    eigenvalues.iter().any(|&l| l < -1e-12 * largest)
}

/// The projection for `$n` particles, `$r` = 3(n − 1) directions apart (the
/// eigensolver wants the size known when compiling).
macro_rules! project_apart {
    ($h:expr, $n:literal, $r:literal, $tolerance:expr) => {{
        let h: &mut Local = $h;
        let w = helmert($n);
        let reduced = to_apart::<$r>(h, &w, $n);
        let reduced = (reduced + reduced.transpose()) * 0.5;
        // A Cholesky factor exists only for a positive definite matrix, and costs
        // a fraction of the eigensolve: a stretched triangle needs no more.
        let eigen = match reduced.cholesky() {
            Some(_) => None,
            None => Some(
                SymmetricEigen::try_new(reduced, $tolerance, 0)
                    .unwrap_or_else(|| reduced.symmetric_eigen()),
            ),
        };
        match eigen.filter(|e| has_negative(e.eigenvalues.as_slice())) {
            None => false,
            Some(eigen) => {
                // V diag(λ⁺) Vᵀ = (V √λ⁺)(V √λ⁺)ᵀ.
                let mut scaled = eigen.eigenvectors;
                for (mut column, &l) in
                    scaled.column_iter_mut().zip(eigen.eigenvalues.iter())
                {
                    column *= l.max(0.0).sqrt();
                }
                from_apart(&(scaled * scaled.transpose()), &w, $n, h);
                true
            }
        }
    }};
}
// ANCHOR_END: project_apart

// ANCHOR: projection
/// Replaces the symmetric top-left `size` × `size` block of `h` (size 6, 9 or 12:
/// conditions of two, three or four particles) by the nearest positive
/// semidefinite matrix: the same eigenvectors, negative eigenvalues set to zero.
/// Returns whether there were any. No cloth condition changes when all its
/// particles slide together, so sliding is an eigenvector of eigenvalue zero that
/// the projection keeps: the eigenproblem is solved only in the size − 3
/// directions that move the particles apart. The eigensolve stops at
/// [`EIGEN_TOLERANCE`].
pub fn project_to_semidefinite(h: &mut Local, size: usize) -> bool {
    project_to_semidefinite_within(h, size, EIGEN_TOLERANCE)
}

/// The same with the eigensolve stopped at relative `tolerance` (`f64::EPSILON`:
/// to the last bit).
pub fn project_to_semidefinite_within(
    h: &mut Local,
    size: usize,
    tolerance: f64,
) -> bool {
    match size {
        6 => project_apart!(h, 2, 3, tolerance),
        9 => project_apart!(h, 3, 6, tolerance),
        _ => project_apart!(h, 4, 9, tolerance),
    }
}
// ANCHOR_END: projection
