//! Spells as data: the definition a cast works from (read from the SRD text or synthesized), its
//! attack, save, area and aura, with the pure readings of SRD spell text. Casting is
//! `magic::spellcasting`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tabletop_rules::{Ability, Condition, DamageType};
use tabletop_srd::model::{AreaShape, AttackRange, SaveEffect, Spell};

use crate::error::Result;
use crate::model::names::name_key;
use crate::model::slots::ordinal;

/// Melee or ranged spell attack.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpellAttack {
    /// A melee spell attack (Inflict Wounds).
    Melee,
    /// A ranged spell attack (Fire Bolt).
    Ranged,
}

/// The shape of a spell's area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AreaKind {
    /// Radius.
    Sphere,
    /// Length; as wide as long.
    Cone,
    /// Side.
    Cube,
    /// Radius (and height).
    Cylinder,
    /// Length, 5 ft wide.
    Line,
}

impl AreaKind {
    /// The grid shape of this area with its size.
    pub fn shape(self, size_ft: u32) -> Result<tabletop_grid::Shape> {
        let name = match self {
            AreaKind::Sphere => "sphere",
            AreaKind::Cone => "cone",
            AreaKind::Cube => "cube",
            AreaKind::Cylinder => "cylinder",
            AreaKind::Line => "line",
        };
        let size = i32::try_from(size_ft).unwrap_or(i32::MAX);
        Ok(tabletop_grid::Shape::from_name(name, size)?)
    }

    /// Whether the area needs a direction (cones, cubes, lines).
    pub fn directed(self) -> bool {
        matches!(self, AreaKind::Cone | AreaKind::Cube | AreaKind::Line)
    }
}

/// A spell's area of effect.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellArea {
    /// Shape.
    pub shape: AreaKind,
    /// Size in feet (radius, length or side).
    pub size_ft: u32,
}

/// A spell's saving throw.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellSaveDef {
    /// The save's ability.
    pub ability: Ability,
    /// A success halves the damage (otherwise it negates the effect).
    pub half: bool,
}

/// A spell's rules data, as the engine applies it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellDef {
    /// Name ("Fireball").
    pub name: String,
    /// Level, 0 for cantrips.
    pub level: u8,
    /// School ("Evocation").
    pub school: String,
    /// Casting time as written ("1 action", "1 bonus action", "1 reaction", "1 minute").
    pub casting_time: String,
    /// Range as written ("150 feet", "Touch", "Self").
    pub range: String,
    /// Components ("V", "S", "M").
    #[serde(default)]
    pub components: Vec<String>,
    /// Material component text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
    /// Duration as written ("Instantaneous", "Up to 1 minute").
    pub duration: String,
    /// Requires concentration.
    #[serde(default)]
    pub concentration: bool,
    /// Can be cast as a ritual.
    #[serde(default)]
    pub ritual: bool,
    /// Classes with the spell on their list (slugs).
    #[serde(default)]
    pub classes: Vec<String>,
    /// Damage type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// Damage dice by slot level.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub damage_at_slot: BTreeMap<u8, String>,
    /// Damage dice by character level (cantrips).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub damage_at_level: BTreeMap<u8, String>,
    /// Healing dice by slot level ("MOD" is the spellcasting modifier).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub heal_at_slot: BTreeMap<u8, String>,
    /// Saving throw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<SpellSaveDef>,
    /// Spell attack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<SpellAttack>,
    /// Area of effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<SpellArea>,
    /// Condition imposed (on a failed save, or outright without a save).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// The condition ends on a successful save at the end of each of the bearer's turns.
    #[serde(default)]
    pub repeat_save: bool,
    /// An effect preset applied to the targets (Bless, Shield of Faith, Haste…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// "At higher levels" text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub higher_level: Option<String>,
    /// Improvised (synthesize_spell) rather than from the SRD.
    #[serde(default)]
    pub synthesized: bool,
    /// A zone centred on the caster that strikes creatures starting their turn in it (Spirit
    /// Guardians), read from the spell's text where the data has no numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aura: Option<SpellAura>,
    /// The SRD index ("hold-person"): its entry in the spell catalog says how it resolves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    /// Its text can target more than one creature at its own level ("up to three creatures",
    /// "any number of", "each creature", "creatures of your choice"; see [`many_targets_in`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub many_targets: bool,
    /// "The target gains no benefit from cover for this saving throw" (Sacred Flame).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ignores_cover: bool,
    /// "A creature made of inorganic material such as stone, crystal, or metal has disadvantage
    /// on this saving throw" (Shatter; see [`made_of_stone_or_metal`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inorganic_disadvantage: bool,
}

