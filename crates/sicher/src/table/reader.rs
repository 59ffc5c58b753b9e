//! Reading a table: [`Table`] maps the file, checks its header, length and index when
//! opened, and each body block the first time a probe reads it; decoded blocks of a
//! compressed body are cached.

use std::fs::{File, Metadata};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

use memmap2::Mmap;

use super::format::{self, BodyKind, Codec, Header, Prediction, BLOCK_BYTES};
use super::predict::Predictor;
use super::writer::{residual, BLOCK_WORDS};
use super::{codec, CACHE_BLOCKS};
use crate::domain::Ranker;
use crate::error::{Error, Hint, Result, TableKind};
use crate::game::partizan::{PartizanGame, Terminal, TerminalScript};
use crate::game::{parse_spec, with_carried, CustomRules, Game, Heap, Position};
use crate::value::{OutcomeClass, Player, Value};

/// A cache slot: which block it holds, and the block's words.
type Slot = Option<(u64, Box<[u64]>)>;

/// Decoded blocks of a compressed table.
enum BlockCache {
    /// Every block has a slot: decoded once, kept while the table is open.
    All(Vec<OnceLock<Box<[u64]>>>),
    /// Block `b` lives in slot `b % CACHE_BLOCKS`, replacing whichever was there.
    Some(Mutex<Vec<Slot>>),
}

/// What the open file was when it was mapped: its length and last change. A file
/// written over in place (`cp` onto it) or truncated while mapped changes them, and the
/// map would then answer from someone else's bytes, or fault (SIGBUS) past the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

impl Stamp {
    fn of(meta: &Metadata) -> Self {
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }
}

/// An open, memory-mapped table of any body kind.
pub struct Table {
    path: PathBuf,
    header: Header,
    ranker: Ranker,
    game: Game,
    /// Partizan tables: the game, both players' rules.
    partizan: Option<PartizanGame>,
    map: Mmap,
    /// The mapped file, kept open to look at its length and last change (one `fstat`)
    /// before answering; see [`Table::check_unchanged`].
    file: File,
    stamp: Stamp,
    /// Flat bodies: one bit per body block, set once the block matched its checksum.
    verified: Vec<AtomicU64>,
    /// Compressed bodies: the block index.
    index: Vec<codec::Entry>,
    predictor: Predictor,
    cache: BlockCache,
}

