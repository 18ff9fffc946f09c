//! Concentration: one spell at a time; damage forces a CON save (DC max(10, half the damage),
//! one per damage application, with the sheet's advantage and effects); 0 HP, death or
//! incapacitation end it; a new concentration spell ends the old; ending it removes the effects
//! and conditions linked to it, on every character, and the answer says so.

use serde::Serialize;
use tabletop_rules::Ability;
use tabletop_rules::d20::{D20Outcome, D20Request, D20Test, roll_d20_test};
use tabletop_rules::damage::concentration_dc;

use crate::characters::resolve;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef};
use crate::model::names::name_key;

/// The data of this family lives in the model; re-exported so the old paths keep working.
pub use crate::model::concentration::{Concentration, ConcentrationLink};

/// A concentration that ended, and what ended with it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConcentrationEnd {
    /// Who was concentrating.
    pub character: String,
    /// The spell.
    pub spell: String,
    /// Why it ended.
    pub reason: String,
    /// What was removed with it ("Bless on Bran").
    pub removed: Vec<String>,
}

impl ConcentrationEnd {
    /// "Aria's concentration on Bless ends (failed save); removed: Bless on Bran".
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}'s concentration on {} ends ({})",
            self.character, self.spell, self.reason
        );
        if !self.removed.is_empty() {
            s.push_str(&format!("; removed: {}", self.removed.join(", ")));
        }
        s
    }
}

/// A concentration save after damage.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConcentrationCheck {
    /// Who rolled.
    pub character: String,
    /// The spell at stake.
    pub spell: String,
    /// The damage taken.
    pub damage: u32,
    /// max(10, damage / 2).
    pub dc: u32,
    /// The save.
    pub save: D20Outcome,
    /// Whether concentration holds.
    pub kept: bool,
    /// What ended, on a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended: Option<ConcentrationEnd>,
}

impl ConcentrationCheck {
    /// "Concentration (Bless), DC 11: … — kept" or "… — lost; …".
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} — concentration on {} after {} damage, DC {}: {}",
            self.character,
            self.spell,
            self.damage,
            self.dc,
            self.save.summary()
        );
        match &self.ended {
            None => s.push_str("; concentration holds"),
            Some(e) => s.push_str(&format!("; {}", e.summary())),
        }
        s
    }
}

/// Rolls a save of `ability` against `dc` from the character's effective sheet (a source of
/// which nothing is known; see [`crate::saves::roll_save`] for one that is).
pub fn roll_save(
    call: &mut Call<'_>,
    c: &Character,
    ability: Ability,
    dc: i32,
    why: &str,
) -> Result<D20Outcome> {
    crate::saves::roll_save(
        call,
        c,
        ability,
        dc,
        why,
        &crate::saves::SaveAgainst::none(),
    )
}

/// Why a character cannot concentrate now, if it cannot.
fn cannot_concentrate(c: &Character) -> Option<String> {
    if c.dead {
        return Some("dead".into());
    }
    if c.hp == 0 {
        return Some("at 0 HP".into());
    }
    let e = c.effective();
    if e.is_incapacitated() {
        // "incapacitated (from paralyzed)" says "incapacitated (paralyzed)".
        let from: Vec<&str> = e
            .incapacitated
            .iter()
            .map(|s| {
                s.strip_prefix("incapacitated (from ")
                    .and_then(|r| r.strip_suffix(')'))
                    .unwrap_or(s)
            })
            .collect();
        return Some(format!("incapacitated ({})", from.join(", ")));
    }
    None
}

/// Starts concentrating on `spell`; a different spell already held ends first (returned).
/// Refuses while the character is dead, at 0 HP or incapacitated.
pub fn begin(
    call: &mut Call<'_>,
    c: &mut Character,
    spell: &str,
    changes: &mut Vec<String>,
) -> Result<Option<ConcentrationEnd>> {
    let spell = spell.trim();
    if spell.is_empty() || spell.chars().count() > 80 {
        return Err(EngineError::invalid(
            "spellName",
            "give the spell's name (1–80 characters)",
        ));
    }
    if let Some(why) = cannot_concentrate(c) {
        return Err(EngineError::Rule(format!(
            "{} cannot concentrate while {why}",
            c.name
        )));
    }
    if let Some(conc) = &c.concentration
        && name_key(&conc.spell) == name_key(spell)
    {
        return Ok(None);
    }
    let ended = end(
        call,
        c,
        &format!("a new concentration spell, {spell}, ends the old"),
        changes,
    )?;
    let rounds_left = max_rounds(call, spell);
    c.concentration = Some(Concentration {
        spell: spell.to_string(),
        links: Vec::new(),
        rounds_left,
    });
    changes.push(match rounds_left {
        Some(n) => format!(
            "{} concentrates on {spell} (up to {})",
            c.name,
            crate::model::memory::span(u64::from(n) * 6)
        ),
        None => format!(
            "{} concentrates on {spell} (no duration known for it: it lasts until dropped or broken)",
            c.name
        ),
    });
    Ok(ended)
}

