//! An aggregation multigrid preconditioner for CG on block-sparse systems.
//!
//! Block Jacobi fixes each particle against its own diagonal block, so it corrects
//! errors that change from one particle to the next and barely touches the smooth
//! ones, where a whole region of the sheet is wrong together. Those are what keep CG
//! iterating. Multigrid removes them on a coarser problem: particles are gathered
//! into groups (*aggregates*) of about four, each group moves as one, and the coarse
//! matrix is the fine one summed over the groups; on the coarse problem the smooth
//! error is no longer smooth, and the same trick repeats down to a handful of
//! unknowns solved exactly.

use crate::block_sparse::{Block, BlockBuilder, BlockSparse};
use crate::cg::LinearOperator;
use nalgebra::{DMatrix, DVector, SVector};
use pbm_prelim::PbmError;
use std::cell::RefCell;

/// Stop coarsening at this many blocks, or when a level shrinks by less than a
/// quarter (particles with no neighbour, such as nailed ones, stay single).
const COARSEST_BLOCKS: usize = 16;

/// One level's link to the next coarser one.
#[derive(Debug, Clone)]
struct Level<const D: usize> {
    /// The coarse node (aggregate) each node of this level belongs to.
    aggregate: Vec<usize>,
    /// For each stored block of this level's matrix, where it is summed into the
    /// coarse matrix's blocks.
    to_coarse: Vec<usize>,
    /// The inverses of this level's diagonal blocks, for the smoother.
    inverses: Vec<Block<D>>,
    /// The next level's matrix.
    coarse: BlockSparse<D>,
}

/// Work vectors for one level of the cycle, allocated once.
#[derive(Debug, Clone)]
struct Scratch {
    residual: Vec<f64>,
    coarse_r: Vec<f64>,
    coarse_z: Vec<f64>,
}

/// The hierarchy for one sparsity pattern: which particles go together at each
/// level (fixed), and the coarse matrices (refilled for every new matrix with
/// [`Multigrid::refill`]).
#[derive(Debug, Clone)]
pub struct Multigrid<const D: usize> {
    /// The fine matrix's pattern, to check that a refill gets the same one.
    pattern: (usize, Vec<usize>),
    levels: Vec<Level<D>>,
    /// The coarsest matrix, dense and factored.
    coarsest: nalgebra::Cholesky<f64, nalgebra::Dyn>,
    scratch: RefCell<Vec<Scratch>>,
}

/// Pairs each node with its most strongly coupled unpaired neighbour (the largest
/// off-diagonal block), in index order; a node with none left stays alone. Returns
/// each node's pair index and the number of pairs.
fn pair_up<const D: usize>(m: &BlockSparse<D>) -> (Vec<usize>, usize) {
    let n = m.block_rows();
    let mut pair = vec![usize::MAX; n];
    let mut count = 0;
    for i in 0..n {
        if pair[i] != usize::MAX {
            continue;
        }
        let (columns, blocks) = m.row(i);
        let mut best: Option<(usize, f64)> = None;
        for (&j, b) in columns.iter().zip(blocks) {
            let strength = b.norm();
            if j != i
                && pair[j] == usize::MAX
                && best.is_none_or(|(_, s)| strength > s)
            {
                best = Some((j, strength));
            }
        }
        pair[i] = count;
        if let Some((j, _)) = best {
            pair[j] = count;
        }
        count += 1;
    }
    (pair, count)
}

/// The matrix summed over aggregates, Pᵀ A P for the prolongation P that copies each
/// aggregate's value to its members, with the place each fine block lands.
fn galerkin<const D: usize>(
    m: &BlockSparse<D>,
    aggregate: &[usize],
    count: usize,
) -> (BlockSparse<D>, Vec<usize>) {
    let mut builder = BlockBuilder::new(count);
    for i in 0..m.block_rows() {
        let (columns, blocks) = m.row(i);
        for (&j, b) in columns.iter().zip(blocks) {
            builder.add(aggregate[i], aggregate[j], b);
        }
    }
    let coarse = builder.build();
    let mut to_coarse = Vec::with_capacity(m.stored_blocks());
    for i in 0..m.block_rows() {
        let (ci, (columns, _)) = (aggregate[i], m.row(i));
        for &j in columns {
            let k = coarse.position(ci, aggregate[j]).unwrap_or(0);
            to_coarse.push(coarse.row_start(ci) + k);
        }
    }
    (coarse, to_coarse)
}

fn inverses<const D: usize>(m: &BlockSparse<D>) -> Result<Vec<Block<D>>, PbmError> {
    (0..m.block_rows())
        .map(|i| m.diagonal_block(i).try_inverse())
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            PbmError::degenerate(
                "multigrid",
                "a diagonal block of the matrix is singular",
            )
        })
}