impl Table {
    /// Opens a table: checks its header, its length and its block index (each body
    /// block is checked when first read).
    pub fn open(path: &Path) -> Result<Self> {
        let origin = path.display().to_string();
        let bad = |why: String| Error::damaged(format!("{origin}: {why}"));
        // Opening a FIFO or a device would block or read garbage: regular files only.
        let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
        if meta.is_dir() {
            return Err(Error::input(format!(
                "{origin}: is a directory, not a table"
            )));
        }
        if !meta.is_file() {
            return Err(Error::input(format!(
                "{origin}: is not a regular file, so not a table"
            )));
        }
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        // Of the open file, not of the path, and before mapping: a change from here on
        // shows in `check_unchanged`.
        let stamp = Stamp::of(&file.metadata().map_err(|e| Error::io(path, e))?);
        // SAFETY: the map is only read. Tables are written under a temporary name and
        // renamed into place, so sicher never changes a mapped file; another program
        // writing over it or truncating it is caught by `check_unchanged` before the
        // answers that callers check for (a truncation in the middle of one read is
        // outside what a map can guard against).
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
        let header = Header::decode(&map, &origin)?;
        let expected = header.file_len();
        if (map.len() as u64) < expected {
            return Err(bad(format!(
                "truncated table ({} bytes, expected {expected})",
                map.len()
            )));
        }
        if (map.len() as u64) > expected {
            return Err(bad(format!(
                "corrupted table ({} bytes, expected {expected})",
                map.len()
            )));
        }
        let index_end = (header.index_offset + header.index_len()) as usize;
        let index_bytes = &map[header.index_offset as usize..index_end];
        if format::checksum_of_version(header.version, index_bytes) != header.index_checksum {
            return Err(bad(
                "corrupted table (body checksum mismatch in the block index)".into(),
            ));
        }
        let (game, partizan) = rebuild_game(&header, &origin)?;
        // Outcome tables cover positions, which play must not lead out of the domain;
        // nim-value tables cover heap sizes.
        if header.kind.holds_positions() {
            let mut games = vec![game.clone()];
            if let Some(p) = &partizan {
                games.push(Game::new(p.spec(), p.right.clone(), header.convention));
            }
            for game in &games {
                header
                    .domain
                    .check_game(game)
                    .map_err(|e| bad(format!("corrupted table header ({e})")))?;
            }
        }
        let ranker =
            Ranker::new(header.domain).map_err(|e| bad(format!("corrupted table header ({e})")))?;
        if ranker.count() != header.entries {
            return Err(bad(format!(
                "corrupted table header ({} entries, but the domain has {})",
                header.entries,
                ranker.count()
            )));
        }
        let predictor = Predictor::build(&header.prediction, &game, header.domain)
            .map_err(|why| bad(format!("corrupted table header ({why})")))?;
        if predictor.check() != header.prediction_check {
            return Err(bad(
                "its prediction's nim-values or model differ from what this sicher computes; make the table again"
                    .into(),
            ));
        }
        let index = match header.codec {
            Codec::Flat => Vec::new(),
            Codec::Zstd { .. } => read_index(&header, index_bytes)
                .map_err(|why| bad(format!("corrupted table (block index: {why})")))?,
        };
        let verified = (0..header.blocks().div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect();
        let blocks = header.blocks() as usize;
        let cache = if blocks <= CACHE_BLOCKS {
            BlockCache::All((0..blocks).map(|_| OnceLock::new()).collect())
        } else {
            BlockCache::Some(Mutex::new(vec![None; CACHE_BLOCKS]))
        };
        Ok(Table {
            path: path.to_path_buf(),
            header,
            ranker,
            game,
            partizan,
            map,
            file,
            stamp,
            verified,
            index,
            predictor,
            cache,
        })
    }

    /// Refuses a table whose file changed after it was opened (its length or its last
    /// change differ): written over in place or truncated, its map no longer holds the
    /// table that was checked. One `fstat`, cheap enough to call before every answer
    /// or batch of answers; a table replaced by renaming another file onto its path is
    /// not a change (the open file is still the one mapped, whole).
    pub fn check_unchanged(&self) -> Result<()> {
        let now = self.file.metadata().map_err(|e| Error::io(&self.path, e))?;
        let now = Stamp::of(&now);
        if now != self.stamp {
            let how = if now.len < self.stamp.len {
                format!("truncated to {} bytes", now.len)
            } else {
                "written over".to_string()
            };
            return Err(Error::damaged(format!(
                "{}: the table's file changed after it was opened ({how}); open it again",
                self.path.display()
            )));
        }
        Ok(())
    }

    /// The decoded header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file this table was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The domain's ranker.
    pub fn ranker(&self) -> &Ranker {
        &self.ranker
    }

    /// The game the table was written for, rebuilt from its header (for a partizan
    /// table, Left's rules under the partizan game's name: see [`Table::partizan`]).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The partizan game of a partizan table (both players' rules, the terminal rule).
    pub fn partizan(&self) -> Option<&PartizanGame> {
        self.partizan.as_ref()
    }

    /// A partizan table's labels of a position: whether Left, to move, wins and whether
    /// Right, to move, wins; an error outside the domain, for a damaged block, or when
    /// the table is not partizan.
    pub fn sides(&self, position: &Position) -> Result<(bool, bool)> {
        self.check_unchanged()?;
        if self.partizan.is_none() {
            return Err(Error::input(format!(
                "{} holds an impartial game's outcomes, not both players' labels",
                self.path.display()
            )));
        }
        let rank = self.ranker.rank(position).ok_or_else(|| {
            Error::input(format!(
                "position {position} is outside the table's domain ({}) in {}",
                self.header.domain.flags(),
                self.path.display()
            ))
        })?;
        let field = self.field_at(rank)?;
        Ok((
            field & format::LEFT_WINS != 0,
            field & format::RIGHT_WINS != 0,
        ))
    }

    /// A partizan table's outcome class of a position (see [`Table::sides`]).
    pub fn class(&self, position: &Position) -> Result<OutcomeClass> {
        let (left, right) = self.sides(position)?;
        Ok(OutcomeClass::from_wins(left, right))
    }

    /// Whether `to_move` wins `position`, from a partizan table (see [`Table::sides`]).
    pub fn wins(&self, position: &Position, to_move: Player) -> Result<bool> {
        let (left, right) = self.sides(position)?;
        Ok(match to_move {
            Player::Left => left,
            Player::Right => right,
        })
    }

    /// Refuses a table written for another game or convention.
    pub fn check_game(&self, game: &Game) -> Result<()> {
        if self.header.canonical() != game.canonical() {
            return Err(Error::input(format!(
                "{}: this table is for {} play of {}, not {} play of {}",
                self.path.display(),
                self.game.convention,
                self.game.title(),
                game.convention,
                game.title()
            )));
        }
        Ok(())
    }

    /// True when the position lies in the table's domain.
    pub fn covers(&self, position: &Position) -> bool {
        self.ranker.rank(position).is_some()
    }

    /// The value of a position, or an error when it is outside the domain, its block is
    /// damaged or the file changed since it was opened ([`Table::check_unchanged`]; the
    /// hot paths below leave that check to their callers, once per batch).
    pub fn probe(&self, position: &Position) -> Result<Value> {
        self.check_unchanged()?;
        let rank = self.ranker.rank(position).ok_or_else(|| {
            Error::input(format!(
                "position {position} is outside the table's domain ({}) in {}",
                self.header.domain.flags(),
                self.path.display()
            ))
        })?;
        self.value_of(position.heaps(), rank)
    }

    /// The value of rank `rank` (`rank < entries`).
    #[inline(always)]
    pub fn value_at(&self, rank: u64) -> Result<Value> {
        Ok(self
            .header
            .kind
            .value(self.field_at(rank)?, self.header.convention))
    }

    /// The value of the position of ascending heaps `heaps` (zeros allowed), whose rank
    /// is `rank`: the fast way, as the heaps make a prediction cheap.
    #[inline(always)]
    pub fn value_of(&self, heaps: &[Heap], rank: u64) -> Result<Value> {
        let (field, predicted) = self.stored_field(rank)?;
        let field = if predicted {
            field ^ u64::from(self.predictor.safe(heaps))
        } else {
            field
        };
        Ok(self.header.kind.value(field, self.header.convention))
    }

    /// The value of the position a move leads to from ascending `heaps`, the child's
    /// rank being `rank`; `scratch` holds the child's heaps when a prediction needs them.
    #[inline(always)]
    pub fn child_value(
        &self,
        heaps: &[Heap],
        removed: &[usize],
        added: &[Heap],
        rank: u64,
        scratch: &mut Vec<Heap>,
    ) -> Result<Value> {
        let (field, predicted) = self.stored_field(rank)?;
        let field = if predicted {
            field ^ u64::from(self.predictor.safe_after(heaps, removed, added, scratch))
        } else {
            field
        };
        Ok(self.header.kind.value(field, self.header.convention))
    }

    /// The field of rank `rank` (`rank < entries`), its block(s) checked on first use.
    #[inline(always)]
    pub fn field_at(&self, rank: u64) -> Result<u64> {
        let (field, predicted) = self.stored_field(rank)?;
        if predicted {
            let position = self.ranker.unrank(rank);
            return Ok(field ^ u64::from(self.predictor.safe(position.heaps())));
        }
        Ok(field)
    }

    /// The stored field of rank `rank`, and whether it is a residual.
    #[inline(always)]
    fn stored_field(&self, rank: u64) -> Result<(u64, bool)> {
        let width = u64::from(self.header.width);
        let bit = rank * width;
        let word_index = bit / 64;
        let shift = bit % 64;
        // Widths are at most 32 bits, so the mask never overflows.
        let mask = (1u64 << width) - 1;
        let (word, predicted) = self.word(word_index)?;
        let low = word >> shift;
        if shift + width <= 64 {
            Ok((low & mask, predicted))
        } else {
            // The field straddles two words (never predicted: only outcomes are).
            Ok((
                (low | self.word(word_index + 1)?.0 << (64 - shift)) & mask,
                predicted,
            ))
        }
    }

    /// Body word `index`, its block checked on first use, and whether its block holds
    /// a residual.
    #[inline(always)]
    fn word(&self, index: u64) -> Result<(u64, bool)> {
        let block = index / BLOCK_WORDS as u64;
        let at = (index % BLOCK_WORDS as u64) as usize;
        if self.header.codec == Codec::Flat {
            self.ensure_verified(block)?;
            let at = (self.header.body_offset + index * 8) as usize;
            return Ok((
                u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap_or([0; 8])),
                false,
            ));
        }
        let predicted = self.index[block as usize].predicted();
        match &self.cache {
            BlockCache::All(slots) => {
                let slot = &slots[block as usize];
                if let Some(words) = slot.get() {
                    return Ok((words[at], predicted));
                }
                let words = self.decode_block(block)?;
                let word = words[at];
                let _ = slot.set(words);
                Ok((word, predicted))
            }
            BlockCache::Some(slots) => {
                let mut slots = slots.lock().unwrap_or_else(|e| e.into_inner());
                let slot = &mut slots[block as usize % CACHE_BLOCKS];
                if let Some((b, words)) = slot {
                    if *b == block {
                        return Ok((words[at], predicted));
                    }
                }
                let words = self.decode_block(block)?;
                let word = words[at];
                *slot = Some((block, words));
                Ok((word, predicted))
            }
        }
    }

