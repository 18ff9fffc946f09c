//! Magic shared by every tool that casts: the spellcasting model ([`spellcasting`]), spell
//! scrolls ([`scroll`]) and improvised spells ([`synthesis`]).

pub mod grants;
pub mod mechanics;
pub mod scroll;
pub mod spellcasting;
pub mod synthesis;
