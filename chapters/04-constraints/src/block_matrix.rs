//! The block-sparse Jacobian of the course notes ("Constrained Dynamics", section
//! 4.2). Every constraint–particle pair the constraint depends on owns one dense
//! block; every other block of J is zero and is not stored. Two products are all the
//! constraint solve needs: J x and Jᵀ x.

use nalgebra::DMatrix;
use pbm_implicit::cg::dot;

// ANCHOR: block
/// One non-zero block of a block-sparse matrix: `rows × cols` numbers, row-major,
/// whose top-left corner sits at (`row`, `col`) of the whole matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixBlock {
    /// First row of the block in the whole matrix (the constraint's offset in C).
    pub row: usize,
    /// First column (the particle's offset in q).
    pub col: usize,
    /// Height: how many scalar constraints the constraint contributes.
    pub rows: usize,
    /// Width: the dimension of the space the particles live in.
    pub cols: usize,
    /// The entries, row-major.
    pub data: Vec<f64>,
}

/// A rectangular matrix stored as a list of its non-zero blocks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BlockMatrix {
    /// Number of rows (the length of C).
    pub n_rows: usize,
    /// Number of columns (the length of q).
    pub n_cols: usize,
    /// The blocks, in the order the constraints created them.
    pub blocks: Vec<MatrixBlock>,
}
// ANCHOR_END: block

// ANCHOR: block_products
impl BlockMatrix {
    /// y = A x: every block multiplies its slice of x into its slice of y.
    pub fn mul_vec(&self, x: &[f64], y: &mut [f64]) {
        y.fill(0.0);
        for b in &self.blocks {
            for r in 0..b.rows {
                let row = &b.data[r * b.cols..(r + 1) * b.cols];
                y[b.row + r] += dot(row, &x[b.col..b.col + b.cols]);
            }
        }
    }

    /// y = Aᵀ x: the same loop with the roles of the slices swapped.
    pub fn mul_transpose_vec(&self, x: &[f64], y: &mut [f64]) {
        y.fill(0.0);
        for b in &self.blocks {
            for r in 0..b.rows {
                let xr = x[b.row + r];
                for c in 0..b.cols {
                    y[b.col + c] += b.data[r * b.cols + c] * xr;
                }
            }
        }
    }
}
// ANCHOR_END: block_products

impl MatrixBlock {
    /// A zero block of the given shape at (row, col).
    pub fn zeros(row: usize, col: usize, rows: usize, cols: usize) -> Self {
        MatrixBlock { row, col, rows, cols, data: vec![0.0; rows * cols] }
    }

    /// Row r of the block.
    pub fn row_mut(&mut self, r: usize) -> &mut [f64] {
        &mut self.data[r * self.cols..(r + 1) * self.cols]
    }
}

impl BlockMatrix {
    /// An empty (all-zero) matrix of the given size.
    pub fn new(n_rows: usize, n_cols: usize) -> Self {
        BlockMatrix { n_rows, n_cols, blocks: Vec::new() }
    }

    /// The same matrix, dense, summing blocks that overlap (for tests and for the
    /// dense and direct solvers the benchmark compares against).
    pub fn to_dense(&self) -> DMatrix<f64> {
        let mut m = DMatrix::zeros(self.n_rows, self.n_cols);
        for b in &self.blocks {
            for r in 0..b.rows {
                for c in 0..b.cols {
                    m[(b.row + r, b.col + c)] += b.data[r * b.cols + c];
                }
            }
        }
        m
    }

    /// The diagonal of A diag(w) Aᵀ, without forming the product: row i collects Σ_c
    /// A_ic² w_c over the blocks in that row. This is the Jacobi preconditioner of
    /// the constraint solve.
    pub fn weighted_row_norms(&self, w: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        for b in &self.blocks {
            for r in 0..b.rows {
                out[b.row + r] += (0..b.cols)
                    .map(|c| b.data[r * b.cols + c].powi(2) * w[b.col + c])
                    .sum::<f64>();
            }
        }
    }
}