/// The longest a concentration on `spell` lasts, in rounds: the SRD spell's duration
/// ("Concentration, up to 1 minute": 10), else the catalog preset's, else unknown.
fn max_rounds(call: &Call<'_>, spell: &str) -> Option<u32> {
    call.compendium()
        .and_then(|srd| srd.spell(spell))
        .and_then(|s| crate::model::spell::duration_rounds(&s.duration))
        .or_else(|| crate::catalog::spells::by_name(spell).and_then(|e| e.rounds))
}

/// Counts `rounds` off `caster`'s concentration; when the spell's longest duration runs out,
/// the concentration ends with everything it holds up (other characters are stored here,
/// `caster` is the caller's to store).
pub fn tick(
    call: &mut Call<'_>,
    caster: &mut Character,
    rounds: u32,
    changes: &mut Vec<String>,
) -> Result<Option<ConcentrationEnd>> {
    let Some(left) = caster
        .concentration
        .as_mut()
        .and_then(|c| c.rounds_left.as_mut())
    else {
        return Ok(None);
    };
    if *left > rounds {
        *left -= rounds;
        return Ok(None);
    }
    end(call, caster, "its duration ran out", changes)
}

/// Ends `caster`'s concentration (if any) and removes every effect and condition linked to it;
/// `caster` is the in-memory copy the caller will store, other characters are loaded and stored
/// here.
pub fn end(
    call: &mut Call<'_>,
    caster: &mut Character,
    reason: &str,
    changes: &mut Vec<String>,
) -> Result<Option<ConcentrationEnd>> {
    let Some(conc) = caster.concentration.take() else {
        return Ok(None);
    };
    let mut removed = Vec::new();
    let caster_id = caster.id.clone();
    for link in &conc.links {
        if link.character_id == caster_id {
            removed.extend(drop_linked(caster, &caster_id, link));
            continue;
        }
        let Some(mut other) = call
            .tx_ref()
            .character(call.campaign(), &link.character_id)?
        else {
            continue;
        };
        let gone = drop_linked(&mut other, &caster_id, link);
        if !gone.is_empty() {
            let campaign = call.campaign();
            call.tx().put_character(campaign, &other)?;
            call.record_change(
                "character",
                &other.id,
                format!("{} ends ({}'s concentration)", gone.join(", "), caster.name),
            );
            removed.extend(gone);
        }
    }
    let out = ConcentrationEnd {
        character: caster.name.clone(),
        spell: conc.spell,
        reason: reason.to_string(),
        removed,
    };
    changes.push(out.summary());
    Ok(Some(out))
}

/// Ends the concentration a casting of `spell` began when it holds nothing up: every target was
/// unaffected (Hold Person on an undead) or saved, so no condition or effect links to it. Only
/// spells whose lasting part is a condition or an effect on targets; an aura or a zone holds on
/// with no one in it.
pub fn release_if_unheld(
    call: &mut Call<'_>,
    caster: &mut Character,
    spell: &crate::model::spell::SpellDef,
    changes: &mut Vec<String>,
) -> Result<Option<ConcentrationEnd>> {
    release_unheld(
        call,
        caster,
        spell,
        "no target was affected, so it holds nothing",
        changes,
    )
}

/// Ends `caster`'s concentration on `spell` for `reason` when the spell lasts on its targets
/// ([`crate::model::spell::SpellDef::lasts_on_targets`]) and links to nothing any more.
fn release_unheld(
    call: &mut Call<'_>,
    caster: &mut Character,
    spell: &crate::model::spell::SpellDef,
    reason: &str,
    changes: &mut Vec<String>,
) -> Result<Option<ConcentrationEnd>> {
    let unheld = caster
        .concentration
        .as_ref()
        .is_some_and(|c| name_key(&c.spell) == name_key(&spell.name) && c.links.is_empty());
    if !(spell.lasts_on_targets() && unheld) {
        return Ok(None);
    }
    end(call, caster, reason, changes)
}

