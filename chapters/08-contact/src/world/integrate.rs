//! Stage 4: the world is an ODE system (chapter 1's trait). Its state is chapter 6's
//! bodies'; its derivative applies gravity, then the held contacts' forces, and
//! reads off the bodies' rates, so RK4 solves for the contact forces at each of
//! its four stages.

use super::{Order, V3, World};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_rigid::body::{Body, BodyForce, Gravity, Orientation};
use pbm_rigid::rotation::quat_derivative;

// ANCHOR: derivative
impl OdeSystem for World {
    fn dimension(&self) -> usize {
        self.system.dimension()
    }
    fn time(&self) -> f64 {
        self.system.t
    }
    fn gather_state(&self, y: &mut [f64]) {
        self.system.gather_state(y);
    }
    fn scatter_state(&mut self, y: &[f64], t: f64) {
        self.system.scatter_state(y, t);
        // The bodies moved: the contacts and depths found before are not theirs.
        self.found = None;
        self.moved();
    }
    fn derivative(&mut self, ydot: &mut [f64]) -> Result<(), PbmError> {
        let bodies = &mut self.system.bodies;
        bodies.iter_mut().for_each(Body::clear_accumulators);
        Gravity { g: self.settings.gravity }.apply(self.system.t, bodies)?;
        self.contact_forces()?;
        let bodies = &self.system.bodies;
        let size = bodies.first().map_or(1, Body::state_size);
        for (body, ydot) in bodies.iter().zip(ydot.chunks_exact_mut(size)) {
            body.write_derivative(ydot);
        }
        Ok(())
    }
}
// ANCHOR_END: derivative

/// The world read as a first-order one: ẋ = F/M and the orientation turns at
/// ω = I⁻¹ τ, the loads (contact forces included) taken at each stage; the momenta
/// stay zero.
struct FirstOrder<'a>(&'a mut World);

impl OdeSystem for FirstOrder<'_> {
    fn dimension(&self) -> usize {
        self.0.dimension()
    }
    fn time(&self) -> f64 {
        self.0.time()
    }
    fn gather_state(&self, y: &mut [f64]) {
        self.0.gather_state(y);
    }
    fn scatter_state(&mut self, y: &[f64], t: f64) {
        self.0.scatter_state(y, t);
    }
    fn derivative(&mut self, ydot: &mut [f64]) -> Result<(), PbmError> {
        // Second-order derivative first: its momentum rates are the loads.
        self.0.derivative(ydot)?;
        for (body, y) in self.0.system.bodies.iter().zip(ydot.chunks_exact_mut(13)) {
            let Orientation::Quaternion(q) = body.orientation() else {
                return Err(PbmError::invalid(
                    "first-order world",
                    "bodies use quaternions",
                ));
            };
            let force = V3::from_column_slice(&y[7..10]);
            let omega = body.inverse_inertia() * V3::from_column_slice(&y[10..13]);
            y[0..3].copy_from_slice((force / body.mass()).as_slice());
            y[3..7].copy_from_slice(quat_derivative(&omega, &q).as_slice());
            y[7..13].fill(0.0);
        }
        Ok(())
    }
}

impl World {
    /// The state's rate of change in the world's order (what RK4's first stage
    /// evaluates).
    pub(super) fn rate(&mut self, ydot: &mut [f64]) -> Result<(), PbmError> {
        match self.settings.order {
            Order::Second => self.derivative(ydot),
            Order::First => FirstOrder(self).derivative(ydot),
        }
    }

    /// Integrates the bodies over `dt` with RK4, in the world's order.
    pub(super) fn advance(&mut self, dt: f64) -> Result<(), PbmError> {
        // The stepper is the world's own; it steps the world, so it is lent out.
        let mut stepper = std::mem::replace(&mut self.stepper, RungeKutta::new(RK4));
        let stepped = match self.settings.order {
            Order::Second => stepper.step(self, dt),
            Order::First => stepper.step(&mut FirstOrder(self), dt),
        };
        self.stepper = stepper;
        self.stats.rk4_steps += 1;
        stepped.map(|_| ())
    }
}
