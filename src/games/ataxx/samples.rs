//! The file of labelled training positions the Ataxx trainers can save and reload
//! (`plyscope train-ataxx --save-samples FILE` / `--samples FILE`), so that one self-play run
//! feeds several fits.
//!
//! Layout: the 8 bytes `PLYATXS1`, the number of positions as a little-endian `u64`, then per
//! position the side to move's pieces, the other side's and the walls (`u64` each), then its
//! search value, final margin and label (`f32` each), all little-endian: 36 bytes a position.

use super::train::Sample;
use std::fmt;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"PLYATXS1";
/// Bytes per position.
pub const RECORD: usize = 36;

/// Why a samples file does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SamplesError {
    /// The file does not start with [`MAGIC`] and a count.
    NotSamples,
    /// The file's length does not match its count: `expected` bytes, `found`.
    Length {
        /// The length the count implies.
        expected: u64,
        /// The file's length.
        found: u64,
    },
    /// Position `index` is not a position (pieces overlapping or off the board).
    BadPosition {
        /// The position's place in the file, from 0.
        index: usize,
    },
}

impl fmt::Display for SamplesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SamplesError::NotSamples => write!(
                f,
                "not an Ataxx samples file (expected it to start with {})",
                String::from_utf8_lossy(MAGIC)
            ),
            SamplesError::Length { expected, found } => write!(
                f,
                "samples file is {found} bytes; its count says {expected}"
            ),
            SamplesError::BadPosition { index } => write!(
                f,
                "position {index} of the samples file has overlapping pieces or cells off the board"
            ),
        }
    }
}

impl std::error::Error for SamplesError {}

/// The file holding `samples`.
pub fn encode(samples: &[Sample]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + samples.len() * RECORD);
    out.extend_from_slice(MAGIC);
    out.extend((samples.len() as u64).to_le_bytes());
    for s in samples {
        for b in [s.me, s.them, s.walls] {
            out.extend(b.to_le_bytes());
        }
        for x in [s.search, s.final_margin, s.label] {
            out.extend(x.to_le_bytes());
        }
    }
    out
}

/// The positions of a file written by [`encode`].
pub fn decode(bytes: &[u8]) -> Result<Vec<Sample>, SamplesError> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(SamplesError::NotSamples);
    }
    let n = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    let expected = n.saturating_mul(RECORD as u64).saturating_add(16);
    if expected != bytes.len() as u64 {
        return Err(SamplesError::Length {
            expected,
            found: bytes.len() as u64,
        });
    }
    let mut out = Vec::with_capacity(n as usize);
    for (index, r) in bytes[16..].chunks_exact(RECORD).enumerate() {
        let u = |i: usize| u64::from_le_bytes(r[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
        let f = |i: usize| f32::from_le_bytes(r[24 + i * 4..28 + i * 4].try_into().expect("4"));
        let (me, them, walls) = (u(0), u(1), u(2));
        if me & them != 0 || (me | them) & walls != 0 || (me | them | walls) & !super::FULL != 0 {
            return Err(SamplesError::BadPosition { index });
        }
        out.push(Sample {
            me,
            them,
            walls,
            search: f(0),
            final_margin: f(1),
            label: f(2),
        });
    }
    Ok(out)
}
