//! `manage_inventory`: give, remove, equip, unequip, attune, unattune, view, transfer, use; batch
//! for loot.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::inventory::ops::{
    self, GiveRequest, InventoryOutcome, InventoryView, ItemDef, ItemRef, MechanicalEffects,
};
use tabletop_engine::inventory::{
    ArmorCategory, ArmorStats, Charges, Currency, Item, ItemType, Rarity, Recharge, Slot,
    WeaponCategory, WeaponProperty, WeaponStats,
};
use tabletop_engine::{Call, EngineError};
use tabletop_rules::{Ability, Condition, DamageType, Skill};

use super::{Access, EngineT, invoke, invoke_batch};
use crate::arg_enum;
use crate::reply::{Reply, ToolError};
use crate::schema::{input_schema, with_batch};
use crate::spec::{Category, ToolSpec};

arg_enum! {
    /// What to do.
    pub enum InventoryOp {
        Give = "give",
        Remove = "remove",
        Equip = "equip",
        Unequip = "unequip",
        Attune = "attune",
        Unattune = "unattune",
        View = "view",
        Transfer = "transfer",
        Use = "use",
    }
}

/// Coins by denomination.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct CoinsArg {
    pub cp: Option<u64>,
    pub sp: Option<u64>,
    pub ep: Option<u64>,
    pub gp: Option<u64>,
    pub pp: Option<u64>,
}

impl CoinsArg {
    fn to_currency(&self) -> Currency {
        Currency {
            cp: self.cp.unwrap_or(0),
            sp: self.sp.unwrap_or(0),
            ep: self.ep.unwrap_or(0),
            gp: self.gp.unwrap_or(0),
            pp: self.pp.unwrap_or(0),
        }
    }
}

/// Range in feet.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct RangeArg {
    pub normal: u32,
    pub long: Option<u32>,
}

/// Weapon stats.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WeaponStatsArg {
    /// e.g. "1d8".
    pub damage_dice: String,
    /// Damage type, e.g. "slashing".
    #[schemars(with = "String")]
    pub damage_type: DamageType,
    /// Category.
    pub category: WeaponCategory,
    /// Properties ("silvered": a silvered weapon).
    #[serde(default)]
    pub properties: Vec<WeaponProperty>,
    /// Range (ranged or thrown).
    pub range: Option<RangeArg>,
    /// Two-handed dice, e.g. "1d10".
    pub versatile_damage: Option<String>,
}

/// Armor stats.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ArmorStatsArg {
    /// Base AC (shield: its bonus).
    pub base_ac: i32,
    /// Category.
    pub category: ArmorCategory,
    /// DEX cap (medium default 2).
    pub max_dex_bonus: Option<i32>,
    /// Disadvantage on Stealth.
    #[serde(default)]
    pub stealth_disadvantage: bool,
    /// STR needed, else −10 ft speed.
    pub strength_requirement: Option<u8>,
}

/// Mechanical effects while equipped (and attuned if required).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EffectsArg {
    /// AC bonus.
    pub ac_bonus: Option<i32>,
    /// Save bonus (all saves, or saveBonusAbility's).
    pub save_bonus: Option<i32>,
    /// Ability for saveBonus.
    pub save_bonus_ability: Option<Ability>,
    /// To-hit bonus (a weapon's own attacks).
    pub attack_bonus: Option<i32>,
    /// Damage bonus.
    pub damage_bonus: Option<i32>,
    /// Extra damage dice, e.g. "2d6".
    pub bonus_damage: Option<String>,
    /// Their type, e.g. "fire".
    #[schemars(with = "Option<String>")]
    pub bonus_damage_type: Option<DamageType>,
    /// Ability bonuses, e.g. {"con": 2}.
    #[schemars(with = "Option<BTreeMap<String, i32>>")]
    pub ability_bonus: Option<BTreeMap<Ability, i32>>,
    /// Scores set unless higher, e.g. {"str": 21}.
    #[schemars(with = "Option<BTreeMap<String, i64>>")]
    pub ability_set: Option<BTreeMap<Ability, i64>>,
    /// Speed bonus, ft.
    pub speed_bonus: Option<i32>,
    /// Speed multiplier.
    pub speed_multiplier: Option<u32>,
    /// Advantage on these skills, e.g. ["stealth"].
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub advantage_on: Vec<Skill>,
    /// Damage resistances, e.g. ["fire"].
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub resistances: Vec<DamageType>,
    /// Damage immunities.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub immunities: Vec<DamageType>,
    /// Condition immunities, e.g. ["poisoned"].
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub condition_immunities: Vec<Condition>,
    /// Charges now.
    pub charges: Option<u32>,
    /// Most charges.
    pub max_charges: Option<u32>,
    /// When charges return.
    pub recharge_on: Option<Recharge>,
    /// Charges regained, e.g. "1d6+1" (default all).
    pub recharge_dice: Option<String>,
}

