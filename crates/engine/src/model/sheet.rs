//! Character sheets as read: base values, effective values and the reasons for each, through the
//! one effective-stats pipeline of the rules crate.

use serde::Serialize;
use tabletop_rules::conditions::ConditionSet;
use tabletop_rules::hp::HitDice;
use tabletop_rules::modifiers::{Modifier, ModifierKind};
use tabletop_rules::stats::{
    ArmorClass, BaseStats, EffectiveStats, effective_stats, effective_stats_with_traits,
};
use tabletop_rules::{CharacterType, Condition};

use crate::model::character::Character;

/// What a character's effective sheet reads besides its base fields and its derived block, and
/// that play changes: conditions, effects, whether a form is worn, death. While these stay as
/// they were, a change of hit points, temporary HP, death saves, slots or resources leaves the
/// sheet as it is (`update` reuses the sheet read within a call; `model::doc_state` hands it on
/// to the text a state-only write makes).
pub(crate) struct SheetInputs {
    conditions: Vec<crate::model::character::ConditionEntry>,
    effects: Vec<crate::model::effects::ActiveEffect>,
    shaped: bool,
    dead: bool,
}

impl SheetInputs {
    /// `c`'s, copied.
    pub(crate) fn of(c: &Character) -> Self {
        Self {
            conditions: c.conditions.clone(),
            effects: c.effects.clone(),
            shaped: c.active_shape().is_some(),
            dead: c.dead,
        }
    }

    /// Whether `c`'s are these (nothing copied).
    pub(crate) fn matches(&self, c: &Character) -> bool {
        Self::same((&self.conditions, &self.effects, self.shaped, self.dead), c)
    }

    /// Whether `a` and `b` have the same.
    pub(crate) fn equal(a: &Character, b: &Character) -> bool {
        Self::same(
            (
                &a.conditions,
                &a.effects,
                a.active_shape().is_some(),
                a.dead,
            ),
            b,
        )
    }

    fn same(
        (conditions, effects, shaped, dead): (
            &[crate::model::character::ConditionEntry],
            &[crate::model::effects::ActiveEffect],
            bool,
            bool,
        ),
        c: &Character,
    ) -> bool {
        dead == c.dead
            && conditions == c.conditions.as_slice()
            && effects == c.effects.as_slice()
            && shaped == c.active_shape().is_some()
    }
}

impl Character {
    /// The base stats the rules pipeline starts from.
    pub fn base_stats(&self) -> BaseStats {
        BaseStats {
            level: self.level,
            abilities: self.abilities,
            proficiency_bonus: self.proficiency_bonus,
            save_proficiencies: self.save_proficiencies.clone(),
            skill_proficiencies: self.skills.clone(),
            half_proficiency: self
                .derived
                .as_ref()
                .map(|d| d.half_proficiency.keys().copied().collect())
                .unwrap_or_default(),
            armor_class: ArmorClass {
                value: self.armor_class,
                source: self.armor_source.clone(),
            },
            speed: self.speed,
            max_hp: self.max_hp.max(1),
            size: self.size,
            resistances: self.resistances.clone(),
            immunities: self.immunities.clone(),
            vulnerabilities: self.vulnerabilities.clone(),
            condition_immunities: self.condition_immunities.clone(),
            traits: Vec::new(),
        }
    }

    /// The active conditions as the rules see them.
    pub fn condition_set(&self) -> ConditionSet {
        let mut set = ConditionSet::new();
        for c in &self.conditions {
            if c.condition == Condition::Exhaustion {
                let _ = set.set_exhaustion(u32::from(c.level.unwrap_or(1)));
            } else {
                set.insert(c.condition);
            }
        }
        set
    }

    /// The modifiers of every active effect, each sourced to its effect. An effect whose
    /// benefits need no heavy armor (Rage) gives only its notes while heavy armor is worn, and a
    /// note saying so (see [`Character::suspended_by_armor`]).
    pub fn effect_modifiers(&self) -> Vec<Modifier> {
        let mut out = Vec::new();
        for e in &self.effects {
            match self.suspended_by_armor(e) {
                Some(why) => {
                    out.extend(
                        e.modifiers
                            .iter()
                            .filter(|m| {
                                matches!(m.kind, ModifierKind::Note { .. }) || m.source != e.name
                            })
                            .cloned(),
                    );
                    out.push(Modifier::new(&e.name, ModifierKind::Note { text: why }));
                }
                None => out.extend(e.modifiers.iter().cloned()),
            }
        }
        out.extend(self.condition_spell_modifiers());
        out
    }

