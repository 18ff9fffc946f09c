//! `create_encounter`: combatants from characters, SRD monsters or inline stat blocks, placed on
//! a map, with initiative rolled and the difficulty rated.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use tabletop_grid::{BattleMap, Light, Position, Terrain};
use tabletop_rules::abilities::AbilityScores;
use tabletop_rules::d20::{self, D20Request, D20Test};
use tabletop_rules::encounter::{self, Difficulty};
use tabletop_rules::roller::DieRoller;
use tabletop_rules::{Ability, CharacterType, Condition, DamageType, Size};

use crate::characters::resolve_with_fields;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef, StatAction, StatBlock, StatDamage};
use crate::model::encounter::*;

/// Where a participant comes from.
#[derive(Debug, Clone)]
pub enum ParticipantSource {
    /// An existing character, by id or name. It fights as itself.
    Character {
        /// Its id.
        id: Option<String>,
        /// Or its name.
        name: Option<String>,
    },
    /// `count` creatures from an SRD stat block ("goblin" → Goblin 1 … Goblin 4).
    Monster {
        /// The SRD monster (fuzzy name).
        monster: String,
        /// How many (1–20).
        count: u32,
        /// Base name instead of the monster's.
        name: Option<String>,
    },
    /// A creature described inline.
    Inline(Box<InlineStatBlock>),
}

/// An attack of an inline stat block.
#[derive(Debug, Clone, Default)]
pub struct InlineAttack {
    /// Name ("Claw").
    pub name: String,
    /// To-hit bonus.
    pub bonus: i32,
    /// Damage dice ("1d6+2", or typed `1d6[slashing]+1d4[fire]`).
    pub damage: String,
    /// Damage type when `damage` has no tags.
    pub damage_type: Option<DamageType>,
    /// Reach in feet for melee attacks (default 5).
    pub reach_ft: Option<u32>,
    /// Normal and long range in feet for ranged attacks.
    pub range_ft: Option<(u32, u32)>,
}

/// A creature described in the request.
#[derive(Debug, Clone, Default)]
pub struct InlineStatBlock {
    /// Name (required).
    pub name: String,
    /// Maximum (and current) HP.
    pub hp: u32,
    /// Armor class.
    pub ac: i32,
    /// Walking speed in feet (default 30).
    pub speed: Option<u32>,
    /// Size (default medium).
    pub size: Option<Size>,
    /// Ability scores (default 10 each).
    pub stats: BTreeMap<Ability, i64>,
    /// Challenge rating, for XP.
    pub cr: Option<f32>,
    /// Attacks.
    pub attacks: Vec<InlineAttack>,
    /// Damage resistances.
    pub resistances: Vec<DamageType>,
    /// Damage immunities.
    pub immunities: Vec<DamageType>,
    /// Damage vulnerabilities.
    pub vulnerabilities: Vec<DamageType>,
    /// Condition immunities.
    pub condition_immunities: Vec<Condition>,
}

/// One entry of the participant list.
#[derive(Debug, Clone)]
pub struct ParticipantSpec {
    /// Who.
    pub source: ParticipantSource,
    /// Side; default from the character type (pc → party, enemy → enemy, npc → ally,
    /// neutral → neutral; monsters → enemy).
    pub side: Option<Side>,
    /// Where it stands (for `count` > 1, the first; the rest in `positions` or placed beside).
    pub positions: Vec<Position>,
    /// Surprised at the start.
    pub surprised: bool,
    /// A fixed initiative total instead of a roll (a player's own die).
    pub initiative: Option<i32>,
}

/// A square with a hazard.
#[derive(Debug, Clone)]
pub struct HazardSpec {
    /// Where.
    pub at: Position,
    /// Name ("burning oil").
    pub name: String,
    /// Damage note ("1d10 fire").
    pub damage: Option<String>,
}

/// The battlefield.
#[derive(Debug, Clone, Default)]
pub struct TerrainSpec {
    /// Width in squares (default 20).
    pub width: Option<u32>,
    /// Height in squares (default 20).
    pub height: Option<u32>,
    /// Wall squares.
    pub walls: Vec<Position>,
    /// Full-height obstacles.
    pub obstacles: Vec<Position>,
    /// Half-height obstacles (half cover).
    pub low_walls: Vec<Position>,
    /// Difficult terrain.
    pub difficult: Vec<Position>,
    /// Water.
    pub water: Vec<Position>,
    /// Hazards.
    pub hazards: Vec<HazardSpec>,
    /// Light everywhere (default bright).
    pub lighting: Option<Light>,
}