    /// Decodes one compressed block, checked: an error names the block.
    fn decode_block(&self, block: u64) -> Result<Box<[u64]>> {
        let entry = &self.index[block as usize];
        let start = if block == 0 {
            0
        } else {
            self.index[block as usize - 1].end
        };
        let body = self.header.body_offset as usize;
        let stored = &self.map[body + start as usize..body + entry.end as usize];
        let mut words =
            vec![0u64; (self.header.raw_block_len(block) / 8) as usize].into_boxed_slice();
        codec::decode(entry, stored, &mut words, &mut Vec::new()).map_err(|e| {
            let why = match e {
                codec::DecodeError::StoredChecksum => "body checksum mismatch",
                codec::DecodeError::Malformed => "compressed bytes that do not decode",
                codec::DecodeError::WordsChecksum => "decoded body checksum mismatch",
            };
            self.damaged_block(block, why)
        })?;
        Ok(words)
    }

    fn damaged_block(&self, block: u64, why: &str) -> Error {
        Error::damaged(format!(
            "{}: corrupted table ({why} in block {} of {})",
            self.path.display(),
            block + 1,
            self.header.blocks()
        ))
        .with_hint(Hint::WriteAgain(TableKind::Positions))
    }

    #[inline(always)]
    fn ensure_verified(&self, block: u64) -> Result<()> {
        let slot = &self.verified[(block / 64) as usize];
        if slot.load(Ordering::Relaxed) >> (block % 64) & 1 == 1 {
            return Ok(());
        }
        self.verify_block(block)?;
        slot.fetch_or(1 << (block % 64), Ordering::Relaxed);
        Ok(())
    }

