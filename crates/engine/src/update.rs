//! `update_character`: edit any field, and change hit points through the rules (damage through
//! the damage pipeline, healing, temporary HP).

use std::collections::BTreeMap;

use serde::Serialize;
use tabletop_rules::abilities::{self, AbilityScores, ProficiencyLevel};
use tabletop_rules::damage::{
    DamagePart, DamageResult, HealResult, TempHpResult, Vitals, apply_healing, grant_temp_hp,
};
use tabletop_rules::{Ability, CharacterType, Condition, DamageType, Size, Skill};

mod damage;
mod sheet;

pub use damage::damage;
use damage::{damage_with, vitals};
use sheet::Sheet;
pub use sheet::ShownStats;

use crate::characters::resolve;
use crate::concentration::{self, ConcentrationCheck, ConcentrationEnd};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef, ConditionEntry, Recharge, Resource};
use crate::model::names::name_key;

/// The source recorded on conditions the engine adds when a creature drops to 0 HP.
pub const ZERO_HP_SOURCE: &str = "0 HP";

/// A change to hit points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HpChange {
    /// Set HP to this value (clamped to 0..=max; a DM correction, no pipeline).
    Set(u32),
    /// Untyped damage through the pipeline ("-7").
    Damage(u32),
    /// Healing ("+5").
    Heal(u32),
}

/// Experience points: set to a total, or gained (negative: lost).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XpChange {
    /// The new total.
    Set(u32),
    /// Gained (or lost, when negative).
    Add(i64),
}

/// Fields to overwrite; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct CharacterPatch {
    /// New name.
    pub name: Option<String>,
    /// Experience points set or gained.
    pub xp: Option<XpChange>,
    /// New type.
    pub kind: Option<CharacterType>,
    /// New race label.
    pub race: Option<String>,
    /// New class label.
    pub class: Option<String>,
    /// New background.
    pub background: Option<String>,
    /// New base scores (only the abilities given change).
    pub stats: Option<BTreeMap<Ability, i64>>,
    /// Replace skill proficiencies.
    pub skills: Option<Vec<Skill>>,
    /// Replace expertise.
    pub expertise: Option<Vec<Skill>>,
    /// Replace saving-throw proficiencies.
    pub saves: Option<Vec<Ability>>,
    /// New base AC.
    pub armor_class: Option<i32>,
    /// New speed.
    pub speed: Option<u32>,
    /// New size.
    pub size: Option<Size>,
    /// New base maximum HP.
    pub max_hp: Option<u32>,
    /// Replace the inventory with these items: unnamed ones leave it, missing ones join it.
    pub equipment: Option<Vec<String>>,
    /// Replace spells (known or prepared, cantrips included).
    pub spells: Option<Vec<String>>,
    /// Replace a wizard's spellbook.
    pub spellbook: Option<Vec<String>>,
    /// Spells to add to the known/prepared list (checked like `spells`).
    pub add_spells: Option<Vec<String>>,
    /// Spells to take off the known/prepared list (each must be listed).
    pub remove_spells: Option<Vec<String>>,
    /// A multiclassed caster: the class each spell is learned with (spell → class), merged into
    /// the sheet's.
    pub spell_classes: Option<std::collections::BTreeMap<String, String>>,
    /// Replace languages.
    pub languages: Option<Vec<String>>,
    /// Replace resistances.
    pub resistances: Option<Vec<DamageType>>,
    /// Replace immunities.
    pub immunities: Option<Vec<DamageType>>,
    /// Replace vulnerabilities.
    pub vulnerabilities: Option<Vec<DamageType>>,
    /// Replace condition immunities.
    pub condition_immunities: Option<Vec<Condition>>,
    /// New notes.
    pub notes: Option<String>,
    /// New spellcasting ability.
    pub spellcasting_ability: Option<Ability>,
    /// Resources to add or change, by name (max 0 removes one).
    pub resources: Vec<ResourcePatch>,
}