/// Whether a creature is made of inorganic material (stone, crystal, metal): a construct other
/// than a flesh golem, or an SRD creature of stone or metal (an earth elemental, a gargoyle, a
/// xorn). Any other is the DM's to judge.
pub fn made_of_stone_or_metal(creature_type: &str, monster: &str) -> bool {
    (creature_type.eq_ignore_ascii_case("construct") && monster != "flesh-golem")
        || matches!(monster, "earth-elemental" | "gargoyle" | "xorn")
}

/// Whether a spell's text lets it target more than one creature: what Twinned Spell may not
/// double ("a spell that targets only one creature").
pub fn many_targets_in(desc: &str) -> bool {
    const MANY: [&str; 12] = [
        "up to two",
        "up to three",
        "up to six",
        "up to twelve",
        "any number of",
        "each creature",
        "creatures of your choice",
        "two creatures",
        "willing creatures",
        "all creatures",
        "other targets",
        "one or more creatures",
    ];
    let d = desc.to_lowercase();
    MANY.iter().any(|m| d.contains(m))
}

/// A damaging zone around the caster, as its spell's text describes it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellAura {
    /// Radius in feet.
    pub radius_ft: u32,
    /// Damage dice at the spell's own level.
    pub dice: String,
    /// Damage type.
    pub damage_type: Option<DamageType>,
    /// The save and whether a success halves.
    pub save: Option<SpellSaveDef>,
    /// Dice added per slot level above the spell's ("1d8").
    pub per_level: Option<String>,
}

impl SpellAura {
    /// Reads a zone from a concentration spell's text: "…starts its turn there…", a "N-foot
    /// radius", "a Wisdom saving throw", "takes 3d8 radiant damage", "half as much damage", and
    /// "increases by 1d8 for each slot level above 3rd".
    pub fn from_text(desc: &str, higher: &str) -> Option<SpellAura> {
        let text = desc.to_lowercase();
        if !text.contains("starts its turn there") {
            return None;
        }
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',' || c == '.')
            .filter(|w| !w.is_empty())
            .collect();
        // "a 15-foot radius", "to a distance of 15 feet", "within 10 feet".
        let radius_ft = words
            .iter()
            .find_map(|w| {
                w.strip_suffix("-foot-radius")
                    .or_else(|| w.strip_suffix("-foot"))
                    .and_then(|n| n.parse::<u32>().ok())
            })
            .or_else(|| {
                words.windows(3).find_map(|w| {
                    (matches!(w[0], "of" | "within") && w[2].starts_with("feet"))
                        .then(|| w[1].parse::<u32>().ok())
                        .flatten()
                })
            })?;
        let dice_at = words.iter().position(|w| is_dice(w))?;
        let dice = words[dice_at].to_string();
        let damage_type = words
            .get(dice_at + 1)
            .and_then(|w| w.parse::<DamageType>().ok());
        let save = words.windows(3).find_map(|w| {
            (w[1] == "saving" && w[2] == "throw")
                .then(|| w[0].parse::<Ability>().ok())
                .flatten()
        });
        let half = text.contains("half as much damage");
        let higher = higher.to_lowercase();
        let per_level = higher
            .split_whitespace()
            .skip_while(|w| *w != "by")
            .nth(1)
            .filter(|w| is_dice(w))
            .map(str::to_string);
        Some(SpellAura {
            radius_ft,
            dice,
            damage_type,
            save: save.map(|ability| SpellSaveDef { ability, half }),
            per_level,
        })
    }

    /// The damage dice when cast with a slot of `slot_level` for a spell of `spell_level`.
    pub fn dice_at(&self, spell_level: u8, slot_level: u8) -> String {
        let extra = slot_level.saturating_sub(spell_level);
        match (&self.per_level, extra) {
            (Some(step), n) if n > 0 => {
                let (base_n, faces) = self.dice.split_once('d').unwrap_or(("1", "8"));
                let (step_n, step_faces) = step.split_once('d').unwrap_or(("1", "8"));
                match (base_n.parse::<u32>(), step_n.parse::<u32>()) {
                    (Ok(b), Ok(s)) if faces == step_faces => {
                        format!("{}d{faces}", b + s * u32::from(n))
                    }
                    _ => std::iter::once(self.dice.clone())
                        .chain(std::iter::repeat_n(step.clone(), usize::from(n)))
                        .collect::<Vec<_>>()
                        .join("+"),
                }
            }
            _ => self.dice.clone(),
        }
    }
}