/// A custom item.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ItemArg {
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Type (default from stats).
    #[serde(rename = "type")]
    pub item_type: Option<ItemType>,
    /// Rarity (default common).
    pub rarity: Option<Rarity>,
    /// Magic works only attuned (max 3).
    #[serde(default)]
    pub requires_attunement: bool,
    /// Who may attune, e.g. "by a wizard".
    pub attunement_restriction: Option<String>,
    /// Weapon stats.
    pub weapon_stats: Option<WeaponStatsArg>,
    /// Armor stats.
    pub armor_stats: Option<ArmorStatsArg>,
    /// Bonuses and defenses it grants.
    pub mechanical_effects: Option<EffectsArg>,
    /// Value each, gp.
    pub value: Option<f64>,
    /// Weight each, lb.
    pub weight: Option<f64>,
    /// How many (default 1).
    pub quantity: Option<u32>,
    /// Identical items stack.
    pub stackable: Option<bool>,
    /// Healing when used, e.g. "2d4+2".
    pub heal: Option<String>,
    /// Effect in words ("Heal 2d4+2 HP" heals).
    pub effect: Option<String>,
    /// Equip at once (slot detected).
    #[serde(default)]
    pub equipped: bool,
    /// Equip at once in this slot.
    #[schemars(with = "Option<String>")]
    pub slot: Option<Slot>,
}

/// Arguments of `manage_inventory`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageInventoryArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// What to do.
    pub operation: InventoryOp,
    /// give: a custom item.
    pub item: Option<ItemArg>,
    /// A carried item's id.
    pub item_id: Option<String>,
    /// A carried item's name; give: an SRD item, e.g. "Longsword +1".
    pub item_name: Option<String>,
    /// How many (default 1).
    pub quantity: Option<u32>,
    /// give: true marks the given weapon silvered (gets past "nonmagical … that aren't
    /// silvered", a werewolf's immunity).
    pub silvered: Option<bool>,
    /// Coins {cp, sp, ep, gp, pp} to give, pay (makes change) or transfer.
    #[schemars(with = "Option<BTreeMap<String, u64>>")]
    pub currency: Option<CoinsArg>,
    /// equip/unequip slot (default detected).
    pub slot: Option<Slot>,
    /// transfer: recipient id.
    pub to_character_id: Option<String>,
    /// transfer: recipient name.
    pub to_character_name: Option<String>,
    /// use: target id (default self); transfer: a container.
    pub target_id: Option<String>,
    /// use: target name; transfer: a container.
    pub target_name: Option<String>,
    /// use: charges to spend (default 1).
    pub charges: Option<u32>,
    /// use: spell the item casts.
    pub spell: Option<String>,
    /// use: its slot level.
    pub slot_level: Option<u8>,
    /// view: equipped items (default true).
    pub show_equipped: Option<bool>,
    /// view: carried items (default true).
    pub show_inventory: Option<bool>,
    /// view: AC, speed, attacks, bonuses (default true).
    pub show_stats: Option<bool>,
}

