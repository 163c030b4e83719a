//! Labels that must not overprint each other.

/// Where each dot's label goes, in pixels: beside its dot, moved up (then
/// down, then further) by a line until it overlaps no label placed before it (the
/// lecture's matrix × vector and decode at B = 1 share intensity 1).
pub fn place_labels(dots: &[(i32, i32, i32)], line: i32) -> Vec<(i32, i32)> {
    let mut placed: Vec<(i32, i32, i32)> = Vec::new();
    let overlaps = |x: i32, y: i32, w: i32, placed: &[(i32, i32, i32)]| {
        placed.iter().any(|&(px, py, pw)| x < px + pw && px < x + w && (y - py).abs() < line)
    };
    dots.iter()
        .map(|&(x, y, w)| {
            let tries = (0..12).map(|k| if k % 2 == 0 { y + (k / 2) * line } else { y - (k / 2 + 1) * line });
            let y2 = tries.clone().find(|&y2| !overlaps(x, y2, w, &placed)).unwrap_or(y);
            placed.push((x, y2, w));
            (x, y2)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_at_the_same_point_are_stacked() {
        // Two dots at intensity 1 (matrix × vector, decode B = 1), one far away.
        let at = place_labels(&[(100, 200, 80), (100, 201, 60), (400, 50, 40)], 14);
        assert_eq!(at[0], (100, 200));
        assert_eq!(at[1], (100, 215), "one line up would still touch it: one line down");
        assert_eq!(at[2], (400, 50), "no overlap, not moved");
        // At the same point: one above, then one below.
        let three = place_labels(&[(0, 100, 50), (0, 100, 50), (0, 100, 50)], 10);
        assert_eq!(three, vec![(0, 100), (0, 90), (0, 110)]);
    }
}
