//! Animated GIF export of a panel's run: frames (RGBA pixels of the same
//! scenes the canvas paints) reduced to a palette and encoded with the `gif`
//! crate. Pure and deterministic: the same frames give the same bytes.

use std::collections::HashMap;

/// Most frames one export writes (a GIF of more is neither small nor useful).
pub const MAX_FRAMES: u64 = 600;

/// The frames of a run to export: `count` positions from `from` to `to`,
/// evenly spaced, first and last included, each at most once.
pub fn frame_positions(from: u64, to: u64, max_frames: u64) -> Vec<u64> {
    let (from, to) = (from.min(to), from.max(to));
    let span = to - from;
    let n = (span + 1).min(max_frames.max(1));
    if n == 1 {
        return vec![from];
    }
    let mut out: Vec<u64> = (0..n).map(|i| from + ((i as u128 * span as u128) / (n - 1) as u128) as u64).collect();
    out.dedup();
    out
}

/// Up to 256 colours for a frame: the most frequent colours (merged to 5 bits
/// per channel, averaged), so that flat fills stay exact and anti-aliased
/// edges go to their nearest neighbour.
pub fn palette(rgba: &[u8]) -> Vec<[u8; 3]> {
    let mut buckets: HashMap<u16, (u32, [u32; 3])> = HashMap::new();
    for px in rgba.chunks_exact(4) {
        let key = ((px[0] as u16 >> 3) << 10) | ((px[1] as u16 >> 3) << 5) | (px[2] as u16 >> 3);
        let e = buckets.entry(key).or_insert((0, [0; 3]));
        e.0 += 1;
        for (sum, &v) in e.1.iter_mut().zip(&px[..3]) {
            *sum += v as u32;
        }
    }
    let mut list: Vec<(u16, (u32, [u32; 3]))> = buckets.into_iter().collect();
    // Most frequent first; the keys are distinct and break ties, so the result
    // is deterministic (and an unstable sort is enough).
    list.sort_unstable_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(&b.0)));
    list.truncate(256);
    list.iter().map(|(_, (n, sum))| [0, 1, 2].map(|c| ((sum[c] + n / 2) / n) as u8)).collect()
}

fn nearest(palette: &[[u8; 3]], px: [u8; 3]) -> u8 {
    let d = |p: &[u8; 3]| (0..3).map(|c| (p[c] as i32 - px[c] as i32).pow(2)).sum::<i32>();
    (0..palette.len()).min_by_key(|&i| d(&palette[i])).unwrap_or(0) as u8
}

/// Each pixel's index in `palette` (its nearest colour).
pub fn indices(rgba: &[u8], palette: &[[u8; 3]]) -> Vec<u8> {
    let mut cache: HashMap<[u8; 3], u8> = HashMap::new();
    rgba.chunks_exact(4)
        .map(|px| {
            let c = [px[0], px[1], px[2]];
            *cache.entry(c).or_insert_with(|| nearest(palette, c))
        })
        .collect()
}

/// An animated GIF being written, frame by frame.
pub struct GifWriter {
    enc: gif::Encoder<Vec<u8>>,
    width: u16,
    height: u16,
    frames: usize,
}

impl GifWriter {
    /// A looping GIF of `width × height` pixels.
    pub fn new(width: u16, height: u16) -> Result<Self, String> {
        let mut enc = gif::Encoder::new(Vec::new(), width, height, &[]).map_err(|e| e.to_string())?;
        enc.set_repeat(gif::Repeat::Infinite).map_err(|e| e.to_string())?;
        Ok(GifWriter { enc, width, height, frames: 0 })
    }

    /// Add a frame of RGBA pixels (`width × height × 4` bytes) shown for
    /// `delay_cs` hundredths of a second, with its own palette.
    pub fn add(&mut self, rgba: &[u8], delay_cs: u16) -> Result<(), String> {
        if rgba.len() != self.width as usize * self.height as usize * 4 {
            return Err(format!("frame of {} bytes for {}×{}", rgba.len(), self.width, self.height));
        }
        let pal = palette(rgba);
        let idx = indices(rgba, &pal);
        let mut flat: Vec<u8> = pal.iter().flatten().copied().collect();
        // A colour table has a power-of-two size of at least 2 entries.
        let size = pal.len().next_power_of_two().max(2);
        flat.resize(size * 3, 0);
        let frame = gif::Frame {
            width: self.width,
            height: self.height,
            delay: delay_cs,
            palette: Some(flat),
            buffer: std::borrow::Cow::Owned(idx),
            ..gif::Frame::default()
        };
        self.enc.write_frame(&frame).map_err(|e| e.to_string())?;
        self.frames += 1;
        Ok(())
    }

