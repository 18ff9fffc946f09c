//! Items that call creatures (Elemental Gems, the Bowl, Brazier, Censer and Stone of commanding
//! elementals, Horns of Valhalla, Bags of Tricks, Figurines of Wondrous Power, the Efreeti Bottle,
//! the Ring of Djinni Summoning, Manuals of Golems): using one rolls which creature and how many
//! when the item says so, and makes each an NPC from its SRD stat block, named for its summoner,
//! ready to join a fight. How long they stay and how they behave beyond obeying are the DM's.

use tabletop_rules::{CharacterType, dice};

use crate::catalog::items::ItemSummon;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;

/// Most creatures one use may call (a Horn of Valhalla's 5d4+5 is 25 at most).
const MAX_CALLED: u32 = 25;

/// Calls `s`'s creatures for `user`, who used `item`; returns what changed.
pub fn call_creatures(
    call: &mut Call<'_>,
    s: &ItemSummon,
    user: &Character,
    item: &str,
) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let index = match s.creatures.as_slice() {
        [] => return Err(EngineError::Rule(format!("{item} names no creature"))),
        [one] => one.clone(),
        table => {
            let r = dice::roll(&format!("1d{}", table.len()), call.rng()?)?;
            call.record_roll(&r);
            let at = usize::try_from(r.total.max(1) - 1).unwrap_or(0);
            let pick = table[at.min(table.len() - 1)].clone();
            lines.push(format!("{item}: d{} = {} → {pick}", table.len(), r.total));
            pick
        }
    };
    let count = match &s.count {
        Some(d) => {
            let r = dice::roll(d, call.rng()?)?;
            call.record_roll(&r);
            let n = u32::try_from(r.total.max(1)).unwrap_or(1).min(MAX_CALLED);
            lines.push(format!("{item}: {d} = {n} creatures"));
            n
        }
        None => 1,
    };
    let (m, _) = crate::monster::lookup(call, &index, "creature")?;
    let mut names = Vec::new();
    for i in 1..=count {
        let mut derivations = Vec::new();
        let mut c = crate::monster::from_stat_block(m, &mut derivations);
        c.name = if count == 1 {
            format!("{}'s {}", user.name, m.name)
        } else {
            format!("{}'s {} {i}", user.name, m.name)
        };
        c.kind = CharacterType::Npc;
        c.id = call.new_id("ch")?;
        let campaign = call.campaign();
        call.tx().put_character(campaign, &c)?;
        call.record_change(
            "character",
            &c.id,
            format!("{} called by {}'s {item}", c.name, user.name),
        );
        names.push(format!("{} ({})", c.name, c.id));
    }
    lines.push(format!(
        "{} appear{}: friendly to {}, obeying its commands (SRD {} stat block, {} HP each); add them to a fight as participants",
        names.join(", "),
        if count == 1 { "s" } else { "" },
        user.name,
        m.name,
        m.hit_points
    ));
    if let Some(h) = s.hours {
        lines.push(format!(
            "they stay {h} hour{} or until dropped to 0 HP: remove them then",
            if h == 1 { "" } else { "s" }
        ));
    }
    Ok(lines)
}
