//! The rare pairs of heaps ahead, marked on other cores while the engine computes the
//! heaps before them: how `--threads` uses every core for nim-values.
//!
//! # The decomposition, and why
//!
//! The Officers paper (Games of No Chance 5, 2025) computes 5 M values/s on 8 threads
//! with two parallelisation strategies; the two ways to split this engine's work are the
//! same two: the work of one value over threads, or several heap sizes at once.
//!
//! - **One value over threads** pays a hand-over per value. At 0.4 M values/s (Officers,
//!   one core) a value takes 2.5 µs, and a wake-up and join of another thread costs
//!   several µs even spinning: the synchronisation would cost more than the work it
//!   shares. So the threads never meet per value.
//! - **Heap sizes ahead** work on whole blocks of `Ahead::width` heaps, so a hand-over
//!   is paid once a block (about a millisecond of work). Only one part of a value's work
//!   is known ahead of time: the pairs `(a, rest - a)` whose rare part `a` is at least
//!   the lag, since their partners `rest - a` lie among the values already computed.
//!   For Officers these pairs are about 60% of one core's time (1 500 of its 1 583
//!   rare heaps lie past a lag of 512); a helper marks them for a whole block, one run
//!   of `width` consecutive values per rare heap, and the engine ORs the block's marks
//!   into each heap's own (the helper's marks cost about 18% more CPU than the loop they
//!   replace: they pay only where a core is idle). What stays on the engine's thread
//!   needs the values just computed: the takes, the few rare heaps below the lag or
//!   found since the block was launched, and the witness scans, whose first pairs are
//!   the newest values (a scan usually ends within a few pairs, so it cannot be split
//!   either). Speculating on values not yet known would
//!   need a check and a rollback per value: not done.
//!
//! Marks are a set, so the values are the serial engine's, for any thread count; blocks
//! are launched only past `Ahead::from` heaps and when their rare pairs are many, so
//! small runs and games with few rare heaps stay serial. The engine never waits for a
//! block: a heap whose block is not done yet is computed the serial way, so a helper
//! that the machine's load holds back costs no more than its share of the cores.
//!
//! The helpers read the engine's 16-bit values and its rare lists through raw pointers:
//! the engine keeps those prefixes unchanged and unmoved while a block is in flight (it
//! waits for them, `Ahead::drain`, before its vectors grow, its split is rebuilt or it
//! leaves the 16-bit path).

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::Split;

/// Heaps a block covers by default.
const WIDTH: usize = 256;

/// Heaps computed before blocks start: shorter runs stay on one thread.
const FROM: usize = 1 << 16;

/// A block is launched only with at least this many rare heaps to pair: fewer cost the
/// engine more to merge than to mark itself.
const MIN_RARE: usize = 64;

/// Most blocks in flight beyond the current one.
const MAX_DEPTH: usize = 3;

/// Spreads 8 bits into 8 bytes of 0 or 1, so a block's bits OR into byte marks a byte
/// at a time.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut k = 0;
        while k < 8 {
            table[x] |= (((x >> k) & 1) as u64) << (8 * k);
            k += 1;
        }
        x += 1;
    }
    table
};

/// The values the rare pairs of heaps `start..start + width` reach, for the rare heaps
/// `rare[lo..hi]` (which every split's `rest` exceeds): one 64-bit word per heap while
/// values lie below 64, else `stride` byte marks per heap (a store per pair, where a
/// bit would cost a load, an OR and a store: the helper's loop runs a third faster).
pub(super) struct Block {
    pub start: usize,
    pub lo: usize,
    pub hi: usize,
    /// Byte marks per heap; 0: one word per heap in `bits`.
    stride: usize,
    bits: Vec<u64>,
    bytes: Vec<u8>,
}

impl Block {
    /// True when heap `n` lies in this block.
    fn holds(&self, n: usize, width: usize) -> bool {
        n >= self.start && n - self.start < width
    }

