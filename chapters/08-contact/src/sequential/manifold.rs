//! The normal rows of one body pair, updated together: the pair's own small LCP
//! solved exactly at each sweep (block Gauss–Seidel).

use super::prepared::{Prepared, Targets, Velocity};
use crate::friction::REGULARIZATION;
use crate::lcp::solve;
use crate::rows::Role;
use nalgebra::{DMatrix, DVector};

/// λ with λ_S solving A_SS λ_S = −c_S on the rows marked `pushing` and zero on
/// the others.
fn clamped_solve(
    a: &DMatrix<f64>,
    c: &DVector<f64>,
    pushing: &[bool],
) -> DVector<f64> {
    let on: Vec<usize> = (0..pushing.len()).filter(|&k| pushing[k]).collect();
    let mut x = DVector::zeros(pushing.len());
    let a_ss = DMatrix::from_fn(on.len(), on.len(), |r, q| a[(on[r], on[q])]);
    let c_s = DVector::from_iterator(on.len(), on.iter().map(|&k| -c[k]));
    if let Some(x_s) = a_ss.cholesky().map(|f| f.solve(&c_s)) {
        for (r, &k) in on.iter().enumerate() {
            x[k] = x_s[r];
        }
    }
    x
}

// ANCHOR: manifold
/// The normal rows of one body pair, updated as a block. Row by row, the first
/// corner of a face visited takes the whole push that stops the face, the others
/// less, and the face is left turning: in a tall stack, where ten sweeps cannot
/// even out what the first one did, the turn tips the stack over. Updated
/// together, the corners' impulses solve the pair's own small LCP exactly,
/// A_GG λ_G + (v_G − target_G − A_GG λ_G') ≥ 0, λ_G ≥ 0, complementary, with the
/// other rows' impulses held (block Gauss–Seidel; Box2D's block solver does the
/// same for the two points of a 2-D manifold). Four corners on a face make A_GG
/// singular; the force solve's small diagonal picks the even split.
pub struct Manifold {
    /// The pair's normal rows.
    pub(super) rows: Vec<usize>,
    /// A_GG = J_G M⁻¹ J_Gᵀ, regularised.
    a: DMatrix<f64>,
    /// Its inverse, row by row (n² numbers), for the usual case in which every
    /// corner pushes; empty if A_GG is not positive definite.
    inverse: Vec<f64>,
}
// ANCHOR_END: manifold

