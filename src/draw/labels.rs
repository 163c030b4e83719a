//! Labels that must not overprint each other.

/// Where each dot's label goes, in pixels: beside its dot, moved up (then
/// down, then further) by a line until it overlaps no label placed before it (the
/// lecture's matrix × vector and decode at B = 1 share intensity 1).
pub fn place_labels(dots: &[(i32, i32, i32)], line: i32) -> Vec<(i32, i32)> {
    let rows = |y: i32, k: i32| (if k % 2 == 0 { y + (k / 2) * line } else { y - (k / 2 + 1) * line }, true);
    let blocks: Vec<Block> = dots.iter().map(|&(x, y, w)| (x, y, w, line)).collect();
    place(&blocks, (i32::MIN, i32::MAX), 12, rows, &|_| true, &|_| None)
}

/// A label's box in pixels, `(x, y, w, h)`: its top-left corner, width and
/// height (a label of several lines is one box, so its lines stay together).
pub type Block = (i32, i32, i32, i32);

/// Where each label goes when it should stay below its dot (a dot on a
/// roof: the label below it never crosses the line, which only rises to
/// the right): beside its dot, moved down by a line until it overlaps no
/// label placed before it, its bottom no lower than `bottom` (the plot's
/// floor: under it are the axis's numbers); where no row below is free, the
/// first free row above, its top no higher than `top` (the plot's top);
/// else the first free row below, floor or not.
///
/// `clear(box)` says whether a label there keeps off a line drawn on the
/// plot (the roof: a label moved up from a dot under the slope ran across
/// it); a row where it does not is taken only when no row over the floor is
/// clear (over the floor counts first: under it are the axis's numbers).
///
/// `nudge(box)`: where a box that is not clear may go instead on its row,
/// moved right (past the dots in its way: a cluster of memory-bound dots on
/// the slope), if anywhere; tried right after the row itself.
pub fn place_labels_below(
    labels: &[Block],
    line: i32,
    (top, bottom): (i32, i32),
    clear: &dyn Fn(Block) -> bool,
    nudge: &dyn Fn(Block) -> Option<i32>,
) -> Vec<(i32, i32)> {
    // Up to 28 rows up: a phone's plot is about 17 rows tall, and a label
    // over the roof (tied to its dot by a leader) reads better than one
    // across the roof or over the axis's numbers under the floor.
    let rows = |y: i32, k: i32| match k {
        0..12 => (y + k * line, true),
        12..40 => (y - (k - 11) * line, true),
        _ => (y + (k - 40) * line, false),
    };
    place(labels, (top, bottom), 52, rows, clear, nudge)
}

/// The `x` where a box on its row clears every dot of `spots` (discs of
/// radius `r`), moved right past those in its way, if that is at most
/// `reach` pixels right of where it was and it ends by `right`.
pub fn right_of_dots(spots: &[(i32, i32)], r: i32, (x, y, w, h): Block, reach: i32, right: i32) -> Option<i32> {
    let mut x2 = x;
    // Each pass moves past one dot; as many passes as dots.
    for _ in 0..=spots.len() {
        match spots.iter().filter(|&&s| !clear_of_dots(&[s], r, (x2, y, w, h))).map(|&(cx, _)| cx + r + 1).max() {
            None => return (x2 != x && x2 - x <= reach && x2 + w <= right).then_some(x2),
            Some(past) => x2 = past.max(x2 + 1),
        }
    }
    None
}

/// Whether a label's box keeps off a roof whose height in pixels at `x` is
/// `roof(x)` and which only rises to the right (pixel y falls): wholly under
/// it (its top under the roof at its left edge, where the roof is lowest) or
/// wholly over it (its bottom over the roof at its right edge).
pub fn clear_of_roof(roof: impl Fn(i32) -> i32, (x, y, w, h): Block) -> bool {
    y >= roof(x) || y + h <= roof(x + w)
}

