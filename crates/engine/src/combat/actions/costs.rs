//! What an action costs by the rules, and which other costs a rule offers in its place.
//!
//! Every action type has its cost from the rules (an attack, a Dash or a Fireball: the action;
//! the off-hand attack: the bonus action; moving: movement). A request may name another cost only
//! where a rule grants it: Cunning Action (Dash, Disengage or Hide as a bonus action), a spell's
//! own casting time, a class feature's cost, a stat block's reaction, a readied action released
//! by its trigger, Martial Arts' bonus unarmed strike and a frenzied rage's bonus attack. Anything
//! else (a third attack called "free", a bonus-action attack with no feature, a fighter's
//! bonus-action Disengage) is refused unless `force`, and then the answer names the rule set aside.

use super::{ActionRequest, ActionType};
use crate::catalog::class_rules::ClassRule;
use crate::engine::Call;
use crate::model::character::Character;
use crate::model::encounter::{ActionCost, Combatant};
use crate::model::names::name_key;

/// "an action", "a bonus action", …
pub fn cost_words(c: ActionCost) -> &'static str {
    match c {
        ActionCost::Action => "an action",
        ActionCost::BonusAction => "a bonus action",
        ActionCost::Reaction => "a reaction",
        ActionCost::Free => "nothing (free)",
        ActionCost::Movement => "movement",
    }
}

fn has_feature(c: &Character, needle: &str) -> bool {
    c.features.iter().any(|f| name_key(f).contains(needle))
}

/// The class level of `class` on the sheet (multiclass aware when the sheet is derived).
fn class_level(c: &Character, class: &str) -> u32 {
    if let Some(b) = &c.build
        && let Some(k) = b.classes.iter().find(|k| name_key(&k.class) == class)
    {
        return k.level;
    }
    if c.class.as_deref().is_some_and(|k| name_key(k) == class) {
        return c.level;
    }
    0
}

/// Whether a stat block lists `name` among its reactions.
fn stat_reaction(c: &Character, name: Option<&str>) -> bool {
    let Some(name) = name else { return false };
    let key = name_key(name);
    c.action_block()
        .is_some_and(|s| s.reactions.iter().any(|r| name_key(&r.name) == key))
}

/// A rule that lets `actor` take `t` at `asked` instead of `base`, named; `None` when none does.
pub fn alternative(
    call: &Call<'_>,
    actor: &Character,
    me: &Combatant,
    req: &ActionRequest,
    t: ActionType,
    asked: ActionCost,
) -> Option<String> {
    use ActionCost as C;
    use ActionType as T;
    match (t, asked) {
        (T::Dash | T::Disengage | T::Hide, C::BonusAction) => {
            if actor.has_rule(ClassRule::CunningAction)
                || (has_feature(actor, "cunning action") && class_level(actor, "rogue") >= 2)
            {
                return Some("Cunning Action".into());
            }
            if t == T::Hide && actor.has_rule(ClassRule::Vanish) {
                return Some("Vanish".into());
            }
            if t == T::Dash
                && let Some(spell) = crate::magic::wards::dash_as_bonus(actor)
            {
                return Some(spell);
            }
            if actor.action_block().is_some_and(|s| {
                s.special_abilities
                    .iter()
                    .any(|a| name_key(&a.name) == "nimble escape")
            }) && matches!(t, T::Disengage | T::Hide)
            {
                return Some("Nimble Escape".into());
            }
            if matches!(t, T::Dash | T::Disengage) && step_of_the_wind(actor).is_some() {
                return Some(STEP_OF_THE_WIND.into());
            }
            None
        }
        // The bonus unarmed strike of Martial Arts follows the Attack action; a frenzied
        // barbarian makes one melee weapon attack as a bonus action each turn of the rage.
        (T::Attack, C::BonusAction) => {
            // Martial Arts' bonus attack is an unarmed strike (named so, or no weapon named).
            if me.economy.attacked
                && has_feature(actor, "martial arts")
                && req.weapon.as_deref().is_none_or(is_unarmed)
            {
                return Some(MARTIAL_ARTS.into());
            }
            if (actor.has_rule(ClassRule::Frenzy) || has_feature(actor, "frenzy"))
                && actor
                    .effects
                    .iter()
                    .any(|e| name_key(&e.name).contains("rage"))
            {
                return Some("Frenzy (while raging)".into());
            }
            None
        }
        // Retaliation: a melee attack with the reaction on a creature that damaged it.
        (T::Attack, C::Reaction) if actor.has_rule(ClassRule::Retaliation) => {
            Some("Retaliation (after taking damage from a creature within 5 ft)".into())
        }
        // A readied action is taken with the reaction when its trigger happens.
        (_, C::Reaction) if me.flags.readied.is_some() => Some("a readied action".into()),
        (T::UseSpecialAbility, C::Reaction)
            if stat_reaction(actor, req.ability_name.as_deref()) =>
        {
            Some("the stat block's reaction".into())
        }
        // Leaving a form (Wild Shape) is a bonus action.
        (T::UseSpecialAbility, C::BonusAction)
            if actor.active_shape().is_some()
                && req.creature.is_none()
                && req.ability_name.as_deref().is_some_and(|n| {
                    matches!(
                        name_key(n).as_str(),
                        "wild shape" | "revert" | "revert form" | "normal form"
                    )
                }) =>
        {
            Some("reverting from a form".into())
        }
        // Using an object beyond the one free interaction takes the action.
        (T::UseObject, C::Action) => Some("the Use an Object action".into()),
        // Fast Hands: Use an Object (Sleight of Hand, thieves' tools) as a bonus action; not an
        // item's activation (a potion, a wand): "that action isn't a function of the Use an
        // Item action, so a feature such as the rogue's Fast Hands can't be used".
        (T::UseObject, C::BonusAction)
            if actor.has_rule(ClassRule::FastHands) && req.item.is_none() =>
        {
            Some("Fast Hands (Cunning Action)".into())
        }
        _ => {
            let _ = call;
            None
        }
    }
}