    /// The body words of one flat block.
    fn block_words(&self, block: u64) -> impl ExactSizeIterator<Item = u64> + '_ {
        let start = (self.header.body_offset + block * BLOCK_BYTES) as usize;
        let end = (start as u64 + BLOCK_BYTES).min(self.header.file_len()) as usize;
        self.map[start..end]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
    }

    fn verify_block(&self, block: u64) -> Result<()> {
        let at = (self.header.index_offset + block * 8) as usize;
        let stored = u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap_or([0; 8]));
        let words = self.block_words(block);
        if format::block_checksum_of_version(self.header.version, words) != stored {
            return Err(self.damaged_block(block, "body checksum mismatch"));
        }
        Ok(())
    }

    /// The outcome words of one block as the writer was given them (residuals turned
    /// back), checked.
    fn outcome_words(&self, block: u64) -> Result<Vec<u64>> {
        if self.header.codec == Codec::Flat {
            self.ensure_verified(block)?;
            return Ok(self.block_words(block).collect());
        }
        let words = self.decode_block(block)?;
        if self.index[block as usize].predicted() {
            return Ok(residual(
                &self.ranker,
                &self.predictor,
                self.header.entries,
                block,
                &words,
            ));
        }
        Ok(words.into_vec())
    }

    /// Reads the whole table: every block against its checksums, the padding, the
    /// unused tail bits, and what the header counted of the entries.
    pub fn verify(&self) -> Result<()> {
        self.check_unchanged()?;
        let origin = self.path.display();
        let corrupted = |why: &str| Error::damaged(format!("{origin}: corrupted table ({why})"));
        let header_len = u32::from_le_bytes(self.map[12..16].try_into().unwrap_or([0; 4]));
        let header_end = format::PREFIX_LEN + header_len as usize + 8;
        let index_end = (self.header.index_offset + self.header.index_len()) as usize;
        let padding = self.map[header_end..self.header.index_offset as usize]
            .iter()
            .chain(&self.map[index_end..self.header.body_offset as usize]);
        if padding.clone().any(|&b| b != 0) {
            return Err(corrupted("padding is not zero"));
        }
        let blocks = self.header.blocks();
        let used_bits = self.header.entries * u64::from(self.header.width);
        let outcomes = matches!(self.header.kind, BodyKind::Outcomes { .. });
        let mut safe = 0u64;
        for block in 0..blocks {
            let words = self.outcome_words(block)?;
            if block + 1 == blocks {
                let tail_bits = used_bits % 64;
                let last = words.last().copied().unwrap_or(0);
                if tail_bits != 0 && last >> tail_bits != 0 {
                    return Err(corrupted("bits past the last entry"));
                }
            }
            if outcomes {
                safe += words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
            }
        }
        match self.header.kind {
            BodyKind::Outcomes { unsafe_count } => {
                if self.header.entries - safe != unsafe_count {
                    return Err(corrupted("unsafe count mismatch"));
                }
            }
            BodyKind::Remoteness { rmax } => {
                let mut counts = vec![0u64; rmax as usize + 1];
                for rank in 0..self.header.entries {
                    let r = self.field_at(rank)?;
                    match counts.get_mut(r as usize) {
                        Some(count) => *count += 1,
                        None => return Err(corrupted("a remoteness above the largest")),
                    }
                }
                if counts.last() == Some(&0) {
                    return Err(corrupted("the largest remoteness does not occur"));
                }
                if self.header.histogram.as_ref().is_some_and(|h| *h != counts) {
                    return Err(corrupted("remoteness histogram mismatch"));
                }
            }
            BodyKind::Quotient { order } => {
                for rank in 0..self.header.entries {
                    if self.field_at(rank)? >= u64::from(order) {
                        return Err(corrupted("a product outside the quotient"));
                    }
                }
            }
            BodyKind::Partizan { classes } => {
                let mut counted = [0u64; 4];
                for rank in 0..self.header.entries {
                    let field = self.field_at(rank)?;
                    let class = OutcomeClass::from_wins(
                        field & format::LEFT_WINS != 0,
                        field & format::RIGHT_WINS != 0,
                    );
                    counted[class as usize] += 1;
                }
                if counted != classes {
                    return Err(corrupted("partizan class counts mismatch"));
                }
            }
            BodyKind::NimValues { .. } => {}
        }
        Ok(())
    }
}

