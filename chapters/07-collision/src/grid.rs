//! A uniform grid: the broad phase for many boxes of about one size.
//!
//! The coherent sweep's cost grows with the exchanges of ends along an axis, and in a
//! plane full of boxes those grow as n^1.5. A grid does not sort at all. Its cells are
//! no narrower than the longest side of any box, so a box touches at most two cells
//! along each axis, and wide enough to hold about two boxes each; each box is listed
//! in the cells it touches, and two boxes are tested only if they share a cell.
//! Rebuilt from scratch every step, it costs O(n) plus the pairs listed together,
//! whatever the boxes did since the last step.

use crate::aabb::Aabb;
use crate::sweep::Pair;
use pbm_prelim::PbmError;

/// How many boxes a cell holds on average. Fewer means more cells to visit and more
/// boxes listed twice; more means more pairs tested in each cell. Measured on Baraff's
/// Table 1 scene (see the chapter's page).
pub const BOXES_PER_CELL: f64 = 2.0;

/// The cells' placement for one step: where they start, how wide, how many per axis.
#[derive(Debug, Clone, Copy)]
struct Frame<const D: usize> {
    origin: [f64; D],
    inverse_width: f64,
    dims: [usize; D],
    cells: usize,
}

impl<const D: usize> Frame<D> {
    /// Cells of equal width covering every box: wide enough that a cell holds about
    /// [`BOXES_PER_CELL`] boxes on average (the boxes' total extent over their
    /// number), and never narrower than the longest box side, so that a box touches at
    /// most two cells along each axis. Boxes strung out along a line would still ask
    /// for far more cells than boxes; then the cells are widened, doubling, until
    /// there are at most 4 n + 64: memory stays O(n).
    fn around(boxes: &[Aabb<D>]) -> Self {
        let (mut origin, mut top, mut side) = ([f64::MAX; D], [f64::MIN; D], 0.0_f64);
        for b in boxes {
            for k in 0..D {
                origin[k] = origin[k].min(b.min[k]);
                top[k] = top[k].max(b.max[k]);
                side = side.max(b.max[k] - b.min[k]);
            }
        }
        let extent: f64 = (0..D).map(|k| (top[k] - origin[k]).max(side)).product();
        let per_cell = extent * BOXES_PER_CELL / boxes.len().max(1) as f64;
        let mut width = side.max(per_cell.powf(1.0 / D as f64));
        let limit = 4 * boxes.len() + 64;
        loop {
            let mut cells = 1_usize;
            let dims = std::array::from_fn(|k| {
                let span = ((top[k] - origin[k]) / width).floor();
                let d =
                    if span < limit as f64 { span as usize + 1 } else { limit + 1 };
                cells = cells.saturating_mul(d);
                d
            });
            if cells <= limit {
                return Frame { origin, inverse_width: 1.0 / width, dims, cells };
            }
            width *= 2.0;
        }
    }

    /// The cell coordinates of point `x`.
    fn coords(&self, x: &[f64; D]) -> [usize; D] {
        std::array::from_fn(|k| {
            let c = ((x[k] - self.origin[k]) * self.inverse_width) as usize;
            c.min(self.dims[k] - 1)
        })
    }

    /// The index of the cell at `coords`, the first axis fastest.
    fn index(&self, coords: &[usize; D]) -> usize {
        (0..D).rev().fold(0, |i, k| i * self.dims[k] + coords[k])
    }

    /// Calls `f` with every cell box `b` touches, and which corner of the box's block
    /// of cells it is: bit k set if it is the upper of the two cells along axis k.
    fn for_each_cell(&self, b: &Aabb<D>, mut f: impl FnMut(usize, u8)) {
        let (low, high) = (self.coords(&b.min), self.coords(&b.max));
        let (mut at, mut corner) = (low, 0_u8);
        loop {
            f(self.index(&at), corner);
            // The next cell in the block low..=high, like an odometer.
            let mut k = 0;
            while k < D && at[k] == high[k] {
                at[k] = low[k];
                corner &= !(1 << k);
                k += 1;
            }
            if k == D {
                return;
            }
            at[k] += 1;
            corner |= 1 << k;
        }
    }
}

/// The grid's lists, kept from step to step so that a step allocates nothing once
/// they have grown to size.
#[derive(Debug, Clone)]
pub struct UniformGrid<const D: usize> {
    /// Cell c's boxes are `listed[starts[c]..starts[c + 1]]`, in increasing order of
    /// index, each with a copy of its box (a cell's test reads memory in order) and the
    /// corner of the box's block of cells that c is.
    starts: Vec<u32>,
    listed: Vec<(u32, u8, Aabb<D>)>,
    cursor: Vec<u32>,
    pairs: Vec<Pair>,
}

impl<const D: usize> Default for UniformGrid<D> {
    fn default() -> Self {
        UniformGrid {
            starts: Vec::new(),
            listed: Vec::new(),
            cursor: Vec::new(),
            pairs: Vec::new(),
        }
    }
}

impl<const D: usize> UniformGrid<D> {
    /// An empty grid.
    pub fn new() -> Self {
        UniformGrid::default()
    }

    /// How many cells the last update used.
    pub fn cells(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    // ANCHOR: grid
    /// Every overlapping pair of `boxes`, each once, the smaller index first. Lists
    /// each box in the cells it touches (counted, then placed: a counting sort), then
    /// tests the boxes listed together. Two boxes can share up to 2^D cells; the pair
    /// is reported in the one holding the lower corner of their overlap, which is the
    /// cell that is a lower corner of its block for one box or the other on every
    /// axis: no bit set in both boxes' corner marks.
    pub fn update(&mut self, boxes: &[Aabb<D>]) -> Result<&[Pair], PbmError> {
        crate::sweep::index_of(boxes.len())?;
        let frame = Frame::around(boxes);
        self.starts.clear();
        self.starts.resize(frame.cells + 1, 0);
        for b in boxes {
            frame.for_each_cell(b, |c, _| self.starts[c + 1] += 1);
        }
        for c in 0..frame.cells {
            self.starts[c + 1] += self.starts[c];
        }
        let empty = (0, 0, Aabb { min: [0.0; D], max: [0.0; D] });
        self.listed.resize(self.starts[frame.cells] as usize, empty);
        self.cursor.clone_from(&self.starts);
        for (i, b) in boxes.iter().enumerate() {
            frame.for_each_cell(b, |c, corner| {
                self.listed[self.cursor[c] as usize] = (i as u32, corner, *b);
                self.cursor[c] += 1;
            });
        }
        self.pairs.clear();
        for c in 0..frame.cells {
            let list =
                &self.listed[self.starts[c] as usize..self.starts[c + 1] as usize];
            for (k, &(i, corner_a, a)) in list.iter().enumerate() {
                for &(j, corner_b, b) in &list[k + 1..] {
                    if corner_a & corner_b == 0 && a.overlaps(&b) {
                        self.pairs.push((i, j));
                    }
                }
            }
        }
        Ok(&self.pairs)
    }
    // ANCHOR_END: grid
}
