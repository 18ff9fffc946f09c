//! `render_battlefield`: the encounter's map as text (tokens, terrain, props) with a legend of
//! names, sides, hit points and whose turn it is; a viewport or a focus on one combatant.

use serde::Serialize;
use tabletop_grid::{Focus, LegendEntry, RenderOptions, Viewport};

use crate::combat::actions::Who;
use crate::engine::Call;
use crate::error::{EngineError, Result};

/// How much legend to write.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LegendDetail {
    /// No legend.
    None,
    /// Combatant tokens with HP, and the terrain symbols on one line.
    #[default]
    Compact,
    /// One line per symbol, plus conditions and the initiative order.
    Full,
}

/// A `render_battlefield` request.
#[derive(Debug, Clone, Default)]
pub struct RenderRequest {
    /// Encounter (default: the active one); an ended one by id too.
    pub encounter_id: Option<String>,
    /// A scratch map (plain squares, the terrain given) instead of an encounter's; used too
    /// when no encounter is active (see [`crate::combat::spatial::scratch`]).
    pub scratch: Option<crate::combat::create::TerrainSpec>,
    /// A rectangle of squares.
    pub viewport: Option<Viewport>,
    /// Centre on this combatant.
    pub focus: Who,
    /// How far around the focus, in feet (default 30).
    pub radius_ft: Option<u32>,
    /// Legend detail.
    pub legend: LegendDetail,
    /// Draw hidden props (default true: the game master's view).
    pub show_hidden: bool,
}

/// The drawn battlefield.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Battlefield {
    /// Encounter id.
    pub encounter_id: String,
    /// Round.
    pub round: u32,
    /// Whose turn (name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// The drawing.
    pub map: String,
    /// Symbols drawn and what they mean.
    pub legend: Vec<LegendEntry>,
    /// The rectangle drawn.
    pub viewport: Viewport,
    /// Legend detail used.
    #[serde(skip)]
    pub detail: LegendDetail,
    /// Conditions per combatant name (full legend).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<(String, Vec<String>)>,
    /// Map size in squares.
    pub map_size: (u32, u32),
}

/// Draws the encounter's map.
pub fn render_battlefield(call: &Call<'_>, req: &RenderRequest) -> Result<Battlefield> {
    let e = crate::combat::spatial::scratch::map_to_read(
        call,
        req.encounter_id.as_deref(),
        req.scratch.as_ref(),
    )?;
    let focus = if req.focus.is_empty() {
        None
    } else {
        let cb = super::super::find_combatant(
            &e,
            req.focus.id.as_deref(),
            req.focus.name.as_deref(),
            "focusId",
        )?;
        Some(Focus {
            creature_id: cb.character_id.clone(),
            radius_ft: req.radius_ft.unwrap_or(30),
        })
    };
    if let Some(v) = req.viewport
        && (v.width == 0 || v.height == 0)
    {
        return Err(EngineError::invalid(
            "viewport",
            "width and height must be at least 1 square",
        ));
    }
    let opts = RenderOptions {
        viewport: req.viewport,
        focus,
        tokens: Default::default(),
        show_hidden: req.show_hidden,
    };
    let drawn = crate::combat::render::ascii(call, &e, &opts)?;
    let mut conditions = Vec::new();
    if req.legend == LegendDetail::Full {
        for cb in e.order.iter().filter(|c| !c.removed) {
            if let Some(c) = call.tx_ref().character(call.campaign(), &cb.character_id)? {
                let mut list: Vec<String> = c
                    .conditions
                    .iter()
                    .map(|x| x.condition.to_string())
                    .collect();
                if cb.flags.dodging {
                    list.push("dodging".into());
                }
                if cb.flags.hidden.is_some() {
                    list.push("hidden".into());
                }
                if !list.is_empty() {
                    conditions.push((cb.name.clone(), list));
                }
            }
        }
    }
    Ok(Battlefield {
        encounter_id: e.id.clone(),
        round: e.round,
        turn: e.current().map(|c| c.name.clone()),
        map: drawn.text,
        legend: drawn.legend,
        viewport: drawn.viewport,
        detail: req.legend,
        conditions,
        map_size: (e.map.width(), e.map.height()),
    })
}