/// A `create_encounter` request.
#[derive(Debug, Clone, Default)]
pub struct CreateEncounter {
    /// Name (default "Encounter N").
    pub name: Option<String>,
    /// Who fights.
    pub participants: Vec<ParticipantSpec>,
    /// The map.
    pub terrain: TerrainSpec,
    /// End the encounter by itself when one side is down.
    pub auto_end: bool,
}

/// One initiative roll.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitiativeRoll {
    /// Who.
    pub name: String,
    /// Character id.
    pub id: String,
    /// The d20 (absent when the total was given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d20: Option<u32>,
    /// The total.
    pub total: i32,
    /// Where it stands.
    pub position: Position,
    /// Side.
    pub side: Side,
}

/// What `create_encounter` did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreatedEncounter {
    /// The encounter (initiative order, map, …).
    pub encounter: Encounter,
    /// Initiative rolls in order.
    pub initiative: Vec<InitiativeRoll>,
    /// Creatures created for it ("Goblin 1 (ch7)").
    pub spawned: Vec<String>,
    /// Notes on how the request was read.
    pub notes: Vec<String>,
}

/// Most participants an encounter takes.
pub const MAX_COMBATANTS: usize = 60;

fn default_side(kind: CharacterType) -> Side {
    match kind {
        CharacterType::Pc => Side::Party,
        CharacterType::Enemy => Side::Enemy,
        CharacterType::Npc => Side::Ally,
        CharacterType::Neutral => Side::Neutral,
    }
}

/// Builds the map from the terrain spec.
pub fn build_map(t: &TerrainSpec) -> Result<BattleMap> {
    let mut map = BattleMap::new(t.width.unwrap_or(20), t.height.unwrap_or(20))?;
    if let Some(l) = t.lighting {
        map.set_default_light(l);
    }
    let layers: [(&Vec<Position>, Terrain); 5] = [
        (&t.walls, Terrain::Wall),
        (&t.obstacles, Terrain::Obstacle),
        (&t.low_walls, Terrain::LOW_WALL),
        (&t.difficult, Terrain::Difficult),
        (&t.water, Terrain::Water),
    ];
    for (squares, terrain) in layers {
        for p in squares {
            map.set_terrain(*p, terrain.clone())?;
        }
    }
    for h in &t.hazards {
        map.set_terrain(
            h.at,
            Terrain::Hazard {
                name: h.name.clone(),
                damage: h.damage.clone(),
            },
        )?;
    }
    Ok(map)
}