impl CharacterPatch {
    /// Whether the patch changes no field.
    pub fn is_empty(&self) -> bool {
        // Destructured so that a new field cannot be forgotten here.
        let Self {
            name,
            xp,
            kind,
            race,
            class,
            background,
            stats,
            skills,
            expertise,
            saves,
            armor_class,
            speed,
            size,
            max_hp,
            equipment,
            spells,
            spellbook,
            add_spells,
            remove_spells,
            spell_classes,
            languages,
            resistances,
            immunities,
            vulnerabilities,
            condition_immunities,
            notes,
            spellcasting_ability,
            resources,
        } = self;
        name.is_none()
            && xp.is_none()
            && kind.is_none()
            && race.is_none()
            && class.is_none()
            && background.is_none()
            && stats.is_none()
            && skills.is_none()
            && expertise.is_none()
            && saves.is_none()
            && armor_class.is_none()
            && speed.is_none()
            && size.is_none()
            && max_hp.is_none()
            && equipment.is_none()
            && spells.is_none()
            && spellbook.is_none()
            && add_spells.is_none()
            && remove_spells.is_none()
            && spell_classes.is_none()
            && languages.is_none()
            && resistances.is_none()
            && immunities.is_none()
            && vulnerabilities.is_none()
            && condition_immunities.is_none()
            && notes.is_none()
            && spellcasting_ability.is_none()
            && resources.is_empty()
    }
}

/// A change to one resource, by name (case-insensitive): new ones need `max`.
#[derive(Debug, Clone, Default)]
pub struct ResourcePatch {
    /// Name ("Ki").
    pub name: String,
    /// Maximum; 0 removes the resource.
    pub max: Option<u32>,
    /// Uses left (capped at max).
    pub current: Option<u32>,
    /// When it comes back.
    pub recharge: Option<Recharge>,
}

/// Everything an update may do, applied in this order: fields, `hp`, `damage`, `healing`,
/// `temp_hp`.
#[derive(Debug, Clone, Default)]
pub struct UpdateRequest {
    /// Field edits.
    pub patch: CharacterPatch,
    /// HP set or delta.
    pub hp: Option<HpChange>,
    /// Typed damage through the pipeline.
    pub damage: Vec<DamagePart>,
    /// Whether the damage is from a critical hit (matters at 0 HP).
    pub critical: bool,
    /// Healing.
    pub healing: Option<u32>,
    /// Temporary HP offered (kept only if higher than the current).
    pub temp_hp: Option<u32>,
    /// Keep spell choices that break the known/prepared rules (the DM's override; said so).
    pub force: bool,
}

/// What an update did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateOutcome {
    /// The character after the update (shared with the store's kept copy of what it wrote).
    #[serde(skip)]
    pub character: std::sync::Arc<Character>,
    /// The character as its answer shows it: without the `derived` block (the derivation's
    /// sources; `get_character` shows them), the values all there. The same text is stored as
    /// its document (`model::doc_state::document_after_read`: only the state part is made
    /// anew when nothing else changed), so it is made once.
    #[serde(rename = "character")]
    #[cfg_attr(feature = "schema", schemars(with = "Character"))]
    pub character_text: Box<serde_json::value::RawValue>,
    /// Each change in words.
    pub changes: Vec<String>,
    /// Damage results (one per damage application).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub damage: Vec<DamageResult>,
    /// Healing result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub healing: Option<HealResult>,
    /// Temporary HP result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temp_hp: Option<TempHpResult>,
    /// Concentration saves the damage forced (one per damage application).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub concentration: Vec<ConcentrationCheck>,
    /// A concentration that ended (failed save, 0 HP, incapacitated).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub concentration_ended: Vec<ConcentrationEnd>,
    /// The character's AC, speed and max HP after the update, from its effective sheet
    /// (derived at most once for the whole call, and not at all when the update changed
    /// nothing it is derived from and a read had derived it).
    #[serde(skip)]
    pub shown: ShownStats,
}

