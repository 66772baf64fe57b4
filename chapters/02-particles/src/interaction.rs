//! Spatial interaction forces (course notes, "Particle System Dynamics", section
//! 4.3): any two particles closer than a cutoff push or pull each other. Checking
//! every pair costs O(n²); a uniform grid of cells as wide as the cutoff only checks
//! neighbouring cells. Both compute each particle's force by adding its neighbours'
//! contributions in increasing index order, so they agree to the last bit, and the
//! parallel loop over particles gives the same bits with any number of threads.

use crate::forces::Force;
use crate::particle::{Particle, Vector};
use pbm_prelim::PbmError;
use pbm_prelim::parallel::{map_range, map_range_with};
use pbm_prelim::validate::{non_negative, positive};
use std::collections::HashMap;

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
        let fade = 1.0 - r / self.cutoff;
        d * (self.k * fade * fade * (self.r0 - r) / r)
    }
}
// ANCHOR_END: pair_law

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

// ANCHOR: grid
/// A uniform grid of cells of side `cutoff`: every neighbour of a particle lies in
/// its own cell or one of the 3^D − 1 cells around it.
pub struct UniformGrid<const D: usize> {
    size: f64,
    cells: HashMap<Cell<D>, Vec<usize>>,
}

impl<const D: usize> UniformGrid<D> {
    /// Buckets the particles at `x` into cells of side `size`.
    pub fn build(x: &[Vector<D>], size: f64) -> Self {
        let mut cells: HashMap<Cell<D>, Vec<usize>> = HashMap::new();
        for (i, xi) in x.iter().enumerate() {
            cells.entry(cell_of(xi, size)).or_default().push(i);
        }
        UniformGrid { size, cells }
    }

    /// Indices of the particles in the 3^D cells around `x`, in increasing order.
    pub fn candidates(&self, x: &Vector<D>) -> Vec<usize> {
        let mut out = Vec::new();
        self.candidates_into(x, &mut out);
        out
    }

    /// [`Self::candidates`] into a reused buffer.
    pub fn candidates_into(&self, x: &Vector<D>, out: &mut Vec<usize>) {
        out.clear();
        let center = cell_of(x, self.size);
        for offset in 0..3usize.pow(D as u32) {
            let mut rest = offset;
            let cell: Cell<D> = std::array::from_fn(|k| {
                let step = (rest % 3) as i64 - 1;
                rest /= 3;
                center[k] + step
            });
            if let Some(members) = self.cells.get(&cell) {
                out.extend_from_slice(members);
            }
        }
        out.sort_unstable();
    }
}

/// The same forces as [`brute_force_forces`], checking only neighbouring cells.
pub fn grid_forces<const D: usize>(law: &PairLaw, x: &[Vector<D>]) -> Vec<Vector<D>> {
    let grid = UniformGrid::build(x, law.cutoff);
    map_range_with(x.len(), Vec::new, |candidates, i| {
        grid.candidates_into(&x[i], candidates);
        let mut f = Vector::zeros();
        for &j in candidates.iter() {
            if j != i && (x[i] - x[j]).norm() < law.cutoff {
                f += law.force(&x[i], &x[j]);
            }
        }
        f
    })
}
// ANCHOR_END: grid

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