/// A character made from an inline stat block.
pub fn inline_character(sb: &InlineStatBlock, kind: CharacterType) -> Result<Character> {
    let name = sb.name.trim();
    if name.is_empty() || name.chars().count() > 80 {
        return Err(EngineError::invalid(
            "participants[].name",
            "an inline stat block needs a name of 1–80 characters",
        ));
    }
    if !(1..=10_000).contains(&sb.hp) {
        return Err(EngineError::invalid(
            "participants[].hp",
            format!("{} HP is out of range; give 1–10000", sb.hp),
        ));
    }
    if !(0..=40).contains(&sb.ac) {
        return Err(EngineError::invalid(
            "participants[].ac",
            format!("AC {} is out of range; give 0–40", sb.ac),
        ));
    }
    let mut abilities = AbilityScores::uniform(10);
    for (a, v) in &sb.stats {
        abilities
            .set(*a, *v)
            .map_err(|e| EngineError::invalid("participants[].stats", e.to_string()))?;
    }
    let cr = sb.cr.unwrap_or(0.0);
    if !(0.0..=30.0).contains(&cr) {
        return Err(EngineError::invalid(
            "participants[].cr",
            "a challenge rating is 0–30 (0.125, 0.25 and 0.5 for fractions)",
        ));
    }
    let pb = 2 + ((cr.max(1.0) as i32) - 1) / 4;
    let actions = sb
        .attacks
        .iter()
        .map(|a| {
            let reach = match a.range_ft {
                Some((n, l)) => format!(
                    "Ranged Weapon Attack: {:+} to hit, range {n}/{l} ft., one target.",
                    a.bonus
                ),
                None => format!(
                    "Melee Weapon Attack: {:+} to hit, reach {} ft., one target.",
                    a.bonus,
                    a.reach_ft.unwrap_or(5)
                ),
            };
            StatAction {
                name: a.name.clone(),
                desc: format!("{reach} Hit: {}.", a.damage),
                attack_bonus: Some(a.bonus),
                damage: vec![StatDamage {
                    dice: a.damage.clone(),
                    damage_type: a.damage_type,
                }],
                dc: None,
                recharge: None,
                multiattack: Vec::new(),
                alternatives: Vec::new(),
            }
        })
        .collect();
    Ok(Character {
        id: String::new(),
        name: name.to_string(),
        kind,
        race: None,
        subrace: None,
        class: None,
        background: None,
        level: 1,
        abilities,
        proficiency_bonus: pb,
        save_proficiencies: BTreeSet::new(),
        skills: BTreeMap::new(),
        armor_class: sb.ac,
        armor_source: "stat block".into(),
        speed: sb.speed.unwrap_or(30),
        size: sb.size.unwrap_or(Size::Medium),
        max_hp: sb.hp,
        hp: sb.hp,
        temp_hp: 0,
        hit_die: 8,
        hit_dice: 1,
        death_saves: Default::default(),
        dead: false,
        died_at: None,
        resistances: sb.resistances.iter().copied().collect(),
        immunities: sb.immunities.iter().copied().collect(),
        vulnerabilities: sb.vulnerabilities.iter().copied().collect(),
        condition_immunities: sb.condition_immunities.iter().copied().collect(),
        conditions: Vec::new(),
        spellcasting_ability: None,
        spells: Vec::new(),
        equipment: Vec::new(),
        inventory: Default::default(),
        languages: Vec::new(),
        features: Vec::new(),
        notes: None,
        effects: Vec::new(),
        concentration: None,
        spell_slots: Default::default(),
        resources: Vec::new(),
        stat_block: Some(StatBlock {
            monster: String::new(),
            creature_type: "custom".into(),
            subtype: None,
            alignment: String::new(),
            challenge_rating: cr,
            xp: if sb.cr.is_some() {
                encounter::xp_for_cr(cr)
            } else {
                0
            },
            proficiency_bonus: pb,
            hit_dice: String::new(),
            other_speeds: BTreeMap::new(),
            hover: false,
            senses: vec![format!(
                "passive Perception {}",
                10 + wisdom_modifier(&sb.stats)
            )],
            languages: String::new(),
            qualified_defenses: Vec::new(),
            special_abilities: Vec::new(),
            actions,
            legendary_actions: Vec::new(),
            reactions: Vec::new(),
        }),
        shape: None,
        read_sheet: Default::default(),
        read_doc: Default::default(),
        mastered_spells: Vec::new(),
        spellbook: Vec::new(),
        spell_classes: Default::default(),
        xp: 0,
        build: None,
        derived: None,
    })
}

fn wisdom_modifier(stats: &BTreeMap<Ability, i64>) -> i32 {
    let wis = stats.get(&Ability::Wisdom).copied().unwrap_or(10);
    ((wis - 10) as f64 / 2.0).floor() as i32
}

/// A name not yet used in the campaign: `base` itself when `numbered` is false and it is free,
/// else "base N" with the lowest free N from `from`.
fn free_name(taken: &BTreeSet<String>, base: &str, numbered: bool, from: &mut u32) -> String {
    if !numbered && !taken.contains(&crate::model::names::name_key(base)) {
        return base.to_string();
    }
    loop {
        let n = format!("{base} {}", *from);
        *from += 1;
        if !taken.contains(&crate::model::names::name_key(&n)) {
            return n;
        }
    }
}

