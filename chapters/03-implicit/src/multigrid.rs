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

use crate::block_sparse::{Block, BlockBuilder, BlockSparse, ranks};
use crate::cg::{CgReport, LinearOperator, conjugate_gradient};
use nalgebra::{DMatrix, DVector, SVector};
use pbm_prelim::PbmError;
use std::cell::RefCell;
use std::ops::Range;

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
    /// Where each row's diagonal block is stored in the row.
    diagonal: Vec<usize>,
    /// The nodes of each colour (consecutive: the level is numbered in sweep order).
    colours: Vec<Range<usize>>,
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

// ANCHOR: colour
/// Colours the nodes so that no two neighbours share a colour (each takes the
/// smallest colour its earlier neighbours left free) and lists them colour by
/// colour, with the range of the list each colour fills. Swept in this order, the
/// nodes of one colour can be solved in any order: none of them sees another.
pub fn colour_order<const D: usize>(
    m: &BlockSparse<D>,
) -> (Vec<usize>, Vec<Range<usize>>) {
    let n = m.block_rows();
    let mut colour = vec![usize::MAX; n];
    let mut taken = Vec::new();
    for i in 0..n {
        taken.clear();
        taken.extend(m.row(i).0.iter().map(|&j| colour[j]));
        colour[i] = (0..).find(|c| !taken.contains(c)).unwrap_or(0);
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| colour[i]); // stable: index order within a colour
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        match ranges.last_mut() {
            Some(range) if colour[order[range.start]] == colour[i] => {
                range.end = k + 1
            }
            _ => ranges.push(k..k + 1),
        }
    }
    (order, ranges)
}
// ANCHOR_END: colour

/// A matrix with its nodes renumbered: node `order[k]` of the original is node k.
#[derive(Debug, Clone)]
struct Renumbered<const D: usize> {
    order: Vec<usize>,
    matrix: BlockSparse<D>,
    /// For each stored block of `matrix`, where it is stored in the original.
    slots: Vec<usize>,
}

impl<const D: usize> Renumbered<D> {
    fn new(m: &BlockSparse<D>, order: Vec<usize>) -> Self {
        let (matrix, slots) = m.renumbered(&order);
        Renumbered { order, matrix, slots }
    }

    /// Vector `v` of the original numbering, renumbered into `out`.
    fn to_sweep_order(&self, v: &[f64], out: &mut [f64]) {
        for (k, &i) in self.order.iter().enumerate() {
            out[D * k..D * k + D].copy_from_slice(&v[D * i..D * i + D]);
        }
    }

    /// The inverse of [`Renumbered::to_sweep_order`].
    fn back_from_sweep_order(&self, v: &[f64], out: &mut [f64]) {
        for (k, &i) in self.order.iter().enumerate() {
            out[D * i..D * i + D].copy_from_slice(&v[D * k..D * k + D]);
        }
    }

    /// Copies the blocks of a matrix with the original's pattern.
    fn refill(&mut self, m: &BlockSparse<D>) {
        let from = m.blocks();
        for (block, &k) in self.matrix.blocks_mut().iter_mut().zip(&self.slots) {
            *block = from[k];
        }
    }
}

