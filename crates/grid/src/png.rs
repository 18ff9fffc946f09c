//! PNG rendering of (part of) the map for clients that show images (feature `png`).
//!
//! Squares are filled by terrain with grid lines between them; doors, props (lettered as in the
//! text rendering) and creature tokens are drawn on top. A token is a disc in its side's colour
//! (caller-supplied per creature), labelled with the same 1–2 character token as
//! [`BattleMap::render_ascii`], with an HP bar under it when the caller gives a fraction and a
//! gold ring on the creature whose turn it is. The drawn rectangle is resolved exactly as the
//! text rendering resolves it (viewport, focus, or the whole map).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

use crate::error::{GridError, Result};
use crate::geometry::{Position, size_squares};
use crate::map::{BattleMap, DoorState, Terrain};
use crate::render::{RenderOptions, Viewport, creature_token};

/// An opaque colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rgb(pub u8, pub u8, pub u8);

/// How one creature's token is drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct TokenStyle {
    /// Fill colour of the token (its side); grey when absent.
    pub color: Option<Rgb>,
    /// Remaining hit points as a fraction of the maximum (0–1); no bar when absent.
    pub hp_fraction: Option<f32>,
}

/// What to draw and how big.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PngOptions {
    /// Viewport or focus, token labels, hidden props: as for the text rendering.
    pub view: RenderOptions,
    /// Side of one square in pixels (4–64; default 32). Shrunk when the image would exceed
    /// `max_side_px`.
    pub square_px: u32,
    /// Longest side of the image in pixels (default 2048; at most [`MAX_SIDE_PX`]).
    pub max_side_px: u32,
    /// Creature id → colour and HP bar.
    pub styles: BTreeMap<String, TokenStyle>,
    /// The creature whose turn it is (highlighted).
    pub current_turn: Option<String>,
}

impl Default for PngOptions {
    fn default() -> Self {
        Self {
            view: RenderOptions::default(),
            square_px: 32,
            max_side_px: 2048,
            styles: BTreeMap::new(),
            current_turn: None,
        }
    }
}

/// The largest image side a caller may ask for, in pixels (a 4096×4096 image is 64 MB before
/// encoding).
pub const MAX_SIDE_PX: u32 = 4096;

/// Smallest and largest square sizes in pixels.
pub const SQUARE_PX: std::ops::RangeInclusive<u32> = 4..=64;

/// Background colour of each terrain.
pub fn terrain_color(t: &Terrain) -> Rgb {
    match t {
        Terrain::Open => Rgb(236, 228, 206),
        Terrain::Wall => Rgb(52, 52, 58),
        Terrain::Obstacle => Rgb(112, 92, 72),
        Terrain::LowWall { .. } => Rgb(168, 156, 136),
        Terrain::Difficult => Rgb(196, 178, 120),
        Terrain::Water => Rgb(88, 146, 208),
        Terrain::Hazard { .. } => Rgb(222, 104, 52),
    }
}

/// Grid line colour.
pub const GRID_LINE: Rgb = Rgb(150, 140, 120);
/// Token fill when the caller gives no colour.
pub const DEFAULT_TOKEN: Rgb = Rgb(128, 128, 128);
/// Ring around the creature whose turn it is.
pub const TURN_RING: Rgb = Rgb(255, 200, 0);
const DOOR_CLOSED: Rgb = Rgb(132, 84, 40);
const DOOR_LOCKED: Rgb = Rgb(120, 28, 28);
const PROP: Rgb = Rgb(150, 112, 184);
const INK: Rgb = Rgb(20, 20, 20);
const HP_BACK: Rgb = Rgb(90, 20, 20);

fn paint(c: Rgb) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(Color::from_rgba8(c.0, c.1, c.2, 255));
    p.anti_alias = true;
    p
}

/// Black or white, whichever reads better on `c`.
fn ink_on(c: Rgb) -> Rgb {
    let luma = 299 * u32::from(c.0) + 587 * u32::from(c.1) + 114 * u32::from(c.2);
    if luma > 140_000 {
        INK
    } else {
        Rgb(250, 250, 250)
    }
}

