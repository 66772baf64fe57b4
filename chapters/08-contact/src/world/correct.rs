//! Stage 6: what interpenetration the step left is removed by moving the bodies as
//! little as possible.

use super::{CORRECTION_SLOP, Found, V3, World};
use crate::impulse::Contact;
use crate::lcp::solve;
use nalgebra::DVector;
use pbm_ode::system::{OdeSystem, state_of};
use pbm_prelim::PbmError;
use pbm_rigid::rotation::{Quat, quat_from_axis_angle, quat_mul};

impl World {
    // ANCHOR: correct
    /// Tolerance correction: the smallest displacement, in the kinetic-energy norm,
    /// that opens every gap deeper than [`CORRECTION_SLOP`] ε. Moving body k by
    /// Δx = M⁻¹ Σ λ n and Δθ = I⁻¹ Σ (r × λ n) changes gap i by (A λ)ᵢ, so λ
    /// solves the LCP A λ + gap ≥ 0, λ ≥ 0, complementary.
    pub(super) fn correct(&mut self, found: &[Found]) -> Result<(), PbmError> {
        if found.iter().all(|f| f.gap >= -CORRECTION_SLOP * self.settings.tolerance) {
            return Ok(());
        }
        let contacts: Vec<Contact> = found.iter().map(|f| f.contact).collect();
        let a = crate::impulse::contact_matrix(&self.states(), &contacts);
        let gaps = DVector::from_iterator(found.len(), found.iter().map(|f| f.gap));
        let lambda = solve(&a, &gaps)?.f;
        let mut y = state_of(&*self);
        for (k, body) in self.system.bodies.iter().enumerate() {
            let (mut dx, mut dtheta) = (V3::zeros(), V3::zeros());
            for (c, &l) in contacts.iter().zip(lambda.iter()) {
                let sign = match k {
                    _ if c.a == k => 1.0,
                    _ if c.b == k => -1.0,
                    _ => continue,
                };
                dx += c.n * (l * sign / body.mass());
                dtheta += body.inverse_inertia()
                    * (c.p - body.position()).cross(&(c.n * (l * sign)));
            }
            let y = &mut y[k * 13..(k + 1) * 13];
            for d in 0..3 {
                y[d] += dx[d];
            }
            if dtheta.norm() > 0.0 {
                let q = Quat::from_column_slice(&y[3..7]);
                let turned =
                    quat_mul(&quat_from_axis_angle(&dtheta, dtheta.norm()), &q);
                y[3..7].copy_from_slice(turned.normalize().as_slice());
            }
        }
        self.scatter_state(&y, self.time());
        self.stats.corrections += 1;
        Ok(())
    }
    // ANCHOR_END: correct
}