/// Applies `req` to the character named by `target`.
pub fn update_character(
    call: &mut Call<'_>,
    target: CharacterRef<'_>,
    req: UpdateRequest,
) -> Result<UpdateOutcome> {
    let mut c = resolve(call, target)?;
    let was_up = !c.dead && c.hp > 0 && !c.has_condition(tabletop_rules::Condition::Unconscious);
    // Who holds the form the character wears (Polymorph), and its size: damage may end it.
    let form_holder = crate::shape_end::holder(&c);
    let shaped = c.shape.is_some();
    let mut changes = Vec::new();
    // A call that edits no field (hit points only, the common case in play) leaves the sheet
    // as `resolve` just derived it: nothing to absorb, nothing to derive again. Its effective
    // sheet is the one kept with the character as read (shared by every read of the same
    // stored text) while the call changes nothing else it is derived from (a condition, an
    // effect, a form); otherwise it is derived once more.
    let req_patch_empty = req.patch.is_empty();
    let mut sheet = if req_patch_empty {
        Sheet::as_read(&c)
    } else {
        edit_fields(call, &mut c, req.patch, req.force, &mut changes)?;
        Sheet::default()
    };
    let mut damage_results = Vec::new();
    let mut healing = None;
    match req.hp {
        Some(HpChange::Set(v)) => {
            let max = sheet.get(&c).max_hp.value.max(1) as u32;
            let v = v.min(max);
            if v == 0 && c.hp > 0 && !c.dead {
                // Set to 0 from above it: the creature drops to 0 HP as from damage (it falls
                // unconscious and prone, or dies, and its concentration ends), whatever
                // temporary hit points it had.
                changes.push(format!("HP set {} → 0", c.hp));
                let all = c.hp.saturating_add(c.temp_hp);
                damage_results.push(damage_with(
                    &mut c,
                    &mut sheet,
                    &[DamagePart::new(None, all)],
                    false,
                    &mut changes,
                )?);
            } else if v != c.hp {
                changes.push(format!("HP set {} → {v}", c.hp));
                let was_down = c.hp == 0;
                c.hp = v;
                // Only a creature that was down wakes (and gets up prone); one set from 30 to
                // 20 HP stays on its feet.
                if v > 0 && was_down {
                    wake(&mut c);
                }
            }
        }
        Some(HpChange::Damage(n)) => damage_results.push(damage_with(
            &mut c,
            &mut sheet,
            &[DamagePart::new(None, n)],
            req.critical,
            &mut changes,
        )?),
        Some(HpChange::Heal(n)) => healing = Some(heal_with(&mut c, &mut sheet, n, &mut changes)?),
        None => {}
    }
    let mut checks = Vec::new();
    let mut ended = Vec::new();
    if let Some(r) = damage_results.last() {
        concentration_after(call, &mut c, r, &mut checks, &mut ended, &mut changes)?;
    }
    if !req.damage.is_empty() {
        let r = damage_with(&mut c, &mut sheet, &req.damage, req.critical, &mut changes)?;
        concentration_after(call, &mut c, &r, &mut checks, &mut ended, &mut changes)?;
        damage_results.push(r);
    }
    if let Some(n) = req.healing {
        healing = Some(heal_with(&mut c, &mut sheet, n, &mut changes)?);
    }
    if c.dead && req.temp_hp.is_some_and(|n| n > 0) {
        return Err(EngineError::Rule(format!(
            "{} is dead; temporary hit points do nothing for the dead (revive it first)",
            c.name
        )));
    }
    let temp = req.temp_hp.map(|n| {
        let r = grant_temp_hp(c.temp_hp, n);
        if r.replaced {
            changes.push(format!("temp HP {} → {}", r.before, r.after));
        } else {
            changes.push(format!(
                "temp HP {n} not taken: {} already (temporary HP do not stack)",
                r.before
            ));
        }
        c.temp_hp = r.after;
        r
    });
    // A form held by a concentration that dropped to 0 HP ends that spell on the character.
    if let Some(h) = form_holder.as_deref() {
        crate::shape_end::after_revert(call, &mut c, h, &mut changes)?;
    }
    if let Some(e) = concentration::enforce(call, &mut c, &mut changes)? {
        ended.push(e);
    }
    if changes.is_empty() {
        return Err(EngineError::invalid(
            "update_character",
            "nothing to change: give a field (name, stats, ac, …), hp, damage, healing or tempHp",
        ));
    }
    crate::combat::death_time::stamp(call, &mut c)?;
    let campaign = call.campaign();
    let mut doc = crate::model::doc_state::document_after_read(&c).map_err(|e| {
        crate::store::StoreError::Corrupt {
            what: "character".into(),
            detail: e.to_string(),
        }
    })?;
    if doc.base_end.is_some() && req_patch_empty {
        // Only the state changed: the sheet read stays this character's when the call changed
        // nothing it is derived from, and the next read of the new text starts with it.
        doc.effective = sheet.kept_for(&c);
    }
    let shown = ShownStats::of(sheet.get(&c));
    // What was read with it is no part of the character written (the store keeps this one).
    c.read_doc = Default::default();
    c.read_sheet = Default::default();
    let c = std::sync::Arc::new(c);
    call.tx().put_character_doc(campaign, &c, &doc)?;
    call.record_change("character", &c.id, changes.join("; "));
    // A paladin's aura goes with it when it drops (or comes back when it wakes).
    changes.extend(crate::combat::martial::after_hp_edit(call, &c, was_up)?);
    // A token follows a form taken or dropped (its bearer reverted at 0 HP).
    if shaped != c.shape.is_some() {
        changes.extend(crate::combat::spatial::sizes::sync_of(call, &c.id)?);
    }
    Ok(UpdateOutcome {
        shown,
        character_text: doc.text,
        character: c,
        changes,
        damage: damage_results,
        healing,
        temp_hp: temp,
        concentration: checks,
        concentration_ended: ended,
    })
}