fn factor<const D: usize>(
    m: &BlockSparse<D>,
) -> Result<nalgebra::Cholesky<f64, nalgebra::Dyn>, PbmError> {
    m.to_dense().cholesky().ok_or_else(|| {
        PbmError::degenerate(
            "multigrid",
            "the coarsest matrix is not positive definite",
        )
    })
}

impl<const D: usize> Multigrid<D> {
    // ANCHOR: setup
    /// Builds the hierarchy for `a`: at each level, pair every node with its most
    /// strongly coupled neighbour, twice (groups of up to four), and sum the matrix
    /// over the groups, until a handful of blocks is left.
    pub fn new(a: &BlockSparse<D>) -> Result<Self, PbmError> {
        let mut levels: Vec<Level<D>> = Vec::new();
        let mut matrix = a.clone();
        while matrix.block_rows() > COARSEST_BLOCKS {
            let (first, n1) = pair_up(&matrix);
            let (paired, _) = galerkin(&matrix, &first, n1);
            let (second, n2) = pair_up(&paired);
            let aggregate: Vec<usize> = first.iter().map(|&p| second[p]).collect();
            if 4 * n2 > 3 * matrix.block_rows() {
                break; // too little left to gather
            }
            let (coarse, to_coarse) = galerkin(&matrix, &aggregate, n2);
            let inverses = inverses(&matrix)?;
            levels.push(Level {
                aggregate,
                to_coarse,
                inverses,
                coarse: coarse.clone(),
            });
            matrix = coarse;
        }
        let scratch = levels
            .iter()
            .map(|l| Scratch {
                residual: vec![0.0; D * l.aggregate.len()],
                coarse_r: vec![0.0; D * l.coarse.block_rows()],
                coarse_z: vec![0.0; D * l.coarse.block_rows()],
            })
            .collect();
        let pattern = (a.block_rows(), a.columns().to_vec());
        let coarsest = factor(&matrix)?;
        Ok(Multigrid { pattern, levels, coarsest, scratch: RefCell::new(scratch) })
    }
    // ANCHOR_END: setup

    /// Whether `a` has the pattern this hierarchy was built for.
    pub fn fits(&self, a: &BlockSparse<D>) -> bool {
        self.pattern.0 == a.block_rows() && self.pattern.1 == a.columns()
    }

    /// Number of levels, the finest included.
    pub fn levels(&self) -> usize {
        self.levels.len() + 1
    }

    /// Stored blocks at each coarse level.
    pub fn coarse_blocks(&self) -> Vec<usize> {
        self.levels.iter().map(|l| l.coarse.stored_blocks()).collect()
    }

    /// Block rows at each level, finest first.
    pub fn sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> =
            self.levels.iter().map(|l| l.aggregate.len()).collect();
        sizes.push(self.coarsest.l_dirty().nrows() / D);
        sizes
    }

    // ANCHOR: refill
    /// Keeps the groups and refills the coarse matrices from a new matrix with the
    /// same pattern (the next step's): one pass over each level's blocks.
    pub fn refill(&mut self, a: &BlockSparse<D>) -> Result<(), PbmError> {
        if !self.fits(a) {
            return Err(PbmError::invalid(
                "multigrid",
                "the matrix's pattern changed",
            ));
        }
        for l in 0..self.levels.len() {
            let (done, rest) = self.levels.split_at_mut(l);
            let fine = done.last().map_or(a, |previous| &previous.coarse);
            let level = &mut rest[0];
            level.inverses = inverses(fine)?;
            level.coarse.clear();
            let coarse = level.coarse.blocks_mut();
            for (block, &k) in fine.blocks().iter().zip(&level.to_coarse) {
                coarse[k] += block;
            }
        }
        let last = self.levels.last().map_or(a, |l| &l.coarse);
        self.coarsest = factor(last)?;
        Ok(())
    }
    // ANCHOR_END: refill

    /// z = B r, one V-cycle on the system with matrix `a` (the matrix the hierarchy
    /// was built or refilled from) and right-hand side r, from z = 0.
    pub fn cycle(&self, a: &BlockSparse<D>, r: &[f64], z: &mut [f64]) {
        let mut scratch = self.scratch.borrow_mut();
        self.cycle_at(0, a, r, z, &mut scratch);
    }

    // ANCHOR: cycle
    /// One V-cycle at `level`: smooth, hand the residual to the coarser level, add
    /// its correction back, smooth again.
    fn cycle_at(
        &self,
        level: usize,
        a: &BlockSparse<D>,
        r: &[f64],
        z: &mut [f64],
        scratch: &mut [Scratch],
    ) {
        let Some(here) = self.levels.get(level) else {
            let solution = self.coarsest.solve(&DVector::from_column_slice(r));
            z.copy_from_slice(solution.as_slice());
            return;
        };
        let (work, below) = scratch.split_at_mut(1);
        let Scratch { residual, coarse_r, coarse_z } = &mut work[0];
        here.smooth_forward(a, r, z, residual);
        here.restrict(residual, coarse_r);
        self.cycle_at(level + 1, &here.coarse, coarse_r, coarse_z, below);
        here.prolong_add(coarse_z, z);
        here.smooth_backward(a, r, z);
    }
    // ANCHOR_END: cycle
}

