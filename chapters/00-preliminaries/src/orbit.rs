//! Pictures of solids for the live demos: a camera the reader turns about the
//! scene, and the painter's pieces that draw with it. Faces are sorted back to
//! front and each is shaded by the light it faces (Lambert's cosine), over a ground
//! with a grid and the shadows that say how high a body is.
//!
//! The views are orthographic: world y is up, the camera looks at the origin from
//! an azimuth about the vertical and an elevation above the horizon, and the
//! picture's units are the world's.

use crate::PbmError;
use crate::demo::{Drawing, Ink, Param, Values};
use nalgebra::Vector3;

type V3 = Vector3<f64>;

/// The name of a 3-D demo's slider that turns its camera about the vertical. The
/// page's loader turns it too when the reader drags the mouse across empty space.
pub const VIEW: &str = "view";

/// The slider that turns the camera: its azimuth (°), opening at `default`.
pub const fn view(default: f64) -> Param {
    Param::linear(VIEW, "turn the view", "°", [default, -180.0, 180.0])
        .demo_only("an exercise draws no picture")
}

/// The share of a face's colour that no light takes away: a face turned from
/// the light is dim, never black.
pub const AMBIENT: f64 = 0.5;

/// An orthographic view of 3-D space, looking at the origin, world y up on the
/// screen, lit from over the viewer's left shoulder.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    eye: V3,
    right: V3,
    up: V3,
    light: V3,
}

impl Camera {
    /// Looking from `azimuth` degrees about the vertical (0 from +z, 90 from +x)
    /// and `elevation` degrees above the horizon (less than 90).
    pub fn orbit(azimuth: f64, elevation: f64) -> Camera {
        let (a, e) = (azimuth.to_radians(), elevation.to_radians());
        let eye = V3::new(e.cos() * a.sin(), e.sin(), e.cos() * a.cos());
        let right = V3::new(a.cos(), 0.0, -a.sin());
        let up = eye.cross(&right);
        let light = (eye + up - 0.6 * right).normalize();
        Camera { eye, right, up, light }
    }

    /// Where point `p` lands on the screen (world units).
    pub fn project(&self, p: &V3) -> [f64; 2] {
        [p.dot(&self.right), p.dot(&self.up)]
    }

    /// How near point `p` is to the eye (m): larger is nearer.
    pub fn depth(&self, p: &V3) -> f64 {
        p.dot(&self.eye)
    }

    /// The point of the plane through the origin facing the eye that lands on screen
    /// point `[x, y]`: the inverse of [`Camera::project`] on that plane.
    pub fn lift(&self, [x, y]: [f64; 2]) -> V3 {
        self.right * x + self.up * y
    }

    /// Whether a face with outward normal `n` faces the eye.
    pub fn sees(&self, n: &V3) -> bool {
        n.dot(&self.eye) > 0.0
    }

    /// The brightness of a face with unit normal `n` (0 black, 1 its full colour):
    /// Lambert's cosine of the angle to the light, above [`AMBIENT`].
    pub fn shade(&self, n: &V3) -> f64 {
        AMBIENT + (1.0 - AMBIENT) * n.dot(&self.light).max(0.0)
    }
}

/// The camera of a demo with a [`view`] slider, and the parameters the demo was
/// built with: a change of the view alone turns the running demo's camera.
#[derive(Debug, Clone, PartialEq)]
pub struct Orbit {
    /// The camera as the slider has turned it.
    pub camera: Camera,
    elevation: f64,
    params: Values,
}

impl Orbit {
    /// The camera `params`' view gives, `elevation` degrees above the horizon.
    pub fn new(params: &Values, elevation: f64) -> Result<Orbit, PbmError> {
        let camera = Camera::orbit(params.get(VIEW)?, elevation);
        Ok(Orbit { camera, elevation, params: params.clone() })
    }

    /// Turns the camera to `params`' view if they differ from the demo's in the view
    /// alone, and says whether they did ([`crate::demo::Demo::retune`]).
    pub fn retune(&mut self, params: &Values) -> bool {
        let Ok(azimuth) = params.get(VIEW) else { return false };
        let turned = params.same_but(&self.params, VIEW);
        if turned {
            self.camera = Camera::orbit(azimuth, self.elevation);
            self.params = params.clone();
        }
        turned
    }
}

