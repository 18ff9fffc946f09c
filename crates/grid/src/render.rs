//! Compact ASCII rendering of (part of) the map for text-only clients.
//!
//! Every square is two characters wide: a one-character glyph followed by a space, or a
//! two-character creature token. Column numbers are printed vertically above the map (one
//! header line per digit), row numbers to the left. Glyphs: `.` open, `#` wall, `%` obstacle,
//! `-` low wall, `:` difficult, `~` water, `^` hazard, `+` closed door, `=` locked door, `'` open
//! door, letters for props, caller-supplied tokens for creatures (a creature fills every square
//! of its space). Priority when things share a square: creature, prop, door, terrain. The
//! legend is returned separately and lists only what is visible.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::{GridError, Result};
use crate::geometry::Position;
use crate::map::{BattleMap, DoorState, Terrain};

/// A rectangle of squares to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Viewport {
    /// Left column.
    pub x: i32,
    /// Top row.
    pub y: i32,
    /// Width in squares.
    pub width: u32,
    /// Height in squares.
    pub height: u32,
}

/// Centre the view on a creature, showing `radius_ft` around its space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Focus {
    /// Creature id.
    pub creature_id: String,
    /// How far around it to show, in feet.
    pub radius_ft: u32,
}

/// What to draw.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct RenderOptions {
    /// Explicit rectangle (clipped to the map); ignored when `focus` is set.
    pub viewport: Option<Viewport>,
    /// Centre on a creature instead.
    pub focus: Option<Focus>,
    /// Creature id → token of 1–2 characters. Creatures without one use the first two
    /// characters of their id.
    pub tokens: BTreeMap<String, String>,
    /// Whether to draw hidden props (game-master view).
    pub show_hidden: bool,
}

/// One legend line.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LegendEntry {
    /// The glyph or token as drawn.
    pub symbol: String,
    /// What it stands for.
    pub meaning: String,
}

/// A rendered map.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AsciiMap {
    /// The drawing, lines separated by `\n`.
    pub text: String,
    /// Symbols used in the drawing.
    pub legend: Vec<LegendEntry>,
    /// The rectangle actually drawn.
    pub viewport: Viewport,
}

fn terrain_glyph(t: &Terrain) -> (char, &'static str) {
    match t {
        Terrain::Open => ('.', "open"),
        Terrain::Wall => ('#', "wall"),
        Terrain::Obstacle => ('%', "obstacle"),
        Terrain::LowWall { .. } => ('-', "low wall (half cover)"),
        Terrain::Difficult => (':', "difficult terrain"),
        Terrain::Water => ('~', "water"),
        Terrain::Hazard { .. } => ('^', "hazard"),
    }
}

