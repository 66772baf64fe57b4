//! The pins: point-to-point constraints a scene adds before the run or a user adds
//! and takes away while it runs, and where their ends are.

use super::*;

impl World {
    /// Pins `a` to `b`. Both ends on one body, or a body that does not exist, is an
    /// error.
    pub fn add_pin(&mut self, pin: Pin) -> Result<usize, PbmError> {
        let body_of = |anchor: &Anchor| match *anchor {
            Anchor::Body { body, local } => Some((body, local)),
            Anchor::World(_) => None,
        };
        for anchor in [&pin.a, &pin.b] {
            let finite = match *anchor {
                Anchor::Body { local, .. } => local,
                Anchor::World(p) => p,
            };
            if !(finite.x.is_finite() && finite.y.is_finite()) {
                return Err(PbmError::invalid("pin", "its anchor is not finite"));
            }
            if let Some((body, _)) = body_of(anchor)
                && body >= self.bodies.len()
            {
                let why = format!("body {body} does not exist");
                return Err(PbmError::invalid("pin", why));
            }
        }
        match (body_of(&pin.a), body_of(&pin.b)) {
            (Some((a, _)), Some((b, _))) if a == b => {
                let why = format!("both ends are on body {a}");
                Err(PbmError::invalid("pin", why))
            }
            (None, None) => {
                Err(PbmError::invalid("pin", "both ends are fixed in the world"))
            }
            _ => {
                self.pins.push(pin);
                Ok(self.pins.len() - 1)
            }
        }
    }

    // ANCHOR: pin_while_running
    /// Pins `a` to `b` while the world runs, as a user who pins a body does: the
    /// pin joins (checked as by [`World::add_pin`]) and one impulse makes its two
    /// ends move together at once. Returns the pin's index.
    pub fn pin_now(&mut self, pin: Pin) -> Result<usize, PbmError> {
        let index = self.add_pin(pin)?;
        if let Err(e) = self.catch_pins() {
            self.pins.pop();
            return Err(e.at_step(self.stats.steps, self.t));
        }
        Ok(index)
    }

    /// Takes pin `index` away while the world runs (a user letting go): the pins
    /// after it move down one. Letting go does no work: the bodies keep the
    /// velocities they have.
    pub fn unpin(&mut self, index: usize) -> Result<Pin, PbmError> {
        if index >= self.pins.len() {
            let why =
                format!("there is no pin {index}; the world has {}", self.pins.len());
            return Err(PbmError::invalid("unpin", why));
        }
        Ok(self.pins.remove(index))
    }
    // ANCHOR_END: pin_while_running

    /// Where anchor `a` is now.
    pub fn anchor_point(&self, a: &Anchor) -> V2 {
        match *a {
            Anchor::Body { body, local } => self.bodies[body].world_point(&local),
            Anchor::World(p) => p,
        }
    }

    /// The largest distance between the two ends of any pin (m).
    pub fn max_pin_error(&self) -> f64 {
        self.pins
            .iter()
            .map(|p| (self.anchor_point(&p.a) - self.anchor_point(&p.b)).norm())
            .fold(0.0, f64::max)
    }
}