/// Applies the field edits of `patch`, records them as sources of the build and derives the
/// sheet again.
fn edit_fields(
    call: &Call<'_>,
    c: &mut Character,
    patch: CharacterPatch,
    force: bool,
    changes: &mut Vec<String>,
) -> Result<()> {
    let before = c.clone();
    apply_patch(c, patch, changes)?;
    // Edits become sources of the build; the sheet follows from them.
    crate::derive::absorb_edits(&before, c);
    crate::derive::refresh(call, c);
    crate::inventory::ops::adopt_legacy(call, c);
    if c.spells != before.spells
        || c.spellbook != before.spellbook
        || c.spell_classes != before.spell_classes
    {
        spell_choices(call, c, force, changes)?;
    }
    if c.max_hp != before.max_hp && c.build.is_some() {
        changes.push(format!(
            "max HP {} → {} (derived: {})",
            before.max_hp,
            c.max_hp,
            c.derived.as_ref().map_or(String::new(), |d| {
                tabletop_rules::stats::explain_contributions(&d.max_hp_sources)
            })
        ));
    }
    Ok(())
}

/// New spell choices must keep the known/prepared rules (see [`crate::magic::known`]), unless
/// the DM forces them.
fn spell_choices(
    call: &Call<'_>,
    c: &mut Character,
    force: bool,
    changes: &mut Vec<String>,
) -> Result<()> {
    let Some(srd) = call.compendium() else {
        return Ok(());
    };
    changes.extend(crate::magic::known::adopt_spellbook(srd, c));
    changes.extend(crate::magic::known::record_classes(srd, c));
    let problems = crate::magic::known::problems(srd, c);
    if problems.is_empty() {
        changes.extend(crate::magic::known::summary(srd, c));
        return Ok(());
    }
    if !force {
        return Err(EngineError::Rule(format!(
            "{}'s spells break {} rule(s): {}. {}. Fix the list, or pass force: true to keep it as the game master",
            c.name,
            problems.len(),
            problems.join("; "),
            crate::magic::known::summary(srd, c).unwrap_or_default()
        )));
    }
    changes.push(format!(
        "forced by the game master (the rules say otherwise): {}",
        problems.join("; ")
    ));
    Ok(())
}

/// After one damage application: the concentration save it forces, or the end of concentration
/// at 0 HP.
fn concentration_after(
    call: &mut Call<'_>,
    c: &mut Character,
    r: &DamageResult,
    checks: &mut Vec<ConcentrationCheck>,
    ended: &mut Vec<ConcentrationEnd>,
    changes: &mut Vec<String>,
) -> Result<()> {
    if r.concentration_ends {
        let why = if r.dead { "died" } else { "dropped to 0 HP" };
        if let Some(e) = concentration::end(call, c, why, changes)? {
            ended.push(e);
        }
        return Ok(());
    }
    if let Some(k) = concentration::after_damage(call, c, r.total, changes)? {
        if let Some(e) = &k.ended {
            ended.push(e.clone());
        }
        checks.push(k);
    }
    Ok(())
}

