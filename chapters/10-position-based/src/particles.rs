//! The PBD loop for particles (Müller's slides, "PBD Algorithm for Particles"):
//! predict with the applied forces alone, project the constraints for a few
//! iterations, and set each velocity to the distance its particle moved over the
//! step. Particles, forces and the clock are chapter 2's [`ParticleSystem`], so
//! gravity, springs, nails (fixed particles) and scripted particles mean what they
//! meant there.

use crate::contact::{Ground, Touch, ground_velocity, project_ground};
use crate::projection::{Scratch, Stiffness, project};
use pbm_particles::condition::Condition;
use pbm_particles::particle::Force;
use pbm_particles::particle::{Motion, Particle, ParticleSystem, Vector};
use pbm_prelim::PbmError;
use pbm_prelim::validate::{indices, positive};

/// A condition held by projection.
pub struct Projected<const D: usize> {
    /// The condition C (only its position part is used).
    pub condition: Box<dyn Condition<D>>,
    /// PBD's s or XPBD's α.
    pub stiffness: Stiffness,
    /// Where its multipliers, one per row of C, sit in the system's λ.
    rows: std::ops::Range<usize>,
}

/// Particles, applied forces, and constraints held by projection.
pub struct PbdSystem<const D: usize> {
    /// Particles, forces and clock (chapter 2).
    pub particles: ParticleSystem<D>,
    /// The constraints, projected in this order.
    pub constraints: Vec<Projected<D>>,
    /// A ground the particles rest, slide and bounce on, if any.
    ground: Option<Ground<D>>,
    /// What the last position pass found at each particle.
    touches: Vec<Touch>,
    /// Each particle's velocity after the prediction.
    predicted: Vec<Vector<D>>,
    /// Positions at the start of the current step.
    previous: Vec<Vector<D>>,
    /// All positions during the projection.
    x: Vec<Vector<D>>,
    /// Every constraint's multipliers in one vector, reset at the start of every step
    /// (one fill, where a vector per constraint cost a call and a cache miss each).
    lambda: Vec<f64>,
    /// Inverse masses: 1/m for free particles, 0 for fixed and scripted ones.
    w: Vec<f64>,
    scratch: Scratch<D>,
    steps: usize,
}

impl<const D: usize> PbdSystem<D> {
    /// Particles with no forces and no constraints.
    pub fn new(particles: Vec<Particle<D>>) -> Self {
        let particles = ParticleSystem::new(particles);
        let w = particles
            .particles
            .iter()
            .map(|p| match p.motion {
                Motion::Free => 1.0 / p.mass,
                Motion::Fixed | Motion::Scripted(_) => 0.0,
            })
            .collect();
        let x: Vec<_> = particles.particles.iter().map(|p| p.x).collect();
        PbdSystem {
            particles,
            constraints: Vec::new(),
            ground: None,
            touches: vec![Touch::default(); x.len()],
            predicted: vec![Vector::zeros(); x.len()],
            previous: x.clone(),
            x,
            lambda: Vec::new(),
            w,
            scratch: Scratch::default(),
            steps: 0,
        }
    }

    /// Adds an applied force (used in the prediction).
    pub fn add_force(
        &mut self,
        force: impl Force<D> + 'static,
    ) -> Result<(), PbmError> {
        self.particles.add_force(force)
    }

    /// Adds a constraint, after checking the particles it names and that it has a
    /// gradient where they are now.
    pub fn add_constraint(
        &mut self,
        condition: impl Condition<D> + 'static,
        stiffness: Stiffness,
    ) -> Result<(), PbmError> {
        let ids = condition.particles();
        indices(condition.name(), "particle", ids, self.x.len())?;
        let x: Vec<Vector<D>> =
            ids.iter().map(|&i| self.particles.particles[i].x).collect();
        condition.check(&x)?;
        let rows = self.lambda.len()..self.lambda.len() + condition.rows();
        self.lambda.resize(rows.end, 0.0);
        self.constraints.push(Projected {
            condition: Box::new(condition),
            stiffness,
            rows,
        });
        Ok(())
    }

