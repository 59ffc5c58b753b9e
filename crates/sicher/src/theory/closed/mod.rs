//! Closed forms: games whose unsafe positions theory names outright, answered at once
//! for heaps of any size (u64) with integer arithmetic only. Wythoff's game
//! ([`wythoff`], Wythoff 1907) and Moore's Nim_k ([`moore`], Moore 1910), each in normal
//! and misère play, with every winning move.
//!
//! # Files
//!
//! - `wythoff.rs`: Wythoff's game: the unsafe pairs and every winning move.
//! - `golden.rs`: exact integer arithmetic with φ: the Beatty sequences ⌊kφ⌋ and ⌊kφ²⌋.
//! - `moore.rs`: Moore's Nim_k: the binary columns rule and every winning move.
//! - `moore_search.rs`: the digit-by-digit search for Moore's winning moves.

mod golden;
pub mod moore;
mod moore_search;
pub mod wythoff;
