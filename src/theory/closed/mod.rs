//! Closed forms: games whose unsafe positions theory names outright, answered at once
//! for heaps of any size (u64) with integer arithmetic only. Wythoff's game
//! ([`wythoff`], Wythoff 1907), in normal and misère play, with every winning move.

pub mod golden;
pub mod wythoff;