    /// What a condition imposed by a spell carries beyond the condition's own rules, for as long
    /// as that condition lasts: a creature charmed by Hypnotic Pattern is also incapacitated and
    /// has a speed of 0 (the spell catalog's `modifiers` of a condition spell).
    pub fn condition_spell_modifiers(&self) -> Vec<Modifier> {
        self.conditions
            .iter()
            .flat_map(|c| {
                crate::catalog::spells::condition_extras(&c.source, c.condition)
                    .iter()
                    .map(|k| Modifier::new(&c.source, k.clone()))
            })
            .collect()
    }

    /// Why effect `e`'s benefits are suspended, when they are: its feature gives them only out
    /// of heavy armor (Rage: "if you aren't wearing heavy armor") and `self` wears some; "no
    /// benefits while wearing heavy armor (Chain Mail)". Riders of other features on the same
    /// effect (Mindless Rage's immunities) are not its benefits and stay.
    pub fn suspended_by_armor(&self, e: &crate::model::effects::ActiveEffect) -> Option<String> {
        let needs_no_heavy = self.derived.as_ref()?.actions.iter().any(|a| {
            a.name == e.name
                && matches!(
                    a.does,
                    crate::catalog::Use::Effect {
                        no_heavy_armor: true,
                        ..
                    }
                )
        });
        if !needs_no_heavy {
            return None;
        }
        let armor = crate::model::gear::heavy_armor_worn(self)?;
        Some(format!("no benefits while wearing heavy armor ({armor})"))
    }

    /// Effective stats: base → equipment → conditions → effects. Worn armor replaces the base
    /// AC; equipped (and attuned) items give the equipment layer. Every consumer (sheets,
    /// checks, saves, attacks, damage defences, max HP, speed) reads this.
    pub fn effective(&self) -> EffectiveStats {
        let mut base = self.base_stats();
        // A form (Wild Shape, Polymorph) replaces the body: its scores, AC, speed and size;
        // the gear merges into it (its armor and items give nothing while it lasts).
        if let Some(shape) = self.active_shape() {
            crate::model::shape::overlay(shape, &mut base);
            return effective_stats(&base, &[], &self.condition_set(), &self.effect_modifiers());
        }
        let mut gear = self.inventory.equipment_layer(&base);
        let armored = gear.armor_class.is_some();
        crate::model::gear::sheet_layer(self, &mut base, &mut gear);
        // "Your walking speed becomes 30 feet, unless it is higher" (Boots of Striding and
        // Springing): the base speed, before spells and conditions change it.
        if let Some((floor, _)) = self.inventory.speed_floor() {
            base.speed = base.speed.max(u32::try_from(floor).unwrap_or(0));
        }
        if let Some(ac) = gear.armor_class {
            base.armor_class = ac;
        }
        // A spell's AC formula (Mage Armor) while unarmored, when it beats the base.
        if crate::model::senses::grants(self)
            .iter()
            .any(|(_, g)| g.ac_base.is_some())
        {
            let dex = tabletop_rules::abilities::ability_modifier(
                base.abilities.get(tabletop_rules::Ability::Dexterity),
            );
            if let Some((value, source)) = formula_ac(
                self,
                armored || wears_armor(self),
                dex,
                base.armor_class.value,
            ) {
                base.armor_class = ArmorClass { value, source };
            }
        }
        // The derived traits first, borrowed (the sheet layer adds the rest to `base.traits`).
        let traits = self.derived.as_ref().map_or(&[][..], |d| &d.modifiers[..]);
        let mut eff = effective_stats_with_traits(
            traits,
            &base,
            &gear.modifiers,
            &self.condition_set(),
            &self.effect_modifiers(),
        );
        // An AC floor (Barkskin: "can't be less than 16"), after every other modifier.
        if let Some((floor, name)) = self
            .effects
            .iter()
            .filter_map(|e| Some((e.grant.as_ref()?.ac_floor?, &e.name)))
            .max_by_key(|(f, _)| *f)
            && eff.armor_class.value < floor
        {
            let delta = floor - eff.armor_class.value;
            eff.armor_class.value = floor;
            eff.armor_class
                .sources
                .push(tabletop_rules::explained::Contribution::new(
                    format!("{name} (AC can't be less than {floor})"),
                    delta,
                ));
        }
        eff
    }
}

