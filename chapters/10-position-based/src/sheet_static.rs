//! Where the XPBD sheet would hang if its passes converged, found without running
//! it. XPBD's fixed point holds C + α̃ λ = 0, α̃ = α/h², for every constraint, and
//! the constraint's force is λ/h² = −C/α: at rest, each constraint is a spring of
//! stiffness 1/α, and the sheet is a network of springs. Its small sag under
//! gravity solves K u = f, with K the springs' stiffness linearized at the rest
//! shape; chapter 3's conjugate gradient solves it.

use crate::scenes::{
    SHEET_DENSITY, Sweep, hanging_sheet, sheet_pairs, sheet_sag_closed_form,
};
use pbm_implicit::cg::{LinearOperator, conjugate_gradient};
use pbm_particles::forces::G;
use pbm_prelim::PbmError;

/// One spring of the linearized network: its ends, its unit direction in the
/// sheet's plane, and its stiffness 1/α (N/m).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Spring {
    ends: (usize, usize),
    direction: [f64; 2],
    stiffness: f64,
}

/// The sheet's in-plane stiffness, K u = Σ k d dᵀ (u_a − u_b) at each end, over
/// the particles below the held row (two unknowns each).
#[derive(Debug, Clone)]
pub struct SpringSheet {
    n: usize,
    springs: Vec<Spring>,
    diagonal: Vec<f64>,
}

impl SpringSheet {
    /// Chapter 9's n × n pattern with springs 1/`stretch` along the triangle edges
    /// and 1/`bend` across the interior edges, as [`crate::scenes::xpbd_cloth`]
    /// builds its constraints.
    pub fn new(n: usize, stretch: f64, bend: f64) -> Result<Self, PbmError> {
        let (pattern, triangles) = pbm_cloth::scenes::grid(n, 1.0)?;
        let spring = |(a, b): (usize, usize), compliance: f64| {
            let d = [pattern[a][0] - pattern[b][0], pattern[a][1] - pattern[b][1]];
            let length = d[0].hypot(d[1]);
            let direction = [d[0] / length, d[1] / length];
            Spring { ends: (a, b), direction, stiffness: 1.0 / compliance }
        };
        let (edges, across) = sheet_pairs(&triangles);
        let springs: Vec<Spring> = (edges.into_iter().map(|e| spring(e, stretch)))
            .chain(across.into_iter().map(|e| spring(e, bend)))
            .collect();
        let mut diagonal = vec![0.0; 2 * n * n];
        for s in &springs {
            for end in [s.ends.0, s.ends.1] {
                for k in 0..2 {
                    diagonal[2 * end + k] += s.stiffness * s.direction[k].powi(2);
                }
            }
        }
        Ok(SpringSheet { n, springs, diagonal: diagonal.split_off(2 * n) })
    }

    /// The unknown index of particle `p`'s first coordinate, or None if it is held.
    fn unknown(&self, p: usize) -> Option<usize> {
        (p >= self.n).then(|| 2 * (p - self.n))
    }
}

impl LinearOperator for SpringSheet {
    fn dimension(&self) -> usize {
        self.diagonal.len()
    }

    fn apply(&self, x: &[f64], y: &mut [f64]) {
        y.fill(0.0);
        let at = |p: Option<usize>, k: usize| p.map_or(0.0, |i| x[i + k]);
        for s in &self.springs {
            let (a, b) = (self.unknown(s.ends.0), self.unknown(s.ends.1));
            let d = s.direction;
            let stretch = (0..2).map(|k| d[k] * (at(a, k) - at(b, k))).sum::<f64>();
            for k in 0..2 {
                let force = s.stiffness * stretch * d[k];
                if let Some(i) = a {
                    y[i + k] += force;
                }
                if let Some(i) = b {
                    y[i + k] -= force;
                }
            }
        }
    }

    fn precondition(&self, r: &[f64], z: &mut [f64]) {
        for ((z, r), d) in z.iter_mut().zip(r).zip(&self.diagonal) {
            *z = r / d;
        }
    }
}

// ANCHOR: converged_extension
/// How far the free edge of the n × n XPBD sheet hangs below its rest length once
/// its passes have converged (m): gravity on every particle's equal share of the
/// mass, K u = f solved to a relative residual of 1e-10, the bottom row's mean
/// displacement along the sheet.
pub fn converged_extension(
    n: usize,
    stretch: f64,
    bend: f64,
) -> Result<f64, PbmError> {
    let sheet = SpringSheet::new(n, stretch, bend)?;
    let weight = SHEET_DENSITY / (n * n) as f64 * G;
    // Pattern coordinates: the held row at y = 0, the sheet hanging towards +y.
    let f: Vec<f64> =
        (0..sheet.dimension()).map(|i| weight * (i % 2) as f64).collect();
    let mut u = vec![0.0; f.len()];
    conjugate_gradient(&sheet, &f, &mut u, 1e-10, 20 * f.len())?;
    let bottom = (n * (n - 1)..n * n).filter_map(|p| sheet.unknown(p));
    Ok(bottom.map(|i| u[i + 1]).sum::<f64>() / n as f64)
}
// ANCHOR_END: converged_extension