/// Heals `c` by `amount`; a creature at 0 HP wakes and its death saves reset. A creature in
/// another form heals the form.
pub fn heal(c: &mut Character, amount: u32, changes: &mut Vec<String>) -> Result<HealResult> {
    heal_with(c, &mut Sheet::default(), amount, changes)
}

/// [`heal`], reading `c`'s effective sheet from `sheet`.
fn heal_with(
    c: &mut Character,
    sheet: &mut Sheet,
    amount: u32,
    changes: &mut Vec<String>,
) -> Result<HealResult> {
    if c.active_shape().is_some()
        && let Some(shape) = c.shape.as_mut()
    {
        let v = Vitals {
            hp: shape.hp,
            max_hp: shape.max_hp.max(1),
            temp_hp: 0,
            death_saves: Default::default(),
            dead: false,
        };
        let r = apply_healing(&v, amount)?;
        shape.hp = r.hp_after;
        changes.push(format!("{} ({} form) {}", c.name, shape.form, r.summary()));
        return Ok(r);
    }
    let r = apply_healing(&vitals(c, sheet.get(c)), amount)?;
    c.hp = r.hp_after;
    c.death_saves = r.death_saves;
    if r.regains_consciousness {
        wake(c);
    }
    changes.push(format!("{} {}", c.name, r.summary()));
    Ok(r)
}

fn wake(c: &mut Character) {
    c.conditions
        .retain(|e| !(e.condition == Condition::Unconscious && e.source == ZERO_HP_SOURCE));
    c.death_saves = Default::default();
    // It wakes up on the ground.
    lie_prone(c);
}

/// What falling unconscious does beside the condition (SRD Unconscious: "The creature drops
/// whatever it's holding and falls prone"): what it holds in its hands is dropped (unequipped,
/// kept on its sheet as lying in its space; a shield strapped to the arm stays worn) and it
/// falls prone unless immune, with `source` (the spell) as the prone's source. The lines say
/// what it dropped and, with `say_prone`, that it fell prone.
pub fn knocked_out(c: &mut Character, source: &str, say_prone: bool) -> Vec<String> {
    let mut lines: Vec<String> = drop_held(c).into_iter().collect();
    if !c.has_condition(Condition::Prone)
        && !c
            .effective()
            .condition_immunities
            .contains_key(&Condition::Prone)
    {
        c.conditions.push(ConditionEntry {
            by: None,
            ends_on: None,
            condition: Condition::Prone,
            level: None,
            source: source.into(),
            duration: None,
        });
        if say_prone {
            lines.push(format!("{} falls prone", c.name));
        }
    }
    lines
}

/// `c` drops what it holds in its hands (unequipped, kept on its sheet as lying in its space; a
/// shield strapped to the arm stays worn); the line says what, if anything.
pub fn drop_held(c: &mut Character) -> Option<String> {
    use crate::model::inventory::Slot;
    let dropped: Vec<String> = c
        .inventory
        .items
        .iter_mut()
        .filter(|i| matches!(i.slot, Some(Slot::Mainhand | Slot::Offhand)) && !i.is_shield())
        .map(|i| {
            i.slot = None;
            i.name.clone()
        })
        .collect();
    (!dropped.is_empty()).then(|| {
        format!(
            "{} drops {} (it lies in {}'s space, unequipped; taking it up again is manage_inventory equip)",
            c.name,
            dropped.join(" and "),
            c.name
        )
    })
}

/// Makes `c` prone (fallen at 0 HP) unless it already is.
pub fn lie_prone(c: &mut Character) {
    if !c.has_condition(Condition::Prone) {
        c.conditions.push(ConditionEntry {
            by: None,
            ends_on: None,
            condition: Condition::Prone,
            level: None,
            source: ZERO_HP_SOURCE.into(),
            duration: None,
        });
    }
}