impl Battlefield {
    /// A header line, the drawing, then the legend at the chosen detail.
    pub fn text(&self) -> String {
        self.words(true)
    }

    /// The header and legend without the drawing (to go with an image).
    pub fn caption(&self) -> String {
        self.words(false)
    }

    fn words(&self, drawing: bool) -> String {
        let v = &self.viewport;
        let whole =
            v.x == 0 && v.y == 0 && v.width == self.map_size.0 && v.height == self.map_size.1;
        let mut t = format!(
            "Battlefield {}, round {}{}: {}.",
            self.encounter_id,
            self.round,
            self.turn
                .as_deref()
                .map(|n| format!(", {n}'s turn"))
                .unwrap_or_default(),
            if whole {
                format!("{}×{} squares", v.width, v.height)
            } else {
                format!(
                    "x {}–{}, y {}–{} of {}×{}",
                    v.x,
                    v.x + v.width as i32 - 1,
                    v.y,
                    v.y + v.height as i32 - 1,
                    self.map_size.0,
                    self.map_size.1
                )
            }
        );
        if drawing {
            t.push('\n');
            t.push_str(&self.map);
        }
        match self.detail {
            LegendDetail::None => {}
            LegendDetail::Compact => {
                let (tokens, symbols): (Vec<&LegendEntry>, Vec<&LegendEntry>) =
                    self.legend.iter().partition(|l| {
                        l.symbol.chars().count() == 2
                            || l.meaning.contains("HP")
                            || l.meaning.contains("dead")
                    });
                for l in tokens {
                    t.push_str(&format!("\n{} {}", l.symbol, l.meaning));
                }
                if !symbols.is_empty() {
                    let s: Vec<String> = symbols
                        .iter()
                        .map(|l| format!("{} {}", l.symbol, l.meaning))
                        .collect();
                    t.push_str(&format!("\n{}", s.join(" · ")));
                }
            }
            LegendDetail::Full => {
                for l in &self.legend {
                    t.push_str(&format!("\n{} {}", l.symbol, l.meaning));
                }
                for (name, list) in &self.conditions {
                    t.push_str(&format!("\n{name}: {}", list.join(", ")));
                }
            }
        }
        t
    }
}

/// The token colour of a side: party blue, ally green, enemy red, neutral grey.
#[cfg(feature = "png")]
fn side_colour(side: crate::model::encounter::Side) -> tabletop_grid::Rgb {
    use crate::model::encounter::Side;
    match side {
        Side::Party => tabletop_grid::Rgb(52, 101, 164),
        Side::Ally => tabletop_grid::Rgb(78, 154, 6),
        Side::Enemy => tabletop_grid::Rgb(204, 0, 0),
        Side::Neutral => tabletop_grid::Rgb(136, 138, 133),
    }
}

