//! Your practice files, one module a task, so that an editor's Rust support checks
//! and completes them where they are. A task's module is there once `pbm practice
//! start` has written its file (`build.rs`); `pbm practice check` builds it with
//! the book's checks instead. Written by `pbm book` from the chapters' tasks;
//! `rustfmt::skip` keeps `cargo fmt` from looking for files not started.

/// `ode/euler`: Euler's step.
#[rustfmt::skip]
#[cfg(started_ode_euler)]
#[path = "../ode-euler/euler.rs"]
pub mod ode_euler;

/// `ode/midpoint`: one step of the midpoint method.
#[rustfmt::skip]
#[cfg(started_ode_midpoint)]
#[path = "../ode-midpoint/midpoint.rs"]
pub mod ode_midpoint;

/// `ode/rk4`: one step of RK4.
#[rustfmt::skip]
#[cfg(started_ode_rk4)]
#[path = "../ode-rk4/rk4.rs"]
pub mod ode_rk4;

/// `ode/step-size`: the adaptive controller's next step.
#[rustfmt::skip]
#[cfg(started_ode_step_size)]
#[path = "../ode-step-size/step_size.rs"]
pub mod ode_step_size;

/// `particles/derivative`: the particle system's derivative.
#[rustfmt::skip]
#[cfg(started_particles_derivative)]
#[path = "../particles-derivative/derivative.rs"]
pub mod particles_derivative;

/// `particles/spring`: the damped spring's force.
#[rustfmt::skip]
#[cfg(started_particles_spring)]
#[path = "../particles-spring/spring.rs"]
pub mod particles_spring;

/// `particles/condition-force`: the forces of a soft condition.
#[rustfmt::skip]
#[cfg(started_particles_condition_force)]
#[path = "../particles-condition-force/condition_force.rs"]
pub mod particles_condition_force;

/// `particles/bounce`: collision response at a plane.
#[rustfmt::skip]
#[cfg(started_particles_bounce)]
#[path = "../particles-bounce/bounce.rs"]
pub mod particles_bounce;

/// `implicit/backward-euler`: one backward Euler step of ẋ = A x.
#[rustfmt::skip]
#[cfg(started_implicit_backward_euler)]
#[path = "../implicit-backward-euler/backward_euler.rs"]
pub mod implicit_backward_euler;

/// `implicit/cg`: conjugate gradients.
#[rustfmt::skip]
#[cfg(started_implicit_cg)]
#[path = "../implicit-cg/cg.rs"]
pub mod implicit_cg;

/// `implicit/spring-stiffness`: the spring's stiffness block ∂f_a/∂x_a.
#[rustfmt::skip]
#[cfg(started_implicit_spring_stiffness)]
#[path = "../implicit-spring-stiffness/spring_stiffness.rs"]
pub mod implicit_spring_stiffness;

/// `implicit/pcg`: conjugate gradients with a Jacobi preconditioner.
#[rustfmt::skip]
#[cfg(started_implicit_pcg)]
#[path = "../implicit-pcg/pcg.rs"]
pub mod implicit_pcg;

/// `constraints/bead-force`: the constraint force on a bead, with feedback.
#[rustfmt::skip]
#[cfg(started_constraints_bead_force)]
#[path = "../constraints-bead-force/bead_force.rs"]
pub mod constraints_bead_force;

/// `constraints/rod`: the rod's C, J and J̇.
#[rustfmt::skip]
#[cfg(started_constraints_rod)]
#[path = "../constraints-rod/rod.rs"]
pub mod constraints_rod;

/// `constraints/constraint-force`: the constraint force Jᵀλ on the block-sparse Jacobian.
#[rustfmt::skip]
#[cfg(started_constraints_constraint_force)]
#[path = "../constraints-constraint-force/constraint_force.rs"]
pub mod constraints_constraint_force;

/// `constraints/multipliers`: the Lagrange multipliers, by a dense solve.
#[rustfmt::skip]
#[cfg(started_constraints_multipliers)]
#[path = "../constraints-multipliers/multipliers.rs"]
pub mod constraints_multipliers;