impl BattleMap {
    /// Draws the map (or a viewport / focus area) as text, with a separate legend.
    pub fn render_ascii(&self, opts: &RenderOptions) -> Result<AsciiMap> {
        let vp = self.resolve_viewport(opts)?;
        let (x0, y0) = (vp.x, vp.y);
        let (x1, y1) = (vp.x + vp.width as i32 - 1, vp.y + vp.height as i32 - 1);
        let w = vp.width as usize;
        let mut grid: Vec<String> = vec![String::new(); w * vp.height as usize];
        let mut legend: BTreeMap<String, String> = BTreeMap::new();
        let mut hazards: BTreeMap<String, ()> = BTreeMap::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                let t = self.terrain(Position::new(x, y))?;
                let (g, meaning) = terrain_glyph(t);
                let mut cell = format!("{g} ");
                let mut label = meaning.to_string();
                if let Terrain::Hazard { name, damage } = t {
                    label = match damage {
                        Some(d) => format!("hazard: {name} ({d})"),
                        None => format!("hazard: {name}"),
                    };
                    hazards.insert(label.clone(), ());
                    label = String::new();
                }
                if let Some(d) = self.door(Position::new(x, y)) {
                    let (c, m) = match d {
                        DoorState::Open => ('\'', "open door"),
                        DoorState::Closed => ('+', "closed door"),
                        DoorState::Locked => ('=', "locked door"),
                    };
                    cell = format!("{c} ");
                    label = m.into();
                }
                if !label.is_empty() {
                    legend.entry(cell.trim_end().to_string()).or_insert(label);
                }
                grid[(y - y0) as usize * w + (x - x0) as usize] = cell;
            }
        }
        if !hazards.is_empty() {
            legend.insert(
                "^".into(),
                hazards.into_keys().collect::<Vec<_>>().join("; "),
            );
        }
        // Props, lettered A, B, … in id order unless they carry their own symbol.
        for (i, prop) in self.props().enumerate() {
            if prop.hidden_dc.is_some() && !opts.show_hidden {
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
            let mut shown = false;
            for q in prop.squares()? {
                if (x0..=x1).contains(&q.x) && (y0..=y1).contains(&q.y) {
                    grid[(q.y - y0) as usize * w + (q.x - x0) as usize] = format!("{letter} ");
                    shown = true;
                }
            }
            if shown {
                let mut notes = Vec::new();
                if prop.trap {
                    notes.push("trap".to_string());
                }
                if let Some(dc) = prop.hidden_dc {
                    notes.push(format!("hidden DC {dc}"));
                }
                let notes = if notes.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", notes.join(", "))
                };
                legend.insert(
                    letter.to_string(),
                    format!("{} ({}){notes}", prop.name, prop.id),
                );
            }
        }
        for c in self.creatures() {
            let token = creature_token(c, &opts.tokens)?;
            let cell = if token.chars().count() == 1 {
                format!("{token} ")
            } else {
                token.clone()
            };
            let mut shown = false;
            for q in c.squares() {
                if (x0..=x1).contains(&q.x) && (y0..=y1).contains(&q.y) {
                    grid[(q.y - y0) as usize * w + (q.x - x0) as usize] = cell.clone();
                    shown = true;
                }
            }
            if shown {
                let z = if c.position.z != 0 {
                    format!(", {} ft up", c.position.z * 5)
                } else {
                    String::new()
                };
                legend.insert(
                    token,
                    format!(
                        "creature {} at {}{z}",
                        c.id,
                        Position::new(c.position.x, c.position.y)
                    ),
                );
            }
        }
        // Header: one line per digit of the column numbers.
        let label_w = y1.to_string().len();
        let digits = x1.to_string().len();
        let mut text = String::new();
        for d in (0..digits).rev() {
            text.push_str(&" ".repeat(label_w + 1));
            for x in x0..=x1 {
                let p = 10i32.pow(d as u32);
                let ch = if d > 0 && x < p {
                    ' '
                } else {
                    char::from(b'0' + ((x / p) % 10) as u8)
                };
                text.push(ch);
                text.push(' ');
            }
            trim_push_newline(&mut text);
        }
        for y in y0..=y1 {
            text.push_str(&format!("{y:>label_w$} "));
            for x in x0..=x1 {
                text.push_str(&grid[(y - y0) as usize * w + (x - x0) as usize]);
            }
            trim_push_newline(&mut text);
        }
        let legend = legend
            .into_iter()
            .map(|(symbol, meaning)| LegendEntry { symbol, meaning })
            .collect();
        Ok(AsciiMap {
            text,
            legend,
            viewport: vp,
        })
    }

    /// The rectangle a render draws: the focus area, else the viewport, else the whole map,
    /// clipped to the map. Shared by every renderer.
    pub(crate) fn resolve_viewport(&self, opts: &RenderOptions) -> Result<Viewport> {
        let (mw, mh) = (self.width() as i32, self.height() as i32);
        let (x0, y0, x1, y1) = if let Some(f) = &opts.focus {
            let c = self.require_creature(&f.creature_id)?;
            let r = (f.radius_ft / 5) as i32;
            let n = crate::geometry::size_squares(c.size);
            (
                c.position.x - r,
                c.position.y - r,
                c.position.x + n - 1 + r,
                c.position.y + n - 1 + r,
            )
        } else if let Some(v) = opts.viewport {
            if v.width == 0 || v.height == 0 {
                return Err(GridError::Invalid(format!(
                    "viewport {}×{} is empty; give width and height of at least 1 square",
                    v.width, v.height
                )));
            }
            self.check(Position::new(v.x, v.y))?;
            (
                v.x,
                v.y,
                v.x + v.width.min(crate::map::MAX_SIDE) as i32 - 1,
                v.y + v.height.min(crate::map::MAX_SIDE) as i32 - 1,
            )
        } else {
            (0, 0, mw - 1, mh - 1)
        };
        let (x0, y0) = (x0.max(0), y0.max(0));
        let (x1, y1) = (x1.min(mw - 1), y1.min(mh - 1));
        Ok(Viewport {
            x: x0,
            y: y0,
            width: (x1 - x0 + 1) as u32,
            height: (y1 - y0 + 1) as u32,
        })
    }
}

/// The 1–2 character token of a creature: the caller's (validated), else the first two
/// characters of its id. Shared by every renderer.
pub(crate) fn creature_token(
    c: &crate::map::Creature,
    tokens: &BTreeMap<String, String>,
) -> Result<String> {
    match tokens.get(&c.id) {
        Some(t) => {
            let n = t.chars().count();
            if !(1..=2).contains(&n) || t.chars().any(char::is_whitespace) {
                return Err(GridError::Invalid(format!(
                    "token '{t}' for creature '{}' must be 1–2 visible characters, e.g. \"G1\"",
                    c.id
                )));
            }
            Ok(t.clone())
        }
        None => Ok(c.id.chars().take(2).collect()),
    }
}

