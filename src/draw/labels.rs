//! Labels that must not overprint each other.

/// Where each dot's label goes, in pixels: beside its dot, moved up (then
/// down, then further) by a line until it overlaps no label placed before it (the
/// lecture's matrix × vector and decode at B = 1 share intensity 1).
pub fn place_labels(dots: &[(i32, i32, i32)], line: i32) -> Vec<(i32, i32)> {
    place(dots, line, |y, k| if k % 2 == 0 { y + (k / 2) * line } else { y - (k / 2 + 1) * line })
}

/// Where each dot's label goes when it must stay below its dot (a dot on a
/// roof: the label below it never crosses the line, which only rises to
/// the right): beside its dot, moved down by a line until it overlaps no
/// label placed before it.
pub fn place_labels_below(dots: &[(i32, i32, i32)], line: i32) -> Vec<(i32, i32)> {
    place(dots, line, |y, k| y + k * line)
}

/// Each dot `(x, y, width)` in order takes the first of twelve heights
/// `try_at(y, 0…11)` where its label overlaps no label placed before it (else
/// its own height).
fn place(dots: &[(i32, i32, i32)], line: i32, try_at: impl Fn(i32, i32) -> i32) -> Vec<(i32, i32)> {
    let mut placed: Vec<(i32, i32, i32)> = Vec::new();
    let free = |x: i32, y: i32, w: i32, placed: &[(i32, i32, i32)]| {
        !placed.iter().any(|&(px, py, pw)| x < px + pw && px < x + w && (y - py).abs() < line)
    };
    dots.iter()
        .map(|&(x, y, w)| {
            let y2 = (0..12).map(|k| try_at(y, k)).find(|&y2| free(x, y2, w, &placed)).unwrap_or(y);
            placed.push((x, y2, w));
            (x, y2)
        })
        .collect()
}

/// Every how many lanes a row of `lane_w`-pixel lanes is numbered when the
/// numbers are `size` pixels and do not fit inside the lanes: 1, 2, 4, 8, 16
/// or 32 (two-digit numbers need their room).
pub fn tick_every(lane_w: f64, size: f64) -> usize {
    let need = crate::scene::text_width("30", size) + 4.0;
    [1, 2, 4, 8, 16, 32].into_iter().find(|&k| k as f64 * lane_w >= need).unwrap_or(32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_leave_room_for_two_digits() {
        assert_eq!(tick_every(40.0, 12.0), 1);
        assert_eq!(tick_every(10.0, 12.0), 2);
        assert_eq!(tick_every(5.0, 18.0), 8);
        assert_eq!(tick_every(0.1, 18.0), 32);
    }

    #[test]
    fn labels_below_only_move_down() {
        let at = place_labels_below(&[(0, 100, 50), (0, 100, 50), (10, 105, 50), (400, 10, 40)], 10);
        assert_eq!(at, vec![(0, 100), (0, 110), (10, 125), (400, 10)]);
        for (i, &(_, y)) in at.iter().enumerate() {
            assert!(y >= [100, 100, 105, 10][i]);
        }
    }

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
