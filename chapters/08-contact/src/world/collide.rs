//! Stage 2: contacts that close faster than the resting speed are colliding, and
//! impulses stop them before the step, all together when that makes no energy and
//! one at a time otherwise.

use super::{Found, World};
use crate::impulse::{Contact, relative_velocity, sequential, simultaneous};
use crate::rows::BodyState;
use pbm_prelim::PbmError;

fn kinetic_energy(states: &[BodyState]) -> f64 {
    states.iter().map(BodyState::kinetic_energy).sum()
}

impl World {
    /// Impulses for the colliding contacts among `found`. Impacts slower than
    /// `bounce_steps` steps of gravity are inelastic, so a body settles rather than
    /// hops. All contacts are solved at once when that makes no energy (always for
    /// e = 0): symmetric contacts get symmetric impulses, so a box landing flat does
    /// not come away spinning. Otherwise one at a time, which never makes energy.
    pub(super) fn collide(&mut self, found: &[Found]) -> Result<(), PbmError> {
        let s = self.settings;
        let contacts: Vec<Contact> = found.iter().map(|f| f.contact).collect();
        let mut states = self.states();
        let closing = contacts
            .iter()
            .map(|c| -relative_velocity(&states, c))
            .fold(f64::NEG_INFINITY, f64::max);
        if closing <= s.resting_speed {
            return Ok(());
        }
        let bounce_speed = s.bounce_steps * s.gravity.norm() * s.h;
        let e = if closing < bounce_speed { 0.0 } else { s.restitution };
        let before = kinetic_energy(&states);
        let mut together = states.clone();
        let resolved = match simultaneous(&mut together, &contacts, e) {
            Ok(r) if kinetic_energy(&together) <= before * (1.0 + 1e-12) => r,
            _ => {
                let order: Vec<usize> = (0..contacts.len()).collect();
                sequential(&mut states, &contacts, &order, e, s.resting_speed)?
            }
        };
        let before = self.kinetic_energy();
        self.apply_impulses(&contacts, &resolved.impulses);
        let gain = self.kinetic_energy() - before;
        let stats = &mut self.stats;
        stats.impacts += 1;
        stats.max_impact_energy_gain = if stats.impacts == 1 {
            gain
        } else {
            stats.max_impact_energy_gain.max(gain)
        };
        Ok(())
    }

    /// Applies impulses `j` (one per contact) to the bodies.
    pub(super) fn apply_impulses(&mut self, contacts: &[Contact], j: &[f64]) {
        let bodies = &mut self.system.bodies;
        for (c, &j) in contacts.iter().zip(j) {
            for (k, sign) in [(c.a, 1.0), (c.b, -1.0)] {
                if let Some(body) = bodies.get_mut(k) {
                    body.apply_impulse_at(&c.p, &(c.n * (j * sign)));
                }
            }
        }
    }
}
