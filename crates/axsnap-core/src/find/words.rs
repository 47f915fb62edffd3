//! Words and how one text (a name, a description, an ancestor's name) answers a query's words.

/// Only the start of a text is read: a 1 MB name costs no more than a long one.
const MAX_TEXT_BYTES: usize = 4096;
/// And at most this many of its words.
const MAX_TEXT_WORDS: usize = 256;

/// A lowercase word and its stem.
#[derive(Clone, Debug)]
pub(super) struct Word {
    pub text: String,
    pub stem: String,
}

impl Word {
    fn new(text: String) -> Word {
        let stem = stem(&text);
        Word { text, stem }
    }
}

/// The lowercase words of the start of `s`, split at every non-alphanumeric character.
pub(super) fn words(s: &str) -> Vec<Word> {
    let mut end = s.len().min(MAX_TEXT_BYTES);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end]
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(MAX_TEXT_WORDS)
        .map(|w| Word::new(w.chars().flat_map(char::to_lowercase).collect()))
        .collect()
}

/// A cheap stem: plural and verb endings off, so "notifications" meets "notification" and
/// "saving" meets "save". Both sides of a comparison are stemmed, so an odd stem ("enabl")
/// only has to be consistent, not a word.
pub(super) fn stem(w: &str) -> String {
    if w.len() <= 3 || !w.is_ascii() {
        return w.to_string();
    }
    let mut s = if let Some(b) = w.strip_suffix("ies").filter(|b| b.len() >= 2) {
        format!("{b}y")
    } else if ["sses", "xes", "ches", "shes", "zes"].iter().any(|e| w.ends_with(e)) {
        w[..w.len() - 2].to_string()
    } else if w.ends_with('s') && !["ss", "us", "is"].iter().any(|e| w.ends_with(e)) {
        w[..w.len() - 1].to_string()
    } else {
        w.to_string()
    };
    if let Some(end) = ["ing", "ed"].into_iter().find(|e| s.len() >= e.len() + 3 && s.ends_with(e)) {
        s.truncate(s.len() - end.len());
    }
    if s.len() > 3 && s.ends_with('e') {
        s.pop();
    }
    s
}

/// How well one text matches one query word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Strength {
    #[default]
    None,
    /// The query word starts a text word ("notif" in "Notifications").
    Prefix,
    /// Same stem ("setting" and "Settings").
    Stem,
    /// Same word, or the query word spells adjacent text words ("login" and "Log in") or
    /// adjacent query words spell a text word ("e mail" and "Email").
    Exact,
}

/// One query word against one text word. Optional (stop) words match only exactly.
fn word_strength(q: &Word, t: &Word, optional: bool) -> Strength {
    if q.text == t.text {
        Strength::Exact
    } else if optional {
        Strength::None
    } else if q.stem == t.stem {
        Strength::Stem
    } else if q.text.len() >= 2 && t.text.starts_with(&q.text) {
        Strength::Prefix
    } else {
        Strength::None
    }
}

/// How a text answered each query word: the best strength and where in the text.
#[derive(Clone, Debug, Default)]
pub(super) struct TextMatch {
    /// Per query word: the best strength and the text word spans `[start, end)` that had it
    /// (empty when the text has no words).
    pub per_word: Vec<(Strength, Vec<(u16, u16)>)>,
    /// How many text words some query word matched.
    pub covered: usize,
    /// How many words the text has (as read).
    pub len: usize,
}

impl TextMatch {
    /// The strength for query word `i`.
    pub fn strength(&self, i: usize) -> Strength {
        self.per_word.get(i).map(|p| p.0).unwrap_or_default()
    }

    /// Bit `i` set when query word `i` matched.
    pub fn mask(&self) -> u32 {
        self.per_word.iter().enumerate().filter(|(_, p)| p.0 > Strength::None).fold(0, |m, (i, _)| m | 1 << i)
    }
}

/// Matches `text` (its words) against the query words; `optional[i]` marks stop words.
pub(super) fn match_text(q: &[Word], optional: &[bool], text: &[Word]) -> TextMatch {
    if text.is_empty() {
        return TextMatch::default();
    }
    let mut per_word: Vec<(Strength, Vec<(u16, u16)>)> = vec![(Strength::None, Vec::new()); q.len()];
    let mut covered = vec![false; text.len()];
    let mut note = |per: &mut (Strength, Vec<(u16, u16)>), s: Strength, span: (usize, usize)| {
        if s == Strength::None || s < per.0 {
            return;
        }
        if s > per.0 {
            per.0 = s;
            per.1.clear();
        }
        per.1.push((span.0 as u16, span.1 as u16));
        covered[span.0..span.1].iter_mut().for_each(|c| *c = true);
    };
    for (i, qw) in q.iter().enumerate() {
        for (j, tw) in text.iter().enumerate() {
            note(&mut per_word[i], word_strength(qw, tw, optional[i]), (j, j + 1));
            // The query word spells this and the next text words ("login" and "Log in").
            if let Some(end) = spells(&qw.text, text[j..].iter().map(|w| w.text.as_str())) {
                note(&mut per_word[i], Strength::Exact, (j, j + end));
            }
        }
    }
    // Adjacent query words spell one text word ("e mail" and "Email").
    for i in 0..q.len() {
        for (j, tw) in text.iter().enumerate() {
            if let Some(k) = spells(&tw.text, q[i..].iter().map(|w| w.text.as_str())) {
                for p in &mut per_word[i..i + k] {
                    note(p, Strength::Exact, (j, j + 1));
                }
            }
        }
    }
    let len = text.len();
    TextMatch { per_word, covered: covered.iter().filter(|c| **c).count(), len }
}

