//! The order a learner sees a quiz's options in: a permutation of the
//! authored indices, fixed by the learner's seed (in the progress record)
//! and the exercise, so it is the same on every visit and in both front
//! ends, yet differs between learners — the correct option has no position
//! to memorise or pass on. Answers and keys always name authored indices;
//! only the display is permuted.
//!
//! Deterministic on every target (wasm32 too): FNV-1a over the ids, then a
//! splitmix64 stream drives a Fisher–Yates shuffle. No dependency is needed
//! for that little, and the sequence must never change under a crate
//! upgrade, or every learner's options would move.

/// splitmix64 (Steele, Lea and Flood): one step of the stream.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FNV-1a 64 of the seed and the two ids, each id ended by a 0xff byte
/// (never in UTF-8), so `("ab", "c")` and `("a", "bc")` differ.
fn mix(seed: u32, lesson: &str, exercise: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = seed
        .to_le_bytes()
        .into_iter()
        .chain(lesson.bytes())
        .chain([0xff])
        .chain(exercise.bytes())
        .chain([0xff]);
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The authored indices `0..count` in the order this learner sees them:
/// position `p` on screen shows option `order[p]`.
pub fn option_order(seed: u32, lesson: &str, exercise: &str, count: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    let mut state = mix(seed, lesson, exercise);
    for last in (1..count).rev() {
        // Modulo bias over a 64-bit draw is below 2^-50 for a handful of
        // options: immaterial for a display order.
        let pick = (splitmix(&mut state) % (last as u64 + 1)) as usize;
        order.swap(last, pick);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_is_a_permutation_and_stable() {
        for count in 0..8 {
            let order = option_order(7, "04", "quiz", count);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..count).collect::<Vec<_>>());
            assert_eq!(order, option_order(7, "04", "quiz", count));
        }
    }

    #[test]
    fn the_first_position_holds_every_option_for_some_learner() {
        // Over 64 seeds, each of four options is shown first at least once:
        // no option has a fixed place across learners.
        let mut seen = [false; 4];
        for seed in 0..64 {
            seen[option_order(seed, "10", "quiz-pitfalls", 4)[0]] = true;
        }
        assert_eq!(seen, [true; 4]);
    }

    #[test]
    fn the_ids_are_kept_apart() {
        let one: Vec<_> = (0..16).map(|s| option_order(s, "ab", "c", 5)).collect();
        let two: Vec<_> = (0..16).map(|s| option_order(s, "a", "bc", 5)).collect();
        assert_ne!(one, two);
    }
}