impl Manifold {
    /// The manifolds of consecutive normal rows of the same pair, their matrices
    /// and factors computed once.
    pub(super) fn all(rows: &[Prepared], roles: &[Role]) -> Vec<Manifold> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in (0..rows.len()).filter(|&i| roles[i] == Role::Normal) {
            match groups.last_mut() {
                Some(g) if rows[g[0]].bodies == rows[i].bodies => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        groups
            .into_iter()
            .map(|g| {
                let mut a = DMatrix::from_fn(g.len(), g.len(), |r, c| {
                    rows[g[r]].coupling(&rows[g[c]])
                });
                let delta = REGULARIZATION * a.diagonal().amax();
                for k in 0..g.len() {
                    a[(k, k)] += delta;
                }
                let inverse = match a.clone().cholesky() {
                    Some(f) => f.inverse().transpose().as_slice().to_vec(),
                    None => Vec::new(),
                };
                Manifold { rows: g, a, inverse }
            })
            .collect()
    }

    // ANCHOR: manifold_update
    /// Solves the block for its impulses with the others held, applies the
    /// changes, and returns the largest. First the usual case, every corner
    /// pushing: λ_G = λ_G' − A_GG⁻¹ (v_G − target_G), by the inverse kept for the
    /// step (a few dozen multiplications for four corners), accepted if no impulse
    /// comes out negative; otherwise the block's LCP by pivoting.
    pub(super) fn update(
        &self,
        vel: &mut [Velocity],
        (rows, target): (&[Prepared], &Targets),
        lambda: &mut [f64],
        scratch: &mut [f64],
    ) -> f64 {
        let (g, n) = (&self.rows, self.rows.len());
        let (miss, step) = scratch[..2 * n].split_at_mut(n);
        let (a, b) = rows[g[0]].bodies;
        let mut pair = [vel[a], vel[b]];
        for (k, &i) in g.iter().enumerate() {
            miss[k] = rows[i].velocity_pair(&pair) - target[i];
        }
        for (k, row) in self.inverse.chunks_exact(n).enumerate() {
            step[k] = row.iter().zip(miss.iter()).map(|(a, m)| a * m).sum();
        }
        let all_push = !self.inverse.is_empty()
            && g.iter().zip(step.iter()).all(|(&i, s)| lambda[i] - s >= 0.0);
        if !all_push {
            let guess = self.first_guess(lambda, step);
            return self.pivot(vel, (rows, target), lambda, guess);
        }
        let mut largest = 0.0_f64;
        for (k, &i) in g.iter().enumerate() {
            rows[i].push_pair(&mut pair, -step[k]);
            lambda[i] -= step[k];
            largest = largest.max(step[k].abs());
        }
        (vel[a], vel[b]) = (pair[0], pair[1]);
        largest
    }
    // ANCHOR_END: manifold_update

    /// The corners guessed to push when not all of them do: those whose unclamped
    /// impulse `step` came out positive, or all of them when there is no inverse.
    fn first_guess(&self, lambda: &[f64], step: &[f64]) -> Vec<bool> {
        if self.inverse.is_empty() {
            return vec![true; self.rows.len()];
        }
        self.rows.iter().zip(step).map(|(&i, s)| lambda[i] - s > 0.0).collect()
    }

    /// The block's LCP when a corner would pull; applies the answer and returns the
    /// largest change. With c = v_G − target_G − A_GG λ_G' the conditions are
    /// w = A_GG λ + c ≥ 0, λ ≥ 0, complementary. Guess the corners that push
    /// (`pushing`: those whose unclamped impulse came out positive), solve A_SS λ_S = −c_S for
    /// them, let go of any that pulls and take back any left out that would
    /// interpenetrate (w < 0), until the guess holds: for a face, one or two rounds.
    /// A guess that does not settle in as many rounds as corners goes to the
    /// chapter's pivoting.
    fn pivot(
        &self,
        vel: &mut [Velocity],
        (rows, target): (&[Prepared], &Targets),
        lambda: &mut [f64],
        mut pushing: Vec<bool>,
    ) -> f64 {
        let (g, n) = (&self.rows, self.rows.len());
        let now = DVector::from_iterator(n, g.iter().map(|&i| lambda[i]));
        let miss = DVector::from_iterator(
            n,
            g.iter().map(|&i| rows[i].velocity(vel) - target[i]),
        );
        let c = &miss - &self.a * &now;
        let mut next = None;
        for _ in 0..=n {
            let x = clamped_solve(&self.a, &c, &pushing);
            let w = &self.a * &x + &c;
            let pulls = (0..n).filter(|&k| pushing[k] && x[k] < 0.0);
            let sinks = (0..n).filter(|&k| !pushing[k] && w[k] < -1e-12 * c.amax());
            let (pulls, sinks): (Vec<usize>, Vec<usize>) =
                (pulls.collect(), sinks.collect());
            if pulls.is_empty() && sinks.is_empty() {
                next = Some(x);
                break;
            }
            pulls.iter().for_each(|&k| pushing[k] = false);
            sinks.iter().for_each(|&k| pushing[k] = true);
        }
        let next = match next {
            Some(x) => x,
            None => match solve(&self.a, &c) {
                Ok(solved) => solved.f,
                Err(_) => return 0.0,
            },
        };
        let mut largest = 0.0_f64;
        for (k, &i) in g.iter().enumerate() {
            let change = next[k] - lambda[i];
            rows[i].push(vel, change);
            lambda[i] = next[k];
            largest = largest.max(change.abs());
        }
        largest
    }
}