    /// Gives back the marks, for another block.
    fn into_marks(self) -> Marks {
        Marks {
            bits: self.bits,
            bytes: self.bytes,
        }
    }

    /// Heap `n`'s reached values as one word, when the block holds words (values
    /// below 64).
    #[inline]
    pub fn word(&self, n: usize) -> Option<u64> {
        (self.stride == 0).then(|| self.bits[n - self.start])
    }

    /// ORs heap `n`'s reached values into byte marks (0 or 1 each, one above every
    /// value).
    #[inline]
    pub fn mark(&self, n: usize, marks: &mut [u8]) {
        if self.stride > 0 {
            let at = (n - self.start) * self.stride;
            for (mark, &reached) in marks.iter_mut().zip(&self.bytes[at..at + self.stride]) {
                *mark |= reached;
            }
            return;
        }
        let word = self.bits[n - self.start];
        if marks.len() < 64 {
            // Caps below 64 (the tests' byte-mark path): a bit at a time.
            for (v, mark) in marks.iter_mut().enumerate() {
                *mark |= (word >> v) as u8 & 1;
            }
            return;
        }
        for (b, chunk) in marks[..64].chunks_exact_mut(8).enumerate() {
            let byte = (word >> (8 * b)) as u8;
            if byte != 0 {
                let spread = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
                chunk.copy_from_slice(&(spread | SPREAD[byte as usize]).to_le_bytes());
            }
        }
    }
}

/// A block for a helper: where the values and rare heaps are, and where to answer.
struct Job {
    values: *const u16,
    known: usize,
    rare: *const u32,
    rare_vals: *const u16,
    lo: usize,
    hi: usize,
    splits: Arc<[Split]>,
    start: usize,
    width: usize,
    stride: usize,
    marks: Marks,
    reply: SyncSender<Marks>,
}

/// A block's marks: words (values below 64) or bytes.
#[derive(Default)]
struct Marks {
    bits: Vec<u64>,
    bytes: Vec<u8>,
}

// SAFETY: the pointers are read-only views of prefixes the engine keeps unchanged and
// in place until it has received the job's reply (see the module's notes).
unsafe impl Send for Job {}

impl Job {
    fn run(mut self) {
        // SAFETY: see `unsafe impl Send for Job`: the engine holds these prefixes for
        // as long as the job runs.
        let (values, rare, rare_vals) = unsafe {
            (
                std::slice::from_raw_parts(self.values, self.known),
                std::slice::from_raw_parts(self.rare, self.hi),
                std::slice::from_raw_parts(self.rare_vals, self.hi),
            )
        };
        let (rare, rare_vals) = (&rare[self.lo..], &rare_vals[self.lo..]);
        if self.stride == 0 {
            mark_words(
                values,
                rare,
                rare_vals,
                &self.splits,
                self.start,
                self.width,
                &mut self.marks.bits,
            );
        } else {
            mark_bytes(
                values,
                rare,
                rare_vals,
                &self.splits,
                (self.start, self.width, self.stride),
                &mut self.marks.bytes,
            );
        }
        // The engine may have stopped waiting (dropped): nothing to do then.
        let _ = self.reply.send(self.marks);
    }
}

/// The runs of every split's pairs `(a, rest - a)` over the rare heaps `a` of `rare`, for
/// the heaps `start..start + width`: calls `mark(j0, run, va)` with `run[i] = G(rest0 +
/// j0 + i - a)` for heaps `start + j0 + i`. Each `a` reads runs of consecutive values;
/// the heaps go `tile` at a time, so that the marks written stay in the first-level cache.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn for_each_run(
    values: &[u16],
    rare: &[u32],
    rare_vals: &[u16],
    splits: &[Split],
    start: usize,
    width: usize,
    tile: usize,
    mut mark: impl FnMut(usize, &[u16], u16),
) {
    for t0 in (0..width).step_by(tile.max(1)) {
        let w = tile.min(width - t0);
        for split in splits {
            let Some(rest0) = (start + t0).checked_sub(split.t) else {
                continue;
            };
            for (&a, &va) in rare.iter().zip(rare_vals) {
                let a = a as usize;
                let run = &values[rest0 - a..rest0 - a + w];
                // Grundy's game: the equal split of an even `rest` is no move.
                let skip = if split.unequal && 2 * a >= rest0 && 2 * a < rest0 + w {
                    2 * a - rest0
                } else {
                    w
                };
                mark(t0, &run[..skip], va);
                if skip + 1 < w {
                    mark(t0 + skip + 1, &run[skip + 1..], va);
                }
            }
        }
    }
}