fn trim_push_newline(s: &mut String) {
    while s.ends_with(' ') {
        s.pop();
    }
    s.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Prop;
    use tabletop_rules::Size;

    #[test]
    fn renders_terrain_doors_props_and_tokens() {
        let mut m = BattleMap::new(12, 4).unwrap();
        m.fill_terrain(Position::new(0, 0), Position::new(11, 0), Terrain::Wall)
            .unwrap();
        m.set_terrain(Position::new(3, 0), Terrain::Open).unwrap();
        m.set_door(Position::new(3, 0), DoorState::Closed).unwrap();
        m.set_terrain(Position::new(1, 2), Terrain::Difficult)
            .unwrap();
        m.set_terrain(Position::new(2, 2), Terrain::Water).unwrap();
        m.set_terrain(
            Position::new(3, 2),
            Terrain::Hazard {
                name: "fire".into(),
                damage: Some("1d10".into()),
            },
        )
        .unwrap();
        m.place_prop(Prop::new("chest", "iron chest", Position::new(10, 3)))
            .unwrap();
        let mut trap = Prop::new("pit", "pit trap", Position::new(9, 3));
        trap.trap = true;
        trap.hidden_dc = Some(15);
        m.place_prop(trap).unwrap();
        m.place_creature("goblin-1", Position::new(5, 1), Size::Small)
            .unwrap();
        m.place_creature("ogre", Position::new(7, 2), Size::Large)
            .unwrap();
        let opts = RenderOptions {
            tokens: [("goblin-1".to_string(), "G1".to_string())].into(),
            ..Default::default()
        };
        let r = m.render_ascii(&opts).unwrap();
        let want = [
            "                      1 1",
            "  0 1 2 3 4 5 6 7 8 9 0 1",
            "0 # # # + # # # # # # # #",
            "1 . . . . . G1. . . . . .",
            "2 . : ~ ^ . . . ogog. . .",
            "3 . . . . . . . ogog. A .",
        ]
        .join("\n")
            + "\n";
        assert_eq!(r.text, want, "\n{}", r.text);
        let legend: Vec<(String, String)> = r
            .legend
            .iter()
            .map(|e| (e.symbol.clone(), e.meaning.clone()))
            .collect();
        assert!(
            legend.contains(&("A".into(), "iron chest (chest)".into())),
            "{legend:?}"
        );
        assert!(
            legend.contains(&("^".into(), "hazard: fire (1d10)".into())),
            "{legend:?}"
        );
        assert!(
            legend.contains(&("G1".into(), "creature goblin-1 at (5, 1)".into())),
            "{legend:?}"
        );
        assert!(
            legend.contains(&("+".into(), "closed door".into())),
            "{legend:?}"
        );
        // The game master sees the hidden trap.
        let gm = m
            .render_ascii(&RenderOptions {
                show_hidden: true,
                ..opts.clone()
            })
            .unwrap();
        assert!(gm.text.contains("ogB A"), "{}", gm.text);
        assert!(
            gm.legend
                .iter()
                .any(|e| e.meaning == "pit trap (pit) [trap, hidden DC 15]")
        );
    }

    #[test]
    fn viewport_and_focus() {
        let mut m = BattleMap::new(50, 50).unwrap();
        m.place_creature("hero", Position::new(20, 30), Size::Medium)
            .unwrap();
        let r = m
            .render_ascii(&RenderOptions {
                focus: Some(Focus {
                    creature_id: "hero".into(),
                    radius_ft: 10,
                }),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(
            r.viewport,
            Viewport {
                x: 18,
                y: 28,
                width: 5,
                height: 5
            }
        );
        assert!(r.text.contains("30 . . he. ."), "{}", r.text);
        let r = m
            .render_ascii(&RenderOptions {
                viewport: Some(Viewport {
                    x: 45,
                    y: 0,
                    width: 10,
                    height: 2,
                }),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(r.viewport.width, 5);
        let huge = Viewport {
            x: 0,
            y: 0,
            width: u32::MAX,
            height: u32::MAX,
        };
        let r = m
            .render_ascii(&RenderOptions {
                viewport: Some(huge),
                ..Default::default()
            })
            .unwrap();
        assert_eq!((r.viewport.width, r.viewport.height), (50, 50));
        assert!(
            m.render_ascii(&RenderOptions {
                viewport: Some(Viewport {
                    x: 60,
                    y: 0,
                    width: 1,
                    height: 1
                }),
                ..Default::default()
            })
            .is_err()
        );
        let bad = RenderOptions {
            tokens: [("hero".to_string(), "ABC".to_string())].into(),
            ..Default::default()
        };
        assert!(
            m.render_ascii(&bad)
                .unwrap_err()
                .to_string()
                .contains("must be 1–2 visible characters")
        );
    }
}