/// What [`substeps_for_stiffness`] finds for one sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct Reach {
    /// Particles along each side.
    pub n: usize,
    /// The converged sheet's extension at α over the closed form's.
    pub converged_ratio: f64,
    /// The compliance that makes the converged sheet hang at the closed form (m/N).
    pub calibrated: f64,
    /// Substeps per frame tried, each with its extension over the closed form.
    pub ladder: Vec<(usize, f64)>,
    /// Substeps per frame at which the extension comes within the tolerance,
    /// interpolated in log–log between the last two rungs.
    pub needed: f64,
}

/// The sheet sizes of `pbd/sheet-calibration` and its figure, particles along each
/// side.
pub const CALIBRATION_SIZES: [usize; 3] = [8, 16, 32];

/// The most substeps per frame [`substeps_for_stiffness`] tries.
pub const MOST_SUBSTEPS: usize = 640;

// ANCHOR: substeps_for_stiffness
/// The n × n sheet with its compliance calibrated from α (so that converged, it
/// hangs at ρgL²/2k with k = 1/α), run for `t_end` at 10, 20, 40, … substeps per
/// frame of one Gauss–Seidel pass until its extension is within `tolerance` of the
/// closed form.
pub fn substeps_for_stiffness(
    n: usize,
    alpha: f64,
    tolerance: f64,
    t_end: f64,
) -> Result<Reach, PbmError> {
    let expected = sheet_sag_closed_form(alpha);
    let converged_ratio = converged_extension(n, alpha, 1.0)? / expected;
    let calibrated = alpha / converged_ratio;
    let mut ladder: Vec<(usize, f64)> = Vec::new();
    let mut substeps = 10;
    while substeps <= MOST_SUBSTEPS {
        let run =
            hanging_sheet(n, calibrated, (substeps, 1, Sweep::GaussSeidel), t_end)?;
        ladder.push((substeps, run.extension / expected));
        let excess = |k: usize| (ladder[k].1 - 1.0).abs();
        if excess(ladder.len() - 1) <= tolerance {
            let k = ladder.len() - 1;
            let needed = if k == 0 {
                substeps as f64
            } else {
                let (s0, s1) = (ladder[k - 1].0 as f64, substeps as f64);
                let fraction = (excess(k - 1) / tolerance).ln()
                    / (excess(k - 1) / excess(k)).ln();
                s0 * (s1 / s0).powf(fraction)
            };
            return Ok(Reach { n, converged_ratio, calibrated, ladder, needed });
        }
        substeps *= 2;
    }
    let why = format!("{n} × {n} is not within {tolerance} of the closed form");
    let why = format!("{why} at {MOST_SUBSTEPS} substeps");
    Err(PbmError::invalid("sheet calibration", why))
}
// ANCHOR_END: substeps_for_stiffness

/// The least-squares line through (ln x, ln y): its slope and intercept.
pub fn log_log_fit(points: &[(f64, f64)]) -> (f64, f64) {
    let logs: Vec<(f64, f64)> =
        points.iter().map(|(x, y)| (x.ln(), y.ln())).collect();
    let count = logs.len() as f64;
    let (mx, my) =
        logs.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x / count, b + y / count));
    let sxy: f64 = logs.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = logs.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    let slope = sxy / sxx;
    (slope, my - slope * mx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_converged_sheet_is_where_many_xpbd_substeps_take_it() {
        let (n, alpha) = (10, 1e-3);
        let converged = converged_extension(n, alpha, 1.0).unwrap();
        let run = hanging_sheet(n, alpha, (200, 1, Sweep::GaussSeidel), 1.0).unwrap();
        let off = run.extension / converged - 1.0;
        assert!(off.abs() < 0.02, "{} against {converged}", run.extension);
    }

    #[test]
    fn at_alpha_one_over_k_the_converged_sheet_is_stiffer_than_the_continuum() {
        let alpha = 1e-3;
        let ratio = |n| {
            converged_extension(n, alpha, 1.0).unwrap() / sheet_sag_closed_form(alpha)
        };
        let (r10, r20, r40) = (ratio(10), ratio(20), ratio(40));
        assert!((0.65..0.8).contains(&r20), "{r10} {r20} {r40}");
        assert!(r10 < r20 && r20 < r40, "{r10} {r20} {r40}");
    }

    #[test]
    fn a_log_log_fit_recovers_a_power_law() {
        let points: Vec<(f64, f64)> =
            [2.0, 5.0, 9.0].iter().map(|&x: &f64| (x, 3.0 * x.powf(1.5))).collect();
        let (slope, intercept) = log_log_fit(&points);
        assert!((slope - 1.5).abs() < 1e-12 && (intercept - 3f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn the_calibrated_sheet_reaches_the_closed_form_with_enough_substeps() {
        let reach = substeps_for_stiffness(10, 1e-3, 0.1, 1.0).unwrap();
        let last = reach.ladder.last().unwrap();
        assert!((last.1 - 1.0).abs() <= 0.1 && reach.ladder.len() >= 2, "{reach:?}");
        assert!(
            reach.needed > reach.ladder[reach.ladder.len() - 2].0 as f64,
            "{reach:?}"
        );
    }
}