/// The first free square for a creature of `size` on `side`'s edge of the map: the party from
/// the west, enemies from the east, others from the south.
fn auto_position(map: &BattleMap, size: Size, side: Side) -> Result<Position> {
    let (w, h) = (map.width() as i32, map.height() as i32);
    let columns: Vec<i32> = match side {
        Side::Party | Side::Ally => (0..w).collect(),
        Side::Enemy => (0..w).rev().collect(),
        Side::Neutral => (0..w).collect(),
    };
    let rows: Vec<i32> = {
        // Middle rows first, spreading outwards.
        let mid = h / 2;
        let mut r: Vec<i32> = (0..h).collect();
        r.sort_by_key(|y| ((y - mid).abs(), *y));
        r
    };
    for x in columns.iter().skip(1).chain(columns.first()) {
        for y in &rows {
            let p = Position::new(*x, *y);
            if map.check_placement(p, size, None).is_ok() {
                return Ok(p);
            }
        }
    }
    Err(EngineError::Rule(
        "the map has no free square left for another creature; make it larger (terrain.width/height)"
            .into(),
    ))
}

/// A participant resolved and ready to join: its sheet (new for spawned creatures), side,
/// square and initiative choices.
pub(crate) struct Joining {
    pub(crate) character: Character,
    pub(crate) side: Side,
    pub(crate) position: Option<Position>,
    pub(crate) surprised: bool,
    pub(crate) initiative: Option<i32>,
    pub(crate) spawned: bool,
}

/// Names already used in the campaign (name keys).
pub(crate) fn taken_names(call: &Call<'_>) -> Result<BTreeSet<String>> {
    Ok(call
        .tx_ref()
        .character_names(call.campaign())?
        .into_iter()
        .map(|(_, n)| crate::model::names::name_key(&n))
        .collect())
}

/// Resolves participant specs into joining creatures (spawned ones get no id yet).
pub(crate) fn gather(
    call: &mut Call<'_>,
    participants: &[ParticipantSpec],
    taken: &mut BTreeSet<String>,
    notes: &mut Vec<String>,
) -> Result<Vec<Joining>> {
    let mut joining: Vec<Joining> = Vec::new();
    for (i, p) in participants.iter().enumerate() {
        let mut positions = p.positions.iter().copied();
        match &p.source {
            ParticipantSource::Character { id, name } => {
                let c = resolve_with_fields(
                    call,
                    CharacterRef::new(id.as_deref(), name.as_deref()),
                    "participants[].characterId",
                    "participants[].characterName",
                )?;
                if c.dead {
                    return Err(EngineError::Rule(format!(
                        "{} is dead and cannot join an encounter",
                        c.name
                    )));
                }
                if joining.iter().any(|j| j.character.id == c.id) {
                    return Err(EngineError::invalid(
                        "participants",
                        format!("{} is listed twice", c.name),
                    ));
                }
                if let Some(e) = super::active_encounter_of(call, &c.id)? {
                    return Err(EngineError::Rule(format!(
                        "{} is already fighting in active encounter {e}; end it (end_encounter) or remove them (manage_encounter remove_participant) first",
                        c.name
                    )));
                }
                joining.push(Joining {
                    side: p.side.unwrap_or(default_side(c.kind)),
                    character: c,
                    position: positions.next(),
                    surprised: p.surprised,
                    initiative: p.initiative,
                    spawned: false,
                });
            }
            ParticipantSource::Monster {
                monster,
                count,
                name,
            } => {
                if !(1..=20).contains(count) {
                    return Err(EngineError::invalid(
                        format!("participants[{i}].count"),
                        format!("{count} is out of range; give 1–20"),
                    ));
                }
                let (m, note) = crate::monster::lookup(call, monster, "participants[].monster")?;
                notes.extend(note);
                let base = name.clone().unwrap_or_else(|| m.name.clone());
                let mut n = 1;
                for _ in 0..*count {
                    let mut derivations = Vec::new();
                    let mut c = crate::monster::from_stat_block(m, &mut derivations);
                    c.name = free_name(taken, &base, *count > 1, &mut n);
                    taken.insert(crate::model::names::name_key(&c.name));
                    c.kind = CharacterType::Enemy;
                    joining.push(Joining {
                        side: p.side.unwrap_or(Side::Enemy),
                        character: c,
                        position: positions.next(),
                        surprised: p.surprised,
                        initiative: p.initiative,
                        spawned: true,
                    });
                }
            }
            ParticipantSource::Inline(sb) => {
                let side = p.side.unwrap_or(Side::Enemy);
                let kind = match side {
                    Side::Enemy => CharacterType::Enemy,
                    Side::Neutral => CharacterType::Neutral,
                    _ => CharacterType::Npc,
                };
                let mut c = inline_character(sb, kind)?;
                let mut n = 1;
                c.name = free_name(taken, &c.name.clone(), false, &mut n);
                taken.insert(crate::model::names::name_key(&c.name));
                joining.push(Joining {
                    character: c,
                    side,
                    position: positions.next(),
                    surprised: p.surprised,
                    initiative: p.initiative,
                    spawned: true,
                });
            }
        }
    }
    Ok(joining)
}