fn is_dice(w: &str) -> bool {
    w.split_once('d')
        .is_some_and(|(n, f)| n.parse::<u32>().is_ok() && f.parse::<u32>().is_ok())
}

pub(crate) fn slug(name: &str) -> String {
    name_key(name).replace([' ', '/'], "-")
}

impl SpellDef {
    /// The engine's reading of an SRD spell.
    pub fn from_srd(s: &Spell) -> SpellDef {
        let mut def = SpellDef::from_srd_data(s);
        if let Some(e) = crate::catalog::spells::entry(&s.index) {
            def.apply_catalog(e);
        }
        def
    }

    /// The SRD data alone, before the catalog's entry is applied.
    fn from_srd_data(s: &Spell) -> SpellDef {
        SpellDef {
            name: s.name.clone(),
            level: s.level,
            school: s.school.name.clone(),
            casting_time: s.casting_time.clone(),
            range: s.range.clone(),
            components: s.components.clone(),
            material: s.material.clone(),
            duration: s.duration.clone(),
            concentration: s.concentration,
            ritual: s.ritual,
            classes: s.classes.iter().map(|r| r.index.clone()).collect(),
            damage_type: s.damage.as_ref().and_then(|d| d.damage_type),
            damage_at_slot: s
                .damage
                .as_ref()
                .map(|d| d.at_slot_level.clone())
                .unwrap_or_default(),
            damage_at_level: s
                .damage
                .as_ref()
                .map(|d| d.at_character_level.clone())
                .unwrap_or_default(),
            heal_at_slot: s.heal_at_slot_level.clone(),
            save: s.dc.as_ref().map(|d| SpellSaveDef {
                ability: d.ability,
                half: d.success == SaveEffect::Half,
            }),
            attack: s.attack_type.map(|a| match a {
                AttackRange::Melee => SpellAttack::Melee,
                AttackRange::Ranged => SpellAttack::Ranged,
            }),
            area: s.area_of_effect.map(|a| SpellArea {
                shape: match a.shape {
                    AreaShape::Sphere => AreaKind::Sphere,
                    AreaShape::Cone => AreaKind::Cone,
                    AreaShape::Cube => AreaKind::Cube,
                    AreaShape::Cylinder => AreaKind::Cylinder,
                    AreaShape::Line => AreaKind::Line,
                },
                size_ft: a.size,
            }),
            condition: None,
            repeat_save: false,
            effect: None,
            higher_level: (!s.higher_level.is_empty()).then(|| s.higher_level.join(" ")),
            synthesized: false,
            aura: (s.concentration && s.range.to_ascii_lowercase().starts_with("self"))
                .then(|| SpellAura::from_text(&s.desc.join(" "), &s.higher_level.join(" ")))
                .flatten(),
            index: Some(s.index.clone()),
            many_targets: many_targets_in(&s.desc.join(" ")),
            ignores_cover: s
                .desc
                .iter()
                .any(|d| d.to_lowercase().contains("no benefit from cover")),
            inorganic_disadvantage: s
                .desc
                .iter()
                .any(|d| d.to_lowercase().contains("made of inorganic material")),
        }
    }