fn item_def(a: ItemArg) -> Result<ItemDef, EngineError> {
    let weapon = a
        .weapon_stats
        .map(|w| -> Result<WeaponStats, EngineError> {
            Ok(WeaponStats {
                damage_dice: w.damage_dice,
                damage_type: w.damage_type,
                category: w.category,
                properties: w.properties,
                range_normal: w.range.as_ref().map(|r| r.normal),
                range_long: w.range.as_ref().and_then(|r| r.long),
                versatile_damage: w.versatile_damage,
            })
        })
        .transpose()?;
    let armor = a
        .armor_stats
        .map(|x| -> Result<ArmorStats, EngineError> {
            Ok(ArmorStats {
                base_ac: x.base_ac,
                category: x.category,
                max_dex_bonus: x.max_dex_bonus,
                stealth_disadvantage: x.stealth_disadvantage,
                strength_requirement: x.strength_requirement,
            })
        })
        .transpose()?;
    let fx = a.mechanical_effects.unwrap_or_default();
    let charges = match (fx.max_charges, fx.charges) {
        (None, None) => None,
        (max, current) => {
            let max = max.or(current).unwrap_or(0);
            Some(Charges {
                current: current.unwrap_or(max),
                max,
                recharge: fx.recharge_on.unwrap_or(Recharge::Dawn),
                recharge_dice: fx.recharge_dice.clone(),
            })
        }
    };
    Ok(ItemDef {
        name: a.name,
        description: a.description,
        item_type: a.item_type,
        rarity: a.rarity,
        requires_attunement: a.requires_attunement,
        attunement_restriction: a.attunement_restriction,
        weapon,
        armor,
        effects: MechanicalEffects {
            ac_bonus: fx.ac_bonus,
            save_bonus: fx.save_bonus,
            save_bonus_ability: fx.save_bonus_ability,
            attack_bonus: fx.attack_bonus,
            damage_bonus: fx.damage_bonus,
            bonus_damage: fx.bonus_damage,
            bonus_damage_type: fx.bonus_damage_type,
            ability_bonus: fx.ability_bonus.unwrap_or_default(),
            ability_set: fx.ability_set.unwrap_or_default(),
            speed_bonus: fx.speed_bonus,
            speed_multiplier: fx.speed_multiplier,
            advantage_on: fx.advantage_on,
            resistances: fx.resistances,
            immunities: fx.immunities,
            condition_immunities: fx.condition_immunities,
        },
        value: a.value,
        weight: a.weight,
        quantity: a.quantity,
        stackable: a.stackable,
        charges,
        heal: a.heal,
        effect: a.effect,
    })
}

/// Refuses fields the operation does not use (an argument is never silently ignored).
fn only(a: &ManageInventoryArgs, op: &str, allowed: &[&str]) -> Result<(), EngineError> {
    let set = [
        ("item", a.item.is_some()),
        ("itemId", a.item_id.is_some()),
        ("itemName", a.item_name.is_some()),
        ("quantity", a.quantity.is_some()),
        ("silvered", a.silvered.is_some()),
        ("currency", a.currency.is_some()),
        ("slot", a.slot.is_some()),
        ("toCharacterId", a.to_character_id.is_some()),
        ("toCharacterName", a.to_character_name.is_some()),
        ("targetId", a.target_id.is_some()),
        ("targetName", a.target_name.is_some()),
        ("charges", a.charges.is_some()),
        ("spell", a.spell.is_some()),
        ("slotLevel", a.slot_level.is_some()),
        ("showEquipped", a.show_equipped.is_some()),
        ("showInventory", a.show_inventory.is_some()),
        ("showStats", a.show_stats.is_some()),
    ];
    let extra: Vec<&str> = set
        .iter()
        .filter(|(name, on)| *on && !allowed.contains(name))
        .map(|(name, _)| *name)
        .collect();
    if extra.is_empty() {
        Ok(())
    } else {
        Err(EngineError::invalid(
            extra[0],
            format!(
                "{} {} not used by {op}; {op} takes {}",
                extra.join(", "),
                if extra.len() == 1 { "is" } else { "are" },
                allowed.join(", ")
            ),
        ))
    }
}