impl<const D: usize> Level<D> {
    // ANCHOR: smooth_forward
    /// Gauss–Seidel forward from z = 0 (only the blocks left of the diagonal meet
    /// values already set), then the residual r − A z, which after the sweep is
    /// − Σ A_ij z_j over the blocks right of the diagonal alone.
    fn smooth_forward(
        &self,
        a: &BlockSparse<D>,
        r: &[f64],
        z: &mut [f64],
        residual: &mut [f64],
    ) {
        let n = self.aggregate.len();
        for i in 0..n {
            let (columns, blocks) = a.row(i);
            let split = columns.partition_point(|&j| j < i);
            let mut acc = vector(r, i);
            for (&j, block) in columns[..split].iter().zip(&blocks[..split]) {
                acc -= *block * vector(z, j);
            }
            let zi = self.inverses[i] * acc;
            z[D * i..D * i + D].copy_from_slice(zi.as_slice());
        }
        for i in 0..n {
            let (columns, blocks) = a.row(i);
            let split = columns.partition_point(|&j| j <= i);
            let mut acc = SVector::<f64, D>::zeros();
            for (&j, block) in columns[split..].iter().zip(&blocks[split..]) {
                acc -= *block * vector(z, j);
            }
            residual[D * i..D * i + D].copy_from_slice(acc.as_slice());
        }
    }
    // ANCHOR_END: smooth_forward

    // ANCHOR: transfer
    /// Restriction Pᵀ: the coarse right-hand side, each group's residuals summed.
    fn restrict(&self, residual: &[f64], coarse_r: &mut [f64]) {
        coarse_r.fill(0.0);
        for (i, &c) in self.aggregate.iter().enumerate() {
            for k in 0..D {
                coarse_r[D * c + k] += residual[D * i + k];
            }
        }
    }

    /// Prolongation P, added: each group's coarse correction onto its members.
    fn prolong_add(&self, coarse_z: &[f64], z: &mut [f64]) {
        for (i, &c) in self.aggregate.iter().enumerate() {
            for k in 0..D {
                z[D * i + k] += coarse_z[D * c + k];
            }
        }
    }

    // ANCHOR_END: transfer

    // ANCHOR: smooth_backward
    /// Gauss–Seidel backward: the mirror image keeps the cycle symmetric.
    fn smooth_backward(&self, a: &BlockSparse<D>, r: &[f64], z: &mut [f64]) {
        for i in (0..self.aggregate.len()).rev() {
            let (columns, blocks) = a.row(i);
            let mut acc = vector(r, i);
            for (&j, block) in columns.iter().zip(blocks) {
                acc -= *block * vector(z, j);
            }
            let update = self.inverses[i] * acc;
            for k in 0..D {
                z[D * i + k] += update[k];
            }
        }
    }
    // ANCHOR_END: smooth_backward
}

fn vector<const D: usize>(x: &[f64], i: usize) -> SVector<f64, D> {
    SVector::<f64, D>::from_column_slice(&x[D * i..D * i + D])
}

/// A block-sparse matrix with a multigrid V-cycle as CG's preconditioner.
pub struct MultigridPreconditioned<'a, const D: usize> {
    /// The matrix.
    pub matrix: &'a BlockSparse<D>,
    /// Its hierarchy, built or refilled from it.
    pub multigrid: &'a Multigrid<D>,
}

impl<const D: usize> LinearOperator for MultigridPreconditioned<'_, D> {
    fn dimension(&self) -> usize {
        D * self.matrix.block_rows()
    }
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        self.matrix.mul_vec(x, y);
    }
    fn precondition(&self, r: &[f64], z: &mut [f64]) {
        self.multigrid.cycle(self.matrix, r, z);
    }
}

