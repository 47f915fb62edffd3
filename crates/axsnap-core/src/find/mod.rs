//! Find: a deterministic scorer that finds what a person would name.
//!
//! `find(tree, "plan pro", 5)` ranks the nodes of a snapshot tree (those with refs) against a
//! query. The rules, all exact (no typo tolerance, no randomness, no learned weights):
//!
//! - **Words.** Query and texts are lowercased and split at every non-alphanumeric character.
//!   Word order does not matter for matching. A query word matches a text word when they are
//!   equal, share a cheap stem (plurals, "-ing", "-ed": "notifications" and "Notification"),
//!   or the query word (two letters or more) starts it ("notif"). A query word may spell
//!   adjacent text words ("login" matches "Log in"), and adjacent query words one text word
//!   ("e-mail" matches "Email"). At most 16 query words are read, and the start of each text.
//! - **Stop words** ("the", "to", "in", "click", ...) count when an element has them ("Log
//!   in", "Add to cart") and are not missed when it has not.
//! - **Kind words** name roles, with their common synonyms: "button", "link"; "field",
//!   "input", "text box" → textbox (and search, combo and spin boxes); "select", "dropdown",
//!   "picker" → combobox or listbox; "toggle", "switch", "checkbox", "check", "enable" →
//!   checkbox or switch; "radio", "option", "tab", "menu", "slider", "dialog", "group",
//!   "table", ... (`kinds.rs` has the table). Plurals count ("checkboxes").
//! - **Evidence.** Each query word is answered by the element itself (its name; its role
//!   through a kind word; its description, value or options) or, failing that, by an
//!   ancestor: an ancestor's name ("plan pro" finds radio "Pro" in group "Plan"), an unnamed
//!   container's first heading (a product card's title) or an unnamed row's cells ("revoke
//!   laptop token"), or an ancestor's role through a kind word ("close button in the
//!   dialog"). The document root's title does not count.
//! - **Which elements.** An element is listed when it answers at least one required word
//!   itself and, with its ancestors, at least half of them; all of them when its own text
//!   answers none (a role alone is no evidence: "search box" does not list every text box).
//!   Words it does not answer are in [`Hit::missing`].
//! - **Rank**, each criterion deciding only ties of the ones before:
//!   1. words answered, by the element or its ancestors ("plan pro": radio "Pro" in group
//!      "Plan" before a button "Pro" elsewhere);
//!   2. words the element answers itself (so ancestor words never outrank a direct match: a
//!      link "Pro plan details" comes before that radio);
//!   3. a target: its ref shows in a snapshot (it acts, or it can be scoped to), so the
//!      "Revoke" button of a row comes before the row's text cell, and a link before its
//!      own text;
//!   4. the name spells the whole query in order ("select all" is the button, not a select);
//!   5. a kind word matched the role and another word the element's own text (or the query is
//!      only kind words);
//!   6. how the matched words sit in the name: all of it, its start, inside it, scattered;
//!   7. match strength (name exact > name stem > kind > name prefix > description or value);
//!   8. the share of the name's words that matched (a shorter name is a closer match);
//!   9. actionable (has actions, not disabled), then visible (not offscreen);
//!   10. document order.
//!
//!   [`Hit::score`] packs 1-9 into one number: higher is better, comparable within one query.
//! - **Bounded hits.** The path lists named and landmark ancestors; past four, only the
//!   outermost and innermost two with `…+N levels` between. Names are cut at 200 characters
//!   and path names at 80, with a `…+N chars` marker. One walk over the tree, no recursion,
//!   no per-node ancestor walk: a 100,000-deep tree gives short hits fast.

mod kinds;
mod path;
mod query;
mod words;

use serde::{Deserialize, Serialize};

use self::path::{cap, in_path, role_str, PathEnds, MAX_NAME_CHARS};
use self::query::Query;
use self::words::{match_text, tier, words, Strength, TextMatch, Tier};
use crate::refs::Ref;
use crate::render::shows_ref;
use crate::role::Role;
use crate::state::State;
use crate::tree::{Node, NodeId, Tree};