/// Whether a label's box keeps off every dot: a disc of radius `r` pixels
/// at each of `spots` (a label moved down a row from its own dot landed on
/// the next dot down the slope: #/llm's KV-cache write under "residual add").
pub fn clear_of_dots(spots: &[(i32, i32)], r: i32, (x, y, w, h): Block) -> bool {
    spots.iter().all(|&(cx, cy)| {
        let (dx, dy) = (i64::from(cx - cx.clamp(x, x + w)), i64::from(cy - cy.clamp(y, y + h)));
        dx * dx + dy * dy > i64::from(r) * i64::from(r)
    })
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

/// Each label in order takes the first of the heights `try_at(y, 0…tries − 1)`
/// where its box overlaps no label placed before it, starts under `top`,
/// ends above `bottom` where the try says so, and is `clear`; else the first such height that is
/// not clear (the floor matters more: under it are the axis's numbers);
/// else the first clear one under the floor; else any free one; else its
/// own height.
fn place(
    labels: &[Block],
    (top, bottom): (i32, i32),
    tries: i32,
    try_at: impl Fn(i32, i32) -> (i32, bool),
    clear: &dyn Fn(Block) -> bool,
    nudge: &dyn Fn(Block) -> Option<i32>,
) -> Vec<(i32, i32)> {
    let mut placed: Vec<Block> = Vec::new();
    let free = |(x, y, w, h): Block, placed: &[Block]| {
        !placed.iter().any(|&(px, py, pw, ph)| x < px + pw && px < x + w && y < py + ph && py < y + h)
    };
    labels
        .iter()
        .map(|&(x, y, w, h)| {
            let fits = |(x2, y2, floor): (i32, i32, bool)| {
                y2 >= top && (!floor || y2.saturating_add(h) <= bottom) && free((x2, y2, w, h), &placed)
            };
            // Each row at the label's own x, then (where that is not clear)
            // moved right on it.
            let tried = || {
                (0..tries)
                    .map(|k| try_at(y, k))
                    .flat_map(|(y2, floor)| {
                        let moved = if clear((x, y2, w, h)) { None } else { nudge((x, y2, w, h)) };
                        std::iter::once((x, y2, floor)).chain(moved.map(|x2| (x2, y2, floor)))
                    })
                    .filter(|&t| fits(t))
            };
            let clear_at = |x2: i32, y2: i32| clear((x2, y2, w, h));
            let (x2, y2) = tried()
                .find(|&(x2, y2, floor)| floor && clear_at(x2, y2))
                .or_else(|| tried().find(|&(_, _, floor)| floor))
                .or_else(|| tried().find(|&(x2, y2, _)| clear_at(x2, y2)))
                .or_else(|| tried().next())
                .map_or((x, y), |t| (t.0, t.1));
            placed.push((x2, y2, w, h));
            (x2, y2)
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

    const ANYWHERE: &dyn Fn(Block) -> bool = &|_| true;
    const NOWHERE: &dyn Fn(Block) -> Option<i32> = &|_| None;

    #[test]
    fn labels_keep_off_the_roof() {
        // A roof rising to the right: y = 200 − x (pixels), flat at 0 from x = 200.
        let roof = |x: i32| (200 - x).max(0);
        let clear = |b: Block| clear_of_roof(roof, b);
        assert!(clear((50, 150, 40, 10)), "under the roof at its left edge");
        assert!(!clear((50, 140, 40, 10)), "its left end pokes through the slope");
        assert!(clear((50, 100, 40, 10)), "over the roof at its right edge");
        assert!(!clear((50, 100, 40, 20)), "two lines there reach down across it");
        // Two labels under the slope at x = 100 (the roof is at 100 there), a
        // third dot just over them whose own row (95) crosses the slope: it
        // goes down past the two, not across the line ...
        let at = place_labels_below(
            &[(100, 105, 60, 10), (100, 105, 60, 10), (100, 95, 60, 10)],
            10,
            (i32::MIN, 145),
            &clear,
            NOWHERE,
        );
        assert_eq!(at, vec![(100, 105), (100, 115), (100, 125)]);
        let before = place_labels_below(
            &[(100, 105, 60, 10), (100, 105, 60, 10), (100, 95, 60, 10)],
            10,
            (i32::MIN, 145),
            ANYWHERE,
            NOWHERE,
        );
        assert_eq!(before[2], (100, 95), "where nothing is drawn, its own row");
        // ... and with no clear row, the first free one as before.
        let dots = [(100, 105, 60, 10), (100, 95, 60, 10)];
        let none = place_labels_below(&dots, 10, (i32::MIN, 110), &|_| false, NOWHERE);
        assert_eq!(none, place_labels_below(&dots, 10, (i32::MIN, 110), ANYWHERE, NOWHERE));
        assert_eq!(none, vec![(100, 95), (100, 85)]);
    }

    #[test]
    fn labels_keep_off_the_dots() {
        let dots = [(100, 100), (300, 50)];
        assert!(!clear_of_dots(&dots, 6, (90, 95, 40, 10)), "over a dot");
        assert!(!clear_of_dots(&dots, 6, (105, 90, 40, 10)), "its corner within the disc");
        assert!(clear_of_dots(&dots, 6, (106, 106, 40, 10)), "the corner just outside the disc (√72 > 6)");
        assert!(clear_of_dots(&dots, 6, (0, 0, 50, 10)));
        // Placed below its own dot at (100, 100): the row at 120 holds the
        // next dot down the slope at (120, 125), so the label goes a row further.
        let dots = [(100, 100), (120, 125)];
        let clear = |b: Block| clear_of_dots(&dots, 5, b);
        let at = place_labels_below(&[(106, 114, 60, 10)], 10, (i32::MIN, 200), &clear, NOWHERE);
        assert_eq!(at, vec![(106, 134)]);
        assert!(clear((106, 134, 60, 10)));
        // Allowed to move right on a row: its own row, past the dot.
        let nudge = |b: Block| right_of_dots(&dots, 5, b, 40, 400);
        let at = place_labels_below(&[(106, 114, 60, 10)], 10, (i32::MIN, 200), &clear, &nudge);
        assert_eq!(at, vec![(126, 114)]);
        assert!(clear((126, 114, 60, 10)));
        // Not further than its reach, nor past the right edge.
        assert_eq!(right_of_dots(&dots, 5, (106, 114, 60, 10), 19, 400), None);
        assert_eq!(right_of_dots(&dots, 5, (106, 114, 60, 10), 40, 185), None);
        assert_eq!(right_of_dots(&dots, 5, (106, 114, 60, 10), 40, 186), Some(126));
        // Past a run of dots, each in the way of the box moved past the last.
        let run = [(100, 100), (130, 100), (170, 102)];
        assert_eq!(right_of_dots(&run, 5, (90, 95, 40, 10), 200, 1000), Some(176));
        assert_eq!(right_of_dots(&run, 5, (0, 0, 40, 10), 200, 1000), None, "clear where it is: no move");
    }

    #[test]
    fn labels_below_only_move_down() {
        let at = place_labels_below(
            &[(0, 100, 50, 10), (0, 100, 50, 10), (10, 105, 50, 10), (400, 10, 40, 10)],
            10,
            (i32::MIN, i32::MAX),
            ANYWHERE,
            NOWHERE,
        );
        assert_eq!(at, vec![(0, 100), (0, 110), (10, 125), (400, 10)]);
        for (i, &(_, y)) in at.iter().enumerate() {
            assert!(y >= [100, 100, 105, 10][i]);
        }
    }

    #[test]
    fn labels_stay_under_the_top() {
        // Rows under the dot taken to the floor: up, but not past the top at 80.
        let at = place_labels_below(
            &[(0, 100, 50, 10), (0, 100, 50, 10), (0, 100, 50, 30)],
            10,
            (80, 120),
            ANYWHERE,
            NOWHERE,
        );
        assert_eq!(at[2].1, 120, "no room for it over the floor and under the top: under the floor");
        assert!(at.iter().all(|&(_, y)| y >= 80));
    }

    #[test]
    fn a_label_of_two_lines_moves_as_one() {
        // Its box (95..115) covers the label at 100: both lines go down past it together.
        let at = place_labels_below(&[(0, 100, 50, 10), (0, 95, 50, 20)], 10, (i32::MIN, i32::MAX), ANYWHERE, NOWHERE);
        assert_eq!(at, vec![(0, 100), (0, 115)]);
    }

    #[test]
    fn labels_below_stay_above_the_floor() {
        // Three labels at one spot, room for two rows under the dot before the
        // floor at 125: the third goes to the first free row above the dot.
        let at = place_labels_below(
            &[(0, 100, 50, 10), (0, 100, 50, 10), (0, 100, 50, 10)],
            10,
            (i32::MIN, 125),
            ANYWHERE,
            NOWHERE,
        );
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