/// A sheet: the stored character and its effective stats.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sheet {
    /// The stored character (base values).
    pub character: Character,
    /// Effective values with the source of every modifier.
    pub effective: EffectiveStats,
    /// Hit dice by die: total, spent and (total − spent) remaining.
    pub hit_dice: HitDice,
    /// Movement modes beyond walking, in feet ("fly" → 60): the stat block's and those active
    /// spells grant (Fly, Spider Climb).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub speeds: std::collections::BTreeMap<String, u32>,
    /// Special senses with their ranges ("darkvision 60 ft"): stat block, race, features and
    /// active spells (Darkvision, True Seeing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub senses: Vec<String>,
    /// Ways of communicating active spells grant, beyond its languages (Tongues, Speak with
    /// Animals, Telepathic Bond), each with its source; they end with the effect.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub communication: Vec<String>,
}

impl Sheet {
    /// The sheet of `character`.
    pub fn of(character: Character) -> Self {
        let effective = character.effective();
        let hit_dice = character.hit_dice_pool();
        let speeds = crate::model::senses::movement_modes(&character);
        let s = crate::model::senses::senses_of(&character);
        let senses = [
            ("blindsight", s.blindsight_ft),
            ("darkvision", s.darkvision_ft),
            ("tremorsense", s.tremorsense_ft),
            ("truesight", s.truesight_ft),
        ]
        .into_iter()
        .filter(|(_, ft)| *ft > 0)
        .map(|(n, ft)| format!("{n} {ft} ft"))
        .chain(
            crate::model::senses::sees_invisible(&character)
                .map(|e| format!("sees invisible creatures ({e})")),
        )
        .collect();
        let communication = crate::model::senses::communication(&character);
        Self {
            character,
            effective,
            hit_dice,
            speeds,
            senses,
            communication,
        }
    }
}

/// One row of a character list: who it is and the numbers a roster shows (effective max HP
/// and AC). Lists carry rows, not whole sheets, so a page stays within the tool's result cap;
/// `get_character` by id or name gives the sheet.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CharacterSummary {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Player character, NPC, enemy or neutral.
    pub kind: CharacterType,
    /// Class label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// Level.
    pub level: u32,
    /// Current hit points.
    pub hp: u32,
    /// Effective maximum hit points.
    pub max_hp: i32,
    /// Temporary hit points.
    #[serde(skip_serializing_if = "is_zero")]
    pub temp_hp: u32,
    /// Effective armor class.
    pub armor_class: i32,
    /// Active conditions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Whether it is dead.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dead: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl CharacterSummary {
    /// The row of `c`.
    pub fn of(c: &Character) -> Self {
        let e = c.effective();
        Self {
            id: c.id.clone(),
            name: c.name.clone(),
            kind: c.kind,
            class: c.class.clone(),
            level: c.level,
            hp: c.hp,
            max_hp: e.max_hp.value,
            temp_hp: c.temp_hp,
            armor_class: e.armor_class.value,
            conditions: c.conditions.iter().map(|x| x.condition).collect(),
            dead: c.dead,
        }
    }
}

/// A page of characters matching a filter.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CharacterPage {
    /// The characters on this page.
    pub characters: Vec<CharacterSummary>,
    /// How many match in all.
    pub total: u64,
    /// Page number (1-based).
    pub page: usize,
    /// Page size.
    pub per_page: usize,
    /// Whether more pages follow.
    pub has_more: bool,
}

/// Largest page of a character list.
pub const MAX_PER_PAGE: usize = 100;

/// Whether the creature wears armor: equipped body armor, or a stat block whose AC names armor
/// other than natural armor.
pub fn wears_armor(c: &Character) -> bool {
    if c.inventory
        .equipment_layer(&c.base_stats())
        .armor_class
        .is_some()
    {
        return true;
    }
    let src = c.armor_source.to_lowercase();
    c.stat_block.is_some()
        && !src.contains("natural")
        && ["armor", "mail", "leather", "hide", "plate", "breastplate"]
            .iter()
            .any(|w| src.contains(w))
}

/// The AC an active spell formula gives, when better than `current` and no armor is worn:
/// (value, source).
pub fn formula_ac(
    c: &Character,
    armored: bool,
    dex_mod: i32,
    current: i32,
) -> Option<(i32, String)> {
    if armored {
        return None;
    }
    crate::model::senses::grants(c)
        .into_iter()
        .filter_map(|(name, g)| Some((g.ac_base?, name)))
        .map(|(base, name)| (base + dex_mod, format!("{name}: {base} + DEX {dex_mod:+}")))
        .filter(|(v, _)| *v > current)
        .max_by_key(|(v, _)| *v)
}
