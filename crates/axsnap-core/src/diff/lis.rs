//! Longest increasing subsequence: which siblings can stay where they are.

/// Marks the members of one longest strictly increasing subsequence of `keys`, in
/// O(n log n). Ties between equally long subsequences go to the one ending earliest.
pub(super) fn longest_increasing(keys: &[u32]) -> Vec<bool> {
    // tails[k]: index of the smallest key ending an increasing run of length k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut back: Vec<usize> = vec![usize::MAX; keys.len()];
    for (i, &k) in keys.iter().enumerate() {
        let at = tails.partition_point(|&t| keys[t] < k);
        if at > 0 {
            back[i] = tails[at - 1];
        }
        if at == tails.len() {
            tails.push(i);
        } else {
            tails[at] = i;
        }
    }
    let mut keep = vec![false; keys.len()];
    let mut cur = tails.last().copied().unwrap_or(usize::MAX);
    while cur != usize::MAX {
        keep[cur] = true;
        cur = back[cur];
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::longest_increasing;

    fn picked(keys: &[u32]) -> Vec<u32> {
        let keep = longest_increasing(keys);
        keys.iter().zip(keep).filter(|(_, k)| *k).map(|(v, _)| *v).collect()
    }

    #[test]
    fn finds_a_longest_run() {
        assert_eq!(picked(&[]), Vec::<u32>::new());
        assert_eq!(picked(&[5]), vec![5]);
        assert_eq!(picked(&[0, 1, 2, 3]), vec![0, 1, 2, 3]);
        // One element moved to the front: everything else stays.
        assert_eq!(picked(&[3, 0, 1, 2]), vec![0, 1, 2]);
        assert_eq!(picked(&[1, 2, 3, 0]), vec![1, 2, 3]);
        assert_eq!(picked(&[3, 2, 1, 0]).len(), 1);
        assert_eq!(picked(&[2, 5, 3, 7, 11, 8, 10, 13, 6]).len(), 6);
    }

    #[test]
    fn run_is_increasing_and_longest_on_random_input() {
        let mut x: u64 = 7;
        for len in 0..200u32 {
            let keys: Vec<u32> = (0..len)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (x >> 33) as u32 % 50
                })
                .collect();
            let run = picked(&keys);
            assert!(run.windows(2).all(|w| w[0] < w[1]));
            // O(n^2) reference length.
            let mut best = vec![1usize; keys.len()];
            for i in 0..keys.len() {
                for j in 0..i {
                    if keys[j] < keys[i] {
                        best[i] = best[i].max(best[j] + 1);
                    }
                }
            }
            assert_eq!(run.len(), best.iter().copied().max().unwrap_or(0));
        }
    }
}