fn apply_patch(c: &mut Character, p: CharacterPatch, changes: &mut Vec<String>) -> Result<()> {
    if let Some(x) = p.xp {
        let Some(b) = c.build.as_mut().filter(|_| c.stat_block.is_none()) else {
            return Err(EngineError::invalid(
                "xp",
                format!(
                    "{} is a stat-block creature; experience points are kept for characters",
                    c.name
                ),
            ));
        };
        let before = b.xp;
        b.xp = match x {
            XpChange::Set(n) => n,
            XpChange::Add(n) => {
                u32::try_from((i64::from(before) + n).clamp(0, i64::from(u32::MAX))).unwrap_or(0)
            }
        };
        changes.push(format!("XP {before} → {}", b.xp));
    }
    if let Some(n) = p.name {
        let n = n.trim().to_string();
        if n.is_empty() || n.chars().count() > 80 {
            return Err(EngineError::invalid(
                "name",
                "give a name of 1–80 characters",
            ));
        }
        changes.push(format!("renamed {} → {n}", c.name));
        c.name = n;
    }
    if let Some(k) = p.kind {
        changes.push(format!("type {} → {}", c.kind, k));
        c.kind = k;
    }
    macro_rules! set_opt {
        ($field:ident, $label:literal) => {
            if let Some(v) = p.$field {
                changes.push(format!(concat!($label, " → {}"), v));
                c.$field = Some(v);
            }
        };
    }
    set_opt!(race, "race");
    set_opt!(class, "class");
    set_opt!(background, "background");
    set_opt!(notes, "notes");
    if let Some(stats) = p.stats {
        let mut s: AbilityScores = c.abilities;
        for (a, v) in stats {
            s.set(a, v)
                .map_err(|e| EngineError::invalid(format!("stats.{}", a.key()), e.to_string()))?;
        }
        changes.push(format!("abilities {} → {s}", c.abilities));
        c.abilities = s;
    }
    if let Some(skills) = p.skills {
        c.skills.retain(|_, l| *l == ProficiencyLevel::Expertise);
        for s in skills {
            c.skills.entry(s).or_insert(ProficiencyLevel::Proficient);
        }
        changes.push("skills replaced".into());
    }
    if let Some(ex) = p.expertise {
        for l in c.skills.values_mut() {
            if *l == ProficiencyLevel::Expertise {
                *l = ProficiencyLevel::Proficient;
            }
        }
        for s in ex {
            c.skills.insert(s, ProficiencyLevel::Expertise);
        }
        changes.push("expertise replaced".into());
    }
    if let Some(saves) = p.saves {
        c.save_proficiencies = saves.into_iter().collect();
        changes.push("save proficiencies replaced".into());
    }
    if let Some(ac) = p.armor_class {
        if !(1..=40).contains(&ac) {
            return Err(EngineError::invalid(
                "ac",
                format!("{ac} is out of range; AC is 1–40"),
            ));
        }
        changes.push(format!("AC {} → {ac}", c.armor_class));
        c.armor_class = ac;
        c.armor_source = "as set".into();
    }
    if let Some(sp) = p.speed {
        if sp > 1_000 {
            return Err(EngineError::invalid(
                "speed",
                format!("{sp} ft is out of range; 0–1000"),
            ));
        }
        changes.push(format!("speed {} → {sp} ft", c.speed));
        c.speed = sp;
    }
    if let Some(sz) = p.size {
        changes.push(format!("size {} → {sz}", c.size));
        c.size = sz;
    }
    if let Some(m) = p.max_hp {
        if !(1..=10_000).contains(&m) {
            return Err(EngineError::invalid(
                "maxHp",
                format!("{m} is out of range; 1–10000"),
            ));
        }
        changes.push(format!("max HP {} → {m}", c.max_hp));
        c.max_hp = m;
        c.hp = c.hp.min(m);
    }
    macro_rules! replace_list {
        ($field:ident, $label:literal) => {
            if let Some(v) = p.$field {
                c.$field = v.into_iter().collect();
                changes.push(concat!($label, " replaced").into());
            }
        };
    }
    if let Some(v) = p.equipment {
        changes.push(crate::inventory::ops::replace_equipment(c, v));
    }
    replace_list!(spells, "spells");
    replace_list!(spellbook, "spellbook");
    for name in p.add_spells.into_iter().flatten() {
        let name = name.trim().to_string();
        let key = crate::model::names::name_key(&name);
        if name.is_empty() || name.chars().count() > 80 {
            return Err(EngineError::invalid(
                "addSpells",
                "give each spell's name (1–80 characters)",
            ));
        }
        if c.spells
            .iter()
            .any(|s| crate::model::names::name_key(s) == key)
        {
            changes.push(format!("{name} already listed"));
        } else {
            changes.push(format!("{name} added to the spells"));
            c.spells.push(name);
        }
    }
    for name in p.remove_spells.into_iter().flatten() {
        let key = crate::model::names::name_key(&name);
        let Some(at) = c
            .spells
            .iter()
            .position(|s| crate::model::names::name_key(s) == key)
        else {
            return Err(EngineError::invalid(
                "removeSpells",
                format!(
                    "{} does not list {} (their spells: {})",
                    c.name,
                    name.trim(),
                    if c.spells.is_empty() {
                        "none".to_string()
                    } else {
                        c.spells.join(", ")
                    }
                ),
            ));
        };
        let gone = c.spells.remove(at);
        c.spell_classes
            .retain(|k, _| crate::model::names::name_key(k) != key);
        changes.push(format!("{gone} removed from the spells"));
    }
    if let Some(m) = p.spell_classes {
        for (spell, class) in m {
            let key = crate::model::names::name_key(&spell);
            c.spell_classes
                .retain(|k, _| crate::model::names::name_key(k) != key);
            changes.push(format!(
                "{spell} learned as a {} spell",
                class.to_lowercase()
            ));
            c.spell_classes.insert(spell, class.to_lowercase());
        }
    }
    replace_list!(languages, "languages");
    replace_list!(resistances, "resistances");
    replace_list!(immunities, "immunities");
    replace_list!(vulnerabilities, "vulnerabilities");
    replace_list!(condition_immunities, "condition immunities");
    for r in p.resources {
        patch_resource(c, r, changes)?;
    }
    if let Some(a) = p.spellcasting_ability {
        changes.push(format!("spellcasting ability → {}", a.abbr()));
        c.spellcasting_ability = Some(a);
    }
    let _ = abilities::MAX_LEVEL;
    Ok(())
}