    /// Puts a ground under the particles (after checking it).
    pub fn set_ground(&mut self, ground: Ground<D>) -> Result<(), PbmError> {
        self.ground = Some(ground.checked()?);
        Ok(())
    }

    /// A hand on particle `k`: `Some(at)` puts it at `at` and keeps it there, taking
    /// no corrections, as a nail does (the constraints pull its neighbours after
    /// it); `None` lets it go, free again, moving at `velocity` (a nailed particle
    /// let go is free too).
    pub fn hold(
        &mut self,
        k: usize,
        at: Option<Vector<D>>,
        velocity: Vector<D>,
    ) -> Result<(), PbmError> {
        indices("hand", "particle", &[k], self.x.len())?;
        let p = &mut self.particles.particles[k];
        match at {
            Some(at) => {
                if !at.iter().all(|c| c.is_finite()) {
                    return Err(PbmError::invalid(
                        "hand",
                        "it is not at a finite point",
                    ));
                }
                (p.x, p.v, p.motion, self.w[k]) =
                    (at, Vector::zeros(), Motion::Fixed, 0.0);
                self.x[k] = at;
            }
            None => {
                (p.v, p.motion, self.w[k]) = (velocity, Motion::Free, 1.0 / p.mass);
            }
        }
        Ok(())
    }

    /// What the last step's position pass found at each particle.
    pub fn touches(&self) -> &[Touch] {
        &self.touches
    }

    /// The inverse masses the projection uses.
    pub fn inverse_masses(&self) -> &[f64] {
        &self.w
    }

    /// The multipliers constraint `k` accumulated in the last step (one per row of its
    /// C). For XPBD, λ∇C/h² is the force the constraint applied over that step.
    pub fn lambda(&self, k: usize) -> &[f64] {
        &self.lambda[self.constraints[k].rows.clone()]
    }

    /// Steps taken so far.
    pub fn steps(&self) -> usize {
        self.steps
    }

    // ANCHOR: step
    /// One step of size `h` with `iterations` passes over the constraints.
    pub fn step(&mut self, h: f64, iterations: usize) -> Result<(), PbmError> {
        let (step, t0) = (self.steps, self.particles.t);
        self.particles.accumulate_forces().map_err(|e| e.at_step(step, t0))?;
        let t = t0 + h;
        self.predict(h, t);
        self.project_all(h, iterations).map_err(|e| e.at_step(step, t0))?;
        self.update_velocities(h);
        self.particles.t = t;
        self.steps += 1;
        let finite =
            |p: &Particle<D>| p.x.iter().chain(p.v.iter()).all(|v| v.is_finite());
        if !self.particles.particles.iter().all(finite) {
            return Err(PbmError::Diverged { step, time: t0 });
        }
        Ok(())
    }
    // ANCHOR_END: step

    // ANCHOR: step_stages
    /// Predict: symplectic Euler over `h` with the applied forces alone, scripted
    /// particles put where their scripts say at time `t`.
    fn predict(&mut self, h: f64, t: f64) {
        for (k, p) in self.particles.particles.iter_mut().enumerate() {
            self.previous[k] = p.x;
            match p.motion {
                Motion::Free => {
                    p.v += p.f * (h / p.mass);
                    p.x += p.v * h;
                }
                Motion::Fixed => {}
                Motion::Scripted(script) => (p.x, p.v, _) = script(t),
            }
            self.x[k] = p.x;
            self.predicted[k] = p.v;
        }
    }
    // ANCHOR_END: step_stages