/// The game a header names, with what the table carries: its custom rules' option lists
/// where no rules are alive under their specs, a partizan game's players and terminal
/// script. Header games are inline specs: a crafted header never makes sicher open a
/// file.
fn rebuild_game(header: &Header, origin: &str) -> Result<(Game, Option<PartizanGame>)> {
    let bad = |why: String| Error::damaged(format!("{origin}: corrupted table header ({why})"));
    let mut carried = Vec::new();
    for lists in &header.carried.rules {
        if CustomRules::find(&lists.spec).is_none() {
            carried.push(lists.rules(origin).map_err(bad)?);
        }
    }
    with_carried(&carried, || {
        let Some((left, right)) = &header.carried.sides else {
            let game = parse_spec(&header.game)
                .map_err(|e| missing_rules(e, origin))?
                .with_convention(header.convention)
                .with_shipped_name();
            // Writers store the canonical spec; anything else (say, with control
            // characters that `info` would print) was not written by sicher.
            if game.ruleset.spec() != header.game {
                return Err(bad("the game is not a canonical spec".into()));
            }
            return Ok((game, None));
        };
        let side = |spec: &str| -> Result<_> {
            let ruleset = parse_spec(spec)
                .map_err(|e| missing_rules(e, origin))?
                .ruleset;
            if ruleset.spec() != *spec {
                return Err(bad("a player's rules are not a canonical spec".into()));
            }
            Ok(ruleset)
        };
        let (left, right) = (side(left)?, side(right)?);
        let terminal = match (&header.carried.terminal, header.convention) {
            (Some(text), _) => Terminal::Script(std::sync::Arc::new(TerminalScript::new(
                &format!("{origin} (the terminal rule it carries)"),
                text,
            ))),
            (None, crate::game::Convention::Normal) => Terminal::Normal,
            (None, crate::game::Convention::Misere) => Terminal::Misere,
        };
        let partizan = PartizanGame::new(header.game.clone(), left.clone(), right)
            .map_err(|e| bad(e.message()))?
            .with_terminal(terminal);
        if partizan.spec() != header.game {
            return Err(bad("the game is not its players' spec".into()));
        }
        let game = Game::new(header.game.clone(), left, header.convention);
        Ok((game, Some(partizan)))
    })
}