/// `link` ended on `bearer` by itself (a save against it succeeded, its rounds ran out): the
/// caster's concentration lets go of it, and a spell whose lasting part is on its targets ends
/// once it holds nothing on any of them ("on a success, the spell ends on the target"; Hold
/// Person whose only target saved). An aura or a zone holds on with no one in it.
pub fn freed(
    call: &mut Call<'_>,
    bearer: &mut Character,
    caster_id: &str,
    link: &ConcentrationLink,
    changes: &mut Vec<String>,
) -> Result<()> {
    unlink(call, bearer, caster_id, link)?;
    if bearer.id == caster_id {
        return release_emptied(call, bearer, changes);
    }
    let Some(mut caster) = call.tx_ref().character(call.campaign(), caster_id)? else {
        return Ok(());
    };
    let held = caster.concentration.is_some();
    release_emptied(call, &mut caster, changes)?;
    if held && caster.concentration.is_none() {
        let campaign = call.campaign();
        call.tx().put_character(campaign, &caster)?;
    }
    Ok(())
}

/// [`freed`] for each effect and condition that ended on `bearer` by itself and was held up by a
/// concentration (its duration names the caster).
pub fn let_go(
    call: &mut Call<'_>,
    bearer: &mut Character,
    effects: &[crate::model::effects::ActiveEffect],
    conditions: &[crate::model::character::ConditionEntry],
    changes: &mut Vec<String>,
) -> Result<()> {
    for e in effects {
        if let Some(caster) = e.duration.caster() {
            let link = ConcentrationLink::effect(&bearer.id, &e.name);
            freed(call, bearer, caster, &link, changes)?;
        }
    }
    for e in conditions {
        if let Some(caster) = e.duration.as_ref().and_then(|d| d.caster()) {
            let link = ConcentrationLink::condition(&bearer.id, e.condition);
            freed(call, bearer, caster, &link, changes)?;
        }
    }
    Ok(())
}

/// Ends `caster`'s concentration when its spell, one that lasts on its targets, links to
/// nothing any more.
fn release_emptied(
    call: &mut Call<'_>,
    caster: &mut Character,
    changes: &mut Vec<String>,
) -> Result<()> {
    let Some(conc) = caster.concentration.as_ref().filter(|c| c.links.is_empty()) else {
        return Ok(());
    };
    let Ok(spell) = crate::magic::spell_lookup::find_spell(call, caster, &conc.spell) else {
        return Ok(());
    };
    release_unheld(
        call,
        caster,
        &spell,
        "the spell has ended on every creature it held",
        changes,
    )?;
    Ok(())
}

/// Removes from `bearer` what `link` names, when `caster_id`'s concentration holds it.
fn drop_linked(bearer: &mut Character, caster_id: &str, link: &ConcentrationLink) -> Vec<String> {
    let mut gone = Vec::new();
    if let Some(name) = &link.effect {
        let key = name_key(name);
        bearer.effects.retain(|e| {
            let hit = name_key(&e.name) == key && e.duration.caster() == Some(caster_id);
            if hit {
                gone.push(format!("{} on {}", e.name, bearer.name));
            }
            !hit
        });
    }
    if let Some(cond) = link.condition {
        let name = bearer.name.clone();
        bearer.conditions.retain(|e| {
            let hit = e.condition == cond
                && e.duration.as_ref().and_then(|d| d.caster()) == Some(caster_id);
            if hit {
                gone.push(format!("{cond} on {name}"));
            }
            !hit
        });
    }
    // A form held by the effect (Polymorph) ends with it.
    if let Some(line) = bearer.drop_stale_shape() {
        gone.push(line);
    }
    gone
}

/// Removes `link` from the concentration of `caster_id` (the effect or condition was removed by
/// hand). `bearer` is the in-memory copy when the caster is the bearer.
pub fn unlink(
    call: &mut Call<'_>,
    bearer: &mut Character,
    caster_id: &str,
    link: &ConcentrationLink,
) -> Result<()> {
    if bearer.id == caster_id {
        if let Some(c) = bearer.concentration.as_mut() {
            c.links.retain(|l| !l.same(link));
        }
        return Ok(());
    }
    if let Some(mut caster) = call.tx_ref().character(call.campaign(), caster_id)?
        && let Some(c) = caster.concentration.as_mut()
    {
        let before = c.links.len();
        c.links.retain(|l| !l.same(link));
        if c.links.len() != before {
            let campaign = call.campaign();
            call.tx().put_character(campaign, &caster)?;
        }
    }
    Ok(())
}

/// Ends concentration when the character can no longer hold it (dead, 0 HP, incapacitated).
pub fn enforce(
    call: &mut Call<'_>,
    c: &mut Character,
    changes: &mut Vec<String>,
) -> Result<Option<ConcentrationEnd>> {
    if c.concentration.is_none() {
        return Ok(None);
    }
    match cannot_concentrate(c) {
        Some(why) => end(call, c, &why, changes),
        None => Ok(None),
    }
}

