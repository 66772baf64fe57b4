//! Energy functions (course notes, "Particle System Dynamics", section 6): describe what a set
//! of particles "wants" by a behavior function C that is zero when they are happy, and let a
//! cookbook procedure turn it into a force: E = (k_s/2) C², f_i = −∂E/∂x_i, plus damping along
//! the same direction.

use crate::forces::Force;
use crate::particle::{Particle, Vector};

/// A scalar behavior function of the positions of some particles.
pub trait Behavior<const D: usize>: Send + Sync {
    /// The particles C depends on, in the order `value` and `gradient` receive them.
    fn particles(&self) -> &[usize];
    /// C at these positions.
    fn value(&self, x: &[Vector<D>]) -> f64;
    /// ∂C/∂x_i for each particle, in order.
    fn gradient(&self, x: &[Vector<D>]) -> Vec<Vector<D>>;
}

// ANCHOR: behavior_force
/// Equation 2 of the notes: f_i = (−k_s C − k_d Ċ) ∂C/∂x_i, where Ċ = Σ_i ∂C/∂x_i · v_i by the
/// chain rule.
pub fn behavior_forces<const D: usize, B: Behavior<D> + ?Sized>(
    behavior: &B,
    x: &[Vector<D>],
    v: &[Vector<D>],
    k_s: f64,
    k_d: f64,
) -> Vec<Vector<D>> {
    let c = behavior.value(x);
    let grad = behavior.gradient(x);
    let c_dot: f64 = grad.iter().zip(v).map(|(g, v)| g.dot(v)).sum();
    let scale = -k_s * c - k_d * c_dot;
    grad.iter().map(|g| g * scale).collect()
}
// ANCHOR_END: behavior_force

/// A force object made from any behavior function.
pub struct BehaviorForce<B> {
    /// The behavior function.
    pub behavior: B,
    /// Generalized stiffness.
    pub k_s: f64,
    /// Generalized damping.
    pub k_d: f64,
}

impl<const D: usize, B: Behavior<D>> Force<D> for BehaviorForce<B> {
    fn apply(&self, _t: f64, particles: &mut [Particle<D>]) {
        let ids = self.behavior.particles();
        let x: Vec<Vector<D>> = ids.iter().map(|&i| particles[i].x).collect();
        let v: Vec<Vector<D>> = ids.iter().map(|&i| particles[i].v).collect();
        for (&i, f) in
            ids.iter().zip(behavior_forces(&self.behavior, &x, &v, self.k_s, self.k_d))
        {
            particles[i].f += f;
        }
    }
    fn particles(&self) -> Vec<usize> {
        self.behavior.particles().to_vec()
    }
    fn potential_energy(&self, particles: &[Particle<D>]) -> f64 {
        let x: Vec<Vector<D>> =
            self.behavior.particles().iter().map(|&i| particles[i].x).collect();
        let c = self.behavior.value(&x);
        0.5 * self.k_s * c * c
    }
}

// ANCHOR: distance_behavior
/// C = |x_a − x_b| − r: the two particles want to be r apart. With l = x_a − x_b,
/// ∂C/∂x_a = l/|l| and ∂C/∂x_b = −l/|l|.
pub struct DistanceBehavior {
    ids: [usize; 2],
    rest: f64,
}

impl DistanceBehavior {
    /// Particles `a` and `b` should be `rest` apart.
    pub fn new(a: usize, b: usize, rest: f64) -> Self {
        DistanceBehavior { ids: [a, b], rest }
    }
}

impl<const D: usize> Behavior<D> for DistanceBehavior {
    fn particles(&self) -> &[usize] {
        &self.ids
    }
    fn value(&self, x: &[Vector<D>]) -> f64 {
        (x[0] - x[1]).norm() - self.rest
    }
    fn gradient(&self, x: &[Vector<D>]) -> Vec<Vector<D>> {
        let l = x[0] - x[1];
        let length = l.norm();
        // Coincident particles: no direction, so no force.
        let unit = if length > 0.0 { l / length } else { Vector::zeros() };
        vec![unit, -unit]
    }
}
// ANCHOR_END: distance_behavior