fn run(call: &mut Call<'_>, a: ManageInventoryArgs) -> Result<Reply, EngineError> {
    let who = CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref());
    let item_ref = (a.item_id.is_some() || a.item_name.is_some()).then_some(ItemRef {
        id: a.item_id.as_deref(),
        name: a.item_name.as_deref(),
    });
    let coins = a.currency.as_ref().map(CoinsArg::to_currency);
    let out = match a.operation {
        InventoryOp::Give => {
            only(
                &a,
                "give",
                &["item", "itemName", "quantity", "silvered", "currency"],
            )?;
            let (equip_after, slot) = a
                .item
                .as_ref()
                .map_or((false, None), |i| (i.equipped || i.slot.is_some(), i.slot));
            let out = ops::give(
                call,
                who,
                GiveRequest {
                    item: a.item.map(item_def).transpose()?,
                    srd_name: a.item_name.clone(),
                    quantity: a.quantity,
                    currency: coins,
                    silvered: a.silvered.unwrap_or(false),
                },
            )?;
            match (&out.item, equip_after) {
                (Some(it), true) => {
                    let id = it.id.clone();
                    let eq = ops::equip(
                        call,
                        who,
                        ItemRef {
                            id: Some(&id),
                            name: None,
                        },
                        slot,
                    )?;
                    let mut merged = eq;
                    merged.operation = "give";
                    merged.summary = format!("{} {}", out.summary, merged.summary);
                    let mut changes = out.changes;
                    changes.extend(merged.changes);
                    merged.changes = changes;
                    merged
                }
                _ => out,
            }
        }
        InventoryOp::Remove => {
            only(
                &a,
                "remove",
                &["itemId", "itemName", "quantity", "currency"],
            )?;
            ops::remove(call, who, item_ref, a.quantity, coins)?
        }
        InventoryOp::Equip => {
            only(&a, "equip", &["itemId", "itemName", "slot"])?;
            let r = item_ref.ok_or_else(|| {
                EngineError::invalid("itemName", "equip needs the item: itemName or itemId")
            })?;
            ops::equip(call, who, r, a.slot)?
        }
        InventoryOp::Unequip => {
            only(&a, "unequip", &["itemId", "itemName", "slot"])?;
            ops::unequip(call, who, item_ref, a.slot)?
        }
        InventoryOp::Attune | InventoryOp::Unattune => {
            let attune = matches!(a.operation, InventoryOp::Attune);
            let op = if attune { "attune" } else { "unattune" };
            only(&a, op, &["itemId", "itemName"])?;
            let r = item_ref.ok_or_else(|| {
                EngineError::invalid(
                    "itemName",
                    format!("{op} needs the item: itemName or itemId"),
                )
            })?;
            if attune {
                tabletop_engine::inventory::attune::attune(call, who, r)?
            } else {
                tabletop_engine::inventory::attune::unattune(call, who, r)?
            }
        }
        InventoryOp::Transfer => {
            only(
                &a,
                "transfer",
                &[
                    "itemId",
                    "itemName",
                    "quantity",
                    "currency",
                    "toCharacterId",
                    "toCharacterName",
                    "targetId",
                    "targetName",
                ],
            )?;
            // A container (Bag of Holding) as the target stows the item; neither recipient nor
            // container takes a stowed item out.
            if a.to_character_id.is_none() && a.to_character_name.is_none() {
                let into = (a.target_id.is_some() || a.target_name.is_some()).then_some(ItemRef {
                    id: a.target_id.as_deref(),
                    name: a.target_name.as_deref(),
                });
                let r = item_ref.ok_or_else(|| {
                    EngineError::invalid(
                        "toCharacterName",
                        "transfer needs the recipient (toCharacterName or toCharacterId), or an item (itemName) to stow in a container (targetName) or take out of one",
                    )
                })?;
                let out =
                    tabletop_engine::inventory::containers::stow(call, who, r, into, a.quantity)?;
                return Ok(Reply::new(render_outcome(&out), &out));
            }
            if a.target_id.is_some() || a.target_name.is_some() {
                return Err(EngineError::invalid(
                    "targetName",
                    "transfer goes to a recipient or into a container, not both",
                ));
            }
            let to =
                CharacterRef::new(a.to_character_id.as_deref(), a.to_character_name.as_deref());
            ops::transfer(call, who, to, item_ref, a.quantity, coins)?
        }
        InventoryOp::Use => {
            only(
                &a,
                "use",
                &[
                    "itemId",
                    "itemName",
                    "targetId",
                    "targetName",
                    "charges",
                    "spell",
                    "slotLevel",
                ],
            )?;
            let r = item_ref.ok_or_else(|| {
                EngineError::invalid("itemName", "use needs the item: itemName or itemId")
            })?;
            let target = CharacterRef::new(a.target_id.as_deref(), a.target_name.as_deref());
            tabletop_engine::magic::item_cast::use_or_cast(
                call,
                who,
                r,
                Some(target),
                a.charges,
                a.spell.as_deref(),
                a.slot_level,
            )?
        }
        InventoryOp::View => {
            only(&a, "view", &["showEquipped", "showInventory", "showStats"])?;
            let v = ops::view(call, who)?;
            let text = render_view(
                &v,
                a.show_equipped.unwrap_or(true),
                a.show_inventory.unwrap_or(true),
                a.show_stats.unwrap_or(true),
            );
            return Ok(Reply::new(text, &v));
        }
    };
    Ok(Reply::new(render_outcome(&out), &out))
}

