//! Spatial interaction forces (course notes, "Particle System Dynamics", section
//! 4.3): any two particles closer than a cutoff push or pull each other. Checking
//! every pair costs O(n²); a uniform grid of cells as wide as the cutoff only checks
//! neighbouring cells. Each computes every particle's force on its own, in a fixed
//! order, so the parallel loop over particles gives the same bits with any number of
//! threads; the two methods sum in different orders and agree to rounding.

use crate::particle::Force;
use crate::particle::{Particle, Vector};
use pbm_prelim::PbmError;
use pbm_prelim::parallel::{for_each_indexed_with, map_range};
use pbm_prelim::validate::{non_negative, positive};

// ANCHOR: pair_law
/// A smooth short-range law. Between particles a distance r apart (r < cutoff) the
/// force along the line joining them is k (1 − r/r_c)² (r_0 − r): repulsive closer
/// than r_0, attractive beyond, and zero with zero slope at the cutoff r_c, so
/// nothing jumps when a pair enters or leaves the neighbourhood.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairLaw {
    /// Strength k (N/m).
    pub k: f64,
    /// Preferred distance r_0 (m).
    pub r0: f64,
    /// Cutoff r_c (m), larger than r_0.
    pub cutoff: f64,
}
// ANCHOR_END: pair_law

// ANCHOR: pair_law_impl
impl PairLaw {
    /// Validates 0 < r_0 < r_c and k ≥ 0, all finite.
    pub fn new(k: f64, r0: f64, cutoff: f64) -> Result<Self, PbmError> {
        let (k, r0) =
            (non_negative("pair law", "k", k)?, positive("pair law", "r0", r0)?);
        let cutoff = positive("pair law", "cutoff", cutoff)?;
        if cutoff <= r0 {
            return Err(PbmError::invalid(
                "pair law",
                format!("cutoff = {cutoff}; it must be larger than r0 = {r0}"),
            ));
        }
        Ok(PairLaw { k, r0, cutoff })
    }

    /// The force on a particle at `xi` from one at `xj` (zero beyond the cutoff or
    /// when the two coincide).
    pub fn force<const D: usize>(&self, xi: &Vector<D>, xj: &Vector<D>) -> Vector<D> {
        let d = xi - xj;
        let r = d.norm();
        if r >= self.cutoff || r == 0.0 {
            return Vector::zeros();
        }
        self.along(&d, r)
    }

    /// The force for the offset `d` = x_i − x_j of length `r` (0 < r < cutoff).
    #[inline]
    pub fn along<const D: usize>(&self, d: &Vector<D>, r: f64) -> Vector<D> {
        let fade = 1.0 - r / self.cutoff;
        d * (self.k * fade * fade * (self.r0 - r) / r)
    }
}
// ANCHOR_END: pair_law_impl

/// Forces on every particle from every other, checking all pairs: O(n²).
pub fn brute_force_forces<const D: usize>(
    law: &PairLaw,
    x: &[Vector<D>],
) -> Vec<Vector<D>> {
    map_range(x.len(), |i| {
        let mut f = Vector::zeros();
        for (j, xj) in x.iter().enumerate() {
            if j != i && (x[i] - xj).norm() < law.cutoff {
                f += law.force(&x[i], xj);
            }
        }
        f
    })
}

type Cell<const D: usize> = [i64; D];

fn cell_of<const D: usize>(x: &Vector<D>, size: f64) -> Cell<D> {
    std::array::from_fn(|k| (x[k] / size).floor() as i64)
}

/// The bucket of a cell: its coordinates hashed into `mask + 1` buckets (a power of
/// two). Distant cells may share a bucket; their particles then fail the distance
/// test, so a collision costs a few checks, never a wrong force.
fn bucket_of<const D: usize>(cell: &Cell<D>, mask: usize) -> usize {
    const PRIMES: [u64; 3] = [73_856_093, 19_349_663, 83_492_791];
    let h = cell
        .iter()
        .zip(PRIMES.iter().cycle())
        .fold(0u64, |h, (&c, &p)| h ^ (c as u64).wrapping_mul(p));
    (h as usize) & mask
}