/// The hierarchy for one sparsity pattern: the order in which each level's nodes are
/// swept and which of them go together (both fixed), and the coarse matrices
/// (refilled for every new matrix with [`Multigrid::refill`]).
#[derive(Debug, Clone)]
pub struct Multigrid<const D: usize> {
    /// The fine matrix's pattern, to check that a refill gets the same one.
    pattern: (usize, Vec<usize>),
    /// The fine matrix renumbered into sweep order, and the fine node at each place.
    fine: Renumbered<D>,
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

/// The inverse of each row's diagonal block (at place `diagonal[i]` of row i).
fn inverses<const D: usize>(
    m: &BlockSparse<D>,
    diagonal: &[usize],
    out: &mut Vec<Block<D>>,
) -> Result<(), PbmError> {
    out.clear();
    for (i, &d) in diagonal.iter().enumerate() {
        let inverse =
            m.blocks()[m.row_start(i) + d].try_inverse().ok_or_else(|| {
                PbmError::degenerate(
                    "multigrid",
                    "a diagonal block of the matrix is singular",
                )
            })?;
        out.push(inverse);
    }
    Ok(())
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
        let (order, mut colours) = colour_order(a);
        let fine = Renumbered::new(a, order);
        let (mut levels, mut matrix) = (Vec::new(), fine.matrix.clone());
        while matrix.block_rows() > COARSEST_BLOCKS {
            let (first, n1) = pair_up(&matrix);
            let (paired, _) = galerkin(&matrix, &first, n1);
            let (second, n2) = pair_up(&paired);
            if 4 * n2 > 3 * matrix.block_rows() {
                break; // too little left to gather
            }
            // Number the groups in the coarse level's sweep order.
            let grouped: Vec<usize> = first.iter().map(|&p| second[p]).collect();
            let (order, coarse_colours) =
                colour_order(&galerkin(&matrix, &grouped, n2).0);
            let rank = ranks(&order);
            let aggregate: Vec<usize> = grouped.iter().map(|&c| rank[c]).collect();
            let (coarse, to_coarse) = galerkin(&matrix, &aggregate, n2);
            let diagonal = diagonal_positions(&matrix)?;
            let mut inverted = Vec::with_capacity(diagonal.len());
            inverses(&matrix, &diagonal, &mut inverted)?;
            levels.push(Level {
                aggregate,
                to_coarse,
                inverses: inverted,
                diagonal,
                colours: std::mem::replace(&mut colours, coarse_colours),
                coarse: coarse.clone(),
            });
            matrix = coarse;
        }
        let pattern = (a.block_rows(), a.columns().to_vec());
        let coarsest = factor(&matrix)?;
        let scratch = RefCell::new(scratch(&levels));
        Ok(Multigrid { pattern, fine, levels, coarsest, scratch })
    }
    // ANCHOR_END: setup

