//! A block-sparse symmetric matrix for mass–spring systems: one D × D block for every
//! pair of particles joined by a spring, plus the diagonal. Its pattern is the spring
//! graph, so storing and multiplying it costs time proportional to the number of
//! springs, not n².

use nalgebra::{DMatrix, SMatrix, SVector};

/// A D × D block.
pub type Block<const D: usize> = SMatrix<f64, D, D>;

// ANCHOR: block_sparse
/// Compressed rows of blocks: row i's blocks are `blocks[start[i]..start[i + 1]]`,
/// in the block columns at the same places of `columns`, sorted. Three flat
/// arrays, so a product walks memory in order. Vectors are flat, D numbers per
/// particle.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockSparse<const D: usize> {
    start: Vec<usize>,
    columns: Vec<usize>,
    blocks: Vec<Block<D>>,
}

impl<const D: usize> BlockSparse<D> {
    /// y = A x.
    pub fn mul_vec(&self, x: &[f64], y: &mut [f64]) {
        for (i, yi) in y.chunks_exact_mut(D).enumerate() {
            let mut acc = SVector::<f64, D>::zeros();
            for k in self.start[i]..self.start[i + 1] {
                let j = self.columns[k];
                acc += self.blocks[k]
                    * SVector::<f64, D>::from_column_slice(&x[D * j..D * j + D]);
            }
            yi.copy_from_slice(acc.as_slice());
        }
    }
}
// ANCHOR_END: block_sparse

impl<const D: usize> BlockSparse<D> {
    /// Number of block rows (particles).
    pub fn block_rows(&self) -> usize {
        self.start.len() - 1
    }

    /// Row i's stored blocks and their block columns.
    #[inline]
    pub fn row(&self, i: usize) -> (&[usize], &[Block<D>]) {
        let range = self.start[i]..self.start[i + 1];
        (&self.columns[range.clone()], &self.blocks[range])
    }

    /// Where row i's blocks start in [`BlockSparse::blocks`] (and end, at i + 1).
    pub fn row_start(&self, i: usize) -> usize {
        self.start[i]
    }

    /// Every stored block, row after row; the block column of each is at the same
    /// place in [`BlockSparse::columns`].
    pub fn blocks(&self) -> &[Block<D>] {
        &self.blocks
    }

    /// Every stored block, to refill in place (the pattern stays).
    pub fn blocks_mut(&mut self) -> &mut [Block<D>] {
        &mut self.blocks
    }

    /// The block column of every stored block.
    pub fn columns(&self) -> &[usize] {
        &self.columns
    }

    /// The diagonal block of row i (zero if absent).
    pub fn diagonal_block(&self, i: usize) -> Block<D> {
        self.position(i, i).map_or(Block::zeros(), |k| self.blocks[self.start[i] + k])
    }

    /// Number of stored blocks.
    pub fn stored_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Every stored entry as (row, column, value), for handing the matrix to other
    /// solvers.
    pub fn entries(&self) -> Vec<(usize, usize, f64)> {
        let mut out = Vec::with_capacity(self.stored_blocks() * D * D);
        for i in 0..self.block_rows() {
            let (columns, blocks) = self.row(i);
            for (j, block) in columns.iter().zip(blocks) {
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
        let n = D * self.block_rows();
        let mut m = DMatrix::zeros(n, n);
        for i in 0..self.block_rows() {
            let (columns, blocks) = self.row(i);
            for (&j, block) in columns.iter().zip(blocks) {
                m.view_mut((D * i, D * j), (D, D)).copy_from(block);
            }
        }
        m
    }
}

impl<const D: usize> BlockSparse<D> {
    /// From each row's (column, block) lists, sorting each row by column.
    fn from_rows(rows: Vec<Vec<(usize, Block<D>)>>) -> Self {
        let mut start = Vec::with_capacity(rows.len() + 1);
        start.push(0);
        let total = rows.iter().map(Vec::len).sum();
        let (mut columns, mut blocks) =
            (Vec::with_capacity(total), Vec::with_capacity(total));
        for mut row in rows {
            row.sort_unstable_by_key(|(j, _)| *j);
            for (j, b) in row {
                columns.push(j);
                blocks.push(b);
            }
            start.push(columns.len());
        }
        BlockSparse { start, columns, blocks }
    }

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
        Self::from_rows(rows)
    }

    /// Where block (i, j) is stored in row i, if it is part of the pattern.
    pub fn position(&self, i: usize, j: usize) -> Option<usize> {
        if i + 1 >= self.start.len() {
            return None;
        }
        self.columns[self.start[i]..self.start[i + 1]].binary_search(&j).ok()
    }

    /// The block stored at `position` of row i (see [`BlockSparse::position`]).
    pub fn block_mut(&mut self, i: usize, position: usize) -> &mut Block<D> {
        &mut self.blocks[self.start[i] + position]
    }

    /// The same matrix with its nodes renumbered, node `order[k]` becoming node k
    /// (`order` lists every node once), and for each stored block of the result,
    /// where it is stored in this one.
    pub(crate) fn renumbered(&self, order: &[usize]) -> (Self, Vec<usize>) {
        let rank = ranks(order);
        let mut start = Vec::with_capacity(order.len() + 1);
        start.push(0);
        let (mut columns, mut slots) = (Vec::new(), Vec::new());
        let mut row = Vec::new();
        for &old in order {
            row.clear();
            let stored = self.start[old]..self.start[old + 1];
            row.extend(stored.map(|k| (rank[self.columns[k]], k)));
            row.sort_unstable();
            columns.extend(row.iter().map(|&(j, _)| j));
            slots.extend(row.iter().map(|&(_, k)| k));
            start.push(columns.len());
        }
        let blocks = slots.iter().map(|&k| self.blocks[k]).collect();
        (BlockSparse { start, columns, blocks }, slots)
    }

    /// Sets every stored block to zero, keeping the pattern.
    pub fn clear(&mut self) {
        self.blocks.fill(Block::zeros());
    }
}

// ANCHOR: refill
/// A matrix whose fixed pattern is refilled every step by the same sequence of block
/// additions (the same forces in the same order). The first refill finds each
/// block's place by a search of its row and remembers it; later ones check the
/// remembered place with two comparisons and search only where it no longer fits.
#[derive(Debug, Clone)]
pub struct Refill<const D: usize> {
    matrix: BlockSparse<D>,
    /// Where the k-th addition of the last refill landed in the matrix's blocks.
    slots: Vec<usize>,
    next: usize,
    /// False once an addition fell outside the pattern.
    complete: bool,
}

impl<const D: usize> Refill<D> {
    /// Starts a refill: every block zero, the pattern and the remembered places kept.
    pub fn start(&mut self) {
        self.matrix.clear();
        (self.next, self.complete) = (0, true);
    }

