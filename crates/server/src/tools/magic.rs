//! `manage_concentration` and `manage_spell_slots`.

use schemars::JsonSchema;
use serde::Deserialize;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::concentration::{self, ConcentrationOutcome};
use tabletop_engine::slots::{SlotOp, manage_spell_slots};
use tabletop_engine::{Call, EngineError};

use super::{Access, invoke, invoke_batch};
use crate::arg_enum;
use crate::reply::Reply;
use crate::schema::{input_schema, with_batch};
use crate::spec::{Category, ToolSpec};

arg_enum! {
    /// What to do with concentration.
    pub enum ConcentrationOperation {
        Check = "check",
        Break = "break",
        Get = "get",
        Set = "set",
    }
}

/// Arguments of `manage_concentration`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageConcentrationArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// check (CON save after damage), break, get or set.
    pub operation: ConcentrationOperation,
    /// check: damage taken; DC is max(10, half).
    pub damage_amount: Option<u32>,
    /// set: the spell (ends a different one).
    pub spell_name: Option<String>,
    /// break: why.
    pub reason: Option<String>,
}

fn run_concentration(
    call: &mut Call<'_>,
    a: ManageConcentrationArgs,
) -> Result<Reply, EngineError> {
    let who = CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref());
    let out = match a.operation {
        ConcentrationOperation::Get => concentration::get(call, who)?,
        ConcentrationOperation::Set => {
            let spell = a.spell_name.as_deref().ok_or_else(|| {
                EngineError::invalid("spellName", "set needs spellName, e.g. \"Bless\"")
            })?;
            concentration::set(call, who, spell)?
        }
        ConcentrationOperation::Break => {
            concentration::break_concentration(call, who, a.reason.as_deref())?
        }
        ConcentrationOperation::Check => {
            let dmg = a.damage_amount.ok_or_else(|| {
                EngineError::invalid("damageAmount", "check needs damageAmount: the damage taken")
            })?;
            concentration::check(call, who, dmg)?
        }
    };
    Ok(Reply::new(concentration_text(&out), &out))
}

fn concentration_text(o: &ConcentrationOutcome) -> String {
    let mut t = if o.changes.is_empty() {
        String::new()
    } else {
        format!("{}.\n", o.changes.join(". "))
    };
    match &o.concentration {
        Some(c) => {
            t.push_str(&format!("{} concentrates on {}", o.character, c.spell));
            if let Some(n) = c.rounds_left {
                t.push_str(&format!(
                    " ({} left)",
                    tabletop_engine::clock::span(u64::from(n) * 6)
                ));
            }
            if !c.links.is_empty() {
                let links: Vec<String> = c
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
                t.push_str(&format!(" (holds {})", links.join(", ")));
            }
            t.push('.');
        }
        None => t.push_str(&format!("{} is not concentrating.", o.character)),
    }
    t
}

arg_enum! {
    /// What to do with spell slots.
    pub enum SlotOperation {
        View = "view",
        Expend = "expend",
        Restore = "restore",
        Set = "set",
    }
}

/// Arguments of `manage_spell_slots`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageSlotsArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// view, expend, restore (no level: all) or set.
    pub operation: SlotOperation,
    /// Slot level 1–9.
    pub level: Option<u8>,
    /// How many to expend or restore (default 1; restore default all).
    pub count: Option<u8>,
    /// set: maximum at level.
    pub max: Option<u8>,
    /// set: used at level.
    pub used: Option<u8>,
    /// Pact-magic slots.
    #[serde(default)]
    pub pact: bool,
    /// set: from this SRD class's table at the character's level.
    pub class: Option<String>,
}

fn run_slots(call: &mut Call<'_>, a: ManageSlotsArgs) -> Result<Reply, EngineError> {
    let who = CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref());
    // Flexible Casting: `class: "sorcery points"` pays a restored slot with sorcery points, or
    // turns an expended one into them.
    let flexible = a
        .class
        .as_deref()
        .is_some_and(|c| c.trim().eq_ignore_ascii_case("sorcery points"));
    let op = match a.operation {
        SlotOperation::Restore if flexible => SlotOp::Create { level: a.level },
        SlotOperation::Expend if flexible => SlotOp::Convert { level: a.level },
        SlotOperation::View => SlotOp::View,
        SlotOperation::Expend => SlotOp::Expend {
            level: a.level,
            count: a.count.unwrap_or(1),
            pact: a.pact,
        },
        SlotOperation::Restore => SlotOp::Restore {
            level: a.level,
            count: a.count,
            pact: a.pact,
        },
        SlotOperation::Set => SlotOp::Set {
            level: a.level,
            max: a.max,
            used: a.used,
            pact: a.pact,
            class: a.class,
        },
    };
    let out = manage_spell_slots(call, who, op)?;
    let mut t = if out.changes.is_empty() {
        String::new()
    } else {
        format!("{}.\n", out.changes.join(". "))
    };
    t.push_str(&format!(
        "{} slots (left/max): {}.",
        out.character, out.summary
    ));
    Ok(Reply::new(t, &out))
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "manage_concentration",
            title: "Manage concentration",
            category: Category::Magic,
            description: "Get, set, break or check concentration (CON save); ending it removes the effects it held up.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 4_000,
            schema: input_schema::<ManageConcentrationArgs>,
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Write, run_concentration),
        },
        ToolSpec {
            name: "manage_spell_slots",
            title: "Manage spell slots",
            category: Category::Magic,
            description: "View, expend, restore or set spell slots (SRD class tables; pact magic separate).",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 3_000,
            schema: || with_batch(input_schema::<ManageSlotsArgs>(), "operations"),
            core_schema: None,
            handler: |e, n, raw| invoke_batch(e, n, raw, Access::Write, run_slots),
        },
    ]
}
