//! Stage 4: the world as chapter 1's ODE system, its derivative solving for the
//! constraint forces at every stage.

use super::*;

impl OdeSystem for World {
    fn dimension(&self) -> usize {
        STATE_SIZE * self.bodies.len()
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn gather_state(&self, y: &mut [f64]) {
        for (body, y) in self.bodies.iter().zip(y.chunks_exact_mut(STATE_SIZE)) {
            body.write_state(y);
        }
    }
    fn scatter_state(&mut self, y: &[f64], t: f64) {
        for (body, y) in self.bodies.iter_mut().zip(y.chunks_exact(STATE_SIZE)) {
            body.read_state(y);
        }
        self.t = t;
    }
    // ANCHOR: derivative
    fn derivative(&mut self, ydot: &mut [f64]) -> Result<(), PbmError> {
        self.apply_loads()?;
        self.apply_constraint_forces()?;
        let first = self.settings.order == Order::First;
        for (body, y) in self.bodies.iter().zip(ydot.chunks_exact_mut(STATE_SIZE)) {
            if first {
                // f = m v: the force sets the velocity, the momenta stay zero.
                let v = body.force() / body.mass();
                y.copy_from_slice(&[
                    v.x,
                    v.y,
                    body.torque() / body.inertia(),
                    0.0,
                    0.0,
                    0.0,
                ]);
            } else {
                body.write_derivative(y);
            }
        }
        Ok(())
    }
    // ANCHOR_END: derivative
}
