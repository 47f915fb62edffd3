//! Secrets in a DOM snapshot, by meaning rather than by type: which elements are secrets,
//! which elements take their name or description from one, and the secret texts the snapshot
//! holds (so the core can cut them out of any name that embeds them).
//!
//! An element is a secret when it is an `<input type=password>`, when its `autocomplete`
//! names a password or a one-time code (`current-password`, `new-password`, `one-time-code`,
//! with or without a section or mode token before it), or when its text is masked by CSS
//! (`-webkit-text-security: disc | circle | square`, which password fields also get from the
//! browser's own style sheet). An element *embeds* a secret when its `aria-labelledby` or
//! `aria-describedby` names a secret or an element around one, or when it is the control of a
//! `<label for>` around one: the browser computes its name or description from the secret's
//! text (`Code ••••••••`, or the plain text of a field masked only by `autocomplete`).

use std::collections::HashSet;

use crate::layout::RawDoc;

/// `autocomplete` tokens that make a field a secret.
const SECRET_AUTOCOMPLETE: &[&str] = &["current-password", "new-password", "one-time-code"];

/// `-webkit-text-security` values that mask text.
const MASKS: &[&str] = &["disc", "circle", "square"];

/// What one document of a snapshot holds of secrets. Empty (and unallocated) for the many
/// documents without any.
#[derive(Debug, Default)]
pub(crate) struct DocSecrets {
    /// Node indices of secret elements.
    secret: HashSet<u32>,
    /// Node indices of elements named or described from a secret.
    embeds: HashSet<u32>,
}

impl DocSecrets {
    /// Whether node `n` is a secret.
    pub fn is_secret(&self, n: usize) -> bool {
        !self.secret.is_empty() && self.secret.contains(&(n as u32))
    }

    /// Whether node `n`'s name or description is computed from a secret.
    pub fn embeds(&self, n: usize) -> bool {
        !self.embeds.is_empty() && self.embeds.contains(&(n as u32))
    }
}

/// The string table and the indices in it the search needs, found once per snapshot (`None`:
/// not in the table, so no node has it).
pub(crate) struct Lookup<'a> {
    strings: &'a [String],
    /// The index of `-webkit-text-security` among the computed styles asked for.
    mask_style: usize,
    type_: Option<i64>,
    autocomplete: Option<i64>,
    input: Option<i64>,
    label: Option<i64>,
    id: Option<i64>,
    for_: Option<i64>,
    relations: Vec<i64>,
    masks: Vec<i64>,
}

impl<'a> Lookup<'a> {
    /// Indexes `strings`; `mask_style` is the index of `-webkit-text-security` among the
    /// computed styles the snapshot was asked for.
    pub fn new(strings: &'a [String], mask_style: usize) -> Lookup<'a> {
        let find = |s: &str| strings.iter().position(|x| x == s).map(|p| p as i64);
        Lookup {
            strings,
            mask_style,
            type_: find("type"),
            autocomplete: find("autocomplete"),
            input: find("INPUT"),
            label: find("LABEL"),
            id: find("id"),
            for_: find("for"),
            relations: ["aria-labelledby", "aria-describedby"].iter().filter_map(|a| find(a)).collect(),
            masks: MASKS.iter().filter_map(|m| find(m)).collect(),
        }
    }

    fn get(&self, i: i64) -> Option<&'a str> {
        usize::try_from(i).ok().and_then(|i| self.strings.get(i)).map(String::as_str)
    }
}

const ELEMENT: i64 = 1;