/// A flat face of a solid, in the world: its ink, its corners in order around it,
/// and its outward unit normal.
#[derive(Debug, Clone, PartialEq)]
pub struct Face {
    /// The colour it is drawn in, before shading.
    pub ink: Ink,
    /// Its corners.
    pub corners: Vec<V3>,
    /// Its outward unit normal.
    pub normal: V3,
}

/// A face as the screen sees it, ready to be drawn in depth order.
#[derive(Debug, Clone)]
struct Flat {
    depth: f64,
    ink: Ink,
    shade: f64,
    corners: Vec<[f64; 2]>,
}

/// The painter's algorithm: faces collected in any order and drawn from the
/// farthest to the nearest, so that the nearer covers the farther.
#[derive(Debug, Clone)]
pub struct Painter<'a> {
    camera: &'a Camera,
    faces: Vec<Flat>,
}

impl<'a> Painter<'a> {
    /// An empty picture seen by `camera`.
    pub fn new(camera: &'a Camera) -> Painter<'a> {
        Painter { camera, faces: Vec::new() }
    }

    /// A piece of a thin sheet (a cloth's triangle, with corners `corners`), seen
    /// from either side: shaded as the side towards the eye, at its centre's depth.
    pub fn sheet(&mut self, ink: Ink, corners: &[V3]) {
        let [a, b, c] = [0, 1, corners.len() - 1].map(|i| corners[i]);
        let normal = (b - a).cross(&(c - a));
        let Some(normal) = normal.try_normalize(0.0) else { return };
        let normal = if self.camera.sees(&normal) { normal } else { -normal };
        let centre = corners.iter().sum::<V3>() / corners.len() as f64;
        let depth = self.camera.depth(&centre);
        self.push(depth, Face { ink, corners: corners.to_vec(), normal });
    }

    /// A convex solid about `centre`: of `faces` only those towards the eye, all at
    /// the centre's depth. They never overlap one another; and a sheet's face with
    /// its centre in front of the solid's centre goes over the solid, one behind it
    /// under it, which is right for every point outside a ball.
    pub fn convex(&mut self, centre: &V3, faces: impl IntoIterator<Item = Face>) {
        let depth = self.camera.depth(centre);
        for face in faces.into_iter().filter(|f| self.camera.sees(&f.normal)) {
            self.push(depth, face);
        }
    }

    fn push(&mut self, depth: f64, face: Face) {
        self.faces.push(Flat {
            depth,
            ink: face.ink,
            shade: self.camera.shade(&face.normal),
            corners: face.corners.iter().map(|p| self.camera.project(p)).collect(),
        });
    }

    /// Draws the faces into `out`, the farthest first.
    pub fn draw(mut self, out: &mut Drawing) {
        // Stable: faces at one depth (a convex solid's) keep their order.
        self.faces.sort_by(|a, b| a.depth.total_cmp(&b.depth));
        for face in self.faces {
            out.face(face.ink, face.shade, face.corners.into_iter());
        }
    }
}

/// A ground at height `y`: a disc of `radius` with a grid of `spacing` over it
/// (a disc, so that it looks the same from every azimuth), drawn first.
pub fn ground(out: &mut Drawing, camera: &Camera, y: f64, radius: f64, spacing: f64) {
    let rim = (0..73).map(|k| {
        let a = std::f64::consts::TAU * f64::from(k) / 72.0;
        camera.project(&V3::new(radius * a.cos(), y, radius * a.sin()))
    });
    out.polygon(Ink::Muted, rim);
    grid(out, camera, y, radius, spacing, |across| {
        (radius * radius - across * across).max(0.0).sqrt()
    });
}

/// A room's floor at height `y`, a square of half-side `half` with a grid of
/// `spacing`, and its walls up to `height` above it: only the far ones (the near
/// ones would hide what is inside), drawn first.
pub fn room(
    out: &mut Drawing,
    camera: &Camera,
    y: f64,
    half: f64,
    height: f64,
    spacing: f64,
) {
    let corners = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
    let at = |[x, z]: [f64; 2], up: f64| V3::new(half * x, y + up, half * z);
    out.polygon(Ink::Muted, corners.iter().map(|&c| camera.project(&at(c, 0.0))));
    grid(out, camera, y, half, spacing, |_| half);
    for k in 0..4 {
        let [a, b] = [corners[k], corners[(k + 1) % 4]];
        // The wall's inward normal, towards the middle.
        let inward = -V3::new(a[0] + b[0], 0.0, a[1] + b[1]);
        if camera.sees(&inward) {
            let wall = [at(a, 0.0), at(b, 0.0), at(b, height), at(a, height)];
            out.polygon(Ink::Muted, wall.iter().map(|p| camera.project(p)));
        }
    }
}

/// The lines of a grid of `spacing` on the ground at height `y`, out to `reach`
/// from the middle, each line `half_length(its offset)` long on either side.
fn grid(
    out: &mut Drawing,
    camera: &Camera,
    y: f64,
    reach: f64,
    spacing: f64,
    half_length: impl Fn(f64) -> f64,
) {
    let count = (reach / spacing + 1e-9).floor() as i32;
    for k in -count..=count {
        let across = f64::from(k) * spacing;
        let half = half_length(across);
        let lines =
            [(V3::new(across, y, 0.0), V3::z()), (V3::new(0.0, y, across), V3::x())];
        for (middle, along) in lines {
            let ends = [middle - along * half, middle + along * half];
            out.polyline(Ink::Muted, ends.iter().map(|p| camera.project(p)));
        }
    }
}

/// The shadow on the ground at height `y` of a convex solid with `faces`, cast by a
/// light straight above: the faces that look up, flattened onto the ground, cover
/// the solid's outline there exactly once. Drawn after the ground, before the
/// solids.
pub fn shadow<'f>(
    out: &mut Drawing,
    camera: &Camera,
    y: f64,
    faces: impl IntoIterator<Item = &'f Face>,
) {
    for face in faces.into_iter().filter(|f| f.normal.y > 0.0) {
        let flat = face.corners.iter().map(|p| camera.project(&V3::new(p.x, y, p.z)));
        out.face(Ink::Muted, 0.0, flat);
    }
}

