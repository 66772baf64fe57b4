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

use nalgebra::SMatrix;
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
/// (3n × 3n) matrices in the top-left corner of [`Local`]: column i is J̇_r for the
/// velocity that moves coordinate i alone at unit speed.
pub fn condition_hessians(condition: &dyn Condition<3>, x: &[V3], out: &mut [Local]) {
    let (rows, n) = (condition.rows(), x.len());
    let mut v = [V3::zeros(); MAX_PARTICLES];
    let mut j_dot = [V3::zeros(); 2 * MAX_PARTICLES];
    for h in out.iter_mut().take(rows) {
        h.fill(0.0);
    }
    for i in 0..3 * n {
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
            out.hessian += second[r] * (k * c[r]);
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

/// The projection for one fixed size (the eigensolver wants it known when compiling).
macro_rules! project_block {
    ($h:expr, $n:literal) => {{
        let h: &mut Local = $h;
        let block =
            SMatrix::<f64, $n, $n>::from_fn(|r, c| 0.5 * (h[(r, c)] + h[(c, r)]));
        let eigen = block.symmetric_eigen();
        // Eigenvalues this far below zero, relative to the largest, are rounding.
        let largest = eigen.eigenvalues.amax();
        if eigen.eigenvalues.iter().all(|&l| l >= -1e-12 * largest) {
            false
        } else {
            let mut fixed = SMatrix::<f64, $n, $n>::zeros();
            for (k, &l) in eigen.eigenvalues.iter().enumerate() {
                if l > 0.0 {
                    let q = eigen.eigenvectors.column(k);
                    fixed += q * q.transpose() * l;
                }
            }
            h.fixed_view_mut::<$n, $n>(0, 0).copy_from(&fixed);
            true
        }
    }};
}

// ANCHOR: projection
/// Replaces the symmetric top-left `size` × `size` block of `h` (size 6, 9 or 12:
/// conditions of two, three or four particles) by the nearest positive
/// semidefinite matrix: the same eigenvectors, negative eigenvalues set to zero.
/// Returns whether there were any.
pub fn project_to_semidefinite(h: &mut Local, size: usize) -> bool {
    match size {
        6 => project_block!(h, 6),
        9 => project_block!(h, 9),
        _ => project_block!(h, 12),
    }
}
// ANCHOR_END: projection