/// One ranked match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// The element's ref.
    #[serde(rename = "ref")]
    pub r: Ref,
    /// Its role.
    pub role: String,
    /// Its name (cut at 200 characters with a `…+N chars` marker).
    pub name: String,
    /// Ancestor path, outermost first, as `role "name"` strings of named or landmark
    /// ancestors; past four, the outermost two, `…+N levels` and the innermost two.
    pub path: Vec<String>,
    /// Score (higher is better; comparable within one query); ties keep document order.
    pub score: u32,
    /// Query words neither the element nor its ancestors answer (a partial match).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// Ranks the nodes of a snapshot tree (refs assigned) against `query`; at most `limit` hits.
pub fn find(tree: &Tree, query: &str, limit: usize) -> Vec<Hit> {
    let q = Query::parse(query);
    if q.words.is_empty() || limit == 0 {
        return Vec::new();
    }
    // What the ancestors of the node being visited answer, one entry per depth.
    let mut stack: Vec<Context> = Vec::new();
    let mut found: Vec<Found> = Vec::new();
    for (order, (id, depth)) in tree.preorder().enumerate() {
        stack.truncate(depth);
        let outer = stack.last().copied().unwrap_or_default();
        if depth == 0 {
            // The root: its title would answer every word for every node.
            stack.push(Context::default());
            continue;
        }
        let n = tree.node(id);
        let name = match_text(&q.words, &q.optional, &words(&n.name));
        let kind = q.kind_mask(&n.role);
        if n.ref_id.is_some() && !matches!(n.role, Role::More | Role::TextRun) {
            if let Some((score, missing)) = score(&q, n, &name, kind, outer.answered) {
                found.push(Found { score, order, id, path: outer.path, missing });
            }
        }
        let mut answered = outer.answered | name.mask() | kind;
        if n.name.is_empty() && is_container(&n.role) {
            answered |= container_context(tree, id, &q);
        }
        let path = if in_path(tree, id) { outer.path.push(id) } else { outer.path };
        stack.push(Context { answered, path });
    }
    found.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.order.cmp(&b.order)));
    found
        .into_iter()
        .take(limit)
        .filter_map(|f| {
            let n = tree.node(f.id);
            let missing = (0..q.words.len())
                .filter(|i| f.missing & 1 << i != 0)
                .map(|i| cap(&q.words[i].text, path::MAX_PATH_NAME_CHARS))
                .collect();
            Some(Hit {
                r: n.ref_id?,
                role: role_str(&n.role),
                name: cap(&n.name, MAX_NAME_CHARS),
                path: f.path.render(tree),
                score: f.score,
                missing,
            })
        })
        .collect()
}

/// What a node's ancestors (and the node, for its descendants) answer.
#[derive(Clone, Copy, Debug, Default)]
struct Context {
    /// Bits of the query words answered.
    answered: u32,
    /// The path-worthy ancestors.
    path: PathEnds,
}

/// A node that matched.
struct Found {
    score: u32,
    order: usize,
    id: NodeId,
    path: PathEnds,
    /// Bits of the required words nothing answered.
    missing: u32,
}

/// Containers that, unnamed, are known by their first heading (a card, a list item, a form
/// section) or, for a row, by its cells.
fn is_container(role: &Role) -> bool {
    matches!(
        role,
        Role::Article
            | Role::ListItem
            | Role::Group
            | Role::Region
            | Role::Form
            | Role::Dialog
            | Role::AlertDialog
            | Role::TabPanel
            | Role::Row
    )
}

/// How many nodes of a container are searched for its heading, and how many cells of a row
/// are read.
const CONTEXT_SEARCH: usize = 32;

/// The query words an unnamed container's context answers: a row's cells (the "Laptop" of
/// a row with a "Revoke" button), else its first heading among its first [`CONTEXT_SEARCH`]
/// descendants (a product card's title).
fn container_context(tree: &Tree, id: NodeId, q: &Query) -> u32 {
    let answers = |n: &Node| match_text(&q.words, &q.optional, &words(&n.name)).mask();
    let node = tree.node(id);
    if node.role == Role::Row {
        return node.children.iter().take(CONTEXT_SEARCH).fold(0, |m, c| m | answers(tree.node(*c)));
    }
    let mut stack: Vec<NodeId> = node.children.iter().take(CONTEXT_SEARCH).rev().copied().collect();
    let mut seen = 0;
    while let Some(c) = stack.pop() {
        let n = tree.node(c);
        if n.role == Role::Heading && !n.name.is_empty() {
            return answers(n);
        }
        seen += 1;
        if seen >= CONTEXT_SEARCH {
            break;
        }
        stack.extend(n.children.iter().take(CONTEXT_SEARCH).rev());
    }
    0
}