    /// The first level's aggregation in the matrix's own numbering (for a reader, a
    /// test or a figure): each node's pair after the first matching, and its group
    /// of up to four after the second; none for a matrix too small to coarsen. The
    /// pairs are [`Multigrid::new`]'s first call again, on the same matrix.
    pub fn first_level(&self) -> Option<(Vec<usize>, Vec<usize>)> {
        let level = self.levels.first()?;
        let (pairs, _) = pair_up(&self.fine.matrix);
        let n = self.fine.order.len();
        let (mut pair, mut group) = (vec![0; n], vec![0; n]);
        for (k, &i) in self.fine.order.iter().enumerate() {
            (pair[i], group[i]) = (pairs[k], level.aggregate[k]);
        }
        Some((pair, group))
    }

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
        self.fine.refill(a);
        for l in 0..self.levels.len() {
            let (done, rest) = self.levels.split_at_mut(l);
            let fine = done.last().map_or(&self.fine.matrix, |above| &above.coarse);
            let level = &mut rest[0];
            inverses(fine, &level.diagonal, &mut level.inverses)?;
            level.coarse.clear();
            let coarse = level.coarse.blocks_mut();
            for (block, &k) in fine.blocks().iter().zip(&level.to_coarse) {
                coarse[k] += block;
            }
        }
        let last = self.levels.last().map_or(&self.fine.matrix, |l| &l.coarse);
        self.coarsest = factor(last)?;
        Ok(())
    }
    // ANCHOR_END: refill

    /// z = B r, one V-cycle on the system with the matrix the hierarchy was built or
    /// refilled from and right-hand side r, from z = 0 (r and z in the matrix's own
    /// numbering).
    pub fn cycle(&self, r: &[f64], z: &mut [f64]) {
        let (mut rs, mut zs) = (vec![0.0; r.len()], vec![0.0; z.len()]);
        self.fine.to_sweep_order(r, &mut rs);
        self.cycle_in_sweep_order(&rs, &mut zs);
        self.fine.back_from_sweep_order(&zs, z);
    }

    fn cycle_in_sweep_order(&self, r: &[f64], z: &mut [f64]) {
        let mut scratch = self.scratch.borrow_mut();
        self.cycle_at(0, &self.fine.matrix, r, z, &mut scratch);
    }

    // ANCHOR: solve
    /// Solves A x = b by CG with one V-cycle as its preconditioner, A being the
    /// matrix the hierarchy was built or refilled from, starting from the x given.
    /// CG runs on the hierarchy's copy of A, numbered in sweep order: b and x are
    /// renumbered on the way in and x on the way out, and the matrix that CG
    /// multiplies by is the one the cycle sweeps, read from the same memory.
    pub fn solve(
        &self,
        b: &[f64],
        x: &mut [f64],
        tolerance: f64,
        max_iterations: usize,
    ) -> Result<CgReport, PbmError> {
        let n = D * self.fine.order.len();
        if b.len() != n || x.len() != n {
            let sizes = format!("{n} rows, but b has {} and x {}", b.len(), x.len());
            return Err(PbmError::invalid("multigrid", sizes));
        }
        let (mut bs, mut xs) = (vec![0.0; n], vec![0.0; n]);
        self.fine.to_sweep_order(b, &mut bs);
        self.fine.to_sweep_order(x, &mut xs);
        let report = conjugate_gradient(
            &SweepOrder(self),
            &bs,
            &mut xs,
            tolerance,
            max_iterations,
        );
        self.fine.back_from_sweep_order(&xs, x);
        report
    }
    // ANCHOR_END: solve

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
            let left = self.diagonal[i];
            let mut acc = vector(r, i);
            for (&j, block) in columns[..left].iter().zip(&blocks[..left]) {
                acc -= *block * vector(z, j);
            }
            let zi = self.inverses[i] * acc;
            z[D * i..D * i + D].copy_from_slice(zi.as_slice());
        }
        for i in 0..n {
            let (columns, blocks) = a.row(i);
            let right = self.diagonal[i] + 1;
            let mut acc = SVector::<f64, D>::zeros();
            for (&j, block) in columns[right..].iter().zip(&blocks[right..]) {
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
    /// Gauss–Seidel backward: the mirror image keeps the cycle symmetric. The
    /// colours go last to first; within one the order is free, and ascending reads
    /// memory forwards.
    fn smooth_backward(&self, a: &BlockSparse<D>, r: &[f64], z: &mut [f64]) {
        for colour in self.colours.iter().rev() {
            for i in colour.clone() {
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
    }
    // ANCHOR_END: smooth_backward
}

/// Each level's work vectors.
fn scratch<const D: usize>(levels: &[Level<D>]) -> Vec<Scratch> {
    let scratch = |l: &Level<D>| Scratch {
        residual: vec![0.0; D * l.aggregate.len()],
        coarse_r: vec![0.0; D * l.coarse.block_rows()],
        coarse_z: vec![0.0; D * l.coarse.block_rows()],
    };
    levels.iter().map(scratch).collect()
}

/// Where each row's diagonal block is stored in the row.
fn diagonal_positions<const D: usize>(
    m: &BlockSparse<D>,
) -> Result<Vec<usize>, PbmError> {
    (0..m.block_rows()).map(|i| m.position(i, i)).collect::<Option<_>>().ok_or_else(
        || {
            PbmError::degenerate(
                "multigrid",
                "a row of the matrix has no diagonal block",
            )
        },
    )
}

fn vector<const D: usize>(x: &[f64], i: usize) -> SVector<f64, D> {
    SVector::<f64, D>::from_column_slice(&x[D * i..D * i + D])
}

/// The hierarchy's copy of the matrix, in sweep order, with the V-cycle as CG's
/// preconditioner.
struct SweepOrder<'a, const D: usize>(&'a Multigrid<D>);

impl<const D: usize> LinearOperator for SweepOrder<'_, D> {
    fn dimension(&self) -> usize {
        D * self.0.fine.order.len()
    }
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        self.0.fine.matrix.mul_vec(x, y);
    }
    fn precondition(&self, r: &[f64], z: &mut [f64]) {
        self.0.cycle_in_sweep_order(r, z);
    }
}

