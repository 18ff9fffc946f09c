//! Dice notation: parser, roller and the seeded random stream (in progress).