    /// Whether a concentration spell's lasting part is a condition or effect on its targets (Hold
    /// Person, Bless), so that it holds nothing once no target bears it; an aura or a zone holds
    /// on with no one in it.
    pub fn lasts_on_targets(&self) -> bool {
        use crate::catalog::spells::SpellKind;
        self.concentration
            && (self.condition.is_some() || self.effect.is_some())
            && self.aura.is_none()
            && self.mechanics().is_none_or(|e| {
                matches!(
                    e.kind,
                    SpellKind::Condition | SpellKind::Effect | SpellKind::Save | SpellKind::Attack
                )
            })
    }

    /// Whether the spell cast at `slot` may target more than one creature: its text says so, or
    /// its higher-level text adds a creature per slot level and `slot` is above its own.
    pub fn more_than_one_target(&self, slot: u8) -> bool {
        self.many_targets
            || (slot > self.level
                && self
                    .higher_level
                    .as_deref()
                    .is_some_and(|h| h.to_lowercase().contains("additional creature")))
    }

    /// The spell's catalog entry (none for improvised spells).
    pub fn mechanics(&self) -> Option<&'static crate::catalog::spells::SpellEntry> {
        if self.synthesized {
            return None;
        }
        crate::catalog::spells::entry(self.index.as_deref()?)
    }

    /// Applies a catalog entry to the SRD's reading: the attack, dice, damage type and save the
    /// data lacks, the condition or effect it imposes; kinds that deal no damage lose the data's
    /// dice (Sleep's 5d8 is a pool of hit points, not damage).
    pub fn apply_catalog(&mut self, e: &crate::catalog::spells::SpellEntry) {
        use crate::catalog::spells::{AttackRangeKind, SpellKind};
        let def = self;
        if let Some(a) = e.attack {
            def.attack = Some(match a {
                AttackRangeKind::Melee => SpellAttack::Melee,
                AttackRangeKind::Ranged => SpellAttack::Ranged,
            });
        }
        if let Some(t) = e.damage_type {
            def.damage_type = Some(t);
        }
        if e.no_area {
            def.area = None;
        }
        if let Some(ability) = e.save {
            def.save = Some(SpellSaveDef {
                ability,
                half: e.half.unwrap_or(false),
            });
        } else if let (Some(h), Some(sv)) = (e.half, def.save.as_mut()) {
            sv.half = h;
        }
        let clear = |d: &mut SpellDef| {
            d.damage_at_slot.clear();
            d.damage_at_level.clear();
        };
        match e.kind {
            SpellKind::Attack | SpellKind::Persistent | SpellKind::Darts => {
                // A condition on a hit or a failed save (Contagion: poisoned).
                if let Some(c) = e.condition {
                    def.condition = Some(c);
                    def.repeat_save = e.repeat_save;
                }
                if e.dice.is_some() {
                    if def.level == 0 {
                        def.damage_at_level = e.dice.iter().map(|d| (1u8, d.clone())).collect();
                    } else {
                        def.damage_at_slot = (def.level..=9)
                            .filter_map(|slot| Some((slot, e.dice_at(def.level, slot)?)))
                            .collect();
                    }
                }
            }
            SpellKind::Save => {
                if let Some(c) = e.condition {
                    def.condition = Some(c);
                    def.repeat_save = e.repeat_save;
                }
            }
            SpellKind::Condition => {
                def.condition = e.condition;
                def.repeat_save = e.repeat_save;
                clear(def);
            }
            SpellKind::Effect => {
                if e.grants_effect() {
                    def.effect = Some(def.name.clone());
                }
                // Aid's rise is the raised maximum, applied with the effect.
                if e.max_hp_bonus.is_some() {
                    def.heal_at_slot.clear();
                }
                clear(def);
            }
            SpellKind::HpPool
            | SpellKind::Narrative
            | SpellKind::AcFormula
            | SpellKind::Counterspell
            | SpellKind::Revive
            | SpellKind::Cure
            | SpellKind::HpThreshold
            | SpellKind::Stabilize
            | SpellKind::Teleport
            | SpellKind::Summon
            | SpellKind::Banish
            | SpellKind::Globe
            | SpellKind::Shape
            | SpellKind::Detect
            | SpellKind::Door
            | SpellKind::Lore
            | SpellKind::Dispel => {
                clear(def);
                def.heal_at_slot.clear();
            }
            // Wish reaches whatever the spell it duplicates reaches (its targets are named).
            SpellKind::Life => {
                clear(def);
                def.heal_at_slot.clear();
                if matches!(e.life, Some(crate::catalog::life6::LifeSpec::Wish { .. })) {
                    def.range = "Special".into();
                }
            }
            SpellKind::Heal | SpellKind::Zone => {}
        }
    }

    /// The slug ("hold-person").
    pub fn slug(&self) -> String {
        slug(&self.name)
    }

    /// What the casting time costs in combat; `None` for casting times longer than a round.
    pub fn cost(&self) -> Option<crate::model::encounter::ActionCost> {
        use crate::model::encounter::ActionCost;
        let t = self.casting_time.to_ascii_lowercase();
        if t.contains("bonus action") {
            Some(ActionCost::BonusAction)
        } else if t.contains("reaction") {
            Some(ActionCost::Reaction)
        } else if t.contains("action") {
            Some(ActionCost::Action)
        } else {
            None
        }
    }

    /// Range in feet: touch 5, self 0; `None` when the range is not a distance (sight,
    /// unlimited, special).
    pub fn range_ft(&self) -> Option<u32> {
        let r = self.range.to_ascii_lowercase();
        if r.starts_with("self") {
            return Some(self.reach_ft().unwrap_or(0));
        }
        if r.starts_with("touch") {
            return Some(5);
        }
        let n: u32 = r
            .split(|ch: char| !ch.is_ascii_digit())
            .find(|p| !p.is_empty())?
            .parse()
            .ok()?;
        if r.contains("mile") {
            Some(n.saturating_mul(5280))
        } else if r.contains("feet") || r.contains("foot") {
            Some(n)
        } else {
            None
        }
    }

    /// Whether the range is "Self".
    pub fn self_range(&self) -> bool {
        self.range.to_ascii_lowercase().starts_with("self")
    }

    /// How far a Self-range spell reaches the creatures the caller names (Eyebite, Vampiric
    /// Touch, Produce Flame, Pass without Trace; the catalog's `reach_ft`).
    pub fn reach_ft(&self) -> Option<u32> {
        self.mechanics().and_then(|e| e.reach_ft)
    }

    /// The range as an answer states it: "Self (reaching 30 feet)" for a Self spell that
    /// reaches another creature, else the range as written.
    pub fn range_label(&self) -> String {
        match self.reach_ft() {
            Some(ft) if self.self_range() => format!("{} (reaching {ft} feet)", self.range),
            _ => self.range.clone(),
        }
    }

    /// Whether the spell is cast only on its caster (Self range, no area, reaching no one else).
    pub fn self_only(&self) -> bool {
        self.self_range() && self.area.is_none() && self.reach_ft().is_none()
    }

    /// Rounds of a timed duration ("1 round" 1, "1 minute" 10, "1 hour" 600), if any.
    pub fn duration_rounds(&self) -> Option<u32> {
        duration_rounds(&self.duration)
    }

    /// Costly material components: material text naming a price in gp.
    pub fn costly_material(&self) -> Option<&str> {
        self.material
            .as_deref()
            .filter(|m| m.to_ascii_lowercase().contains(" gp"))
    }

    /// "3rd-level evocation" or "evocation cantrip".
    pub fn kind_label(&self) -> String {
        if self.level == 0 {
            format!("{} cantrip", self.school.to_lowercase())
        } else {
            format!(
                "{}-level {}",
                ordinal(self.level),
                self.school.to_lowercase()
            )
        }
    }

    /// How many creatures (or rays, darts, beams) the spell affects cast at `slot`, for spells
    /// whose count the engine knows; `None` = as many as the caller names (areas, unknown).
    pub fn max_targets(&self, slot: u8, caster_level: u32) -> Option<usize> {
        if let Some(n) = self
            .mechanics()
            .and_then(|e| e.count_at(self.level, slot, caster_level))
        {
            return Some(n);
        }
        Some(match () {
            _ if self.area.is_some() => return None,
            _ if self.self_only() => 1,
            _ if self.attack.is_some() => 1,
            _ => return None,
        })
    }

    /// Whether each target is one separate attack, dart or ray (cycled over the targets named):
    /// the catalog's darts, and attacks with a count of rays or beams.
    pub fn per_projectile(&self) -> bool {
        use crate::catalog::spells::SpellKind;
        self.mechanics().is_some_and(|e| match e.kind {
            SpellKind::Darts => true,
            SpellKind::Attack => e.beams_by_level || e.count.is_some_and(|n| n > 1),
            _ => false,
        })
    }

    /// The damage dice at this slot (spells) or character level (cantrips), "MOD" resolved.
    pub fn damage_dice(&self, slot: u8, caster_level: u32, modifier: i32) -> Option<String> {
        let raw = if self.level == 0 {
            self.damage_at_level
                .range(..=u8::try_from(caster_level.min(20)).unwrap_or(20))
                .next_back()
                .or_else(|| self.damage_at_level.iter().next())
                .map(|(_, d)| d.clone())
        } else {
            self.damage_at_slot
                .get(&slot)
                .or_else(|| {
                    self.damage_at_slot
                        .range(..=slot)
                        .next_back()
                        .map(|(_, d)| d)
                })
                .cloned()
        }?;
        Some(with_modifier(&raw, modifier))
    }

    /// The healing dice at this slot, "MOD" resolved.
    pub fn heal_dice(&self, slot: u8, modifier: i32) -> Option<String> {
        let raw = self
            .heal_at_slot
            .get(&slot)
            .or_else(|| self.heal_at_slot.range(..=slot).next_back().map(|(_, d)| d))?;
        Some(with_modifier(raw, modifier))
    }
}