/// The name [`alternative`] gives Martial Arts' bonus unarmed strike.
pub const MARTIAL_ARTS: &str = "Martial Arts (an unarmed strike after the Attack action)";

/// Whether a weapon name is the unarmed strike.
pub fn is_unarmed(weapon: &str) -> bool {
    matches!(name_key(weapon).as_str(), "unarmed strike" | "unarmed")
}

/// The weapon an attack request makes its attack with: the one named, or, for Martial Arts'
/// bonus attack with none named, the unarmed strike.
pub fn attack_weapon<'r>(
    call: &Call<'_>,
    actor: &Character,
    enc: &crate::model::encounter::Encounter,
    req: &'r ActionRequest,
    cost: ActionCost,
) -> Option<&'r str> {
    let martial_arts = cost == ActionCost::BonusAction
        && req.weapon.is_none()
        && enc.combatant(&actor.id).is_some_and(|me| {
            alternative(call, actor, me, req, ActionType::Attack, cost).as_deref()
                == Some(MARTIAL_ARTS)
        });
    if martial_arts {
        Some("unarmed strike")
    } else {
        req.weapon.as_deref()
    }
}

/// The name [`alternative`] gives a bonus-action Dash or Disengage taken with Step of the Wind.
pub const STEP_OF_THE_WIND: &str = "Step of the Wind (1 ki)";

/// The feature of `actor` that takes the Dash or the Disengage action for its cost and resource
/// (Step of the Wind: a bonus action, 1 ki), if its sheet offers one.
pub fn step_of_the_wind(actor: &Character) -> Option<crate::derive::ActionSpec> {
    actor
        .derived
        .as_ref()?
        .actions
        .iter()
        .find(|a| matches!(a.does, crate::catalog::Use::DashOrDisengage))
        .cloned()
}

/// Where the rules do offer what the request tried, said after a refusal.
pub fn hint(t: ActionType, asked: ActionCost) -> &'static str {
    use ActionCost as C;
    use ActionType as T;
    match (t, asked) {
        (T::Attack, C::Reaction) => {
            "; opportunity attacks are made by the engine when a creature leaves a hostile's reach, and a readied attack is released with actionType ready, actionCost reaction"
        }
        (T::Attack, C::Free | C::Movement) => {
            "; the Attack action's attacks (Extra Attack, Action Surge) each cost the action"
        }
        (T::Dash | T::Disengage | T::Hide, C::BonusAction) => {
            "; Cunning Action (rogue 2+) makes them bonus actions"
        }
        (T::Attack, C::BonusAction) => {
            "; a bonus-action attack comes from two-weapon fighting (two_weapon_attack), Martial Arts (an unarmed strike after the Attack action: weapon \"unarmed strike\") or Frenzy"
        }
        (T::CastSpell, _) => "; a spell costs its casting time",
        // Asked as free, the base cost was the action: an inventory item's use.
        (T::UseObject, C::Free) => {
            "; an item that needs the action for its use (a potion drunk or administered, a wand) takes the Use an Object action"
        }
        _ => "",
    }
}

/// What `t` costs by the rules for `actor`, before any alternative.
pub fn rule_cost(
    call: &Call<'_>,
    actor: &Character,
    req: &ActionRequest,
    t: ActionType,
) -> ActionCost {
    match t {
        ActionType::CastSpell => {
            let plain = ActionRequest {
                action_cost: None,
                ..req.clone()
            };
            casting_cost(call, &plain)
        }
        ActionType::UseSpecialAbility => {
            use crate::catalog::ActionCost as K;
            match crate::derive::feature_cost(actor, req.ability_name.as_deref()) {
                Some(K::Action) => ActionCost::Action,
                Some(K::BonusAction) => ActionCost::BonusAction,
                Some(K::Reaction) => ActionCost::Reaction,
                Some(K::Free) => ActionCost::Free,
                None => super::economy::default_cost(t),
            }
        }
        // An inventory item used (a potion drunk or administered, a wand): it needs the action
        // for its use, so it takes the Use an Object action, as use_magic_item does.
        ActionType::UseObject if req.item.is_some() => ActionCost::Action,
        _ => super::economy::default_cost(t),
    }
}

/// The cost a cast_spell request carries when it names none: the spell's casting time (an
/// action when the spell cannot be found; the cast then reports why).
pub fn casting_cost(call: &Call<'_>, req: &ActionRequest) -> ActionCost {
    let found = (|| {
        let e = crate::combat::load_active(call, req.encounter_id.as_deref()).ok()?;
        let c = crate::combat::find_combatant(
            &e,
            req.actor.id.as_deref(),
            req.actor.name.as_deref(),
            "actorId",
        )
        .ok()?;
        let sheet = crate::combat::sheet(call, &c.character_id).ok()?;
        let def =
            crate::magic::spellcasting::find_spell(call, &sheet, req.spell.as_deref()?).ok()?;
        if crate::magic::mechanics::persistent_level(&sheet, &def).is_some() {
            // Spiritual Weapon again: its attack is a bonus action.
            return Some(ActionCost::BonusAction);
        }
        // Quickened Spell: a 1-action spell is cast with a bonus action.
        let quick = req
            .metamagic
            .contains(&crate::catalog::caster_rules::Metamagic::Quickened);
        match def.cost() {
            Some(ActionCost::Action) if quick => Some(ActionCost::BonusAction),
            c => c,
        }
    })();
    found.unwrap_or(ActionCost::Action)
}