/// When two or more of `parts`, from the first, joined spell exactly `whole`: how many.
fn spells<'a>(whole: &str, parts: impl Iterator<Item = &'a str>) -> Option<usize> {
    let mut rest = whole;
    let mut n = 0;
    for p in parts {
        rest = rest.strip_prefix(p).filter(|_| !p.is_empty())?;
        n += 1;
        if rest.is_empty() {
            return (n >= 2).then_some(n);
        }
    }
    None
}

/// How a text's matched words sit in it, for the words matched in query order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Tier {
    #[default]
    None = 0,
    /// All matched, in another order or with gaps.
    AllWords = 1,
    /// In order and adjacent, inside the text.
    Substring = 2,
    /// In order and adjacent, at the start of the text.
    Prefix = 3,
    /// The whole text, in order.
    Exact = 4,
}

/// The tier of a text for the query words it matched (in query order).
pub(super) fn tier(m: &TextMatch) -> Tier {
    let mut prev_end: Option<u16> = None;
    let mut first_start = None;
    let mut adjacent = true;
    let mut any = false;
    for (s, spans) in &m.per_word {
        if *s == Strength::None {
            continue;
        }
        any = true;
        // Prefer the span that continues the previous one, else the first.
        let span = prev_end.and_then(|e| spans.iter().find(|sp| sp.0 == e)).or(spans.first());
        let Some(&(start, end)) = span else { continue };
        match prev_end {
            Some(e) if e == start => {}
            // "e mail" on "Email": both words on the same text word.
            Some(e) if e == end && first_start.is_some() => {}
            Some(_) => adjacent = false,
            None => first_start = Some(start),
        }
        prev_end = Some(end);
    }
    if !any {
        return Tier::None;
    }
    match (adjacent, first_start, prev_end) {
        (true, Some(0), Some(e)) if e as usize == m.len => Tier::Exact,
        (true, Some(0), _) => Tier::Prefix,
        (true, _, _) => Tier::Substring,
        _ => Tier::AllWords,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> (Vec<Word>, Vec<bool>) {
        let w = words(s);
        let o = vec![false; w.len()];
        (w, o)
    }

    fn strengths(query: &str, text: &str) -> Vec<Strength> {
        let (w, o) = q(query);
        let m = match_text(&w, &o, &words(text));
        (0..w.len()).map(|i| m.strength(i)).collect()
    }

    #[test]
    fn stems_meet_plurals_and_verb_forms() {
        assert_eq!(stem("notifications"), stem("notification"));
        assert_eq!(stem("settings"), stem("setting"));
        assert_eq!(stem("checkboxes"), "checkbox");
        assert_eq!(stem("switches"), "switch");
        assert_eq!(stem("entries"), "entry");
        assert_eq!(stem("saving"), stem("save"));
        assert_eq!(stem("enabled"), stem("enable"));
        assert_eq!(stem("address"), stem("address"));
        assert_ne!(stem("address"), stem("adder"));
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("bus"), "bus");
    }

    #[test]
    fn exact_stem_prefix_and_joined_words() {
        use Strength::*;
        assert_eq!(strengths("plan", "Plan"), [Exact]);
        assert_eq!(strengths("plans", "Plan"), [Stem]);
        assert_eq!(strengths("notif", "Email notifications"), [Prefix]);
        assert_eq!(strengths("login", "Log in"), [Exact]);
        assert_eq!(strengths("e mail", "Email address"), [Exact, Exact]);
        assert_eq!(strengths("mail", "Email"), [None]);
        // A single letter prefixes nothing: "e" alone is not a start of "Email".
        assert_eq!(strengths("e", "Email"), [None]);
        // Optional words match only exactly.
        let w = words("in");
        assert_eq!(match_text(&w, &[true], &words("Install")).strength(0), None);
        assert_eq!(match_text(&w, &[true], &words("Log in")).strength(0), Exact);
    }

    #[test]
    fn tiers_follow_order_and_position() {
        let t = |query: &str, text: &str| {
            let (w, o) = q(query);
            tier(&match_text(&w, &o, &words(text)))
        };
        assert_eq!(t("file open", "File open"), Tier::Exact);
        assert_eq!(t("file open", "file open dialog"), Tier::Prefix);
        assert_eq!(t("file open", "the file open"), Tier::Substring);
        assert_eq!(t("file open", "open the file dialog"), Tier::AllWords);
        assert_eq!(t("login", "Log in"), Tier::Exact);
        assert_eq!(t("e-mail", "Email"), Tier::Exact);
        assert_eq!(t("zebra", "Email"), Tier::None);
        // Words that repeat: the span that continues the phrase is taken.
        assert_eq!(t("file open", "open file open"), Tier::Substring);
    }

    #[test]
    fn long_texts_are_read_from_the_start_only() {
        let long = "word ".repeat(100_000) + "needle";
        let w = words(&long);
        assert_eq!(w.len(), MAX_TEXT_WORDS);
        assert!(words(&"é".repeat(5000)).len() == 1);
    }
}
