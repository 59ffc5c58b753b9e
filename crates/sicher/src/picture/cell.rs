//! One position of a map, as plain data: what both the map and its legend read (so
//! neither imports the other).

/// What a map shows of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MapCell {
    /// True when the position is safe (the player to move wins).
    pub win: bool,
    /// Moves to the end of the game under best play, when known; only
    /// [`super::MapMode::Remoteness`] draws it.
    pub remoteness: Option<u32>,
}
