//! Recordings nested deeper than a recursive JSON parser fits on a thread's stack (a web page
//! in a browser window goes thousands of levels down): [`nesting`] measures a file without
//! parsing it, and [`with_room`] runs the parse on a thread whose stack has room for it.
//! Each recording reader bounds the depth it takes itself, and then parses with serde_json's
//! own recursion limit turned off.

/// JSON nesting a parse may take on the caller's own stack.
const SHALLOW: usize = 100;

/// The stack of the thread deep files are parsed (and their values dropped) on: reserved, not
/// committed, so only what the file's depth uses is ever touched.
const DEEP_STACK: usize = 512 << 20;

/// How deep `bytes` nest arrays and objects, brackets inside strings not counted.
pub fn nesting(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Runs `parse` of a file nested `depth` deep: on the caller's thread when that is shallow,
/// else on a thread with a stack of its own. Fails when that thread cannot start, or stopped
/// without an answer.
pub fn with_room<R: Send>(depth: usize, parse: impl FnOnce() -> R + Send) -> std::io::Result<R> {
    if depth <= SHALLOW {
        return Ok(parse());
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("axsnap-deep-json".into())
            .stack_size(DEEP_STACK)
            .spawn_scoped(scope, parse)?
            .join()
            .map_err(|_| std::io::Error::other("the reader stopped on it"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_in_strings_are_not_nesting() {
        assert_eq!(nesting(br#"{"a": "[[[{{", "b": ["\\"]]]"]}"#), 2);
    }

    #[test]
    fn a_deep_parse_gets_a_stack_with_room() {
        let depth = 50_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(nesting(text.as_bytes()), depth);
        let parsed = with_room(depth, || {
            let mut de = serde_json::Deserializer::from_str(&text);
            de.disable_recursion_limit();
            serde::Deserialize::deserialize(&mut de).map(|_: serde_json::Value| ())
        });
        assert!(matches!(parsed, Ok(Ok(()))));
    }
}