/// A header game whose rules are neither alive nor carried (a table of format 3 written
/// for a script or a function): not damage, the rules are missing.
fn missing_rules(error: Error, origin: &str) -> Error {
    let message = error.message();
    if message.contains("give the description file") || message.contains("unknown rules") {
        Error::input(format!(
            "{origin}: the table names rules it does not carry (written by an older sicher): {message}"
        ))
    } else {
        Error::damaged(format!("{origin}: corrupted table header ({message})"))
    }
}

/// Reads and checks the index of a compressed body: ends that grow to the stored
/// length, known encodings, residuals only in outcome bodies, and lengths each
/// encoding allows.
fn read_index(header: &Header, bytes: &[u8]) -> std::result::Result<Vec<codec::Entry>, String> {
    let mut entries = Vec::with_capacity(header.blocks() as usize);
    let mut start = 0u64;
    let predicts = header.prediction != Prediction::None;
    for (block, chunk) in bytes
        .chunks_exact(format::COMPRESSED_ENTRY_BYTES as usize)
        .enumerate()
    {
        let entry = codec::Entry::from_bytes(chunk);
        let block = block as u64;
        let len = entry.end.checked_sub(start).ok_or("ends out of order")?;
        let raw = header.raw_block_len(block);
        let fits = match entry.encoding() {
            codec::ZERO => len == 0,
            codec::RAW => len == raw,
            _ => len < raw,
        };
        if !entry.well_formed() || !fits || (entry.predicted() && !predicts) {
            return Err(format!("impossible entry for block {}", block + 1));
        }
        start = entry.end;
        entries.push(entry);
    }
    if start != header.stored_len {
        return Err("blocks do not fill the stored body".into());
    }
    Ok(entries)
}