/// The six faces of a box with half-sizes `half` along the columns of `rotation`
/// about `centre`, each in the ink of the axis it is perpendicular to.
pub fn cuboid(
    centre: &V3,
    rotation: &nalgebra::Matrix3<f64>,
    half: &V3,
    inks: [Ink; 3],
) -> Vec<Face> {
    let mut faces = Vec::with_capacity(6);
    for axis in 0..3 {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for sign in [-1.0, 1.0] {
            // Counter-clockwise seen from outside.
            let loop_ = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
            let corners = loop_.map(|[a, b]| {
                let mut local = V3::zeros();
                local[axis] = sign * half[axis];
                local[u] = sign * a * half[u];
                local[v] = b * half[v];
                centre + rotation * local
            });
            let normal = rotation.column(axis) * sign;
            faces.push(Face { ink: inks[axis], corners: corners.to_vec(), normal });
        }
    }
    faces
}

/// A ball's surface as faces in `ink`: `rings` bands from pole to pole, each of
/// `2 rings` quadrilaterals (triangles at the poles).
pub fn ball(centre: &V3, radius: f64, rings: usize, ink: Ink) -> Vec<Face> {
    use std::f64::consts::{PI, TAU};
    let point = |i: usize, j: usize| {
        let (polar, around) =
            (PI * i as f64 / rings as f64, TAU * j as f64 / (2 * rings) as f64);
        V3::new(polar.sin() * around.cos(), polar.cos(), polar.sin() * around.sin())
    };
    let mut faces = Vec::with_capacity(2 * rings * rings);
    for i in 0..rings {
        for j in 0..2 * rings {
            // At a pole two corners are one: the quadrilateral is a triangle.
            let ring =
                [point(i, j), point(i + 1, j), point(i + 1, j + 1), point(i, j + 1)];
            let middle = ring.iter().sum::<V3>().normalize();
            let corners = ring.iter().map(|p| centre + p * radius).collect();
            faces.push(Face { ink, corners, normal: middle });
        }
    }
    faces
}