/// Draws the encounter's map as a PNG: the same viewport or focus and token labels as the text,
/// tokens in their side's colour with an HP bar, a ring on the creature whose turn it is.
/// Returns the image and the battlefield as text (its header and legend go with the image).
#[cfg(feature = "png")]
pub fn render_png(
    call: &Call<'_>,
    req: &RenderRequest,
) -> Result<(Vec<u8>, Battlefield, PngScale)> {
    let text = render_battlefield(call, req)?;
    let e = crate::combat::spatial::scratch::map_to_read(
        call,
        req.encounter_id.as_deref(),
        req.scratch.as_ref(),
    )?;
    let mut styles = std::collections::BTreeMap::new();
    for cb in e.order.iter().filter(|c| !c.removed) {
        let hp_fraction = call
            .tx_ref()
            .character(call.campaign(), &cb.character_id)?
            .map(|c| {
                if c.dead {
                    0.0
                } else {
                    c.hp as f32 / c.effective().max_hp.value.max(1) as f32
                }
            });
        styles.insert(
            cb.character_id.clone(),
            tabletop_grid::TokenStyle {
                color: Some(side_colour(cb.side)),
                hp_fraction: hp_fraction.map(|f| f.clamp(0.0, 1.0)),
            },
        );
    }
    let opts = tabletop_grid::PngOptions {
        view: RenderOptions {
            viewport: Some(text.viewport),
            focus: None,
            tokens: crate::combat::render::tokens(&e),
            show_hidden: req.show_hidden,
        },
        styles,
        current_turn: e.current().map(|c| c.character_id.clone()),
        ..Default::default()
    };
    let longest = text.viewport.width.max(text.viewport.height).max(1);
    let mut side = PNG_MAX_SIDE_PX;
    loop {
        let opts = tabletop_grid::PngOptions {
            max_side_px: side,
            ..opts.clone()
        };
        let png = e.map.render_png(&opts)?;
        let sq = opts.square_px.min(side / longest).max(4);
        let smallest = side <= longest * 4;
        if png.len() > PNG_MAX_BYTES && smallest && longest > 16 {
            // Still too big at the smallest squares: crop to the middle three quarters.
            let v = text.viewport;
            let (w, h) = ((v.width * 3 / 4).max(1), (v.height * 3 / 4).max(1));
            let crop = tabletop_grid::Viewport {
                x: v.x + ((v.width - w) / 2) as i32,
                y: v.y + ((v.height - h) / 2) as i32,
                width: w,
                height: h,
            };
            let inner = RenderRequest {
                viewport: Some(crop),
                focus: Who::default(),
                radius_ft: None,
                ..req.clone()
            };
            let (png, text, mut scale) = render_png(call, &inner)?;
            scale.cropped_from.get_or_insert((v.width, v.height));
            return Ok((png, text, scale));
        }
        if png.len() <= PNG_MAX_BYTES || smallest {
            return Ok((
                png,
                text,
                PngScale {
                    square_px: sq,
                    full_square_px: opts.square_px,
                    full_size_squares: PNG_MAX_SIDE_PX / opts.square_px,
                    cropped_from: None,
                },
            ));
        }
        side = (side * 3 / 4).max(longest * 4);
    }
}

/// Longest side of a battlefield image, in pixels: a larger map is drawn with smaller squares.
pub const PNG_MAX_SIDE_PX: u32 = 1024;

/// The most bytes of PNG an answer carries; a busier image is drawn smaller still.
pub const PNG_MAX_BYTES: usize = 1_000_000;

/// How a battlefield image was scaled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PngScale {
    /// Pixels per square in this image.
    pub square_px: u32,
    /// Pixels per square at full size.
    pub full_square_px: u32,
    /// The widest viewport (in squares) drawn at full size.
    pub full_size_squares: u32,
    /// The asked-for width and height in squares, when even the smallest squares were too many
    /// bytes and the image shows only the middle of it.
    pub cropped_from: Option<(u32, u32)>,
}

impl PngScale {
    /// One sentence on the scale, and how to get a part at full size when this one is smaller.
    pub fn words(&self) -> String {
        let crop = self
            .cropped_from
            .map(|(w, h)| {
                format!(
                    " Cropped: {w}×{h} squares do not fit in {PNG_MAX_BYTES} bytes even at 4 px per square, so the image shows the middle part named above; pass viewport for another part."
                )
            })
            .unwrap_or_default();
        let words = self.scale_words();
        format!("{words}{crop}")
    }

    fn scale_words(&self) -> String {
        if self.square_px >= self.full_square_px {
            format!(
                "Drawn at full size ({} px per square; images are at most {PNG_MAX_SIDE_PX} px a side).",
                self.square_px
            )
        } else {
            format!(
                "Scaled down to {} px per square to stay within {PNG_MAX_SIDE_PX} px a side and {PNG_MAX_BYTES} bytes; for a part of the map at full size ({} px per square) pass viewport {{x, y, width, height}} of at most {}×{} squares (or focusId with radiusFt).",
                self.square_px, self.full_square_px, self.full_size_squares, self.full_size_squares
            )
        }
    }
}