/// `lagrangian/acceleration`: the generalised accelerations ü.
#[rustfmt::skip]
#[cfg(started_lagrangian_acceleration)]
#[path = "../lagrangian-acceleration/acceleration.rs"]
pub mod lagrangian_acceleration;

/// `lagrangian/wire-jacobian`: J and J̇ of a bead on any wire.
#[rustfmt::skip]
#[cfg(started_lagrangian_wire_jacobian)]
#[path = "../lagrangian-wire-jacobian/wire_jacobian.rs"]
pub mod lagrangian_wire_jacobian;

/// `lagrangian/kinetic-gradients`: the two gradients of the kinetic energy, ∂T/∂u̇ and ∂T/∂u.
#[rustfmt::skip]
#[cfg(started_lagrangian_kinetic_gradients)]
#[path = "../lagrangian-kinetic-gradients/kinetic_gradients.rs"]
pub mod lagrangian_kinetic_gradients;

/// `lagrangian/rod-row`: a rod's row between a parametric bead and a free particle.
#[rustfmt::skip]
#[cfg(started_lagrangian_rod_row)]
#[path = "../lagrangian-rod-row/rod_row.rs"]
pub mod lagrangian_rod_row;

/// `rigid/quaternion-rate`: the rate of change of an orientation quaternion.
#[rustfmt::skip]
#[cfg(started_rigid_quaternion_rate)]
#[path = "../rigid-quaternion-rate/quaternion_rate.rs"]
pub mod rigid_quaternion_rate;

/// `rigid/block-inertia`: the inertia tensor of a solid block.
#[rustfmt::skip]
#[cfg(started_rigid_block_inertia)]
#[path = "../rigid-block-inertia/block_inertia.rs"]
pub mod rigid_block_inertia;

/// `rigid/mesh-inertia`: the mass properties of a closed mesh, by signed tetrahedra.
#[rustfmt::skip]
#[cfg(started_rigid_mesh_inertia)]
#[path = "../rigid-mesh-inertia/mesh_inertia.rs"]
pub mod rigid_mesh_inertia;

/// `rigid/state-derivative`: the derivative of a rigid body's state.
#[rustfmt::skip]
#[cfg(started_rigid_state_derivative)]
#[path = "../rigid-state-derivative/state_derivative.rs"]
pub mod rigid_state_derivative;

/// `collision/hermite`: the cubic Hermite curve through a step.
#[rustfmt::skip]
#[cfg(started_collision_hermite)]
#[path = "../collision-hermite/hermite.rs"]
pub mod collision_hermite;

/// `collision/separating-axis`: the separation of two convex polygons.
#[rustfmt::skip]
#[cfg(started_collision_separating_axis)]
#[path = "../collision-separating-axis/separation.rs"]
pub mod collision_separating_axis;

/// `collision/sweep`: the coherent sweep's insertion sort.
#[rustfmt::skip]
#[cfg(started_collision_sweep)]
#[path = "../collision-sweep/sweep.rs"]
pub mod collision_sweep;

/// `collision/collision-time`: Baraff's secant search for the time of collision.
#[rustfmt::skip]
#[cfg(started_collision_collision_time)]
#[path = "../collision-collision-time/secant.rs"]
pub mod collision_collision_time;

/// `contact/impulse`: the collision impulse's magnitude.
#[rustfmt::skip]
#[cfg(started_contact_impulse)]
#[path = "../contact-impulse/impulse.rs"]
pub mod contact_impulse;

/// `contact/lcp`: contact forces from the LCP.
#[rustfmt::skip]
#[cfg(started_contact_lcp)]
#[path = "../contact-lcp/lcp.rs"]
pub mod contact_lcp;

/// `contact/normal-rate`: how fast a contact's normal turns.
#[rustfmt::skip]
#[cfg(started_contact_normal_rate)]
#[path = "../contact-normal-rate/normal_rate.rs"]
pub mod contact_normal_rate;

