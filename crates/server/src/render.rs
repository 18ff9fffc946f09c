//! Text renderings of engine results: the outcome first, compact, no repetition.

use tabletop_engine::character::{Character, StatAction, StatBlock};
use tabletop_engine::creation::{CreateMode, CreateOutcome};
use tabletop_engine::sheet::{CharacterPage, Sheet};
use tabletop_rules::Ability;

/// "Aria (ch1): level 3 Elf Wizard, pc".
pub fn identity(c: &Character) -> String {
    if let Some(b) = &c.stat_block {
        let sub = b
            .subtype
            .as_ref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        return format!(
            "{} ({}): {} {}{sub}, CR {} ({} XP), {}",
            c.name,
            c.id,
            c.size.key(),
            b.creature_type,
            tabletop_srd::cr_text(b.challenge_rating),
            b.xp,
            c.kind.key()
        );
    }
    let mut what = Vec::new();
    if let Some(r) = c.subrace.as_ref().or(c.race.as_ref()) {
        what.push(r.clone());
    }
    if let Some(cl) = &c.class {
        what.push(cl.clone());
    }
    format!(
        "{} ({}): level {} {} {}",
        c.name,
        c.id,
        c.level,
        what.join(" "),
        c.kind.key()
    )
    .replace("  ", " ")
}

/// "HP 7/12 (+3 temp), AC 15, speed 30 ft".
pub fn vitals(c: &Character, ac: i32, speed: i32, max_hp: i32) -> String {
    let temp = if c.temp_hp > 0 {
        format!(" (+{} temp)", c.temp_hp)
    } else {
        String::new()
    };
    let status = match c.status() {
        "ok" => String::new(),
        s => format!(", {s}"),
    };
    format!(
        "HP {}/{max_hp}{temp}, AC {ac}, speed {speed} ft{status}",
        c.hp
    )
}