/// Strength of one word's evidence, for rank criterion 6.
fn weight(name: Strength, kind: bool, other: Strength) -> u32 {
    let name = match name {
        Strength::Exact => 10,
        Strength::Stem => 9,
        Strength::Prefix => 6,
        Strength::None => 0,
    };
    let kind = if kind { 8 } else { 0 };
    let other = match other {
        Strength::Exact | Strength::Stem => 4,
        Strength::Prefix => 3,
        Strength::None => 0,
    };
    name.max(kind).max(other)
}

/// The best strength per query word over the node's description, value and options.
fn other_text(q: &Query, n: &Node) -> Vec<Strength> {
    let mut best = vec![Strength::None; q.words.len()];
    // A value is kept whole (a text area's document, up to a million characters); its words
    // past the text cap are the document's, not the field's, and reading them all would make
    // every search as slow as the longest one: its first page only, as a snapshot shows it.
    let value = n.value.as_deref().map(|v| {
        let end = v.char_indices().nth(crate::caps::TEXT_CHARS).map_or(v.len(), |(i, _)| i);
        &v[..end]
    });
    let texts = n
        .description
        .as_deref()
        .into_iter()
        .chain(value)
        .chain(n.options.iter().take(64).map(String::as_str));
    for t in texts {
        let m: TextMatch = match_text(&q.words, &q.optional, &words(t));
        for (i, b) in best.iter_mut().enumerate() {
            *b = (*b).max(m.strength(i));
        }
    }
    best
}

/// The packed score of a node and the bits of the required words nothing answered, or `None`
/// when it is not listed.
fn score(q: &Query, n: &Node, name: &TextMatch, kind: u32, ancestors: u32) -> Option<(u32, u32)> {
    let other = if n.description.is_some() || n.value.is_some() || !n.options.is_empty() {
        other_text(q, n)
    } else {
        Vec::new()
    };
    let other_at = |i: usize| other.get(i).copied().unwrap_or_default();
    let mut own = 0u32;
    let mut text = 0u32;
    let mut strength = 0u32;
    for i in 0..q.words.len() {
        let w = weight(name.strength(i), kind & 1 << i != 0, other_at(i));
        if w > 0 {
            own |= 1 << i;
            strength += w;
        }
        if name.strength(i) > Strength::None || other_at(i) > Strength::None {
            text |= 1 << i;
        }
    }
    let required = q.required;
    let answered = (own | ancestors) & required;
    // A partial match needs the element's own text: a role alone ("box") is no evidence.
    let enough =
        if text == 0 { answered == required } else { answered.count_ones() * 2 >= required.count_ones() };
    if own & required == 0 || !enough {
        return None;
    }
    let all_in_name = (0..q.words.len()).all(|i| name.strength(i) >= Strength::Stem);
    let name_tier = tier(name);
    let phrase = all_in_name && name_tier == Tier::Exact;
    let kind_named = kind != 0 && (text != 0 || kind & required == required);
    let completeness = (name.covered * 15).checked_div(name.len).unwrap_or(0) as u32;
    let actionable = !n.actions.is_empty() && !n.states.contains(State::Disabled);
    let visible = !n.states.contains(State::Offscreen);
    // Bits, high to low: answered 5, own 5, target 1, phrase 1, kind 1, tier 3, strength 8,
    // completeness 4, actionable 1, visible 1 (30 of 32; at most 16 words).
    let score = (own | ancestors).count_ones() << 25
        | own.count_ones() << 20
        | u32::from(shows_ref(n, false)) << 19
        | u32::from(phrase) << 18
        | u32::from(kind_named) << 17
        | (name_tier as u32) << 14
        | strength.min(255) << 6
        | completeness << 2
        | u32::from(actionable) << 1
        | u32::from(visible);
    Some((score, required & !(own | ancestors)))
}

#[cfg(test)]
mod tests;
