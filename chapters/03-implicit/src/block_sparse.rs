//! A block-sparse symmetric matrix for mass–spring systems: one D × D block for every
//! pair of particles joined by a spring, plus the diagonal. Its pattern is the spring
//! graph, so storing and multiplying it costs time proportional to the number of
//! springs, not n².

use nalgebra::{DMatrix, SMatrix, SVector};

/// A D × D block.
pub type Block<const D: usize> = SMatrix<f64, D, D>;

// ANCHOR: block_sparse
/// Rows of blocks: `rows[i]` lists (j, block) for the non-zero blocks of block row i,
/// sorted by j. Vectors are flat, D numbers per particle.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockSparse<const D: usize> {
    rows: Vec<Vec<(usize, Block<D>)>>,
}

impl<const D: usize> BlockSparse<D> {
    /// y = A x.
    pub fn mul_vec(&self, x: &[f64], y: &mut [f64]) {
        for (i, row) in self.rows.iter().enumerate() {
            let mut acc = SVector::<f64, D>::zeros();
            for (j, block) in row {
                acc += block
                    * SVector::<f64, D>::from_column_slice(&x[D * j..D * j + D]);
            }
            y[D * i..D * i + D].copy_from_slice(acc.as_slice());
        }
    }
}
// ANCHOR_END: block_sparse

impl<const D: usize> BlockSparse<D> {
    /// Number of block rows (particles).
    pub fn block_rows(&self) -> usize {
        self.rows.len()
    }

    /// The diagonal block of row i (zero if absent).
    pub fn diagonal_block(&self, i: usize) -> Block<D> {
        self.rows[i].iter().find(|(j, _)| *j == i).map_or(Block::zeros(), |(_, b)| *b)
    }

    /// Number of stored blocks.
    pub fn stored_blocks(&self) -> usize {
        self.rows.iter().map(Vec::len).sum()
    }

    /// Every stored entry as (row, column, value), for handing the matrix to other
    /// solvers.
    pub fn entries(&self) -> Vec<(usize, usize, f64)> {
        let mut out = Vec::with_capacity(self.stored_blocks() * D * D);
        for (i, row) in self.rows.iter().enumerate() {
            for (j, block) in row {
                for r in 0..D {
                    for c in 0..D {
                        out.push((D * i + r, D * j + c, block[(r, c)]));
                    }
                }
            }
        }
        out
    }

    /// The same matrix, dense (for tests on small systems).
    pub fn to_dense(&self) -> DMatrix<f64> {
        let n = D * self.rows.len();
        let mut m = DMatrix::zeros(n, n);
        for (i, row) in self.rows.iter().enumerate() {
            for (j, block) in row {
                m.view_mut((D * i, D * j), (D, D)).copy_from(block);
            }
        }
        m
    }
}

impl<const D: usize> BlockSparse<D> {
    /// Zero blocks at the diagonal and at (i, j) and (j, i) for every pair given: a
    /// matrix whose pattern is fixed once (by a mesh) and refilled every step with
    /// [`BlockSparse::block_mut`], without searching a map.
    pub fn with_pattern(
        n: usize,
        pairs: impl IntoIterator<Item = (usize, usize)>,
    ) -> Self {
        let mut columns: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
        for (i, j) in pairs {
            if i < n && j < n {
                columns[i].push(j);
                columns[j].push(i);
            }
        }
        let rows = columns
            .into_iter()
            .map(|mut c| {
                c.sort_unstable();
                c.dedup();
                c.into_iter().map(|j| (j, Block::zeros())).collect()
            })
            .collect();
        BlockSparse { rows }
    }

    /// Where block (i, j) is stored in row i, if it is part of the pattern.
    pub fn position(&self, i: usize, j: usize) -> Option<usize> {
        self.rows.get(i)?.binary_search_by_key(&j, |(c, _)| *c).ok()
    }

    /// The block stored at `position` of row i (see [`BlockSparse::position`]).
    pub fn block_mut(&mut self, i: usize, position: usize) -> &mut Block<D> {
        &mut self.rows[i][position].1
    }

    /// Sets every stored block to zero, keeping the pattern.
    pub fn clear(&mut self) {
        for row in &mut self.rows {
            for (_, b) in row {
                *b = Block::zeros();
            }
        }
    }
}

/// Accumulates blocks by (row, column) and freezes them into a [`BlockSparse`]. Each
/// row is a short list searched from the end: a spring touches its row's latest
/// entries, and a mesh's rows hold a handful of blocks, so an add costs a few
/// comparisons, not a search through a map of every block.
#[derive(Debug, Clone)]
pub struct BlockBuilder<const D: usize> {
    rows: Vec<Vec<(usize, Block<D>)>>,
}

impl<const D: usize> BlockBuilder<D> {
    /// An empty n × n (in blocks) matrix.
    pub fn new(n: usize) -> Self {
        BlockBuilder { rows: vec![Vec::new(); n] }
    }

    /// A += block at (i, j).
    pub fn add(&mut self, i: usize, j: usize, block: &Block<D>) {
        let row = &mut self.rows[i];
        match row.iter_mut().rev().find(|(c, _)| *c == j) {
            Some((_, b)) => *b += block,
            None => row.push((j, *block)),
        }
    }

    /// The finished matrix, each row sorted by column.
    pub fn build(mut self) -> BlockSparse<D> {
        for row in &mut self.rows {
            row.sort_unstable_by_key(|(j, _)| *j);
        }
        BlockSparse { rows: self.rows }
    }
}