/// `contact/matrix`: the matrix A of resting contact.
#[rustfmt::skip]
#[cfg(started_contact_matrix)]
#[path = "../contact-matrix/matrix.rs"]
pub mod contact_matrix;

/// `cloth/thread-weights`: the weights of a triangle's map from its pattern.
#[rustfmt::skip]
#[cfg(started_cloth_thread_weights)]
#[path = "../cloth-thread-weights/thread_weights.rs"]
pub mod cloth_thread_weights;

/// `cloth/stretch`: a triangle's stretch condition and its gradient.
#[rustfmt::skip]
#[cfg(started_cloth_stretch)]
#[path = "../cloth-stretch/stretch.rs"]
pub mod cloth_stretch;

/// `cloth/fold-angle`: a hinge's fold angle and its gradient.
#[rustfmt::skip]
#[cfg(started_cloth_fold_angle)]
#[path = "../cloth-fold-angle/fold_angle.rs"]
pub mod cloth_fold_angle;

/// `cloth/hessian`: the Hessian of a condition's energy.
#[rustfmt::skip]
#[cfg(started_cloth_hessian)]
#[path = "../cloth-hessian/hessian.rs"]
pub mod cloth_hessian;

/// `pbd/distance`: one XPBD projection of a distance constraint.
#[rustfmt::skip]
#[cfg(started_pbd_distance)]
#[path = "../pbd-distance/distance.rs"]
pub mod pbd_distance;

/// `pbd/ground`: the ground's position pass, with static friction.
#[rustfmt::skip]
#[cfg(started_pbd_ground)]
#[path = "../pbd-ground/ground.rs"]
pub mod pbd_ground;

/// `pbd/inverse-mass`: the generalized inverse mass of a rigid body.
#[rustfmt::skip]
#[cfg(started_pbd_inverse_mass)]
#[path = "../pbd-inverse-mass/inverse_mass.rs"]
pub mod pbd_inverse_mass;

/// `pbd/angular-velocity`: the angular velocity read off a body's turn.
#[rustfmt::skip]
#[cfg(started_pbd_angular_velocity)]
#[path = "../pbd-angular-velocity/angular_velocity.rs"]
pub mod pbd_angular_velocity;

/// `interactive/mouse-spring`: the mouse spring, scaled by the grabbed point's mass.
#[rustfmt::skip]
#[cfg(started_interactive_mouse_spring)]
#[path = "../interactive-mouse-spring/mouse.rs"]
pub mod interactive_mouse_spring;

/// `interactive/friction-row`: the right-hand side of a friction row.
#[rustfmt::skip]
#[cfg(started_interactive_friction_row)]
#[path = "../interactive-friction-row/friction_row.rs"]
pub mod interactive_friction_row;

/// `interactive/blend`: the paper's blend of a step, for the collision search.
#[rustfmt::skip]
#[cfg(started_interactive_blend)]
#[path = "../interactive-blend/blend.rs"]
pub mod interactive_blend;

/// `interactive/least-displacement`: the tolerance correction of one contact.
#[rustfmt::skip]
#[cfg(started_interactive_least_displacement)]
#[path = "../interactive-least-displacement/least_displacement.rs"]
pub mod interactive_least_displacement;

/// `interactive/pin-catch`: the impulse that catches a point pinned to the world.
#[rustfmt::skip]
#[cfg(started_interactive_pin_catch)]
#[path = "../interactive-pin-catch/catch.rs"]
pub mod interactive_pin_catch;

/// `solvers/softness`: a soft contact's three coefficients.
#[rustfmt::skip]
#[cfg(started_solvers_softness)]
#[path = "../solvers-softness/softness.rs"]
pub mod solvers_softness;

/// `solvers/relax`: one point's impulse in a pass of soft step, soft or relaxed.
#[rustfmt::skip]
#[cfg(started_solvers_relax)]
#[path = "../solvers-relax/relax.rs"]
pub mod solvers_relax;
