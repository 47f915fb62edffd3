//! What the model receives from one tool result: the result as an MCP client hands it over.
//!
//! A tool result may carry its answer twice: as content blocks (text) and as
//! `structuredContent` (a JSON object). Clients differ in which one they give the model, so a
//! tool's real cost depends on the client. Two views are measured:
//!
//! - **text view**: the text content blocks joined by newlines. What text-first clients (Kimi
//!   Code) give the model, and what every client gives when there is no `structuredContent`.
//! - **structured-first view**: when the result carries `structuredContent` and is not an error,
//!   that object as compact JSON (`JSON.stringify(structuredContent)`), the text dropped;
//!   otherwise the text view. What the most used clients give the model: Claude Code, OpenAI
//!   Codex, and OpenCode since its PR #32074. Claude Code drops `structuredContent` on
//!   `isError` results, so an error reaches the model as its text.
//!
//! Clients that append both (the OpenAI Agents SDK with `use_structured_content`, oh-my-pi)
//! cost about the sum of the two views; it is not counted separately.
//!
//! Non-text blocks (images, resources) are in neither view: they are not text tokens, and the
//! bench counted text only before these views too.
//!
//! The JSON is counted as the server wrote it, made compact ([`crate::tools_list::compact`]):
//! `JSON.stringify` of the parsed object keeps the server's key order, which re-serializing
//! the client's parsed `serde_json::Value` would not (without serde_json's `preserve_order` it
//! sorts keys, and enabling that feature here would change every crate built beside the
//! bench). When the wire copy is not known, the parsed value is serialized instead
//! ([`ClientViews::of`]).

use axsnap_core::tokens::{measure, Size};
use rmcp::model::CallToolResult;

/// One tool result in both views.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientViews {
    /// The text view: text blocks joined by `\n`.
    pub text: String,
    /// `structuredContent` as compact JSON, when the result carries it.
    pub structured: Option<String>,
    /// The result is a tool error (`isError: true`).
    pub is_error: bool,
}

impl ClientViews {
    /// The views of `result`. `wire_structured` is its `structuredContent` exactly as the
    /// server wrote it (any spacing), when the caller recorded it; without it the parsed value
    /// is serialized, keys sorted.
    pub fn of(result: &CallToolResult, wire_structured: Option<&str>) -> ClientViews {
        let text = result
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
            .collect::<Vec<_>>()
            .join("\n");
        let structured = match (&result.structured_content, wire_structured) {
            (None, _) => None,
            (Some(_), Some(raw)) => Some(crate::tools_list::compact(raw)),
            // Serializing a `Value` cannot fail (its map keys are strings).
            (Some(v), None) => serde_json::to_string(v).ok(),
        };
        ClientViews { text, structured, is_error: result.is_error == Some(true) }
    }

    /// The text view.
    pub fn text_view(&self) -> &str {
        &self.text
    }

    /// The structured-first view: the JSON of a successful result that carries it, else the
    /// text.
    pub fn structured_first_view(&self) -> &str {
        match &self.structured {
            Some(json) if !self.is_error => json,
            _ => &self.text,
        }
    }

    /// Whether the structured-first view is the JSON rather than the text.
    pub fn structured_first_is_json(&self) -> bool {
        self.structured.is_some() && !self.is_error
    }

    /// Bytes and tokens of both views: (text, structured-first). The text is counted once
    /// when the two are the same.
    pub fn sizes(&self) -> (Size, Size) {
        let text = measure(&self.text);
        let structured_first =
            if self.structured_first_is_json() { measure(self.structured_first_view()) } else { text };
        (text, structured_first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ContentBlock as Content;
    use serde_json::json;

    fn result(text: &[&str], structured: Option<serde_json::Value>, is_error: bool) -> CallToolResult {
        let mut r = if is_error {
            CallToolResult::error(text.iter().map(|t| Content::text(*t)).collect())
        } else {
            CallToolResult::success(text.iter().map(|t| Content::text(*t)).collect())
        };
        r.structured_content = structured;
        r
    }

    #[test]
    fn structured_present_the_model_gets_the_json() {
        let r = result(&["# page", "- link \"a\" e1"], Some(json!({"kind": "full", "nodes": [1, 2]})), false);
        // As the server wrote it, spaced and in its own key order.
        let wire = "{ \"nodes\": [1, 2],\n  \"kind\": \"full\" }";
        let v = ClientViews::of(&r, Some(wire));
        assert_eq!(v.text_view(), "# page\n- link \"a\" e1");
        assert_eq!(v.structured_first_view(), r#"{"nodes":[1,2],"kind":"full"}"#);
        assert!(v.structured_first_is_json());
        // Without the wire copy: the parsed value, compact (keys sorted).
        let v = ClientViews::of(&r, None);
        assert_eq!(v.structured_first_view(), r#"{"kind":"full","nodes":[1,2]}"#);
        let (text, sf) = v.sizes();
        assert_eq!(text.bytes, v.text.len());
        assert_eq!(sf.bytes, v.structured_first_view().len());
        assert!(sf.tokens_cl100k > 0 && sf.tokens_o200k > 0);
    }

    #[test]
    fn structured_absent_both_views_are_the_text() {
        let r = result(&["Navigated to x"], None, false);
        let v = ClientViews::of(&r, None);
        assert_eq!(v.structured, None);
        assert_eq!(v.structured_first_view(), "Navigated to x");
        assert!(!v.structured_first_is_json());
        let (text, sf) = v.sizes();
        assert_eq!(text, sf);
    }

    #[test]
    fn an_error_reaches_the_model_as_its_text() {
        let r = result(&["no element e9"], Some(json!({"error": "stale"})), true);
        let v = ClientViews::of(&r, Some(r#"{"error":"stale"}"#));
        assert_eq!(v.structured.as_deref(), Some(r#"{"error":"stale"}"#));
        assert_eq!(v.structured_first_view(), "no element e9");
        assert!(!v.structured_first_is_json());
        let (text, sf) = v.sizes();
        assert_eq!(text, sf);
    }

    #[test]
    fn images_are_in_neither_view() {
        let mut r = result(&["a screenshot"], None, false);
        r.content.push(Content::image("aGVsbG8=", "image/png"));
        let v = ClientViews::of(&r, None);
        assert_eq!(v.text_view(), "a screenshot");
        assert_eq!(v.structured_first_view(), "a screenshot");
    }
}