/// The canvas: a pixmap and the viewport it shows.
struct Canvas {
    pixmap: Pixmap,
    vp: Viewport,
    sq: f32,
}

impl Canvas {
    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, c: Rgb) {
        if let Some(r) = Rect::from_xywh(x, y, w, h) {
            let mut p = paint(c);
            p.anti_alias = false;
            self.pixmap.fill_rect(r, &p, Transform::identity(), None);
        }
    }

    /// Top-left pixel of a map square.
    fn origin(&self, x: i32, y: i32) -> (f32, f32) {
        (
            (x - self.vp.x) as f32 * self.sq,
            (y - self.vp.y) as f32 * self.sq,
        )
    }

    /// `text` in the embedded 8×8 font, centred on `(cx, cy)`, each font pixel `scale` pixels.
    fn text(&mut self, text: &str, cx: f32, cy: f32, scale: f32, c: Rgb) {
        let n = text.chars().count() as f32;
        let (x0, y0) = (cx - 4.0 * scale * n, cy - 4.0 * scale);
        for (i, ch) in text.chars().enumerate() {
            let glyph = font8x8::legacy::BASIC_LEGACY
                .get(ch as usize)
                .copied()
                .unwrap_or(font8x8::legacy::BASIC_LEGACY[usize::from(b'?')]);
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..8 {
                    if bits & (1 << col) != 0 {
                        self.rect(
                            x0 + (i as f32 * 8.0 + col as f32) * scale,
                            y0 + row as f32 * scale,
                            scale,
                            scale,
                            c,
                        );
                    }
                }
            }
        }
    }

    fn disc(&mut self, cx: f32, cy: f32, r: f32, fill: Rgb) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
            self.pixmap.fill_path(
                &path,
                &paint(fill),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }

    fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32, c: Rgb) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
            let stroke = Stroke {
                width,
                ..Stroke::default()
            };
            self.pixmap
                .stroke_path(&path, &paint(c), &stroke, Transform::identity(), None);
        }
    }
}

impl BattleMap {
    /// Draws the map (or a viewport / focus area) as a PNG image: `square_px` pixels per
    /// square (shrunk to keep the longest side within `max_side_px`). Errors name the fix for
    /// a bad viewport, focus or token.
    pub fn render_png(&self, opts: &PngOptions) -> Result<Vec<u8>> {
        self.render_pixmap(opts)?
            .0
            .encode_png()
            .map_err(|e| GridError::Render(e.to_string()))
    }

