//! The grading and formatting of answers (the banks themselves are tested
//! over the registry, in `topics/tests.rs`).

use super::*;

#[test]
fn grading_of_numbers() {
    let count = Answer::count(2);
    assert_eq!(count.grade(Given::Number(2.0)), Grade::Right);
    assert_eq!(count.grade(Given::Number(3.0)), Grade::Wrong);
    let big = Answer::count(169);
    assert_eq!(big.grade(Given::Number(160.0)), Grade::Close);
    assert_eq!(big.grade(Given::Number(f64::NAN)), Grade::Wrong);
    let real = Answer::real(295.0, 0.03);
    assert_eq!(real.grade(Given::Number(300.0)), Grade::Right);
    assert_eq!(real.grade(Given::Number(320.0)), Grade::Close);
    assert_eq!(real.grade(Given::Number(400.0)), Grade::Wrong);
    let pct = Answer::percent(0.364, 2.0);
    assert_eq!(pct.grade(Given::Number(36.0)), Grade::Right);
    assert_eq!(pct.grade(Given::Number(42.0)), Grade::Close);
    assert_eq!(pct.grade(Given::Choice(0)), Grade::Wrong);
}