/// Gives spawned creatures ids and puts everyone on `map`: given squares first (validated),
/// then the rest along their side's edge.
pub(crate) fn place(
    call: &mut Call<'_>,
    map: &mut BattleMap,
    joining: &mut [Joining],
    notes: &mut Vec<String>,
) -> Result<()> {
    for j in joining.iter_mut().filter(|j| j.spawned) {
        j.character.id = call.new_id("ch")?;
    }
    for j in joining.iter().filter(|j| j.position.is_some()) {
        let pos = j.position.unwrap_or_default();
        map.place_creature(j.character.id.clone(), pos, j.character.size)
            .map_err(|e| {
                EngineError::invalid(
                    "participants[].position",
                    format!("{} cannot stand at {pos}: {e}", j.character.name),
                )
            })?;
    }
    for j in joining.iter_mut().filter(|j| j.position.is_none()) {
        let pos = auto_position(map, j.character.size, j.side)?;
        map.place_creature(j.character.id.clone(), pos, j.character.size)?;
        j.position = Some(pos);
        notes.push(format!("{} placed at {pos}", j.character.name));
    }
    Ok(())
}

/// Rolls (or takes) a joining creature's initiative: its place in the order and the roll.
pub(crate) fn enter(call: &mut Call<'_>, j: &Joining) -> Result<(Combatant, InitiativeRoll)> {
    let c = &j.character;
    let (total, d20) = match j.initiative {
        Some(t) => (t, None),
        None => {
            let stats = c.effective();
            let out = d20::roll_d20_test(
                &stats,
                &D20Request::new(D20Test::Initiative).labelled(format!("{} initiative", c.name)),
                call.rng()?,
            );
            call.record_roll(&out);
            (out.total.unwrap_or(0), out.kept)
        }
    };
    let tie = call.rng()?.roll_die(1_000_000);
    Ok((
        Combatant {
            character_id: c.id.clone(),
            name: c.name.clone(),
            side: j.side,
            initiative: total,
            tiebreak: (i32::from(c.abilities.get(Ability::Dexterity)), tie),
            spawned: j.spawned,
            surprised: j.surprised,
            removed: false,
            economy: Economy::default(),
            flags: TurnFlags::default(),
            legendary_actions: legendary_count(c),
            spent_abilities: Vec::new(),
            sneak_attack_turn: None,
            divine_strike_turn: None,
            death_save_turn: None,
            reaction_policy: Default::default(),
        },
        InitiativeRoll {
            name: c.name.clone(),
            id: c.id.clone(),
            d20,
            total,
            position: j.position.unwrap_or_default(),
            side: j.side,
        },
    ))
}

