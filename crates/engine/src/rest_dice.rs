//! Hit dice per class for rests: a multiclass character has one pool per class (a fighter 3 /
//! cleric 2 has 3d10 and 2d8). The sheet's `hit_dice` is the total left; each class of the build
//! keeps how many of its own dice are spent, reconciled with that total when they disagree
//! (dice spent or restored by an older path count against the largest dice first).

use tabletop_rules::hp::{HitDice, HitDie, HitDieSpend};
use tabletop_rules::roller::DieRoller;

use crate::model::character::Character;

/// One class's hit dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    /// The class.
    pub class: String,
    /// Index into the build's classes.
    pub index: usize,
    /// Die faces.
    pub faces: u32,
    /// Dice (= class level).
    pub total: u32,
    /// Dice spent.
    pub spent: u32,
}

impl Pool {
    fn left(&self) -> u32 {
        self.total.saturating_sub(self.spent)
    }
}

/// The pools of `c` (largest die first), reconciled with its total left; `None` for a creature
/// with no class levels in its build (one pool of its hit die applies).
pub fn pools(c: &Character) -> Option<Vec<Pool>> {
    let b = c.build.as_ref()?;
    let d = c.derived.as_ref()?;
    if b.classes.is_empty() || d.hit_dice.len() != b.classes.len() {
        return None;
    }
    let mut out: Vec<Pool> = b
        .classes
        .iter()
        .zip(&d.hit_dice)
        .enumerate()
        .map(|(i, (cl, h))| Pool {
            class: h.source.clone(),
            index: i,
            faces: h.value.0,
            total: cl.level,
            spent: cl.hit_dice_spent.min(cl.level),
        })
        .collect();
    out.sort_by(|a, b| b.faces.cmp(&a.faces).then(a.index.cmp(&b.index)));
    let total: u32 = out.iter().map(|p| p.total).sum();
    let spent_now = total.saturating_sub(c.hit_dice.min(total));
    let mut recorded: u32 = out.iter().map(|p| p.spent).sum();
    // More spent than recorded: count it against the largest dice; fewer: give back the smallest.
    for p in out.iter_mut() {
        while recorded < spent_now && p.spent < p.total {
            p.spent += 1;
            recorded += 1;
        }
    }
    for p in out.iter_mut().rev() {
        while recorded > spent_now && p.spent > 0 {
            p.spent -= 1;
            recorded -= 1;
        }
    }
    Some(out)
}

/// Writes `pools` back to `c`'s build and its total left.
pub fn store(c: &mut Character, pools: &[Pool]) {
    if let Some(b) = c.build.as_mut() {
        for p in pools {
            if let Some(cl) = b.classes.get_mut(p.index) {
                cl.hit_dice_spent = p.spent;
            }
        }
    }
    c.hit_dice = pools.iter().map(Pool::left).sum();
}

/// "3d10 (2 left), 2d8 (2 left)".
pub fn describe(pools: &[Pool]) -> String {
    pools
        .iter()
        .map(|p| {
            format!(
                "{}d{} {} ({} left)",
                p.total,
                p.faces,
                p.class.to_lowercase(),
                p.left()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Spends one die from the largest pool with dice left: its class, faces and the roll.
pub fn spend_one(
    pools: &mut [Pool],
    con: i32,
    roller: &mut impl DieRoller,
) -> Option<(String, u32, HitDieSpend)> {
    let p = pools.iter_mut().find(|p| p.left() > 0)?;
    let mut h = HitDice {
        die: HitDie::from_faces(p.faces).unwrap_or(HitDie::D8),
        total: p.total,
        spent: p.spent,
    };
    let s = h.spend(con, roller)?;
    p.spent = h.spent;
    Some((p.class.clone(), p.faces, s))
}

/// A long rest: regains spent dice up to half the character's total (at least one), the
/// largest dice first. Returns what each class regained ("2d10 fighter").
pub fn long_rest(pools: &mut [Pool]) -> Vec<String> {
    let total: u32 = pools.iter().map(|p| p.total).sum();
    let mut budget = (total / 2).max(1);
    let mut out = Vec::new();
    for p in pools.iter_mut() {
        let n = p.spent.min(budget);
        if n > 0 {
            p.spent -= n;
            budget -= n;
            out.push(format!("{n}d{} {}", p.faces, p.class.to_lowercase()));
        }
    }
    out
}
