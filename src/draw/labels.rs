//! Labels that must not overprint each other.

/// Where each dot's label goes, in pixels: beside its dot, moved up (then
/// down, then further) by a line until it overlaps no label placed before it (the
/// lecture's matrix × vector and decode at B = 1 share intensity 1).
pub fn place_labels(dots: &[(i32, i32, i32)], line: i32) -> Vec<(i32, i32)> {
    place(dots, line, i32::MAX, 12, |y, k| (if k % 2 == 0 { y + (k / 2) * line } else { y - (k / 2 + 1) * line }, true))
}

/// Where each dot's label goes when it should stay below its dot (a dot on a
/// roof: the label below it never crosses the line, which only rises to
/// the right): beside its dot, moved down by a line until it overlaps no
/// label placed before it, its bottom no lower than `bottom` (the plot's
/// floor: under it are the axis's numbers); where no row below is free, the
/// first free row above; else the first free row below, floor or not.
pub fn place_labels_below(dots: &[(i32, i32, i32)], line: i32, bottom: i32) -> Vec<(i32, i32)> {
    let rows = |y: i32, k: i32| match k {
        0..12 => (y + k * line, true),
        12..24 => (y - (k - 11) * line, true),
        _ => (y + (k - 24) * line, false),
    };
    place(dots, line, bottom, 36, rows)
}

/// Dots that sit on one spot share one label: each dot joins the first group
/// whose first dot is within `near` pixels each way (the weight matmuls of
/// a decode step all sit at intensity B), else starts its own. The groups'
/// members, in order; a group's label goes at its first dot.
pub fn group_spots(spots: &[(i32, i32)], near: i32) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, &(x, y)) in spots.iter().enumerate() {
        match groups.iter_mut().find(|g| (spots[g[0]].0 - x).abs() <= near && (spots[g[0]].1 - y).abs() <= near) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// Each dot `(x, y, width)` in order takes the first of the heights
/// `try_at(y, 0…tries − 1)` where its label overlaps no label placed before
/// it and, where the try says so, ends above `bottom` (else its own height).
fn place(
    dots: &[(i32, i32, i32)],
    line: i32,
    bottom: i32,
    tries: i32,
    try_at: impl Fn(i32, i32) -> (i32, bool),
) -> Vec<(i32, i32)> {
    let mut placed: Vec<(i32, i32, i32)> = Vec::new();
    let free = |x: i32, y: i32, w: i32, placed: &[(i32, i32, i32)]| {
        !placed.iter().any(|&(px, py, pw)| x < px + pw && px < x + w && (y - py).abs() < line)
    };
    dots.iter()
        .map(|&(x, y, w)| {
            let fits =
                |(y2, floor): (i32, bool)| (!floor || y2.saturating_add(line) <= bottom) && free(x, y2, w, &placed);
            let y2 = (0..tries).map(|k| try_at(y, k)).find(|&t| fits(t)).map_or(y, |t| t.0);
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
        let at = place_labels_below(&[(0, 100, 50), (0, 100, 50), (10, 105, 50), (400, 10, 40)], 10, i32::MAX);
        assert_eq!(at, vec![(0, 100), (0, 110), (10, 125), (400, 10)]);
        for (i, &(_, y)) in at.iter().enumerate() {
            assert!(y >= [100, 100, 105, 10][i]);
        }
    }

    #[test]
    fn labels_below_stay_above_the_floor() {
        // Three labels at one spot, room for two rows under the dot before the
        // floor at 125: the third goes to the first free row above the dot.
        let at = place_labels_below(&[(0, 100, 50), (0, 100, 50), (0, 100, 50)], 10, 125);
        assert_eq!(at, vec![(0, 100), (0, 110), (0, 90)]);
        assert!(at.iter().all(|&(_, y)| y + 10 <= 125));
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

    #[test]
    fn dots_on_one_spot_share_a_group() {
        // Four weight matmuls at intensity B (within a few pixels), attention
        // apart, a norm far below, a fifth matmul back at the first spot.
        let g = group_spots(&[(300, 100), (302, 104), (299, 97), (250, 180), (120, 400), (301, 101)], 8);
        assert_eq!(g, vec![vec![0, 1, 2, 5], vec![3], vec![4]]);
        assert_eq!(group_spots(&[], 8), Vec::<Vec<usize>>::new());
        // Every dot in exactly one group.
        let mut all: Vec<usize> = g.concat();
        all.sort_unstable();
        assert_eq!(all, (0..6).collect::<Vec<_>>());
    }
}
