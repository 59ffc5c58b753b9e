//! Colours: the two outcome colours of a plain map, and the remoteness palettes.
//!
//! Remoteness shades safe positions in oranges and unsafe ones in blues, light for short
//! games and dark for long ones. Both ramps are sequential ColorBrewer-style anchors whose
//! lightness falls evenly, so equal steps of remoteness look like equal steps of shade, and
//! both stay clearly darker than the white background so the lightest cells still show
//! against it.

/// An sRGB colour, 8 bits per channel, in the byte order the PNG is written in.
pub type Rgb = [u8; 3];

/// An unsafe position (the player to move loses) on a plain map.
pub const UNSAFE: Rgb = [0, 0, 0];

/// A safe position (the player to move wins) on a plain map.
pub const SAFE: Rgb = [255, 255, 255];

/// A position whose remoteness is not known, on a remoteness map.
pub const UNKNOWN: Rgb = [150, 150, 150];

/// Whatever lies outside the map and the legend.
pub const BACKGROUND: Rgb = [255, 255, 255];

/// Unsafe positions: light blue (short) to navy (long).
const UNSAFE_RAMP: [Rgb; 4] = [
    [198, 219, 239],
    [107, 174, 214],
    [33, 113, 181],
    [8, 48, 107],
];

/// Safe positions: light orange (short) to dark brown (long).
const SAFE_RAMP: [Rgb; 4] = [[253, 208, 162], [253, 141, 60], [217, 72, 1], [127, 39, 4]];

/// The shade of a position with this outcome and remoteness on a map whose longest
/// remoteness is `longest`: the lightest shade of its family at 0, the darkest at `longest`.
pub fn remoteness_colour(win: bool, remoteness: u32, longest: u32) -> Rgb {
    let ramp = if win { &SAFE_RAMP } else { &UNSAFE_RAMP };
    let t = if longest == 0 {
        0.0
    } else {
        f64::from(remoteness.min(longest)) / f64::from(longest)
    };
    let segments = (ramp.len() - 1) as f64;
    let at = t * segments;
    let i = (at.floor() as usize).min(ramp.len() - 2);
    let frac = at - i as f64;
    let mix = |c: usize| {
        let (from, to) = (f64::from(ramp[i][c]), f64::from(ramp[i + 1][c]));
        (from + (to - from) * frac).round() as u8
    };
    [mix(0), mix(1), mix(2)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lightness(c: Rgb) -> u32 {
        c.iter().map(|&v| u32::from(v)).sum()
    }

    #[test]
    fn ramps_end_at_their_anchors_and_darken_monotonically() {
        assert_eq!(remoteness_colour(true, 0, 10), SAFE_RAMP[0]);
        assert_eq!(remoteness_colour(true, 10, 10), SAFE_RAMP[3]);
        assert_eq!(remoteness_colour(false, 0, 10), UNSAFE_RAMP[0]);
        assert_eq!(remoteness_colour(false, 10, 10), UNSAFE_RAMP[3]);
        assert_eq!(remoteness_colour(false, 0, 0), UNSAFE_RAMP[0]);
        assert_eq!(remoteness_colour(true, 99, 10), SAFE_RAMP[3]);
        for win in [false, true] {
            let shades: Vec<u32> = (0..=300)
                .map(|r| lightness(remoteness_colour(win, r, 300)))
                .collect();
            assert!(shades.windows(2).all(|w| w[0] >= w[1]), "win={win}");
        }
    }

    #[test]
    fn families_never_share_a_colour() {
        for longest in [1, 2, 7, 100] {
            for r in 0..=longest {
                for s in 0..=longest {
                    assert_ne!(
                        remoteness_colour(true, r, longest),
                        remoteness_colour(false, s, longest)
                    );
                }
            }
        }
    }
}