/// The block's reached values as one word per heap (values below 64).
fn mark_words(
    values: &[u16],
    rare: &[u32],
    rare_vals: &[u16],
    splits: &[Split],
    start: usize,
    width: usize,
    bits: &mut Vec<u64>,
) {
    bits.clear();
    bits.resize(width, 0);
    for_each_run(
        values,
        rare,
        rare_vals,
        splits,
        start,
        width,
        width,
        |j0, run, va| {
            for (word, &x) in bits[j0..].iter_mut().zip(run) {
                *word |= 1 << ((va ^ x) & 63);
            }
        },
    );
}

/// The block's reached values as `stride` byte marks per heap (`stride` a power of two
/// above every value).
fn mark_bytes(
    values: &[u16],
    rare: &[u32],
    rare_vals: &[u16],
    splits: &[Split],
    (start, width, stride): (usize, usize, usize),
    bytes: &mut Vec<u8>,
) {
    bytes.clear();
    bytes.resize(width * stride, 0);
    // 16 KiB of marks at a time.
    let tile = (1 << 14) / stride;
    for_each_run(
        values,
        rare,
        rare_vals,
        splits,
        start,
        width,
        tile,
        |j0, run, va| {
            for (heap, &x) in bytes[j0 * stride..].chunks_exact_mut(stride).zip(run) {
                heap[(va ^ x) as usize & (stride - 1)] = 1;
            }
        },
    );
}

/// The helpers and the blocks in flight.
pub(super) struct Ahead {
    /// Threads in all, the engine's own included: 1 computes everything on it.
    pub threads: usize,
    /// Heaps a block covers (the tests lower it).
    pub width: usize,
    /// Heaps computed before blocks start (the tests lower it).
    pub from: usize,
    /// Fewest rare heaps a block pairs (the tests lower it).
    pub min_rare: usize,
    /// Blocks the engine used so far.
    pub used: u64,
    splits: Arc<[Split]>,
    /// The largest `t` of a split: rare heaps from `start - max_t` on are the engine's.
    max_t: usize,
    jobs: Option<Sender<Job>>,
    workers: Vec<JoinHandle<()>>,
    pending: VecDeque<(Block, Receiver<Marks>)>,
    current: Option<Block>,
    next_start: usize,
    /// Marks of blocks used, for the next blocks to reuse.
    spare: Vec<Marks>,
}

impl Ahead {
    /// No helpers yet: one thread until `set_threads` says more.
    pub fn new(splits: &[Split]) -> Self {
        Ahead {
            threads: 1,
            width: WIDTH,
            from: FROM,
            min_rare: MIN_RARE,
            used: 0,
            splits: splits.into(),
            max_t: splits.iter().map(|split| split.t).max().unwrap_or(0),
            jobs: None,
            workers: Vec::new(),
            pending: VecDeque::new(),
            current: None,
            next_start: 0,
            spare: Vec::new(),
        }
    }

