//! Euler's instability on x' = −k x (course notes, section 2.1, "off to Neptune").
//! One step multiplies x by (1 − h k): a factor in (0, 1) decays monotonically, one
//! in (−1, 0) oscillates while decaying, and one below −1 oscillates with growing
//! amplitude.

use crate::runge_kutta::RungeKutta;
use crate::scenes::Decay;
use crate::system::state_of;
use crate::tableau::EULER;
use pbm_prelim::PbmError;

/// How Euler's iterates on x' = −k x behave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Regime {
    /// Every step keeps the sign and shrinks |x|.
    Monotone,
    /// The sign flips, |x| does not grow.
    Oscillating,
    /// |x| grows without bound.
    Divergent,
}

impl Regime {
    /// The word used in exercise results.
    pub fn as_str(self) -> &'static str {
        match self {
            Regime::Monotone => "monotone",
            Regime::Oscillating => "oscillating",
            Regime::Divergent => "divergent",
        }
    }
}

// ANCHOR: euler_decay_factor
/// The factor one Euler step applies to x on x' = −k x: x + h(−k x) = (1 − h k) x.
pub fn euler_decay_factor(k: f64, h: f64) -> f64 {
    1.0 - h * k
}

/// The regime predicted from the factor: h < 1/k, 1/k ≤ h ≤ 2/k, h > 2/k.
pub fn predicted_regime(k: f64, h: f64) -> Regime {
    let g = euler_decay_factor(k, h);
    if g >= 0.0 {
        Regime::Monotone
    } else if g >= -1.0 {
        Regime::Oscillating
    } else {
        Regime::Divergent
    }
}
// ANCHOR_END: euler_decay_factor

/// The regime read off a computed trajectory, without using the formula.
pub fn observed_regime(xs: &[f64]) -> Regime {
    let (first, last) = (xs[0].abs(), xs[xs.len() - 1].abs());
    if last > first {
        Regime::Divergent
    } else if xs.windows(2).any(|w| w[0] * w[1] < 0.0) {
        Regime::Oscillating
    } else {
        Regime::Monotone
    }
}

/// Euler's iterates on x' = −k x from x_0 = 1 with step h: up to `steps` of them,
/// fewer if the iterates overflow, in which case the index of the step that
/// overflowed is returned too.
pub fn euler_decay(
    k: f64,
    h: f64,
    steps: usize,
) -> Result<(Vec<f64>, Option<usize>), PbmError> {
    let decay = Decay::new(k)?;
    let mut system = decay.system(1.0)?;
    let mut euler = RungeKutta::new(EULER);
    let mut xs = vec![1.0];
    for _ in 0..steps {
        match euler.step(&mut system, h) {
            Ok(_) => xs.push(state_of(&system)[0]),
            Err(PbmError::Diverged { step, .. }) => return Ok((xs, Some(step))),
            Err(other) => return Err(other),
        }
    }
    Ok((xs, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_one_over_k_euler_decays_too_fast_never_too_slow() {
        // 1 − z < e^(−z) for z = hk in (0, 1]: the tangent lies under the convex curve.
        for i in 1..=1000 {
            let h = 0.1 * f64::from(i) / 1000.0;
            assert!(euler_decay_factor(10.0, h) < (-10.0 * h).exp(), "h = {h}");
        }
    }

    #[test]
    fn prediction_boundaries() {
        assert_eq!(predicted_regime(10.0, 0.099), Regime::Monotone);
        assert_eq!(predicted_regime(10.0, 0.1), Regime::Monotone);
        assert_eq!(predicted_regime(10.0, 0.101), Regime::Oscillating);
        assert_eq!(predicted_regime(10.0, 0.2), Regime::Oscillating);
        assert_eq!(predicted_regime(10.0, 0.201), Regime::Divergent);
    }
}