/// The coarse matrices dense, for tests: level 1 first.
pub fn coarse_matrices<const D: usize>(mg: &Multigrid<D>) -> Vec<DMatrix<f64>> {
    mg.levels.iter().map(|l| l.coarse.to_dense()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cg::solve_pcg;
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
        // The fine level is A renumbered: block (k, l) is A's (order[k], order[l]).
        let (dense, order) = (a.to_dense(), &mg.fine.order);
        let mut fine = DMatrix::from_fn(dense.nrows(), dense.ncols(), |r, c| {
            dense[(3 * order[r / 3] + r % 3, 3 * order[c / 3] + c % 3)]
        });
        assert_eq!(fine, mg.fine.matrix.to_dense());
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
            mg.cycle(&unit, &mut column);
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
        let mut x = vec![0.0; n];
        let with_mg = mg.solve(&rhs, &mut x, 1e-12, 1000).unwrap();
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

    /// The colours of every level: each node once, no two neighbours alike.
    fn assert_proper_colouring(m: &BlockSparse<3>, colours: &[Range<usize>]) {
        let mut colour = vec![usize::MAX; m.block_rows()];
        for (c, range) in colours.iter().enumerate() {
            for i in range.clone() {
                assert_eq!(colour[i], usize::MAX, "node {i} listed twice");
                colour[i] = c;
            }
        }
        for i in 0..m.block_rows() {
            assert_ne!(colour[i], usize::MAX, "node {i} has no colour");
            for &j in m.row(i).0 {
                assert!(
                    j == i || colour[j] != colour[i],
                    "{i} and {j} share a colour"
                );
            }
        }
    }

    #[test]
    fn every_level_is_numbered_colour_by_colour() {
        let a = swinging_sheet_matrix(16, 4);
        let (order, colours) = colour_order(&a);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..a.block_rows()).collect::<Vec<_>>());
        // Structural and shear springs join each particle to its eight neighbours,
        // which a 2 × 2 pattern of four colours separates; the nailed corners, whose
        // blocks are cut out, shift the greedy choice into a fifth here and there.
        assert!((4..=5).contains(&colours.len()), "{} colours", colours.len());
        let mg = Multigrid::new(&a).unwrap();
        let mut fine = &mg.fine.matrix;
        for level in &mg.levels {
            assert_proper_colouring(fine, &level.colours);
            fine = &level.coarse;
        }
    }

    #[test]
    fn the_backward_sweep_may_take_a_colour_in_any_order() {
        // Nodes of one colour never see each other, so sweeping each colour
        // forwards gives, to the last bit, the sweep in plain reverse order.
        let a = swinging_sheet_matrix(12, 6);
        let mg = Multigrid::new(&a).unwrap();
        let (m, level) = (&mg.fine.matrix, &mg.levels[0]);
        let n = 3 * m.block_rows();
        let r: Vec<f64> = (0..n).map(|i| (i as f64 * 0.61).cos()).collect();
        let start: Vec<f64> = (0..n).map(|i| (i as f64 * 0.23).sin()).collect();
        let mut by_colour = start.clone();
        level.smooth_backward(m, &r, &mut by_colour);
        let mut reverse = start;
        for i in (0..m.block_rows()).rev() {
            let (columns, blocks) = m.row(i);
            let mut acc = vector::<3>(&r, i);
            for (&j, block) in columns.iter().zip(blocks) {
                acc -= *block * vector(&reverse, j);
            }
            let update = level.inverses[i] * acc;
            for k in 0..3 {
                reverse[3 * i + k] += update[k];
            }
        }
        assert_eq!(by_colour, reverse);
    }

    #[test]
    fn the_solve_answers_in_the_matrix_s_own_numbering() {
        let a = swinging_sheet_matrix(10, 4);
        let mg = Multigrid::new(&a).unwrap();
        let n = 3 * a.block_rows();
        let rhs: Vec<f64> = (0..n).map(|i| (i as f64 * 0.7).sin()).collect();
        let mut x = vec![0.0; n];
        mg.solve(&rhs, &mut x, 1e-12, 1000).unwrap();
        let mut ax = vec![0.0; n];
        a.mul_vec(&x, &mut ax);
        let gap = ax.iter().zip(&rhs).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max);
        assert!(gap < 1e-9, "{gap:e}");
        // Vectors of the wrong length are refused.
        assert!(mg.solve(&rhs[1..], &mut x, 1e-6, 10).is_err());
    }
}