/// Finds the secrets of `doc`; adds the secret texts it holds (values, text inside, the
/// masked characters as rendered) to `texts`.
pub(crate) fn find(doc: &RawDoc, look: &Lookup, texts: &mut Vec<String>) -> DocSecrets {
    let nodes = &doc.nodes;
    let n = nodes.node_type.len().min(nodes.attributes.len());
    let (type_, autocomplete, input, masks) = (look.type_, look.autocomplete, look.input, &look.masks);
    let mut secret: HashSet<u32> = HashSet::new();
    for i in 0..n {
        if nodes.node_type[i] != ELEMENT {
            continue;
        }
        let is_input = input.is_some() && nodes.node_name.get(i).copied() == input;
        for pair in nodes.attributes[i].chunks_exact(2) {
            let (k, v) = (Some(pair[0]), look.get(pair[1]).unwrap_or_default());
            let by_type = is_input && k == type_ && v.trim().eq_ignore_ascii_case("password");
            let by_autocomplete = k == autocomplete
                && v.split_ascii_whitespace()
                    .any(|t| SECRET_AUTOCOMPLETE.iter().any(|s| t.eq_ignore_ascii_case(s)));
            if by_type || by_autocomplete {
                secret.insert(i as u32);
            }
        }
    }
    if !masks.is_empty() {
        for (k, ni) in doc.layout.node_index.iter().enumerate() {
            let Some(i) = usize::try_from(*ni).ok().filter(|&i| i < n) else { continue };
            let masked = doc
                .layout
                .styles
                .get(k)
                .and_then(|s| s.get(look.mask_style))
                .is_some_and(|v| masks.contains(v));
            if masked && nodes.node_type[i] == ELEMENT {
                secret.insert(i as u32);
            }
        }
    }
    if secret.is_empty() {
        return DocSecrets::default();
    }
    // A parent comes before its children in the table; anything else is ignored (no loops).
    let parent =
        |i: usize| nodes.parent_index.get(i).and_then(|&p| usize::try_from(p).ok()).filter(|&p| p < i);

    // Inside a secret (the table is in document order: parents first).
    let mut inside = vec![false; n];
    for i in 0..n {
        inside[i] = parent(i).is_some_and(|p| inside[p] || secret.contains(&(p as u32)));
    }
    let mut add = |s: Option<&str>| {
        if let Some(s) = s.filter(|s| !s.trim().is_empty()) {
            if !texts.iter().any(|t| t == s) {
                texts.push(s.to_string());
            }
        }
    };
    for &i in &secret {
        let i = i as usize;
        add(nodes.input_value.get(i).and_then(|v| look.get(v)));
        add(nodes.text_value.get(i).and_then(|v| look.get(v)));
    }
    for i in (0..n).filter(|&i| inside[i]) {
        add(nodes.node_value.get(i).and_then(|&v| look.get(v)));
        add(nodes.input_value.get(i).and_then(|v| look.get(v)));
    }
    for (k, ni) in doc.layout.node_index.iter().enumerate() {
        let Some(i) = usize::try_from(*ni).ok().filter(|&i| i < n) else { continue };
        if inside[i] || secret.contains(&(i as u32)) {
            add(doc.layout.text.get(k).and_then(|&t| look.get(t)));
        }
    }

    // Secrets and the elements around them: what a name computed from content can reach.
    let mut around = vec![false; n];
    for &s in &secret {
        let mut at = Some(s as usize);
        while let Some(i) = at.filter(|&i| !around[i]) {
            around[i] = true;
            at = parent(i);
        }
    }
    let (id, label, for_, relations) = (look.id, look.label, look.for_, &look.relations);
    let attr_of = |i: usize, k: Option<i64>| {
        let k = k?;
        nodes.attributes[i].chunks_exact(2).find(|p| p[0] == k).and_then(|p| look.get(p[1]))
    };
    let around_ids: HashSet<&str> = (0..n).filter(|&i| around[i]).filter_map(|i| attr_of(i, id)).collect();
    let labelled: HashSet<&str> = (0..n)
        .filter(|&i| around[i] && label.is_some() && nodes.node_name.get(i).copied() == label)
        .filter_map(|i| attr_of(i, for_))
        .collect();
    let mut embeds = HashSet::new();
    for i in 0..n {
        if nodes.node_type[i] != ELEMENT {
            continue;
        }
        let by_relation = nodes.attributes[i].chunks_exact(2).any(|p| {
            relations.contains(&p[0])
                && look
                    .get(p[1])
                    .is_some_and(|ids| ids.split_ascii_whitespace().any(|t| around_ids.contains(t)))
        });
        let by_label = !labelled.is_empty() && attr_of(i, id).is_some_and(|v| labelled.contains(v));
        if by_relation || by_label {
            embeds.insert(i as u32);
        }
    }
    DocSecrets { secret, embeds }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A snapshot document from a list of nodes `(parent, name, attributes, value)`.
    /// A test node: backend id, tag, attributes, text-security style.
    type TestNode<'a> = (i64, &'a str, &'a [(&'a str, &'a str)], Option<&'a str>);

    fn doc(strings: &mut Vec<String>, nodes: &[TestNode<'_>]) -> RawDoc {
        let mut s = |x: &str| -> i64 {
            match strings.iter().position(|y| y == x) {
                Some(p) => p as i64,
                None => {
                    strings.push(x.to_string());
                    strings.len() as i64 - 1
                }
            }
        };
        let (mut parents, mut types, mut names, mut attrs, mut values) =
            (vec![], vec![], vec![], vec![], vec![]);
        let (mut iv_index, mut iv_value) = (vec![], vec![]);
        for (i, (p, name, a, v)) in nodes.iter().enumerate() {
            parents.push(*p);
            let text = *name == "#text";
            types.push(if text { 3 } else { 1 });
            names.push(s(name));
            attrs.push(a.iter().flat_map(|(k, v)| [s(k), s(v)]).collect::<Vec<_>>());
            values.push(if text { s(v.unwrap_or_default()) } else { -1 });
            if let (false, Some(v)) = (text, v) {
                iv_index.push(i as i64);
                iv_value.push(s(v));
            }
        }
        let none = s("none");
        let disc = s("disc");
        // Every node laid out; the one with `style=mask` masked.
        let styles: Vec<Vec<i64>> = nodes
            .iter()
            .map(|(_, _, a, _)| {
                let masked = a.iter().any(|(k, v)| *k == "style" && *v == "mask");
                vec![none, none, if masked { disc } else { none }]
            })
            .collect();
        serde_json::from_value(json!({
            "nodes": {"parentIndex": parents, "nodeType": types, "nodeName": names, "nodeValue": values,
                      "backendNodeId": (0..nodes.len()).collect::<Vec<_>>(), "attributes": attrs,
                      "inputValue": {"index": iv_index, "value": iv_value}},
            "layout": {"nodeIndex": (0..nodes.len()).collect::<Vec<_>>(), "styles": styles,
                       "text": vec![-1; nodes.len()]}
        }))
        .unwrap()
    }

    #[test]
    fn secrets_by_type_autocomplete_and_mask_and_what_names_come_from_them() {
        let mut strings = Vec::new();
        let d = doc(
            &mut strings,
            &[
                (-1, "BODY", &[], None),
                (0, "LABEL", &[("for", "user")], None),
                (1, "INPUT", &[("type", "PASSWORD"), ("id", "pw")], Some("hunter22")),
                (0, "INPUT", &[("id", "user")], Some("bob")),
                (0, "INPUT", &[("autocomplete", "section-a one-time-code")], Some("123456")),
                (0, "INPUT", &[("autocomplete", "username")], Some("alice")),
                (0, "DIV", &[("style", "mask"), ("id", "m")], None),
                (6, "#text", &[], Some("masked words")),
                (0, "BUTTON", &[("aria-labelledby", "x m")], None),
                (0, "BUTTON", &[("aria-describedby", "pw")], None),
                (0, "BUTTON", &[("aria-labelledby", "user")], None),
                (0, "INPUT", &[("type", "text"), ("autocomplete", "off")], Some("plain")),
            ],
        );
        let mut texts = Vec::new();
        let s = find(&d, &Lookup::new(&strings, 2), &mut texts);
        let secret: Vec<usize> = (0..12).filter(|&i| s.is_secret(i)).collect();
        assert_eq!(secret, vec![2, 4, 6]);
        let embeds: Vec<usize> = (0..12).filter(|&i| s.embeds(i)).collect();
        // Named by the label around the password field, by the masked div, described by the
        // password field; not the button named by a plain field.
        assert_eq!(embeds, vec![3, 8, 9]);
        texts.sort();
        assert_eq!(texts, vec!["123456", "hunter22", "masked words"]);
    }

    #[test]
    fn a_document_without_secrets_costs_nothing() {
        let mut strings = Vec::new();
        let d = doc(&mut strings, &[(-1, "BODY", &[], None), (0, "INPUT", &[("type", "text")], Some("x"))]);
        let mut texts = Vec::new();
        let s = find(&d, &Lookup::new(&strings, 2), &mut texts);
        assert!(s.secret.is_empty() && s.embeds.is_empty() && texts.is_empty());
    }
}