/// The coarse matrices dense, for tests: level 1 first.
pub fn coarse_matrices<const D: usize>(mg: &Multigrid<D>) -> Vec<DMatrix<f64>> {
    mg.levels.iter().map(|l| l.coarse.to_dense()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cg::{conjugate_gradient, solve_pcg};
    use crate::sheet::sheet;

    /// The n × n sheet's implicit matrix after a few frames of swinging.
    fn swinging_sheet_matrix(n: usize, steps: usize) -> BlockSparse<3> {
        let mut model = sheet(n, 1000.0).unwrap();
        for _ in 0..steps {
            model.backward_euler_step(1.0 / 30.0).unwrap();
        }
        model.system_matrices(1.0 / 30.0, None).unwrap().0
    }

    fn prolongation(aggregate: &[usize], coarse: usize) -> DMatrix<f64> {
        let mut p = DMatrix::zeros(3 * aggregate.len(), 3 * coarse);
        for (i, &c) in aggregate.iter().enumerate() {
            for k in 0..3 {
                p[(3 * i + k, 3 * c + k)] = 1.0;
            }
        }
        p
    }

    #[test]
    fn each_coarse_matrix_is_p_transpose_a_p() {
        let a = swinging_sheet_matrix(12, 5);
        let mg = Multigrid::new(&a).unwrap();
        assert!(mg.levels() >= 3, "{:?}", mg.sizes());
        assert_galerkin(&mg, &a);
    }

    fn assert_galerkin(mg: &Multigrid<3>, a: &BlockSparse<3>) {
        let mut fine = a.to_dense();
        for level in &mg.levels {
            let p = prolongation(&level.aggregate, level.coarse.block_rows());
            let expected = p.transpose() * &fine * &p;
            let coarse = level.coarse.to_dense();
            assert!((&coarse - &expected).norm() <= 1e-12 * expected.norm());
            // Groups of at most four, every coarse node used.
            let mut sizes = vec![0; level.coarse.block_rows()];
            for &c in &level.aggregate {
                sizes[c] += 1;
            }
            assert!(sizes.iter().all(|&s| (1..=4).contains(&s)), "{sizes:?}");
            fine = coarse;
        }
    }

    #[test]
    fn the_cycle_is_symmetric_and_positive_definite() {
        // CG needs a symmetric positive definite preconditioner: check B = the
        // cycle as a matrix, column by column.
        let a = swinging_sheet_matrix(8, 10);
        let mg = Multigrid::new(&a).unwrap();
        let n = 3 * a.block_rows();
        let mut b = DMatrix::zeros(n, n);
        let mut unit = vec![0.0; n];
        let mut column = vec![0.0; n];
        for j in 0..n {
            unit[j] = 1.0;
            mg.cycle(&a, &unit, &mut column);
            b.column_mut(j).copy_from_slice(&column);
            unit[j] = 0.0;
        }
        let asymmetry = (&b - b.transpose()).norm() / b.norm();
        assert!(asymmetry < 1e-12, "{asymmetry:e}");
        let smallest = b.symmetric_eigenvalues().min();
        assert!(smallest > 0.0, "{smallest:e}");
    }

    #[test]
    fn multigrid_cg_matches_a_dense_solve_in_far_fewer_iterations() {
        let a = swinging_sheet_matrix(16, 10);
        let n = 3 * a.block_rows();
        let rhs: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin() * 1e-3).collect();
        let mg = Multigrid::new(&a).unwrap();
        let op = MultigridPreconditioned { matrix: &a, multigrid: &mg };
        let mut x = vec![0.0; n];
        let with_mg = conjugate_gradient(&op, &rhs, &mut x, 1e-12, 1000).unwrap();
        let exact =
            a.to_dense().lu().solve(&DVector::from_column_slice(&rhs)).unwrap();
        let error = (DVector::from_column_slice(&x) - &exact).norm() / exact.norm();
        assert!(error < 1e-9, "{error:e}");
        let mut y = vec![0.0; n];
        let with_jacobi = solve_pcg(&a, &rhs, &mut y, 1e-12, 10_000).unwrap();
        assert!(
            4 * with_mg.iterations < with_jacobi.iterations,
            "{} vs {}",
            with_mg.iterations,
            with_jacobi.iterations
        );
    }

    #[test]
    fn a_refill_sums_the_new_matrix_over_the_old_groups() {
        let before = swinging_sheet_matrix(10, 3);
        let after = swinging_sheet_matrix(10, 9);
        let mut mg = Multigrid::new(&before).unwrap();
        mg.refill(&after).unwrap();
        assert_galerkin(&mg, &after);
        // A matrix of another pattern is refused, not silently used.
        let other = swinging_sheet_matrix(9, 1);
        assert!(!mg.fits(&other));
        assert!(mg.refill(&other).is_err());
    }
}