// ANCHOR: grid
/// A uniform grid of cells of side `cutoff`: every neighbour of a particle lies in
/// its own cell or one of the 3^D − 1 cells around it. Each cell gets a bucket, and
/// the particles are sorted by bucket with a counting sort, so a bucket's particles
/// sit next to each other in one array: `start[b]..start[b + 1]` of `order` (their
/// indices) and of `sorted` (their positions, copied, so the inner loop reads memory
/// in order). Where the particles' cells fill a box of at most 4n cells, the bucket
/// is the cell's row-major index in that box, and neighbouring cells are near each
/// other in memory; otherwise (a few particles far away) cells are hashed into 2n
/// buckets.
pub struct UniformGrid<const D: usize> {
    size: f64,
    buckets: Buckets<D>,
    start: Vec<u32>,
    order: Vec<u32>,
    sorted: Vec<Vector<D>>,
    /// Scratch kept between rebuilds: each particle's bucket, the next free slot of
    /// each bucket, and the forces in bucket order.
    of: Vec<u32>,
    next: Vec<u32>,
    in_order: Vec<Vector<D>>,
}

/// How a cell finds its bucket.
enum Buckets<const D: usize> {
    /// Row-major in the box of cells from `lo`, `dims` wide.
    Dense { lo: Cell<D>, dims: [usize; D] },
    /// Hashed, with `mask + 1` buckets.
    Hashed { mask: usize },
}
// ANCHOR_END: grid

impl<const D: usize> Buckets<D> {
    // ANCHOR: buckets
    /// Dense buckets for the box of cells the particles at `x` occupy, if it has at
    /// most about 4n cells; hashed buckets, about 2n of them, otherwise.
    fn covering(x: &[Vector<D>], size: f64) -> Self {
        let (mut lo, mut hi) = ([i64::MAX; D], [i64::MIN; D]);
        for xi in x {
            let c = cell_of(xi, size);
            for k in 0..D {
                lo[k] = lo[k].min(c[k]);
                hi[k] = hi[k].max(c[k]);
            }
        }
        let dims: [usize; D] =
            std::array::from_fn(|k| hi[k].abs_diff(lo[k]) as usize + 1);
        let box_cells = dims.iter().try_fold(1usize, |p, &d| p.checked_mul(d));
        match box_cells {
            Some(n) if n <= 4 * x.len() + 64 => Buckets::Dense { lo, dims },
            _ => Buckets::Hashed { mask: (2 * x.len()).next_power_of_two() - 1 },
        }
    }

    /// The bucket of `cell`, or none if it is outside the dense box (so empty).
    fn of(&self, cell: &Cell<D>) -> Option<usize> {
        match self {
            Buckets::Dense { lo, dims } => {
                let mut index = 0;
                for k in (0..D).rev() {
                    let c = cell[k] - lo[k];
                    if c < 0 || c as usize >= dims[k] {
                        return None;
                    }
                    index = index * dims[k] + c as usize;
                }
                Some(index)
            }
            Buckets::Hashed { mask } => Some(bucket_of(cell, *mask)),
        }
    }
    // ANCHOR_END: buckets

    fn count(&self) -> usize {
        match self {
            Buckets::Dense { dims, .. } => dims.iter().product(),
            Buckets::Hashed { mask } => mask + 1,
        }
    }
}

impl<const D: usize> UniformGrid<D> {
    /// Buckets the particles at `x` into cells of side `size`: count per bucket,
    /// prefix sums, then place each particle (in index order, so a bucket lists its
    /// particles in increasing index order).
    pub fn build(x: &[Vector<D>], size: f64) -> Self {
        let mut grid = UniformGrid {
            size,
            buckets: Buckets::Hashed { mask: 0 },
            start: Vec::new(),
            order: Vec::new(),
            sorted: Vec::new(),
            of: Vec::new(),
            next: Vec::new(),
            in_order: Vec::new(),
        };
        grid.rebuild(x, size);
        grid
    }