    /// Uses `threads` threads in all (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.drain();
        self.stop_workers();
        self.threads = threads.max(1);
    }

    /// Blocks in flight beyond the current one.
    fn depth(&self) -> usize {
        (self.threads - 1).clamp(1, MAX_DEPTH)
    }

    /// The block holding heap `n`, launching the blocks ahead first. `values` are
    /// G(0..n), `rare` and `rare_vals` the rare heaps so far; `cap` is above every value.
    pub fn block_for(
        &mut self,
        n: usize,
        values: &[u16],
        rare: &[u32],
        rare_vals: &[u16],
        cap: u32,
    ) -> Option<&Block> {
        if self.threads <= 1 || n < self.from || self.splits.is_empty() {
            return None;
        }
        if self
            .current
            .as_ref()
            .is_some_and(|b| b.holds(n, self.width))
        {
            return self.current.as_ref();
        }
        if let Some(block) = self.current.take() {
            self.spare.push(block.into_marks());
        }
        if self.next_start < n {
            self.next_start = n.next_multiple_of(self.width);
        }
        // Blocks whose heaps are past: recycled once their helper is done with them.
        while let Some((block, reply)) = self.pending.front() {
            if block.start + self.width > n {
                break;
            }
            match reply.try_recv() {
                Ok(marks) => self.spare.push(marks),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {}
            }
            self.pending.pop_front();
        }
        let horizon = n + self.depth() * self.width;
        // Helpers that fall behind get no more blocks until they catch up.
        while self.next_start <= horizon && self.pending.len() <= 2 * self.depth() {
            let start = self.next_start;
            self.next_start += self.width;
            self.launch(start, values, rare, rare_vals, cap);
        }
        let at = self
            .pending
            .iter()
            .position(|(block, _)| block.holds(n, self.width))?;
        // The engine never waits: a block not done yet leaves this heap to it.
        match self.pending[at].1.try_recv() {
            Ok(marks) => {
                let (mut block, _) = self.pending.remove(at).expect("a block");
                (block.bits, block.bytes) = (marks.bits, marks.bytes);
                self.current = Some(block);
                self.used += 1;
                self.current.as_ref()
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.pending.remove(at);
                None
            }
        }
    }

    /// Sends the block from `start` to a helper, when its rare pairs are worth it.
    fn launch(&mut self, start: usize, values: &[u16], rare: &[u32], rare_vals: &[u16], cap: u32) {
        let known = values.len();
        // Partners `rest - a` of heaps up to `start + width - 1` lie below `known` for
        // `a >= lag`; rare heaps from `start - max_t` on may exceed some split's `rest`.
        let lag = start + self.width - known;
        let below = known.min(start.saturating_sub(self.max_t));
        let lo = rare.partition_point(|&a| (a as usize) < lag);
        let hi = rare.partition_point(|&a| (a as usize) < below);
        if hi < lo + self.min_rare.max(1) {
            return;
        }
        if self.jobs.is_none() {
            self.start_workers();
        }
        // Byte marks up to this cap: a block then holds at most a MiB.
        let cap = cap as usize;
        if cap * self.width > 1 << 20 {
            return;
        }
        let stride = if cap <= 64 { 0 } else { cap };
        let (reply, answer) = mpsc::sync_channel(1);
        let job = Job {
            values: values.as_ptr(),
            known,
            rare: rare.as_ptr(),
            rare_vals: rare_vals.as_ptr(),
            lo,
            hi,
            splits: self.splits.clone(),
            start,
            width: self.width,
            stride,
            marks: self.spare.pop().unwrap_or_default(),
            reply,
        };
        let sent = self
            .jobs
            .as_ref()
            .is_some_and(|jobs| jobs.send(job).is_ok());
        if sent {
            let block = Block {
                start,
                lo,
                hi,
                stride,
                bits: Vec::new(),
                bytes: Vec::new(),
            };
            self.pending.push_back((block, answer));
        }
    }

    fn start_workers(&mut self) {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for _ in 1..self.threads {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name("sicher-nim-values".into())
                .spawn(move || loop {
                    let job = match queue.lock() {
                        Ok(queue) => queue.recv(),
                        Err(_) => return,
                    };
                    match job {
                        Ok(job) => job.run(),
                        Err(_) => return,
                    }
                });
            if let Ok(handle) = spawned {
                self.workers.push(handle);
            }
        }
        if !self.workers.is_empty() {
            self.jobs = Some(jobs);
        }
    }

    fn stop_workers(&mut self) {
        self.jobs = None;
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }

    /// Waits for every block in flight and forgets them all: the engine is about to
    /// move or change the values or rare heaps they read.
    pub fn drain(&mut self) {
        for (_, reply) in self.pending.drain(..) {
            if let Ok(marks) = reply.recv() {
                self.spare.push(marks);
            }
        }
        if let Some(block) = self.current.take() {
            self.spare.push(block.into_marks());
        }
        self.next_start = 0;
    }

    /// True when no block is in flight.
    pub fn idle(&self) -> bool {
        self.pending.is_empty()
    }

    /// Bytes the blocks hold.
    pub fn held_bytes(&self) -> usize {
        let held = |bits: &Vec<u64>, bytes: &Vec<u8>| 8 * bits.capacity() + bytes.capacity();
        self.current
            .iter()
            .map(|b| held(&b.bits, &b.bytes))
            .sum::<usize>()
            + self
                .spare
                .iter()
                .map(|m| held(&m.bits, &m.bytes))
                .sum::<usize>()
    }
}