    pub fn frames(&self) -> usize {
        self.frames
    }

    /// The file's bytes.
    pub fn finish(self) -> Result<Vec<u8>, String> {
        self.enc.into_inner().map_err(|e| e.to_string())
    }
}

/// Hundredths of a second per frame for a speed in steps per second, when
/// every `stride`-th step is a frame (GIF viewers clamp under 2 cs).
pub fn delay_cs(steps_per_second: i64, stride: u64) -> u16 {
    let s = steps_per_second.max(1) as f64;
    ((100.0 * stride.max(1) as f64 / s).round() as u64).clamp(2, 6000) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn frame(w: usize, h: usize, k: u8) -> Vec<u8> {
        let mut v = Vec::with_capacity(w * h * 4);
        for y in 0..h {
            for x in 0..w {
                let on = (x + y + k as usize) % 5 == 0;
                v.extend_from_slice(&if on { [235, 110, 20, 255] } else { [255, 255, 255, 255] });
            }
        }
        v
    }

    fn decode(bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::RGBA);
        let mut d = opts.read_info(bytes).expect("a GIF");
        let mut frames = Vec::new();
        while let Some(f) = d.read_next_frame().expect("a frame") {
            frames.push(f.buffer.to_vec());
        }
        frames
    }

    #[test]
    fn frames_round_trip_exactly_when_few_colours() {
        let (w, h) = (23, 17);
        let mut g = GifWriter::new(w as u16, h as u16).unwrap();
        let src: Vec<Vec<u8>> = (0..12).map(|k| frame(w, h, k)).collect();
        for f in &src {
            g.add(f, 25).unwrap();
        }
        assert_eq!(g.frames(), 12);
        let bytes = g.finish().unwrap();
        assert_eq!(&bytes[..6], b"GIF89a");
        assert_eq!(decode(&bytes), src);
    }

    #[test]
    fn deterministic() {
        let enc = || {
            let mut g = GifWriter::new(8, 8).unwrap();
            g.add(&frame(8, 8, 3), 10).unwrap();
            g.finish().unwrap()
        };
        assert_eq!(enc(), enc());
    }

    #[test]
    fn wrong_frame_size_is_an_error() {
        let mut g = GifWriter::new(4, 4).unwrap();
        assert!(g.add(&[0; 12], 10).is_err());
    }

    #[test]
    fn positions_cover_the_run() {
        assert_eq!(frame_positions(0, 12, 600), (0..=12).collect::<Vec<_>>());
        assert_eq!(frame_positions(5, 5, 600), vec![5]);
        let p = frame_positions(0, 100_000, 600);
        assert_eq!((p.len(), p[0], *p.last().unwrap()), (600, 0, 100_000));
        assert_eq!(delay_cs(4, 1), 25);
        assert_eq!(delay_cs(1000, 1), 2);
    }

    proptest! {
        #[test]
        fn positions_are_sorted_distinct_and_bounded(a in 0u64..1_000_000, b in 0u64..1_000_000, m in 1u64..700) {
            let p = frame_positions(a, b, m);
            prop_assert!(p.len() as u64 <= m);
            prop_assert_eq!(p[0], a.min(b));
            prop_assert_eq!(*p.last().unwrap(), if m == 1 { a.min(b) } else { a.max(b) });
            prop_assert!(p.windows(2).all(|w| w[0] < w[1]));
        }

        #[test]
        fn every_pixel_maps_to_its_nearest_palette_colour(px in proptest::collection::vec(any::<u8>(), 4..400)) {
            let n = px.len() / 4 * 4;
            let rgba = &px[..n];
            let pal = palette(rgba);
            prop_assert!(!pal.is_empty() && pal.len() <= 256);
            let idx = indices(rgba, &pal);
            prop_assert_eq!(idx.len(), n / 4);
            for (i, c) in rgba.chunks_exact(4).enumerate() {
                let d = |p: &[u8; 3]| (0..3).map(|k| (p[k] as i32 - c[k] as i32).pow(2)).sum::<i32>();
                let best = pal.iter().map(d).min().unwrap();
                prop_assert_eq!(d(&pal[idx[i] as usize]), best);
            }
        }
    }
}
