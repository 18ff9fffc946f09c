//! The one seam through which randomness enters the rules.
//!
//! Rules functions take `&mut impl DieRoller` instead of an RNG so that tests can script the exact
//! faces they need, and the engine can pass the campaign's persisted stream.

/// Something that rolls one die.
pub trait DieRoller {
    /// A uniformly random face in `1..=faces` (`faces` ≥ 1).
    fn roll_die(&mut self, faces: u32) -> u32;
}

/// A roller that replays a fixed list of faces, for tests and replays.
///
/// Each value is clamped to `1..=faces` of the die asked for; when the list runs out it starts over.
#[derive(Debug, Clone)]
pub struct ScriptedRoller {
    faces: Vec<u32>,
    next: usize,
}

impl ScriptedRoller {
    /// A roller that returns `faces` in order.
    pub fn new(faces: impl Into<Vec<u32>>) -> Self {
        Self {
            faces: faces.into(),
            next: 0,
        }
    }

    /// How many dice have been rolled so far.
    pub fn rolled(&self) -> usize {
        self.next
    }
}

impl DieRoller for ScriptedRoller {
    fn roll_die(&mut self, faces: u32) -> u32 {
        let faces = faces.max(1);
        let v = if self.faces.is_empty() {
            1
        } else {
            self.faces[self.next % self.faces.len()]
        };
        self.next += 1;
        v.clamp(1, faces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_roller_replays_and_clamps() {
        let mut r = ScriptedRoller::new(vec![20, 1, 7]);
        assert_eq!(r.roll_die(20), 20);
        assert_eq!(r.roll_die(20), 1);
        assert_eq!(r.roll_die(6), 6);
        assert_eq!(r.roll_die(20), 20);
        assert_eq!(r.rolled(), 4);
    }
}