fn abilities_line(sheet: &Sheet) -> String {
    Ability::ALL
        .iter()
        .map(|a| {
            let v = sheet.effective.abilities.get(a);
            let score = v.map_or(10, |v| v.value);
            let m = v.map_or(0, |v| v.modifier);
            let base = sheet.character.abilities.get(*a);
            if base != score {
                format!("{} {score} ({m:+}; base {base})", a.abbr())
            } else {
                format!("{} {score} ({m:+})", a.abbr())
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A compact sheet: identity, vitals, abilities, saves, skills, conditions and the reasons for
/// every effective number that differs from its base.
pub fn sheet(s: &Sheet) -> String {
    let c = &s.character;
    let e = &s.effective;
    let mut out = format!(
        "{}\n{}, prof {:+}",
        identity(c),
        vitals(c, e.armor_class.value, e.speed.value, e.max_hp.value),
        e.proficiency_bonus
    );
    if c.xp > 0 {
        out.push_str(&format!(", {} XP", c.xp));
    }
    out.push_str(&format!("\n{}", abilities_line(s)));
    let saves: Vec<String> = e
        .saves
        .iter()
        .map(|(a, r)| {
            let mark = if c.save_proficiencies.contains(a) {
                "*"
            } else {
                ""
            };
            format!("{}{mark} {:+}", a.abbr(), r.bonus)
        })
        .collect();
    out.push_str(&format!("\nSaves (* proficient): {}", saves.join(", ")));
    if !c.skills.is_empty() {
        let skills: Vec<String> = c
            .skills
            .keys()
            .filter_map(|k| {
                e.skills
                    .get(k)
                    .map(|r| format!("{} {:+}", k.key().replace('_', " "), r.bonus))
            })
            .collect();
        out.push_str(&format!("\nSkills: {}", skills.join(", ")));
    }
    out.push_str(&format!(
        "\nPassive Perception {}, initiative {:+}",
        e.passive_perception.value, e.initiative.bonus
    ));
    if !e.conditions.is_empty() {
        out.push_str(&format!("\nConditions: {}", e.conditions.join(", ")));
    }
    let defenses = defenses_line(c);
    if !defenses.is_empty() {
        out.push_str(&format!("\n{defenses}"));
    }
    if c.hp == 0 && !c.dead {
        out.push_str(&format!(
            "\nDeath saves: {} successes, {} failures",
            c.death_saves.successes, c.death_saves.failures
        ));
    }
    let mut why = Vec::new();
    for (label, st) in [
        ("AC", &e.armor_class),
        ("speed", &e.speed),
        ("max HP", &e.max_hp),
    ] {
        if !st.sources.is_empty() {
            why.push(format!("{label} {}", st.explain()));
        }
    }
    let rolls = [("attacks", Some(&e.attack))]
        .into_iter()
        .chain(e.saves.iter().map(|(a, r)| (a.abbr(), Some(r))))
        .chain([(
            "STR checks",
            e.ability_checks.get(&tabletop_rules::Ability::Strength),
        )]);
    for (label, r) in rolls {
        if let Some(r) = r
            && (!r.dice.is_empty()
                || !r.advantage.is_empty()
                || !r.disadvantage.is_empty()
                || !r.auto_fail.is_empty())
        {
            let label = if label.len() == 3 {
                format!("{label} saves")
            } else {
                label.to_string()
            };
            why.push(format!("{label} {}", r.explain()));
        }
    }
    if !why.is_empty() {
        out.push_str("\nWhy: ");
        out.push_str(&why.join("; "));
    }
    for fx in &c.effects {
        let mut mods: Vec<String> = fx.modifiers.iter().map(|m| m.kind.to_string()).collect();
        // What the effect grants beyond modifiers (senses, movement, ways of communicating).
        mods.extend(
            fx.grant
                .iter()
                .flat_map(tabletop_engine::model::senses::grant_lines),
        );
        let dur = fx.duration.describe(|id| {
            if id == c.id {
                c.name.clone()
            } else {
                id.to_string()
            }
        });
        out.push_str(&format!(
            "\nEffect {} ({}): {}; {dur}",
            fx.name,
            fx.id,
            mods.join(", ")
        ));
        // Benefits the engine suspends (Rage in heavy armor).
        if let Some(why) = c.suspended_by_armor(fx) {
            out.push_str(&format!("\n{}: {why}", fx.name));
        }
    }
    if let Some(conc) = &c.concentration {
        out.push_str(&format!("\nConcentrating on {}", conc.spell));
        if !conc.links.is_empty() {
            let held: Vec<String> = conc
                .links
                .iter()
                .map(|l| {
                    let what = l
                        .effect
                        .clone()
                        .or_else(|| l.condition.map(|x| x.to_string()))
                        .unwrap_or_default();
                    format!("{what} on {}", l.character_id)
                })
                .collect();
            out.push_str(&format!(" (holds {})", held.join(", ")));
        }
    }
    if !c.spell_slots.is_empty() {
        out.push_str(&format!(
            "\nSpell slots (left/max): {}",
            c.spell_slots.summary()
        ));
    }
    if !c.resources.is_empty() {
        let list: Vec<String> = c.resources.iter().map(|r| r.summary()).collect();
        out.push_str(&format!("\nResources: {}", list.join(", ")));
    }
    if let Some(d) = &c.derived
        && !d.actions.is_empty()
    {
        let list: Vec<String> = d.actions.iter().map(|a| a.summary()).collect();
        out.push_str(&format!("\nFeature actions: {}", list.join("; ")));
    }
    match tabletop_engine::rest_dice::pools(c) {
        Some(p) if p.len() > 1 => out.push_str(&format!(
            "\nHit dice: {}/{} left: {}",
            c.hit_dice,
            c.level,
            tabletop_engine::rest_dice::describe(&p)
        )),
        // A stat block's hit dice are its own count, not one per class level.
        _ if c.stat_block.is_some() => {
            out.push_str(&format!("\nHit dice: {}d{}", c.hit_dice, c.hit_die))
        }
        _ => out.push_str(&format!(
            "\nHit dice: {}/{} d{} left",
            c.hit_dice, c.level, c.hit_die
        )),
    }
    if let Some(d) = &c.derived
        && (d.xp > 0 || d.can_level_to.is_some())
    {
        out.push_str(&format!("\nXP: {}", d.xp));
        match (d.can_level_to, d.next_level_xp) {
            (Some(l), _) => out.push_str(&format!(" (reaches level {l}: level up with level_up)")),
            (None, Some(n)) => out.push_str(&format!(" (next level at {n})")),
            (None, None) => {}
        }
    }
    if let Some(n) = tabletop_engine::magic::numbers::sheet_numbers(c) {
        out.push_str(&format!(
            "\nSpellcasting: {} (save DC {}, attack {:+})",
            n.ability.abbr(),
            n.save_dc,
            n.attack_bonus
        ));
    }
    if let Some(b) = &c.stat_block {
        stat_block_lines(&mut out, c, b);
    }
    if !c.spells.is_empty() {
        out.push_str(&format!("\nSpells: {}", c.spells.join(", ")));
    }
    if !c.equipment.is_empty() {
        out.push_str(&format!("\nEquipment: {}", c.equipment.join(", ")));
    }
    out
}

/// The stat block of a character made from a monster: senses, languages, and every action on
/// one line each group ("Actions: Scimitar +4, 1d6+2 slashing; …").
fn stat_block_lines(out: &mut String, c: &Character, b: &StatBlock) {
    let mut senses = b.senses.join(", ");
    if !b.other_speeds.is_empty() {
        let sp: Vec<String> = b
            .other_speeds
            .iter()
            .map(|(k, v)| format!("{k} {v} ft"))
            .collect();
        senses = format!(
            "speeds {}{}; {senses}",
            sp.join(", "),
            if b.hover { " (hover)" } else { "" }
        );
    }
    out.push_str(&format!("\nSenses: {senses}"));
    if !c.languages.is_empty() {
        out.push_str(&format!("; languages: {}", c.languages.join(", ")));
    }
    if !b.qualified_defenses.is_empty() {
        out.push_str(&format!("\nAlso: {}", b.qualified_defenses.join("; ")));
    }
    if !b.special_abilities.is_empty() {
        let names: Vec<String> = b
            .special_abilities
            .iter()
            .map(|a| match &a.recharge {
                Some(r) => format!("{} ({r})", a.name),
                None => a.name.clone(),
            })
            .collect();
        out.push_str(&format!("\nTraits: {}", names.join(", ")));
    }
    for (label, list) in [
        ("Actions", &b.actions),
        ("Reactions", &b.reactions),
        ("Legendary", &b.legendary_actions),
    ] {
        if !list.is_empty() {
            let items: Vec<String> = list.iter().map(StatAction::summary).collect();
            out.push_str(&format!("\n{label}: {}", items.join("; ")));
        }
    }
}

fn defenses_line(c: &Character) -> String {
    let mut parts = Vec::new();
    let join = |set: &std::collections::BTreeSet<tabletop_rules::DamageType>| {
        set.iter().map(|d| d.key()).collect::<Vec<_>>().join(", ")
    };
    if !c.resistances.is_empty() {
        parts.push(format!("resists {}", join(&c.resistances)));
    }
    if !c.immunities.is_empty() {
        parts.push(format!("immune to {}", join(&c.immunities)));
    }
    if !c.vulnerabilities.is_empty() {
        parts.push(format!("vulnerable to {}", join(&c.vulnerabilities)));
    }
    if !c.condition_immunities.is_empty() {
        let list: Vec<&str> = c.condition_immunities.iter().map(|x| x.key()).collect();
        parts.push(format!("cannot be {}", list.join(", ")));
    }
    parts.join("; ")
}

/// The answer of `create_character` in each mode.
pub fn creation(out: &CreateOutcome, mode: CreateMode) -> String {
    let sheet = Sheet::of(out.character.clone());
    let mut text = match mode {
        CreateMode::Validate if out.problems.is_empty() => {
            format!("Valid build: {}", identity(&out.character))
        }
        CreateMode::Validate => {
            let mut t = format!("Invalid build: {} problem(s):", out.problems.len());
            for p in &out.problems {
                t.push_str(&format!("\n- {p}"));
            }
            t
        }
        CreateMode::Preview => format!("Preview (nothing stored):\n{}", self::sheet(&sheet)),
        CreateMode::Create => format!("Created {}", self::sheet(&sheet)),
    };
    if !out.derivations.is_empty() && mode != CreateMode::Validate {
        text.push_str(&format!("\nDerived: {}", out.derivations.join("; ")));
    }
    if !out.same_name.is_empty() {
        text.push_str(&format!(
            "\nNote: the name is shared with {}; use ids to tell them apart.",
            out.same_name.join(", ")
        ));
    }
    if mode == CreateMode::Preview && !out.problems.is_empty() {
        text.push_str(&format!("\nProblems: {}", out.problems.join("; ")));
    }
    text
}

/// A character list as a compact table.
pub fn list(page: &CharacterPage) -> String {
    if page.characters.is_empty() {
        return if page.total == 0 {
            "No characters match.".to_string()
        } else {
            format!(
                "Page {} is past the end: {} characters match.",
                page.page, page.total
            )
        };
    }
    let first = (page.page - 1) * page.per_page + 1;
    let last = first + page.characters.len() - 1;
    let mut t = format!(
        "{} characters match (showing {first}–{last}).\n| id | name | type | class | lvl | HP | AC | conditions |\n|---|---|---|---|---|---|---|---|",
        page.total
    );
    for c in &page.characters {
        let conds: Vec<&str> = c.conditions.iter().map(|x| x.key()).collect();
        t.push_str(&format!(
            "\n| {} | {} | {} | {} | {} | {}/{} | {} | {} |",
            c.id,
            c.name,
            c.kind.key(),
            c.class.as_deref().unwrap_or("-"),
            c.level,
            c.hp,
            c.max_hp,
            c.armor_class,
            if conds.is_empty() {
                "-".to_string()
            } else {
                conds.join(", ")
            }
        ));
    }
    if page.has_more {
        t.push_str(&format!("\nMore: page {}.", page.page + 1));
    }
    t
}

/// The answer of `update_character`: what happened, then the new vitals.
pub fn update(out: &tabletop_engine::update::UpdateOutcome) -> String {
    let c = &out.character;
    let e = &out.shown;
    let mut t = out.changes.join(". ");
    t.push_str(&format!(
        ".\n{}: {}",
        c.name,
        vitals(c, e.armor_class, e.speed, e.max_hp)
    ));
    t
}
