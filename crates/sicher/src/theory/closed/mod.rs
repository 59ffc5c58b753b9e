//! Closed forms: games whose unsafe positions theory names outright, answered at once
//! for heaps of any size (u64) with integer arithmetic only. Wythoff's game
//! ([`wythoff`], Wythoff 1907) and Moore's Nim_k ([`moore`], Moore 1910), each in normal
//! and misère play, with every winning move.

pub mod golden;
pub mod moore;
mod moore_search;
pub mod wythoff;