fn patch_resource(c: &mut Character, r: ResourcePatch, changes: &mut Vec<String>) -> Result<()> {
    let name = r.name.trim().to_string();
    if name.is_empty() || name.chars().count() > 40 {
        return Err(EngineError::invalid(
            "resources.name",
            "give the resource a name of 1–40 characters, e.g. \"Ki\"",
        ));
    }
    if r.max.is_some_and(|m| m > 1_000) || r.current.is_some_and(|m| m > 1_000) {
        return Err(EngineError::invalid(
            "resources",
            format!("{name}: max and current are 0–1000"),
        ));
    }
    let key = name_key(&name);
    let pos = c.resources.iter().position(|x| name_key(&x.name) == key);
    if r.max == Some(0) {
        if let Some(i) = pos {
            c.resources.remove(i);
            changes.push(format!("resource {name} removed"));
            return Ok(());
        }
        return Err(EngineError::invalid(
            "resources.max",
            format!("{} has no resource '{name}' to remove", c.name),
        ));
    }
    match pos {
        Some(i) => {
            let x = &mut c.resources[i];
            if let Some(m) = r.max {
                x.max = m;
            }
            if let Some(rc) = r.recharge {
                x.recharge = rc;
            }
            if let Some(cur) = r.current {
                if cur > x.max {
                    return Err(EngineError::invalid(
                        "resources.current",
                        format!("{name} has at most {}; give current 0–{}", x.max, x.max),
                    ));
                }
                x.current = cur;
            }
            x.current = x.current.min(x.max);
            changes.push(format!("{} {}/{}", x.name, x.current, x.max));
        }
        None => {
            let Some(max) = r.max else {
                return Err(EngineError::invalid(
                    "resources.max",
                    format!(
                        "'{name}' is a new resource: give its max (and recharge short or long)"
                    ),
                ));
            };
            let current = r.current.unwrap_or(max).min(max);
            c.resources.push(Resource {
                name: name.clone(),
                max,
                current,
                recharge: r.recharge.unwrap_or_default(),
            });
            changes.push(format!("resource {name} {current}/{max}"));
        }
    }
    Ok(())
}