/// A ball's equator as one face looking up: what casts the ball's shadow from
/// straight above, in one piece (the faces of [`ball`] would show their seams).
pub fn equator(centre: &V3, radius: f64, ink: Ink) -> Face {
    let ring = (0..72).map(|k| {
        let a = std::f64::consts::TAU * f64::from(k) / 72.0;
        centre + V3::new(a.cos(), 0.0, a.sin()) * radius
    });
    Face { ink, corners: ring.collect(), normal: V3::y() }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

    use super::*;

    #[test]
    fn the_camera_turns_about_the_vertical_and_keeps_up_on_screen_up() {
        let front = Camera::orbit(0.0, 0.0);
        assert_eq!(front.project(&V3::new(1.0, 2.0, 3.0)), [1.0, 2.0]);
        assert_eq!(front.depth(&V3::new(1.0, 2.0, 3.0)), 3.0);
        // From +x, +z is to the left and nearer points are larger x.
        let side = Camera::orbit(90.0, 0.0);
        let [x, y] = side.project(&V3::new(0.0, 1.0, 1.0));
        assert!((x + 1.0).abs() < 1e-12 && (y - 1.0).abs() < 1e-12, "{x} {y}");
        assert!((side.depth(&V3::x()) - 1.0).abs() < 1e-12);
        // Lifted and projected again: the same screen point, whatever the view.
        let tilted = Camera::orbit(-130.0, 35.0);
        let [x, y] = tilted.project(&tilted.lift([0.3, -0.7]));
        assert!((x - 0.3).abs() < 1e-12 && (y + 0.7).abs() < 1e-12);
        assert!(tilted.project(&V3::y())[1] > 0.0, "up stays up");
    }

    #[test]
    fn a_face_towards_the_light_is_brighter_and_none_is_black() {
        let camera = Camera::orbit(30.0, 25.0);
        let top = camera.shade(&V3::y());
        let bottom = camera.shade(&-V3::y());
        assert!(top > 0.8 && top <= 1.0, "{top}");
        assert_eq!(bottom, AMBIENT);
    }

    #[test]
    fn the_painter_draws_the_far_face_first_and_a_box_shows_three_faces() {
        let camera = Camera::orbit(20.0, 20.0);
        let mut painter = Painter::new(&camera);
        let square = |z: f64| {
            vec![
                V3::new(0.0, 0.0, z),
                V3::new(1.0, 0.0, z),
                V3::new(1.0, 1.0, z),
                V3::new(0.0, 1.0, z),
            ]
        };
        painter.sheet(Ink::First, &square(1.0));
        painter.sheet(Ink::Second, &square(-1.0));
        let mut out = Drawing::default();
        painter.draw(&mut out);
        assert_eq!(out.data[0], Drawing::FACE);
        assert_eq!(out.data[1], Ink::Second as u8 as f64, "the far one first");
        let inks = [Ink::First, Ink::Second, Ink::Third];
        let faces = cuboid(
            &V3::zeros(),
            &nalgebra::Matrix3::identity(),
            &V3::repeat(0.5),
            inks,
        );
        for face in &faces {
            // Counter-clockwise from outside: the corners' normal is the face's.
            let [a, b, c] = [0, 1, 2].map(|i| face.corners[i]);
            assert!((b - a).cross(&(c - a)).normalize().dot(&face.normal) > 0.999);
        }
        let mut painter = Painter::new(&camera);
        painter.convex(&V3::zeros(), faces);
        assert_eq!(painter.faces.len(), 3);
        let ball = ball(&V3::zeros(), 1.0, 8, Ink::Second);
        assert_eq!(ball.len(), 128);
        assert!(ball.iter().all(|f| (f.normal.norm() - 1.0).abs() < 1e-12));
    }
}