    /// A += block at (i, j).
    pub fn add(&mut self, i: usize, j: usize, block: &Block<D>) {
        let m = &self.matrix;
        let remembered = self.slots.get(self.next).copied().filter(|&k| {
            (m.start[i]..m.start[i + 1]).contains(&k) && m.columns[k] == j
        });
        let Some(k) = remembered.or_else(|| Some(m.start[i] + m.position(i, j)?))
        else {
            self.complete = false;
            return;
        };
        self.matrix.blocks[k] += block;
        match self.slots.get_mut(self.next) {
            Some(slot) => *slot = k,
            None => self.slots.push(k),
        }
        self.next += 1;
    }
}
// ANCHOR_END: refill

impl<const D: usize> Refill<D> {
    /// A matrix to refill, with no places remembered yet.
    pub fn new(matrix: BlockSparse<D>) -> Self {
        Refill { matrix, slots: Vec::new(), next: 0, complete: true }
    }

    /// Whether every addition since [`Refill::start`] fell inside the pattern.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The matrix as refilled so far.
    pub fn matrix(&self) -> &BlockSparse<D> {
        &self.matrix
    }

    /// The matrix, without the remembered places.
    pub fn into_matrix(self) -> BlockSparse<D> {
        self.matrix
    }
}

/// Each node's place in `order`, a list of every node once.
pub(crate) fn ranks(order: &[usize]) -> Vec<usize> {
    let mut rank = vec![0; order.len()];
    for (k, &i) in order.iter().enumerate() {
        rank[i] = k;
    }
    rank
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
    pub fn build(self) -> BlockSparse<D> {
        BlockSparse::from_rows(self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(v: f64) -> Block<2> {
        Block::<2>::new(v, 0.5 * v, 0.5 * v, 2.0 * v)
    }

    /// A path 0 – 1 – 2, in blocks.
    fn path() -> BlockSparse<2> {
        BlockSparse::with_pattern(3, [(0, 1), (1, 2)])
    }

    fn fill(refill: &mut Refill<2>, adds: &[(usize, usize, f64)]) {
        refill.start();
        for &(i, j, v) in adds {
            refill.add(i, j, &block(v));
        }
    }

    #[test]
    fn a_refill_remembers_where_each_addition_landed() {
        let adds = [(0, 0, 1.0), (0, 1, 2.0), (1, 0, 2.0), (1, 1, 3.0), (1, 1, 1.0)];
        let mut built = BlockBuilder::new(3);
        for &(i, j, v) in &adds {
            built.add(i, j, &block(v));
        }
        let expected = built.build().to_dense();
        let mut refill = Refill::new(path());
        fill(&mut refill, &adds);
        assert!(refill.is_complete());
        assert_eq!(refill.matrix().to_dense(), expected);
        // The second refill uses the remembered places, and starts from zero.
        fill(&mut refill, &adds);
        assert_eq!(refill.matrix().to_dense(), expected);
        // Additions in another order miss their remembered places and are found by a
        // search instead: the same matrix.
        let mut reversed = adds;
        reversed.reverse();
        fill(&mut refill, &reversed);
        assert_eq!(refill.matrix().to_dense(), expected);
        // A block outside the pattern leaves the refill incomplete.
        fill(&mut refill, &[(0, 2, 1.0)]);
        assert!(!refill.is_complete());
    }

    #[test]
    fn renumbering_moves_rows_and_columns_together() {
        let mut m = path();
        for (k, b) in m.blocks_mut().iter_mut().enumerate() {
            *b = block(k as f64 + 1.0);
        }
        let order = [2, 0, 1];
        let (renumbered, slots) = m.renumbered(&order);
        let (dense, new) = (m.to_dense(), renumbered.to_dense());
        for (p, &i) in order.iter().enumerate() {
            for (q, &j) in order.iter().enumerate() {
                let old = dense.view((2 * i, 2 * j), (2, 2));
                assert_eq!(new.view((2 * p, 2 * q), (2, 2)), old);
            }
        }
        for (k, &slot) in slots.iter().enumerate() {
            assert_eq!(renumbered.blocks()[k], m.blocks()[slot]);
        }
    }
}