    // ANCHOR: rebuild
    /// [`Self::build`] again for new positions, reusing the arrays: a simulation
    /// rebuilds its grid at every force evaluation, and fresh arrays would cost more
    /// in page faults than the sort itself.
    pub fn rebuild(&mut self, x: &[Vector<D>], size: f64) {
        self.size = size;
        self.buckets = Buckets::covering(x, size);
        self.count_per_bucket(x);
        self.place_by_bucket(x);
    }

    /// Each particle's bucket into `of`, and the running sum of the counts per
    /// bucket into `start`, so that bucket b's particles get `start[b]..start[b + 1]`.
    fn count_per_bucket(&mut self, x: &[Vector<D>]) {
        let size = self.size;
        self.of.clear();
        self.of.extend(
            x.iter()
                .map(|xi| self.buckets.of(&cell_of(xi, size)).unwrap_or(0) as u32),
        );
        let count = self.buckets.count();
        self.start.clear();
        self.start.resize(count + 1, 0);
        for &b in &self.of {
            self.start[b as usize + 1] += 1;
        }
        for b in 0..count {
            self.start[b + 1] += self.start[b];
        }
    }
    // ANCHOR_END: rebuild

    // ANCHOR: place
    /// Each particle, and its position, into its bucket's next free slot.
    fn place_by_bucket(&mut self, x: &[Vector<D>]) {
        self.next.clear();
        self.next.extend_from_slice(&self.start);
        self.order.resize(x.len(), 0);
        self.sorted.resize(x.len(), Vector::zeros());
        for (i, (&b, xi)) in self.of.iter().zip(x).enumerate() {
            let slot = self.next[b as usize] as usize;
            (self.order[slot], self.sorted[slot]) = (i as u32, *xi);
            self.next[b as usize] += 1;
        }
    }
    // ANCHOR_END: place

    // ANCHOR: neighbours
    /// The distinct buckets of the 3^D cells around `x`, into `out`: two neighbour
    /// cells hashed to one bucket must not count its particles twice.
    fn buckets_around(&self, x: &Vector<D>, out: &mut Vec<usize>) {
        out.clear();
        let center = cell_of(x, self.size);
        for offset in 0..3usize.pow(D as u32) {
            let mut rest = offset;
            let cell: Cell<D> = std::array::from_fn(|k| {
                let step = (rest % 3) as i64 - 1;
                rest /= 3;
                center[k] + step
            });
            if let Some(b) = self.buckets.of(&cell)
                && !out.contains(&b)
            {
                out.push(b);
            }
        }
    }

    /// The range of `order` and `sorted` that bucket `b` occupies.
    fn range(&self, b: usize) -> std::ops::Range<usize> {
        self.start[b] as usize..self.start[b + 1] as usize
    }
    // ANCHOR_END: neighbours

    /// The counting sort's offsets: bucket b's particles are
    /// `order()[starts()[b]..starts()[b + 1]]` (for a reader, a test or a figure).
    pub fn starts(&self) -> &[u32] {
        &self.start
    }

    /// The particles' indices in bucket order: the counting sort's output.
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// The bucket of the cell holding `x`; none outside the dense box of cells.
    pub fn bucket_at(&self, x: &Vector<D>) -> Option<usize> {
        self.buckets.of(&cell_of(x, self.size))
    }

    /// Indices of the particles in the 3^D cells around `x` (and only those: the
    /// bucket's other cells are filtered out), in increasing order.
    pub fn candidates(&self, x: &Vector<D>) -> Vec<usize> {
        let (mut buckets, mut out) = (Vec::new(), Vec::new());
        self.buckets_around(x, &mut buckets);
        let center = cell_of(x, self.size);
        for &b in &buckets {
            for k in self.range(b) {
                let c = cell_of(&self.sorted[k], self.size);
                if c.iter().zip(&center).all(|(a, b)| (a - b).abs() <= 1) {
                    out.push(self.order[k] as usize);
                }
            }
        }
        out.sort_unstable();
        out
    }
}

// ANCHOR: grid_forces
/// The same forces as [`brute_force_forces`], checking only the particles of
/// neighbouring cells. Each particle's force is summed cell by cell in a fixed order,
/// so the result does not depend on the number of threads; it differs from brute
/// force, which sums in index order, only by rounding.
pub fn grid_forces<const D: usize>(law: &PairLaw, x: &[Vector<D>]) -> Vec<Vector<D>> {
    let mut grid = UniformGrid::build(x, law.cutoff);
    let mut forces = Vec::new();
    grid.forces(law, x, &mut forces);
    forces
}
// ANCHOR_END: grid_forces