    /// The drawing before encoding, with the viewport it shows.
    fn render_pixmap(&self, opts: &PngOptions) -> Result<(Pixmap, Viewport)> {
        if !SQUARE_PX.contains(&opts.square_px) {
            return Err(GridError::Invalid(format!(
                "squarePx {} is out of range; give {}–{} pixels",
                opts.square_px,
                SQUARE_PX.start(),
                SQUARE_PX.end()
            )));
        }
        let vp = self.resolve_viewport(&opts.view)?;
        let longest = vp.width.max(vp.height);
        let sq = opts
            .square_px
            .min(opts.max_side_px.min(MAX_SIDE_PX) / longest)
            .max(*SQUARE_PX.start());
        let pixmap = Pixmap::new(vp.width * sq, vp.height * sq).ok_or_else(|| {
            GridError::Render(format!(
                "a {}×{} pixel image is too large",
                vp.width * sq,
                vp.height * sq
            ))
        })?;
        let mut cv = Canvas {
            pixmap,
            vp,
            sq: sq as f32,
        };
        let s = sq as f32;
        let (x1, y1) = (vp.x + vp.width as i32 - 1, vp.y + vp.height as i32 - 1);
        let visible = |q: Position| (vp.x..=x1).contains(&q.x) && (vp.y..=y1).contains(&q.y);
        let label_scale = if sq >= 48 { 2.0 } else { 1.0 };
        let labels = sq >= 12;

        // Terrain.
        for y in vp.y..=y1 {
            for x in vp.x..=x1 {
                let t = self.terrain(Position::new(x, y))?;
                let (px, py) = cv.origin(x, y);
                cv.rect(px, py, s, s, terrain_color(&Terrain::Open));
                match t {
                    // A low wall is a band across the square, so the floor shows around it.
                    Terrain::LowWall { .. } => {
                        cv.rect(px, py + s * 0.3, s, s * 0.4, terrain_color(t));
                    }
                    Terrain::Open => {}
                    _ => cv.rect(px, py, s, s, terrain_color(t)),
                }
            }
        }
        // Grid lines.
        for x in 0..=vp.width {
            cv.rect(
                x as f32 * s - 0.5,
                0.0,
                1.0,
                vp.height as f32 * s,
                GRID_LINE,
            );
        }
        for y in 0..=vp.height {
            cv.rect(0.0, y as f32 * s - 0.5, vp.width as f32 * s, 1.0, GRID_LINE);
        }
        // Doors: a leaf across the middle of the square; an open door only its frame.
        for (q, state) in self.doors() {
            if !visible(q) {
                continue;
            }
            let (px, py) = cv.origin(q.x, q.y);
            match state {
                DoorState::Closed => {
                    cv.rect(px + s * 0.1, py + s * 0.35, s * 0.8, s * 0.3, DOOR_CLOSED)
                }
                DoorState::Locked => {
                    cv.rect(px + s * 0.1, py + s * 0.35, s * 0.8, s * 0.3, DOOR_LOCKED);
                    cv.rect(px + s * 0.45, py + s * 0.42, s * 0.1, s * 0.16, TURN_RING);
                }
                DoorState::Open => {
                    cv.rect(px + s * 0.1, py + s * 0.35, s * 0.1, s * 0.3, DOOR_CLOSED);
                    cv.rect(px + s * 0.8, py + s * 0.35, s * 0.1, s * 0.3, DOOR_CLOSED);
                }
            }
        }
        // Props, lettered as in the text rendering.
        for (i, prop) in self.props().enumerate() {
            if prop.hidden_dc.is_some() && !opts.view.show_hidden {
                continue;
            }
            let letter = prop.symbol.unwrap_or_else(|| {
                let i = i as u8 % 52;
                if i < 26 {
                    (b'A' + i) as char
                } else {
                    (b'a' + i - 26) as char
                }
            });
            for q in prop.squares()? {
                if !visible(q) {
                    continue;
                }
                let (px, py) = cv.origin(q.x, q.y);
                cv.rect(px + s * 0.15, py + s * 0.15, s * 0.7, s * 0.7, PROP);
                if labels {
                    cv.text(
                        &letter.to_string(),
                        px + s / 2.0,
                        py + s / 2.0,
                        label_scale,
                        ink_on(PROP),
                    );
                }
            }
        }
        // Creatures: one disc over the whole space.
        for c in self.creatures() {
            let token = creature_token(c, &opts.view.tokens)?;
            let n = size_squares(c.size);
            let (ax, ay) = (c.position.x, c.position.y);
            if ax + n - 1 < vp.x || ay + n - 1 < vp.y || ax > x1 || ay > y1 {
                continue;
            }
            let style = opts.styles.get(&c.id).copied().unwrap_or_default();
            let fill = style.color.unwrap_or(DEFAULT_TOKEN);
            let (px, py) = cv.origin(ax, ay);
            let side = n as f32 * s;
            let (cx, cy, r) = (px + side / 2.0, py + side / 2.0, side * 0.42);
            if opts.current_turn.as_deref() == Some(c.id.as_str()) {
                cv.ring(cx, cy, r + s * 0.04, (s * 0.12).max(2.0), TURN_RING);
            }
            cv.disc(cx, cy, r, fill);
            cv.ring(cx, cy, r, (s * 0.04).max(1.0), INK);
            if labels {
                cv.text(
                    &token,
                    cx,
                    cy - s * 0.05,
                    label_scale * n as f32,
                    ink_on(fill),
                );
            }
            if let Some(f) = style.hp_fraction {
                let f = if f.is_finite() {
                    f.clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (bx, by, bw, bh) = (
                    px + side * 0.12,
                    py + side * 0.8,
                    side * 0.76,
                    (s * 0.12).max(2.0),
                );
                cv.rect(bx, by, bw, bh, HP_BACK);
                let bar = if f > 0.5 {
                    Rgb(60, 180, 75)
                } else if f > 0.25 {
                    Rgb(230, 190, 40)
                } else {
                    Rgb(220, 50, 40)
                };
                cv.rect(bx, by, bw * f, bh, bar);
            }
        }
        Ok((cv.pixmap, vp))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Terrain;
    use tabletop_rules::Size;

    fn pixel(img: &Pixmap, x: u32, y: u32) -> Rgb {
        let p = img.pixel(x, y).expect("inside the image");
        Rgb(p.red(), p.green(), p.blue())
    }

    fn sample_map() -> BattleMap {
        let mut m = BattleMap::new(10, 8).unwrap();
        m.set_terrain(Position::new(2, 2), Terrain::Wall).unwrap();
        m.set_terrain(Position::new(5, 1), Terrain::Water).unwrap();
        m.place_creature("goblin", Position::new(4, 4), Size::Small)
            .unwrap();
        m.place_creature("ogre", Position::new(7, 5), Size::Large)
            .unwrap();
        m
    }

    #[test]
    fn encodes_a_png_of_the_expected_size_with_walls_and_tokens() {
        let m = sample_map();
        let mut opts = PngOptions::default();
        opts.styles.insert(
            "goblin".into(),
            TokenStyle {
                color: Some(Rgb(200, 30, 30)),
                hp_fraction: Some(0.5),
            },
        );
        opts.current_turn = Some("goblin".into());
        let png = m.render_png(&opts).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let img = Pixmap::decode_png(&png).unwrap();
        assert_eq!((img.width(), img.height()), (10 * 32, 8 * 32));
        // The middle of the wall square (2, 2) is wall-coloured.
        assert_eq!(
            pixel(&img, 2 * 32 + 16, 2 * 32 + 16),
            terrain_color(&Terrain::Wall)
        );
        assert_eq!(
            pixel(&img, 5 * 32 + 4, 32 + 4),
            terrain_color(&Terrain::Water)
        );
        // The goblin's token is red below its label (above its HP bar).
        assert_eq!(pixel(&img, 4 * 32 + 16, 4 * 32 + 21), Rgb(200, 30, 30));
        // Its turn ring is gold at the square's edge; an open square stays floor-coloured.
        assert_eq!(pixel(&img, 4 * 32 + 16, 4 * 32 + 1), TURN_RING);
        assert_eq!(pixel(&img, 32 + 16, 16), terrain_color(&Terrain::Open));
        // The ogre, unstyled, is grey over its 2×2 space.
        assert_eq!(pixel(&img, 7 * 32 + 20, 5 * 32 + 40), DEFAULT_TOKEN);
    }

    #[test]
    fn a_focus_draws_only_its_area_and_bad_input_is_an_error() {
        let m = sample_map();
        let mut opts = PngOptions::default();
        opts.view.focus = Some(crate::render::Focus {
            creature_id: "goblin".into(),
            radius_ft: 5,
        });
        opts.square_px = 16;
        let (img, vp) = m.render_pixmap(&opts).unwrap();
        assert_eq!((vp.x, vp.y, vp.width, vp.height), (3, 3, 3, 3));
        assert_eq!((img.width(), img.height()), (48, 48));
        assert_eq!(pixel(&img, 24, 18), DEFAULT_TOKEN);
        opts.square_px = 1;
        assert!(
            m.render_png(&opts)
                .unwrap_err()
                .to_string()
                .contains("squarePx")
        );
        opts.square_px = 32;
        opts.view.tokens.insert("goblin".into(), "GOB".into());
        assert!(m.render_png(&opts).unwrap_err().to_string().contains("1–2"));
    }

    #[test]
    fn large_maps_shrink_to_the_size_limit() {
        let m = BattleMap::new(200, 100).unwrap();
        let (img, _) = m.render_pixmap(&PngOptions::default()).unwrap();
        assert_eq!((img.width(), img.height()), (2000, 1000));
        // A caller's limit above MAX_SIDE_PX is held to it.
        let opts = PngOptions {
            square_px: 64,
            max_side_px: u32::MAX,
            ..Default::default()
        };
        let (img, _) = m.render_pixmap(&opts).unwrap();
        assert_eq!((img.width(), img.height()), (4000, 2000));
    }
}