impl Drop for Ahead {
    fn drop(&mut self) {
        self.drain();
        self.stop_workers();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_spreads_each_bit_into_its_byte() {
        let block = Block {
            start: 10,
            lo: 0,
            hi: 0,
            stride: 0,
            bits: vec![0, 0b1000_0101 | 1 << 63],
            bytes: Vec::new(),
        };
        let mut marks = vec![0u8; 128];
        marks[5] = 1;
        block.mark(11, &mut marks);
        let set: Vec<usize> = (0..128).filter(|&v| marks[v] == 1).collect();
        assert_eq!(set, [0, 2, 5, 7, 63]);
        assert!(marks.iter().all(|&m| m <= 1));
        let mut small = vec![0u8; 8];
        block.mark(11, &mut small);
        assert_eq!(small, [1, 0, 1, 0, 0, 0, 0, 1]);
    }

    /// What the pairs of rare heaps reach, heap by heap, as the engine pairs them.
    fn expected(values: &[u16], rare: &[u32], splits: &[Split], heap: usize) -> Vec<usize> {
        let mut reached = Vec::new();
        for split in splits {
            let rest = heap - split.t;
            for &a in rare {
                let a = a as usize;
                if !(split.unequal && 2 * a == rest) {
                    reached.push((values[a] ^ values[rest - a]) as usize);
                }
            }
        }
        reached.sort_unstable();
        reached.dedup();
        reached
    }

    #[test]
    fn a_block_marks_what_pairs_reach_one_heap_at_a_time() {
        let values: Vec<u16> = (0..400u32)
            .map(|i| ((i * 37 + i / 7) % 100) as u16)
            .collect();
        let small: Vec<u16> = values.iter().map(|&v| v % 64).collect();
        let rare: Vec<u32> = vec![3, 17, 40, 41, 90, 100];
        for unequal in [false, true] {
            let splits = [
                Split { t: 1, unequal },
                Split {
                    t: 2,
                    unequal: false,
                },
            ];
            let (start, width) = (200, 64);
            let rare_vals: Vec<u16> = rare.iter().map(|&a| values[a as usize]).collect();
            let mut bytes = Vec::new();
            mark_bytes(
                &values,
                &rare,
                &rare_vals,
                &splits,
                (start, width, 128),
                &mut bytes,
            );
            let small_vals: Vec<u16> = rare.iter().map(|&a| small[a as usize]).collect();
            let mut bits = Vec::new();
            mark_words(&small, &rare, &small_vals, &splits, start, width, &mut bits);
            for j in 0..width {
                let heap = start + j;
                let marked: Vec<usize> = (0..128).filter(|&v| bytes[128 * j + v] == 1).collect();
                assert_eq!(marked, expected(&values, &rare, &splits, heap), "{heap}");
                let marked: Vec<usize> = (0..64).filter(|&v| bits[j] >> v & 1 == 1).collect();
                assert_eq!(marked, expected(&small, &rare, &splits, heap), "{heap}");
            }
        }
    }
}
