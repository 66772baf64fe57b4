//! Soft constraints: a constraint that acts as a stiff spring and damper, stepped by
//! implicit Euler, written as the three numbers a velocity solver needs.
//!
//! Give the constraint C a spring-damper of stiffness k and damping c acting on the
//! effective mass m = 1/K of the constraint (K = J M⁻¹ Jᵀ). Implicit Euler takes the
//! force at the end of the step, with C₂ ≈ C₁ + h v₂:
//!
//!   m (v₂ − v₁) = −h (k C₂ + c v₂) = −h (k C₁ + (c + h k) v₂).
//!
//! Choosing k = m ω² and c = 2 m ζ ω (a frequency f = ω/2π and a damping ratio ζ)
//! makes the response independent of the mass, and the impulse λ = m (v₂ − v₁) that
//! solves it, counted on top of the impulse λ₀ already applied, is
//!
//!   Δλ = −m · massScale · (v + biasRate · C) − impulseScale · λ₀,
//!
//! with a₂ = hω(2ζ + hω), biasRate = ω/(2ζ + hω), massScale = a₂/(1 + a₂) and
//! impulseScale = 1/(1 + a₂). A rigid constraint is the limit ω → ∞: massScale → 1,
//! impulseScale → 0 and biasRate → 1/h (all of C removed in one step).

use pbm_prelim::PbmError;

// ANCHOR: softness
/// The three coefficients of a soft constraint for one step `h`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Softness {
    /// How fast the position error is fed back as a velocity (1/s).
    pub bias_rate: f64,
    /// The share of the rigid impulse taken (between 0 and 1).
    pub mass_scale: f64,
    /// The share of the impulse already applied that is taken back (1 − mass_scale).
    pub impulse_scale: f64,
}

impl Softness {
    /// A spring of `hertz` and damping ratio `zeta`, stepped by `h` (s).
    pub fn new(hertz: f64, zeta: f64, h: f64) -> Result<Softness, PbmError> {
        let finite = [hertz, zeta, h].iter().all(|x| x.is_finite());
        if !(finite && hertz > 0.0 && zeta >= 0.0 && h > 0.0) {
            return Err(PbmError::invalid(
                "soft constraint",
                "the frequency and step must be positive and the damping ratio ≥ 0",
            ));
        }
        let omega = 2.0 * std::f64::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        Softness {
            bias_rate: omega / a1,
            mass_scale: a2 / (1.0 + a2),
            impulse_scale: 1.0 / (1.0 + a2),
        }
        .finite((hertz, zeta, h))
    }
}
// ANCHOR_END: softness

impl Softness {
    /// Itself if every coefficient is finite; else an error naming the frequency,
    /// damping ratio and step that overflowed them.
    fn finite(self, (hertz, zeta, h): (f64, f64, f64)) -> Result<Softness, PbmError> {
        let all = [self.bias_rate, self.mass_scale, self.impulse_scale];
        if all.iter().all(|x| x.is_finite()) {
            return Ok(self);
        }
        Err(PbmError::invalid(
            "soft constraint",
            format!(
                "f = {hertz} Hz, ζ = {zeta}, h = {h} s overflow its coefficients"
            ),
        ))
    }

    /// A rigid constraint (the limit of infinite frequency), without position
    /// feedback: what a relax pass and a speculative contact use.
    pub const RIGID: Softness =
        Softness { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };

    /// The impulse to add for a constraint of effective mass `mass` moving apart at
    /// `velocity` with position error `c`, given the impulse `applied` so far.
    pub fn impulse(&self, mass: f64, velocity: f64, c: f64, applied: f64) -> f64 {
        -mass * self.mass_scale * (velocity + self.bias_rate * c)
            - self.impulse_scale * applied
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message
    use super::*;

    #[test]
    fn one_soft_update_is_implicit_euler_of_the_spring_and_damper() {
        // A 2 kg mass on a 5 Hz spring with damping ratio 0.7, stretched 3 cm and
        // moving at −0.4 m/s, stepped 1/60 s: the soft update's new velocity against
        // implicit Euler solved directly.
        for (hertz, zeta, h) in
            [(5.0, 0.7, 1.0 / 60.0), (30.0, 10.0, 1.0 / 240.0), (1.0, 0.0, 0.1)]
        {
            let (m, c0, v1) = (2.0, 0.03, -0.4);
            let omega = 2.0 * std::f64::consts::PI * hertz;
            let (k, c) = (m * omega * omega, 2.0 * m * zeta * omega);
            let implicit = (m * v1 - h * k * c0) / (m + h * c + h * h * k);
            let soft = Softness::new(hertz, zeta, h).unwrap();
            let v2 = v1 + soft.impulse(m, v1, c0, 0.0) / m;
            assert!((v2 - implicit).abs() < 1e-12, "{v2} against {implicit}");
            assert!((soft.mass_scale + soft.impulse_scale - 1.0).abs() < 1e-15);
        }
        // Stiff and undamped, it removes the whole error in one step.
        let rigid = Softness::new(1e9, 0.0, 0.01).unwrap();
        assert!(
            (rigid.bias_rate - 100.0).abs() < 1e-6 && rigid.mass_scale > 1.0 - 1e-9
        );
        assert!(Softness::new(0.0, 1.0, 0.01).is_err());
    }
}