/// The concentration save forced by `damage` taken by a concentrating `c`: DC max(10, damage/2),
/// rolled with the sheet's effects; a failure ends concentration. `None` when `c` is not
/// concentrating or took no damage.
pub fn after_damage(
    call: &mut Call<'_>,
    c: &mut Character,
    damage: u32,
    changes: &mut Vec<String>,
) -> Result<Option<ConcentrationCheck>> {
    let Some(conc) = c.concentration.clone() else {
        return Ok(None);
    };
    if damage == 0 {
        return Ok(None);
    }
    let dc = concentration_dc(damage);
    let stats = c.effective();
    let req = D20Request::new(D20Test::Concentration).dc(i32::try_from(dc).unwrap_or(i32::MAX));
    let save = roll_d20_test(&stats, &req, call.rng()?);
    call.record_roll(&save);
    let kept = save.success == Some(true);
    let ended = if kept {
        None
    } else {
        // The check's summary below says what ended.
        end(call, c, "failed concentration save", &mut Vec::new())?
    };
    let check = ConcentrationCheck {
        character: c.name.clone(),
        spell: conc.spell,
        damage,
        dc,
        save,
        kept,
        ended,
    };
    changes.push(check.summary());
    Ok(Some(check))
}

/// What `manage_concentration` answers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConcentrationOutcome {
    /// The character.
    pub character: String,
    /// Its id.
    pub character_id: String,
    /// What it concentrates on now.
    pub concentration: Option<Concentration>,
    /// The save, for `check`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<ConcentrationCheck>,
    /// What ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended: Option<ConcentrationEnd>,
    /// What happened, in words.
    pub changes: Vec<String>,
}

fn answer(
    c: &Character,
    check: Option<ConcentrationCheck>,
    ended: Option<ConcentrationEnd>,
    changes: Vec<String>,
) -> ConcentrationOutcome {
    ConcentrationOutcome {
        character: c.name.clone(),
        character_id: c.id.clone(),
        concentration: c.concentration.clone(),
        check,
        ended,
        changes,
    }
}

fn store(call: &mut Call<'_>, c: &Character, changes: &[String]) -> Result<()> {
    let campaign = call.campaign();
    call.tx().put_character(campaign, c)?;
    call.record_change("character", &c.id, changes.join("; "));
    Ok(())
}

/// `get`: what the character concentrates on.
pub fn get(call: &Call<'_>, who: CharacterRef<'_>) -> Result<ConcentrationOutcome> {
    let c = resolve(call, who)?;
    Ok(answer(&c, None, None, Vec::new()))
}

/// `set`: concentrate on `spell` (ending a different one).
pub fn set(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    spell: &str,
) -> Result<ConcentrationOutcome> {
    let mut c = resolve(call, who)?;
    let mut changes = Vec::new();
    let ended = begin(call, &mut c, spell, &mut changes)?;
    if changes.is_empty() {
        changes.push(format!(
            "{} already concentrates on {}",
            c.name,
            spell.trim()
        ));
    }
    store(call, &c, &changes)?;
    Ok(answer(&c, None, ended, changes))
}

/// `break`: end concentration by hand.
pub fn break_concentration(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    reason: Option<&str>,
) -> Result<ConcentrationOutcome> {
    let mut c = resolve(call, who)?;
    if c.concentration.is_none() {
        let note = format!(
            "{} is not concentrating on anything; nothing to break",
            c.name
        );
        return Ok(answer(&c, None, None, vec![note]));
    }
    let mut changes = Vec::new();
    let ended = end(
        call,
        &mut c,
        reason
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .unwrap_or("broken"),
        &mut changes,
    )?;
    store(call, &c, &changes)?;
    Ok(answer(&c, None, ended, changes))
}

/// `check`: the concentration save after `damage`.
pub fn check(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    damage: u32,
) -> Result<ConcentrationOutcome> {
    if damage == 0 || damage > 100_000 {
        return Err(EngineError::invalid(
            "damageAmount",
            format!("{damage} is out of range; give the damage taken, 1–100000"),
        ));
    }
    let mut c = resolve(call, who)?;
    if c.concentration.is_none() {
        let note = format!(
            "{} is not concentrating on anything, so no save is needed",
            c.name
        );
        return Ok(answer(&c, None, None, vec![note]));
    }
    let mut changes = Vec::new();
    let chk = after_damage(call, &mut c, damage, &mut changes)?;
    let ended = chk.as_ref().and_then(|k| k.ended.clone());
    store(call, &c, &changes)?;
    Ok(answer(&c, chk, ended, changes))
}