/// Creates and stores an encounter, rolling initiative for everyone.
pub fn create_encounter(call: &mut Call<'_>, req: CreateEncounter) -> Result<CreatedEncounter> {
    if req.participants.is_empty() {
        return Err(EngineError::invalid(
            "participants",
            "list who fights: [{\"characterName\": \"Aria\"}, {\"monster\": \"goblin\", \"count\": 4}]",
        ));
    }
    let mut map = build_map(&req.terrain)?;
    let mut notes = Vec::new();
    let campaign = call.campaign();
    let mut taken = taken_names(call)?;
    let mut joining = gather(call, &req.participants, &mut taken, &mut notes)?;
    if joining.len() > MAX_COMBATANTS {
        return Err(EngineError::invalid(
            "participants",
            format!(
                "{} combatants is too many; an encounter takes at most {MAX_COMBATANTS}",
                joining.len()
            ),
        ));
    }
    place(call, &mut map, &mut joining, &mut notes)?;
    // Initiative.
    let mut order = Vec::new();
    let mut rolls = Vec::new();
    for j in &joining {
        let (cb, roll) = enter(call, j)?;
        order.push(cb);
        rolls.push(roll);
    }
    sort_initiative(&mut order);
    rolls.sort_by_key(|r| order.iter().position(|c| c.character_id == r.id));
    // Difficulty from the party members present and the enemies' XP.
    let party_levels: Vec<u32> = joining
        .iter()
        .filter(|j| j.side == Side::Party)
        .map(|j| j.character.level)
        .collect();
    let enemy_xp: Vec<u32> = joining
        .iter()
        .filter(|j| j.side == Side::Enemy)
        .map(|j| j.character.stat_block.as_ref().map_or(0, |b| b.xp))
        .collect();
    let difficulty: Option<Difficulty> = encounter::rate(&party_levels, &enemy_xp);
    // Store the new creatures and the snapshot of the linked characters.
    let id = call.new_id("enc")?;
    let mut snapshots = BTreeMap::new();
    let mut spawned = Vec::new();
    for j in joining.iter_mut() {
        if let Some(line) = crate::class_features::on_initiative(&mut j.character) {
            if !j.spawned {
                call.tx().put_character(campaign, &j.character)?;
            }
            notes.push(line);
        }
        if j.spawned {
            call.tx().put_character(campaign, &j.character)?;
            call.record_change(
                "character",
                &j.character.id,
                format!("{} joins encounter {id}", j.character.name),
            );
            spawned.push(format!("{} ({})", j.character.name, j.character.id));
        } else {
            snapshots.insert(j.character.id.clone(), Snapshot::of(&j.character));
        }
    }
    let name = req
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| format!("Encounter {}", id.trim_start_matches("enc")));
    let mut enc = Encounter {
        id: id.clone(),
        name,
        status: EncounterStatus::Active,
        round: 1,
        turn: 0,
        order,
        map,
        timed_terrain: Vec::new(),
        auto_end: req.auto_end,
        snapshots,
        log: Vec::new(),
        outcome: None,
        difficulty,
        auras: Vec::new(),
        grappled: Default::default(),
        bodies: Vec::new(),
        summoned: Vec::new(),
        banished: Vec::new(),
        globes: Vec::new(),
        pending_reaction: None,
        spent: Vec::new(),
    };
    let first = enc.current().map(|c| c.name.clone()).unwrap_or_default();
    enc.log(format!("Encounter begins; {first} acts first"));
    for j in joining.iter().filter(|j| !j.spawned) {
        notes.extend(super::martial::perfect_self(call, &j.character.id)?);
    }
    notes.extend(super::martial::sync_auras(call, &enc)?);
    super::save(call, &enc)?;
    call.record_change(
        "encounter",
        &id,
        format!("created {} ({} combatants)", enc.name, enc.order.len()),
    );
    Ok(CreatedEncounter {
        encounter: enc,
        initiative: rolls,
        spawned,
        notes,
    })
}

/// Sorts combatants by initiative, then DEX score, then the seeded tie-breaker.
pub fn sort_initiative(order: &mut [Combatant]) {
    order.sort_by_key(|c| std::cmp::Reverse((c.initiative, c.tiebreak)));
}

/// Legendary actions per round from a stat block ("can take 3 legendary actions").
pub fn legendary_count(c: &Character) -> u32 {
    let Some(b) = &c.stat_block else { return 0 };
    if b.legendary_actions.is_empty() {
        return 0;
    }
    b.special_abilities
        .iter()
        .chain(&b.legendary_actions)
        .find_map(|a| {
            let d = a.desc.to_lowercase();
            let i = d.find("can take ")?;
            d[i + 9..].split_whitespace().next()?.parse().ok()
        })
        .unwrap_or(3)
}

impl Snapshot {
    /// The parts of a sheet a fight changes.
    pub fn of(c: &Character) -> Snapshot {
        Snapshot {
            hp: c.hp,
            temp_hp: c.temp_hp,
            conditions: c.conditions.iter().map(|e| e.condition).collect(),
            slots: c.spell_slots.remaining_by_level(),
            resources: c
                .resources
                .iter()
                .map(|r| (r.name.clone(), r.current))
                .collect(),
        }
    }
}