/// Replaces "MOD" in SRD dice text with the spellcasting modifier ("1d8 + MOD" → "1d8+3").
pub fn with_modifier(raw: &str, modifier: i32) -> String {
    let compact: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(base) = compact.strip_suffix("+MOD") {
        return match modifier {
            0 => base.to_string(),
            m if m > 0 => format!("{base}+{m}"),
            m => format!("{base}-{}", -m),
        };
    }
    compact.replace("MOD", &modifier.max(0).to_string())
}

/// Rounds of an SRD duration text ("1 round" 1, "Concentration, up to 1 minute" 10, "1 hour"
/// 600), if it is timed.
pub fn duration_rounds(duration: &str) -> Option<u32> {
    let d = duration.to_ascii_lowercase();
    let n: u32 = d
        .split(|ch: char| !ch.is_ascii_digit())
        .find(|p| !p.is_empty())?
        .parse()
        .ok()?;
    let per = if d.contains("round") {
        1
    } else if d.contains("minute") {
        10
    } else if d.contains("hour") {
        600
    } else if d.contains("day") {
        14_400
    } else {
        return None;
    };
    Some(n.saturating_mul(per).min(crate::model::effects::MAX_ROUNDS))
}

#[cfg(test)]
mod aura_text_tests {
    use super::*;

    #[test]
    fn a_zone_spell_reads_its_radius_save_damage_and_upcast_from_its_text() {
        let a = SpellAura::from_text(
            "They flit around you to a distance of 15 feet. When the creature enters the area \
             for the first time on a turn or starts its turn there, it must make a wisdom saving \
             throw. On a failed save, the creature takes 3d8 radiant damage. On a successful \
             save, the creature takes half as much damage.",
            "the damage increases by 1d8 for each slot level above 3rd.",
        )
        .expect("a zone");
        assert_eq!(a.radius_ft, 15);
        assert_eq!(a.dice, "3d8");
        assert_eq!(a.damage_type, Some(DamageType::Radiant));
        assert_eq!(
            a.save,
            Some(SpellSaveDef {
                ability: Ability::Wisdom,
                half: true
            })
        );
        assert_eq!(a.dice_at(3, 3), "3d8");
        assert_eq!(a.dice_at(3, 5), "5d8");
        assert!(SpellAura::from_text("A bright streak flashes.", "").is_none());
    }
}