    // ANCHOR: project_all
    /// Project: `iterations` Gauss–Seidel passes over the constraints, each
    /// followed by the contacts, multipliers from zero.
    fn project_all(&mut self, h: f64, iterations: usize) -> Result<(), PbmError> {
        self.lambda.fill(0.0);
        self.touches.fill(Touch::default());
        for _ in 0..iterations {
            for c in &self.constraints {
                let (condition, stiffness) = (c.condition.as_ref(), c.stiffness);
                let lambda = &mut self.lambda[c.rows.clone()];
                let (w, x) = (&self.w, &mut self.x);
                project(condition, stiffness, lambda, w, x, h, &mut self.scratch)?;
            }
            self.project_contacts();
        }
        Ok(())
    }
    // ANCHOR_END: project_all

    // ANCHOR: update_velocities
    /// Velocities from the motion over the step, then the contacts' velocity pass.
    fn update_velocities(&mut self, h: f64) {
        for (k, p) in self.particles.particles.iter_mut().enumerate() {
            if let Motion::Free = p.motion {
                p.x = self.x[k];
                p.v = (p.x - self.previous[k]) / h;
                if let Some(ground) = &self.ground {
                    let resting = 2.0 * h * (p.f.dot(&ground.normal) / p.mass).abs();
                    ground_velocity(ground, &mut p.v, self.touches[k], h, resting);
                }
            }
        }
    }
    // ANCHOR_END: update_velocities

    /// The ground's position pass over every free particle (after the
    /// constraints, in each iteration), keeping the deepest push of the step.
    fn project_contacts(&mut self) {
        let Some(ground) = &self.ground else { return };
        for k in 0..self.x.len() {
            if self.w[k] > 0.0 {
                let touch = project_ground(
                    ground,
                    &mut self.x[k],
                    &self.previous[k],
                    &self.predicted[k],
                );
                let kept = &mut self.touches[k];
                kept.push = kept.push.max(touch.push);
                kept.approach = self.predicted[k].dot(&ground.normal);
            }
        }
    }

    /// One frame of length `frame`, as `substeps` steps of `iterations` passes each.
    pub fn frame(
        &mut self,
        frame: f64,
        substeps: usize,
        iterations: usize,
    ) -> Result<(), PbmError> {
        let h = positive("PBD frame", "length", frame)?
            / check_count("substeps", substeps)? as f64;
        check_count("iterations", iterations)?;
        for _ in 0..substeps {
            self.step(h, iterations)?;
        }
        Ok(())
    }

    /// Kinetic energy, the potential energy of the applied forces, and ½ C²/α of
    /// every compliant XPBD constraint.
    pub fn energy(&self) -> Result<f64, PbmError> {
        let mut energy = self.particles.energy();
        for c in &self.constraints {
            if let Some(alpha) = c.stiffness.compliance() {
                energy +=
                    self.values(c)?.iter().map(|c| 0.5 * c * c / alpha).sum::<f64>();
            }
        }
        Ok(energy)
    }

    /// The largest |C| over every row of every constraint, at the current positions.
    pub fn max_abs_c(&self) -> Result<f64, PbmError> {
        let mut worst = 0.0_f64;
        for c in &self.constraints {
            worst = self.values(c)?.iter().fold(worst, |m, c| m.max(c.abs()));
        }
        Ok(worst)
    }

    /// C of one constraint at the current positions.
    fn values(&self, c: &Projected<D>) -> Result<Vec<f64>, PbmError> {
        let ids = c.condition.particles();
        let x: Vec<Vector<D>> =
            ids.iter().map(|&i| self.particles.particles[i].x).collect();
        let mut value = vec![0.0; c.condition.rows()];
        let mut j = vec![Vector::zeros(); value.len() * ids.len()];
        c.condition.position(&x, &mut value, &mut j)?;
        Ok(value)
    }
}

/// A count of substeps or iterations: at least one.
pub fn check_count(name: &'static str, count: usize) -> Result<usize, PbmError> {
    if count == 0 {
        return Err(PbmError::invalid(
            "PBD frame",
            format!("{name} must be at least 1"),
        ));
    }
    Ok(count)
}