fn render_outcome(o: &InventoryOutcome) -> String {
    let mut s = o.summary.clone();
    for w in &o.warnings {
        s.push_str(&format!("\nNote: {w}"));
    }
    if let Some(r) = &o.roll {
        s.push_str(&format!("\nRoll: {}", r.summary()));
    }
    s
}

fn items_line(items: &[Item]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.iter().map(Item::label).collect::<Vec<_>>().join("; ")
    }
}

fn render_view(v: &InventoryView, equipped: bool, carried: bool, stats: bool) -> String {
    let mut s = format!(
        "{} — {} ({:.2} gp); {:.1}/{:.0} lb",
        v.character, v.currency, v.currency_gp, v.weight, v.capacity
    );
    if equipped {
        s.push_str(&format!("\nEquipped: {}", items_line(&v.equipped)));
    }
    if carried {
        s.push_str(&format!("\nCarried: {}", items_line(&v.carried)));
    }
    if !v.attuned.is_empty() {
        s.push_str(&format!(
            "\nAttuned ({}/3): {}",
            v.attuned.len(),
            v.attuned.join(", ")
        ));
    }
    if stats {
        s.push_str(&format!(
            "\nAC {}\nSpeed {}",
            v.armor_class.explain(),
            v.speed.explain()
        ));
        for at in &v.attacks {
            s.push_str(&format!(
                "\nAttack with {}: {:+} to hit ({}{}), {}{}",
                at.weapon,
                at.to_hit,
                at.ability.abbr(),
                if at.proficient { ", proficient" } else { "" },
                at.damage,
                if at.two_handed { " (two-handed)" } else { "" }
            ));
        }
        if !v.bonuses.is_empty() {
            s.push_str(&format!("\nFrom equipment: {}", v.bonuses.join("; ")));
        }
    }
    s
}

fn handle(engine: &mut EngineT, tool: &str, raw: &Value) -> Result<Reply, ToolError> {
    let is_view = raw
        .get("operation")
        .and_then(Value::as_str)
        .is_some_and(|o| o.eq_ignore_ascii_case("view"));
    if is_view && raw.get("batch").is_none() {
        return invoke(engine, tool, raw, Access::Read, run);
    }
    invoke_batch(engine, tool, raw, Access::Write, run)
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "manage_inventory",
        title: "Manage inventory",
        category: Category::World,
        description: "Give, remove, equip, attune, unequip, unattune, view, transfer or use items and coins.",
        read_only: false,
        destructive: true,
        idempotent: false,
        core: false,
        max_result_chars: 8_000,
        schema: || with_batch(input_schema::<ManageInventoryArgs>(), "operations"),
        core_schema: None,
        handler: handle,
    }]
}
