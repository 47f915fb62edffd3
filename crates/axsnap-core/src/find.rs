//! Find: a deterministic scorer over role and name.
//!
//! exact > prefix > substring > all words present; kind words ("button", "link", "box",
//! "field", "input", "checkbox", "tab", "menu", "option", "search box", ...) match roles; case,
//! punctuation and spacing are normalized so "login" finds "Log in".

use serde::{Deserialize, Serialize};

use crate::refs::Ref;
use crate::tree::Tree;

/// One ranked match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// The element's ref.
    #[serde(rename = "ref")]
    pub r: Ref,
    /// Its role.
    pub role: String,
    /// Its name.
    pub name: String,
    /// Ancestor path, outermost first, as `role "name"` strings of named or landmark ancestors.
    pub path: Vec<String>,
    /// Score (higher is better); ties are broken by document order.
    pub score: u32,
}

/// Ranks the nodes of a snapshot tree (refs assigned) against `query`; at most `limit` hits.
pub fn find(tree: &Tree, query: &str, limit: usize) -> Vec<Hit> {
    let _ = (tree, query, limit);
    todo!("find helper")
}