// ANCHOR: grid_forces_loop
impl<const D: usize> UniformGrid<D> {
    /// Rebuilds the grid for `x` and writes every particle's force into `forces`.
    pub fn forces(
        &mut self,
        law: &PairLaw,
        x: &[Vector<D>],
        forces: &mut Vec<Vector<D>>,
    ) {
        self.rebuild(x, law.cutoff);
        let cutoff2 = law.cutoff * law.cutoff;
        // In bucket order, so that neighbouring particles are computed one after
        // another and their neighbours' positions are still in cache.
        let mut in_order = std::mem::take(&mut self.in_order);
        in_order.resize(x.len(), Vector::zeros());
        let grid = &*self;
        for_each_indexed_with(&mut in_order, Vec::new, |buckets, k, f| {
            let xi = grid.sorted[k];
            grid.buckets_around(&xi, buckets);
            *f = Vector::zeros();
            for &b in buckets.iter() {
                for m in grid.range(b) {
                    let d = xi - grid.sorted[m];
                    let r2 = d.norm_squared();
                    if r2 < cutoff2 && m != k && r2 > 0.0 {
                        *f += law.along(&d, r2.sqrt());
                    }
                }
            }
        });
        forces.resize(x.len(), Vector::zeros());
        for (&i, f) in self.order.iter().zip(&in_order) {
            forces[i as usize] = *f;
        }
        self.in_order = in_order;
    }
}
// ANCHOR_END: grid_forces_loop

/// How many ordered pairs of particles at `x` lie within the law's cutoff: the
/// interactions one force evaluation computes.
pub fn interacting_pairs<const D: usize>(law: &PairLaw, x: &[Vector<D>]) -> u64 {
    let grid = UniformGrid::build(x, law.cutoff);
    x.iter()
        .enumerate()
        .map(|(i, xi)| {
            grid.candidates(xi)
                .iter()
                .filter(|&&j| j != i && (xi - x[j]).norm() < law.cutoff)
                .count() as u64
        })
        .sum()
}

/// How many pair distances each method checks for the particles at `x`: n(n − 1) for
/// brute force, the sum of the grid's candidate counts for the grid. The work,
/// without the timing noise.
pub fn pair_checks<const D: usize>(law: &PairLaw, x: &[Vector<D>]) -> (u64, u64) {
    let n = x.len() as u64;
    let grid = UniformGrid::build(x, law.cutoff);
    let candidates: u64 =
        x.iter().map(|xi| grid.candidates(xi).len() as u64 - 1).sum();
    (n * n.saturating_sub(1), candidates)
}

/// A force object applying a [`PairLaw`] between all particles, through the grid.
pub struct SpatialInteraction {
    /// The law.
    pub law: PairLaw,
}

impl<const D: usize> Force<D> for SpatialInteraction {
    fn name(&self) -> &'static str {
        "spatial interaction"
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<D>]) -> Result<(), PbmError> {
        let x: Vec<Vector<D>> = particles.iter().map(|p| p.x).collect();
        for (p, f) in particles.iter_mut().zip(grid_forces(&self.law, &x)) {
            p.f += f;
        }
        Ok(())
    }
}

/// `n` points spread evenly but irregularly over a square of side `side`, from the R2
/// low-discrepancy sequence (Roberts 2018): deterministic on every platform, no RNG
/// needed.
pub fn scattered_points(n: usize, side: f64) -> Vec<Vector<2>> {
    // 1/φ₂ and 1/φ₂², where φ₂ ≈ 1.3247 is the plastic number.
    let (a1, a2) = (0.754_877_666_246_692_7, 0.569_840_290_998_053_3);
    (0..n)
        .map(|k| {
            let k = k as f64 + 0.5;
            Vector::<2>::new((k * a1).fract() * side, (k * a2).fract() * side)
        })
        .collect()
}
